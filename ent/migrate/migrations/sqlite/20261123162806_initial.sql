-- Create "app_keys" table
CREATE TABLE `app_keys` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL DEFAULT ('default'), `token_hash` text NOT NULL, `status` text NOT NULL DEFAULT ('ACTIVE'), `side` text NOT NULL DEFAULT ('SERVER'), `allowed_ips` json NULL, `project_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `app_keys_projects_app_keys` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION);
-- Create index "appkey_project_id" to table: "app_keys"
CREATE INDEX `appkey_project_id` ON `app_keys` (`project_id`);
-- Create "async_actions" table
CREATE TABLE `async_actions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `type` text NOT NULL, `status` text NOT NULL DEFAULT ('ENQUEUED'), `campaign_id` text NULL, `export_id` text NULL, `params` json NOT NULL, `total` integer NOT NULL, `done` integer NOT NULL DEFAULT (0), `failure_reason` text NULL, `result` json NULL, `request_id` text NULL, `attempts` integer NOT NULL DEFAULT (0), `claimed_by` text NULL, `lease_until` datetime NULL, `started_at` datetime NULL, `finished_at` datetime NULL, PRIMARY KEY (`id`));
-- Create index "asyncaction_project_id" to table: "async_actions"
CREATE INDEX `asyncaction_project_id` ON `async_actions` (`project_id`);
-- Create index "asyncaction_status_lease_until" to table: "async_actions"
CREATE INDEX `asyncaction_status_lease_until` ON `async_actions` (`status`, `lease_until`);
-- Create "brandings" table
CREATE TABLE `brandings` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `brand` json NOT NULL, `address` json NOT NULL, `contact` json NOT NULL, `cockpits` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "branding_project_id" to table: "brandings"
CREATE INDEX `branding_project_id` ON `brandings` (`project_id`);
-- Create index "branding_one_per_project" to table: "brandings"
CREATE UNIQUE INDEX `branding_one_per_project` ON `brandings` (`project_id`);
-- Create "campaigns" table
CREATE TABLE `campaigns` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `campaign_type` text NOT NULL, `type` text NOT NULL, `auto_join` bool NOT NULL DEFAULT (false), `join_once` bool NOT NULL DEFAULT (false), `use_voucher_metadata_schema` bool NOT NULL DEFAULT (true), `creation_status` text NOT NULL DEFAULT ('DONE'), `vouchers_generation_status` text NOT NULL DEFAULT ('DONE'), `protected` bool NOT NULL DEFAULT (false), `category_id` text NULL, `category` text NULL, `voucher` json NULL, `validity_timeframe` json NULL, `validity_day_of_week` json NULL, `validity_hours` json NULL, `activity_duration_after_publishing` text NULL, `vouchers_count` integer NOT NULL DEFAULT (0), `start_date` datetime NULL, `expiration_date` datetime NULL, `active` bool NOT NULL DEFAULT (true), `metadata` json NOT NULL, `referral_program` json NULL, `loyalty_tiers_expiration` json NULL, `promotion` json NULL, PRIMARY KEY (`id`));
-- Create index "campaign_project_id_name" to table: "campaigns"
CREATE UNIQUE INDEX `campaign_project_id_name` ON `campaigns` (`project_id`, `name`);
-- Create "cards" table
CREATE TABLE `cards` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `program_id` text NOT NULL, `card_definition_id` text NULL, `code` text NULL, `balance` integer NOT NULL DEFAULT (0), `member_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `cards_loyalty_members_cards` FOREIGN KEY (`member_id`) REFERENCES `loyalty_members` (`id`) ON DELETE SET NULL);
-- Create index "card_project_id_code" to table: "cards"
CREATE UNIQUE INDEX `card_project_id_code` ON `cards` (`project_id`, `code`);
-- Create "card_activities" table
CREATE TABLE `card_activities` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `type` text NOT NULL, `data` json NOT NULL, `group_id` text NULL, `source` json NULL, `card_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `card_activities_cards_activities` FOREIGN KEY (`card_id`) REFERENCES `cards` (`id`) ON DELETE NO ACTION);
-- Create index "cardactivity_project_id" to table: "card_activities"
CREATE INDEX `cardactivity_project_id` ON `card_activities` (`project_id`);
-- Create index "cardactivity_card_id_created_at_id" to table: "card_activities"
CREATE INDEX `cardactivity_card_id_created_at_id` ON `card_activities` (`card_id`, `created_at`, `id`);
-- Create "card_definitions" table
CREATE TABLE `card_definitions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL DEFAULT ('INDIVIDUAL'), `status` text NOT NULL DEFAULT ('DRAFT'), `code_config` json NOT NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "carddefinition_project_id" to table: "card_definitions"
CREATE INDEX `carddefinition_project_id` ON `card_definitions` (`project_id`);
-- Create "card_transactions" table
CREATE TABLE `card_transactions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `type` text NOT NULL, `amount` integer NOT NULL, `balance` integer NOT NULL, `reason` text NULL, `source_id` text NULL, `earning_rule_id` text NULL, `card_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `card_transactions_cards_transactions` FOREIGN KEY (`card_id`) REFERENCES `cards` (`id`) ON DELETE NO ACTION);
-- Create index "cardtransaction_project_id" to table: "card_transactions"
CREATE INDEX `cardtransaction_project_id` ON `card_transactions` (`project_id`);
-- Create index "cardtransaction_card_id_created_at_id" to table: "card_transactions"
CREATE INDEX `cardtransaction_card_id_created_at_id` ON `card_transactions` (`card_id`, `created_at`, `id`);
-- Create index "cardtransaction_card_id_earning_rule_id_created_at" to table: "card_transactions"
CREATE INDEX `cardtransaction_card_id_earning_rule_id_created_at` ON `card_transactions` (`card_id`, `earning_rule_id`, `created_at`);
-- Create "cursor_secrets" table
CREATE TABLE `cursor_secrets` (`id` text NOT NULL, `secret` text NOT NULL, PRIMARY KEY (`id`));
-- Create "custom_events" table
CREATE TABLE `custom_events` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `type` text NOT NULL, `customer_id` text NOT NULL, `metadata` json NOT NULL, `referral_code` text NULL, `loyalty_code` text NULL, PRIMARY KEY (`id`));
-- Create index "customevent_project_id" to table: "custom_events"
CREATE INDEX `customevent_project_id` ON `custom_events` (`project_id`);
-- Create index "customevent_customer_id_type" to table: "custom_events"
CREATE INDEX `customevent_customer_id_type` ON `custom_events` (`customer_id`, `type`);
-- Create "customers" table
CREATE TABLE `customers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `source_id` text NULL, `name` text NULL, `description` text NULL, `email` text NULL, `phone` text NULL, `birthday` text NULL, `address` json NULL, `metadata` json NOT NULL, `system_metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "customer_project_id_source_id" to table: "customers"
CREATE UNIQUE INDEX `customer_project_id_source_id` ON `customers` (`project_id`, `source_id`);
-- Create "customer_event_counts" table
CREATE TABLE `customer_event_counts` (`id` text NOT NULL, `project_id` text NOT NULL, `customer_id` text NOT NULL, `event` text NOT NULL, `count` integer NOT NULL DEFAULT (0), `last_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "customereventcount_project_id" to table: "customer_event_counts"
CREATE INDEX `customereventcount_project_id` ON `customer_event_counts` (`project_id`);
-- Create index "customereventcount_customer_id_event" to table: "customer_event_counts"
CREATE UNIQUE INDEX `customereventcount_customer_id_event` ON `customer_event_counts` (`customer_id`, `event`);
-- Create "earning_rules" table
CREATE TABLE `earning_rules` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `status` text NOT NULL DEFAULT ('DRAFT'), `earnings` json NOT NULL, `trigger` json NOT NULL, `error` json NULL, `validity_hours` json NULL, `trigger_limits` json NULL, `start_date` datetime NULL, `end_date` datetime NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "earningrule_project_id" to table: "earning_rules"
CREATE INDEX `earningrule_project_id` ON `earning_rules` (`project_id`);
-- Create "exports" table
CREATE TABLE `exports` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `status` text NOT NULL DEFAULT ('SCHEDULED'), `channel` text NOT NULL DEFAULT ('API'), `exported_object` text NOT NULL, `parameters` json NOT NULL, `voucher_id` text NULL, `user_id` text NULL, `rows` integer NULL, `size` integer NULL, `chunks` integer NULL, `failure_reason` text NULL, `download_secret` text NOT NULL, PRIMARY KEY (`id`));
-- Create index "export_project_id" to table: "exports"
CREATE INDEX `export_project_id` ON `exports` (`project_id`);
-- Create "export_chunks" table
CREATE TABLE `export_chunks` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `project_id` text NOT NULL, `export_id` text NOT NULL, `seq` integer NOT NULL, `data` text NOT NULL, `byte_offset` integer NOT NULL, `size` integer NOT NULL, `rows` integer NOT NULL, `last_created_at` datetime NULL, `last_id` text NULL);
-- Create index "exportchunk_project_id" to table: "export_chunks"
CREATE INDEX `exportchunk_project_id` ON `export_chunks` (`project_id`);
-- Create index "exportchunk_export_id_seq" to table: "export_chunks"
CREATE UNIQUE INDEX `exportchunk_export_id_seq` ON `export_chunks` (`export_id`, `seq`);
-- Create "idempotency_keys" table
CREATE TABLE `idempotency_keys` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `project_id` text NOT NULL, `credential` text NOT NULL, `key` text NOT NULL, `method` text NOT NULL, `path` text NOT NULL, `request_hash` text NOT NULL, `state` text NOT NULL DEFAULT ('IN_PROGRESS'), `lock_id` text NOT NULL, `locked_until` datetime NOT NULL, `response_status` integer NULL, `response_content_type` text NULL, `response_body` text NULL, `created_at` datetime NOT NULL, `expires_at` datetime NOT NULL);
-- Create index "idempotencykey_project_id_credential_key" to table: "idempotency_keys"
CREATE UNIQUE INDEX `idempotencykey_project_id_credential_key` ON `idempotency_keys` (`project_id`, `credential`, `key`);
-- Create index "idempotencykey_expires_at" to table: "idempotency_keys"
CREATE INDEX `idempotencykey_expires_at` ON `idempotency_keys` (`expires_at`);
-- Create "incentives" table
CREATE TABLE `incentives` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL, `status` text NOT NULL DEFAULT ('DRAFT'), `stock` integer NOT NULL, `points` json NULL, `points_proportional` json NULL, `material` json NULL, `digital` json NULL, PRIMARY KEY (`id`));
-- Create index "incentive_project_id_name" to table: "incentives"
CREATE UNIQUE INDEX `incentive_project_id_name` ON `incentives` (`project_id`, `name`);
-- Create "loyalty_members" table
CREATE TABLE `loyalty_members` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `customer_id` text NOT NULL, `status` text NOT NULL DEFAULT ('ACTIVE'), `metadata` json NOT NULL, `program_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `loyalty_members_loyalty_programs_members` FOREIGN KEY (`program_id`) REFERENCES `loyalty_programs` (`id`) ON DELETE NO ACTION);
-- Create index "loyaltymember_project_id" to table: "loyalty_members"
CREATE INDEX `loyaltymember_project_id` ON `loyalty_members` (`project_id`);
-- Create index "loyaltymember_program_id_customer_id" to table: "loyalty_members"
CREATE UNIQUE INDEX `loyaltymember_program_id_customer_id` ON `loyalty_members` (`program_id`, `customer_id`);
-- Create "loyalty_programs" table
CREATE TABLE `loyalty_programs` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `status` text NOT NULL DEFAULT ('DRAFT'), `start_date` datetime NULL, `end_date` datetime NULL, `card_definition_ids` json NOT NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "loyaltyprogram_project_id" to table: "loyalty_programs"
CREATE INDEX `loyaltyprogram_project_id` ON `loyalty_programs` (`project_id`);
-- Create "management_keys" table
CREATE TABLE `management_keys` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL DEFAULT ('default'), `token_hash` text NOT NULL, PRIMARY KEY (`id`));
-- Create "metadata_schemas" table
CREATE TABLE `metadata_schemas` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `related_object` text NOT NULL, `name` text NOT NULL, `properties` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "metadataschema_project_id_related_object_name" to table: "metadata_schemas"
CREATE UNIQUE INDEX `metadataschema_project_id_related_object_name` ON `metadata_schemas` (`project_id`, `related_object`, `name`);
-- Create "oauth_tokens" table
CREATE TABLE `oauth_tokens` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `token_hash` text NOT NULL, `scopes` json NOT NULL, `expires_at` datetime NOT NULL, `app_key_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `oauth_tokens_app_keys_oauth_tokens` FOREIGN KEY (`app_key_id`) REFERENCES `app_keys` (`id`) ON DELETE NO ACTION);
-- Create index "oauth_tokens_token_hash_key" to table: "oauth_tokens"
CREATE UNIQUE INDEX `oauth_tokens_token_hash_key` ON `oauth_tokens` (`token_hash`);
-- Create index "oauthtoken_project_id_expires_at" to table: "oauth_tokens"
CREATE INDEX `oauthtoken_project_id_expires_at` ON `oauth_tokens` (`project_id`, `expires_at`);
-- Create "orders" table
CREATE TABLE `orders` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `source_id` text NULL, `status` text NOT NULL DEFAULT ('CREATED'), `customer_id` text NULL, `calculated` json NOT NULL, `redemptions` json NOT NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "order_project_id_source_id" to table: "orders"
CREATE UNIQUE INDEX `order_project_id_source_id` ON `orders` (`project_id`, `source_id`);
-- Create "projects" table
CREATE TABLE `projects` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `features` json NULL, `description` text NULL, `timezone` text NOT NULL DEFAULT ('UTC'), `currency` text NOT NULL DEFAULT ('USD'), `client_trusted_domains` json NULL, `client_redeem_enabled` bool NOT NULL DEFAULT (false), `client_publish_enabled` bool NOT NULL DEFAULT (false), `client_list_vouchers_enabled` bool NOT NULL DEFAULT (false), `client_create_customer_enabled` bool NOT NULL DEFAULT (false), `client_loyalty_events_enabled` bool NOT NULL DEFAULT (false), `client_set_voucher_expiration_date_enabled` bool NOT NULL DEFAULT (false), `webhook_token` text NULL, PRIMARY KEY (`id`));
-- Create index "project_name" to table: "projects"
CREATE UNIQUE INDEX `project_name` ON `projects` (`name`);
-- Create "project_users" table
CREATE TABLE `project_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `role` text NOT NULL, `user_id` text NOT NULL, CONSTRAINT `project_users_users_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- Create index "projectuser_project_id_user_id" to table: "project_users"
CREATE UNIQUE INDEX `projectuser_project_id_user_id` ON `project_users` (`project_id`, `user_id`);
-- Create "publications" table
CREATE TABLE `publications` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `tracking_id` text NULL, `metadata` json NOT NULL, `channel` text NOT NULL DEFAULT ('API'), `source_id` text NULL, `result` text NOT NULL DEFAULT ('SUCCESS'), `campaign_id` text NULL, `requested_code` text NULL, `count_form` bool NOT NULL DEFAULT (false), `voucher_ids` json NOT NULL, `customer_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `publications_customers_publications` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`) ON DELETE NO ACTION);
-- Create index "publication_project_id_source_id" to table: "publications"
CREATE UNIQUE INDEX `publication_project_id_source_id` ON `publications` (`project_id`, `source_id`);
-- Create index "publication_customer_id_campaign_id" to table: "publications"
CREATE INDEX `publication_customer_id_campaign_id` ON `publications` (`customer_id`, `campaign_id`);
-- Create "redemptions" table
CREATE TABLE `redemptions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `object` text NOT NULL, `result` text NOT NULL, `status` text NOT NULL, `failure_code` text NULL, `failure_message` text NULL, `parent_id` text NULL, `rolled_back_id` text NULL, `rollback_id` text NULL, `voucher_code` text NULL, `campaign_id` text NULL, `order_id` text NULL, `tracking_id` text NULL, `session_key` text NULL, `reason` text NULL, `related_object_type` text NOT NULL, `related_object_id` text NOT NULL, `amount` integer NULL, `applied_discount` integer NOT NULL DEFAULT (0), `metadata` json NOT NULL, `order` json NULL, `reward` json NULL, `channel` json NULL, `customer_id` text NULL, `voucher_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `redemptions_customers_redemptions` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`) ON DELETE SET NULL, CONSTRAINT `redemptions_vouchers_redemptions` FOREIGN KEY (`voucher_id`) REFERENCES `vouchers` (`id`) ON DELETE SET NULL);
-- Create index "redemption_project_id_created_at_id" to table: "redemptions"
CREATE INDEX `redemption_project_id_created_at_id` ON `redemptions` (`project_id`, `created_at`, `id`);
-- Create index "redemption_voucher_id_created_at" to table: "redemptions"
CREATE INDEX `redemption_voucher_id_created_at` ON `redemptions` (`voucher_id`, `created_at`);
-- Create index "redemption_customer_id_voucher_id" to table: "redemptions"
CREATE INDEX `redemption_customer_id_voucher_id` ON `redemptions` (`customer_id`, `voucher_id`);
-- Create index "redemption_parent_id" to table: "redemptions"
CREATE INDEX `redemption_parent_id` ON `redemptions` (`parent_id`);
-- Create index "redemption_rolled_back_id_result" to table: "redemptions"
CREATE UNIQUE INDEX `redemption_rolled_back_id_result` ON `redemptions` (`rolled_back_id`, `result`);
-- Create "referral_conversions" table
CREATE TABLE `referral_conversions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `campaign_id` text NOT NULL, `voucher_id` text NOT NULL, `referrer_id` text NOT NULL, `referee_id` text NOT NULL, `event_id` text NOT NULL, PRIMARY KEY (`id`));
-- Create index "referralconversion_project_id" to table: "referral_conversions"
CREATE INDEX `referralconversion_project_id` ON `referral_conversions` (`project_id`);
-- Create index "referralconversion_campaign_id_referee_id" to table: "referral_conversions"
CREATE UNIQUE INDEX `referralconversion_campaign_id_referee_id` ON `referral_conversions` (`campaign_id`, `referee_id`);
-- Create index "referralconversion_referrer_id" to table: "referral_conversions"
CREATE INDEX `referralconversion_referrer_id` ON `referral_conversions` (`referrer_id`);
-- Create index "referralconversion_referee_id" to table: "referral_conversions"
CREATE INDEX `referralconversion_referee_id` ON `referral_conversions` (`referee_id`);
-- Create "rewards" table
CREATE TABLE `rewards` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL, `status` text NOT NULL DEFAULT ('DRAFT'), `material` json NULL, `digital` json NULL, `metadata` json NOT NULL, PRIMARY KEY (`id`));
-- Create index "reward_project_id" to table: "rewards"
CREATE INDEX `reward_project_id` ON `rewards` (`project_id`);
-- Create "reward_activities" table
CREATE TABLE `reward_activities` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `type` text NOT NULL, `data` json NOT NULL, `group_id` text NULL, `source` json NULL, `reward_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `reward_activities_rewards_activities` FOREIGN KEY (`reward_id`) REFERENCES `rewards` (`id`) ON DELETE NO ACTION);
-- Create index "rewardactivity_project_id" to table: "reward_activities"
CREATE INDEX `rewardactivity_project_id` ON `reward_activities` (`project_id`);
-- Create index "rewardactivity_reward_id_created_at_id" to table: "reward_activities"
CREATE INDEX `rewardactivity_reward_id_created_at_id` ON `reward_activities` (`reward_id`, `created_at`, `id`);
-- Create "segments" table
CREATE TABLE `segments` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL, `filter` json NULL, PRIMARY KEY (`id`));
-- Create index "segment_project_id_created_at_id" to table: "segments"
CREATE INDEX `segment_project_id_created_at_id` ON `segments` (`project_id`, `created_at`, `id`);
-- Create index "segment_project_id_type" to table: "segments"
CREATE INDEX `segment_project_id_type` ON `segments` (`project_id`, `type`);
-- Create "segment_members" table
CREATE TABLE `segment_members` (`id` text NOT NULL, `project_id` text NOT NULL, `segment_id` text NOT NULL, `customer_id` text NOT NULL, `entered_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "segmentmember_project_id" to table: "segment_members"
CREATE INDEX `segmentmember_project_id` ON `segment_members` (`project_id`);
-- Create index "segmentmember_segment_id_customer_id" to table: "segment_members"
CREATE UNIQUE INDEX `segmentmember_segment_id_customer_id` ON `segment_members` (`segment_id`, `customer_id`);
-- Create index "segmentmember_customer_id" to table: "segment_members"
CREATE INDEX `segmentmember_customer_id` ON `segment_members` (`customer_id`);
-- Create "session_locks" table
CREATE TABLE `session_locks` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `key` text NOT NULL, `voucher_id` text NOT NULL, `credits` integer NOT NULL DEFAULT (0), `points` integer NOT NULL DEFAULT (0), `ttl` integer NOT NULL, `ttl_unit` text NOT NULL, `expires_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "sessionlock_project_id_key_voucher_id" to table: "session_locks"
CREATE UNIQUE INDEX `sessionlock_project_id_key_voucher_id` ON `session_locks` (`project_id`, `key`, `voucher_id`);
-- Create index "sessionlock_voucher_id_expires_at" to table: "session_locks"
CREATE INDEX `sessionlock_voucher_id_expires_at` ON `session_locks` (`voucher_id`, `expires_at`);
-- Create "users" table
CREATE TABLE `users` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `login` text NOT NULL, `email` text NOT NULL, `first_name` text NOT NULL DEFAULT (''), `last_name` text NOT NULL DEFAULT (''), `is_owner` bool NOT NULL DEFAULT (false), PRIMARY KEY (`id`));
-- Create index "users_login_key" to table: "users"
CREATE UNIQUE INDEX `users_login_key` ON `users` (`login`);
-- Create "validation_rules" table
CREATE TABLE `validation_rules` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `name` text NOT NULL, `type` text NOT NULL DEFAULT ('basic'), `context_type` text NOT NULL DEFAULT ('global'), `rules` json NOT NULL, `error` json NULL, `applicable_to` json NULL, PRIMARY KEY (`id`));
-- Create index "validationrule_project_id" to table: "validation_rules"
CREATE INDEX `validationrule_project_id` ON `validation_rules` (`project_id`);
-- Create "validation_rule_assignments" table
CREATE TABLE `validation_rule_assignments` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `rule_id` text NOT NULL, `related_object_type` text NOT NULL, `related_object_id` text NOT NULL, PRIMARY KEY (`id`));
-- Create index "validationruleassignment_project_id_related_object_id_rule_id" to table: "validation_rule_assignments"
CREATE UNIQUE INDEX `validationruleassignment_project_id_related_object_id_rule_id` ON `validation_rule_assignments` (`project_id`, `related_object_id`, `rule_id`);
-- Create index "validationruleassignment_rule_id" to table: "validation_rule_assignments"
CREATE INDEX `validationruleassignment_rule_id` ON `validation_rule_assignments` (`rule_id`);
-- Create "vouchers" table
CREATE TABLE `vouchers` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `code` text NOT NULL, `type` text NOT NULL, `category` text NULL, `category_id` text NULL, `discount` json NULL, `gift` json NULL, `loyalty_card` json NULL, `start_date` datetime NULL, `expiration_date` datetime NULL, `validity_timeframe` json NULL, `validity_day_of_week` json NULL, `validity_hours` json NULL, `active` bool NOT NULL DEFAULT (true), `additional_info` text NULL, `metadata` json NOT NULL, `is_referral_code` bool NOT NULL DEFAULT (false), `holder_id` text NULL, `referrer_id` text NULL, `publish_count` integer NOT NULL DEFAULT (0), `redemption_quantity` integer NULL, `redeemed_quantity` integer NOT NULL DEFAULT (0), `redeemed_points` integer NOT NULL DEFAULT (0), `campaign_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `vouchers_campaigns_vouchers` FOREIGN KEY (`campaign_id`) REFERENCES `campaigns` (`id`) ON DELETE SET NULL);
-- Create index "voucher_project_id_code" to table: "vouchers"
CREATE UNIQUE INDEX `voucher_project_id_code` ON `vouchers` (`project_id`, `code`);
-- Create index "voucher_campaign_id_publish_count_id" to table: "vouchers"
CREATE INDEX `voucher_campaign_id_publish_count_id` ON `vouchers` (`campaign_id`, `publish_count`, `id`);
-- Create "voucher_transactions" table
CREATE TABLE `voucher_transactions` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `voucher_id` text NOT NULL, `campaign_id` text NULL, `type` text NOT NULL, `source_id` text NULL, `reason` text NULL, `source` text NOT NULL DEFAULT ('API'), `amount` integer NOT NULL, `balance` integer NOT NULL, `details` json NOT NULL, `related_transaction_id` text NULL, PRIMARY KEY (`id`));
-- Create index "vouchertransaction_project_id" to table: "voucher_transactions"
CREATE INDEX `vouchertransaction_project_id` ON `voucher_transactions` (`project_id`);
-- Create index "vouchertransaction_voucher_id_created_at_id" to table: "voucher_transactions"
CREATE INDEX `vouchertransaction_voucher_id_created_at_id` ON `voucher_transactions` (`voucher_id`, `created_at`, `id`);
-- Create "webhooks" table
CREATE TABLE `webhooks` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `target_url` text NOT NULL, `events` json NOT NULL, `active` bool NOT NULL DEFAULT (true), PRIMARY KEY (`id`));
-- Create index "webhook_project_id" to table: "webhooks"
CREATE INDEX `webhook_project_id` ON `webhooks` (`project_id`);
-- Create "webhook_deliveries" table
CREATE TABLE `webhook_deliveries` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `event_id` text NOT NULL, `webhook_id` text NOT NULL, `attempt` integer NOT NULL, `status_code` integer NULL, `success` bool NOT NULL, `error` text NULL, `duration_ms` integer NOT NULL, `target_url` text NOT NULL, PRIMARY KEY (`id`));
-- Create index "webhookdelivery_project_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_project_id` ON `webhook_deliveries` (`project_id`);
-- Create index "webhookdelivery_webhook_id_created_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_webhook_id_created_at` ON `webhook_deliveries` (`webhook_id`, `created_at`);
-- Create index "webhookdelivery_event_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_event_id` ON `webhook_deliveries` (`event_id`);
-- Create "webhook_events" table
CREATE TABLE `webhook_events` (`id` text NOT NULL, `project_id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NULL, `webhook_id` text NOT NULL, `type` text NOT NULL, `object_type` text NOT NULL, `object_id` text NOT NULL, `data` text NOT NULL, `state` text NOT NULL DEFAULT ('PENDING'), `attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NOT NULL, `retry_since` datetime NOT NULL, `claimed_by` text NULL, `lease_until` datetime NULL, `delivered_at` datetime NULL, PRIMARY KEY (`id`));
-- Create index "webhookevent_project_id" to table: "webhook_events"
CREATE INDEX `webhookevent_project_id` ON `webhook_events` (`project_id`);
-- Create index "webhookevent_state_next_attempt_at" to table: "webhook_events"
CREATE INDEX `webhookevent_state_next_attempt_at` ON `webhook_events` (`state`, `next_attempt_at`);
-- Create index "webhookevent_webhook_id_object_id_state" to table: "webhook_events"
CREATE INDEX `webhookevent_webhook_id_object_id_state` ON `webhook_events` (`webhook_id`, `object_id`, `state`);
-- Create "publication_vouchers" table
CREATE TABLE `publication_vouchers` (`publication_id` text NOT NULL, `voucher_id` text NOT NULL, PRIMARY KEY (`publication_id`, `voucher_id`), CONSTRAINT `publication_vouchers_publication_id` FOREIGN KEY (`publication_id`) REFERENCES `publications` (`id`) ON DELETE CASCADE, CONSTRAINT `publication_vouchers_voucher_id` FOREIGN KEY (`voucher_id`) REFERENCES `vouchers` (`id`) ON DELETE CASCADE);
