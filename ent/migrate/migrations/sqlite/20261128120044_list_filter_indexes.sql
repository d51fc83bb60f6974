-- The links of a voucher: GET /v1/publications?voucher= and a voucher's deletion read them by voucher_id.
CREATE INDEX `publicationvoucher_voucher_id` ON `publication_vouchers` (`voucher_id`);
