-- The publication's pick reads the unpublished vouchers of a campaign: index "voucher_unpublished_campaign_id_id"
-- holds them alone and replaces "voucher_campaign_id_publish_count_id" (docs/architecture.md, "The vouchers table
-- under publication"). The new index is built first: the build blocks writes to vouchers, not reads.
CREATE INDEX "voucher_unpublished_campaign_id_id" ON "vouchers" ("campaign_id", "id") WHERE (publish_count = 0);
DROP INDEX "voucher_campaign_id_publish_count_id";
-- Storage parameters of "vouchers": pages filled to 90% keep a published or redeemed voucher's new row version on
-- its own page (fillfactor applies to pages written from now on), and autovacuum cleans and analyzes the table
-- after 2% of its rows changed instead of 20% and 10% (200,000 dead rows in a table of 1,000,000).
ALTER TABLE "vouchers" SET (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
