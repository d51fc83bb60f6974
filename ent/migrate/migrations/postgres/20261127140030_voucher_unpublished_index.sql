-- The publication's pick reads the unpublished vouchers of a campaign: index "voucher_unpublished_campaign_id_id"
-- holds them alone and replaces "voucher_campaign_id_publish_count_id" (docs/architecture.md, "The vouchers table
-- under publication"). The new index is built first: the build blocks writes to vouchers, not reads.
CREATE INDEX "voucher_unpublished_campaign_id_id" ON "vouchers" ("campaign_id", "id") WHERE (publish_count = 0);
DROP INDEX "voucher_campaign_id_publish_count_id";
-- Storage parameter of "vouchers": pages filled to 90% keep a published or redeemed voucher's new row version on its
-- own page (fillfactor applies to pages written from now on).
ALTER TABLE "vouchers" SET (fillfactor = 90);
