-- The publication's pick reads the unpublished vouchers of a campaign: index "voucher_unpublished_campaign_id_id"
-- holds them alone and replaces "voucher_campaign_id_publish_count_id".
CREATE INDEX `voucher_unpublished_campaign_id_id` ON `vouchers` (`campaign_id`, `id`) WHERE publish_count = 0;
DROP INDEX `voucher_campaign_id_publish_count_id`;
