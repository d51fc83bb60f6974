-- The links of a voucher: GET /v1/publications?voucher= and a voucher's deletion (the ON DELETE CASCADE of
-- "publication_vouchers" and the snapshots of its publications) read them by voucher_id, which the primary key
-- (publication_id, voucher_id) does not lead with (docs/architecture.md, "Indexes of the list filters").
CREATE INDEX "publicationvoucher_voucher_id" ON "publication_vouchers" ("voucher_id");
