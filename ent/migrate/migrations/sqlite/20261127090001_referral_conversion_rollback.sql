-- Add column "rolled_back_at" to table: "referral_conversions"
ALTER TABLE `referral_conversions` ADD COLUMN `rolled_back_at` datetime NULL;
-- Create index "referralconversion_event_id" to table: "referral_conversions"
CREATE INDEX `referralconversion_event_id` ON `referral_conversions` (`event_id`);
