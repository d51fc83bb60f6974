-- Rebuild index "voucher_campaign_id_created_at_id" of table "vouchers" with "project_id" included.
-- The new index is built first, under another name: the build blocks writes to vouchers, not reads;
-- the old one is then dropped and the new one takes its name.
CREATE INDEX "voucher_campaign_id_created_at_id_incl" ON "vouchers" ("campaign_id", "created_at", "id") INCLUDE ("project_id");
DROP INDEX "voucher_campaign_id_created_at_id";
ALTER INDEX "voucher_campaign_id_created_at_id_incl" RENAME TO "voucher_campaign_id_created_at_id";
