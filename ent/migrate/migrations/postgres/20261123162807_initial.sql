-- Create "segments" table
CREATE TABLE "segments" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL, "filter" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "segment_project_id_created_at_id" to table: "segments"
CREATE INDEX "segment_project_id_created_at_id" ON "segments" ("project_id", "created_at", "id");
-- Create index "segment_project_id_type" to table: "segments"
CREATE INDEX "segment_project_id_type" ON "segments" ("project_id", "type");
-- Create "segment_members" table
CREATE TABLE "segment_members" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "segment_id" character varying NOT NULL, "customer_id" character varying NOT NULL, "entered_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "segmentmember_customer_id" to table: "segment_members"
CREATE INDEX "segmentmember_customer_id" ON "segment_members" ("customer_id");
-- Create index "segmentmember_project_id" to table: "segment_members"
CREATE INDEX "segmentmember_project_id" ON "segment_members" ("project_id");
-- Create index "segmentmember_segment_id_customer_id" to table: "segment_members"
CREATE UNIQUE INDEX "segmentmember_segment_id_customer_id" ON "segment_members" ("segment_id", "customer_id");
-- Create "orders" table
CREATE TABLE "orders" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "source_id" character varying NULL, "status" character varying NOT NULL DEFAULT 'CREATED', "customer_id" character varying NULL, "calculated" jsonb NOT NULL, "redemptions" jsonb NOT NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "order_project_id_source_id" to table: "orders"
CREATE UNIQUE INDEX "order_project_id_source_id" ON "orders" ("project_id", "source_id");
-- Create "webhook_events" table
CREATE TABLE "webhook_events" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "webhook_id" character varying NOT NULL, "type" character varying NOT NULL, "object_type" character varying NOT NULL, "object_id" character varying NOT NULL, "data" text NOT NULL, "state" character varying NOT NULL DEFAULT 'PENDING', "attempts" bigint NOT NULL DEFAULT 0, "next_attempt_at" timestamptz NOT NULL, "retry_since" timestamptz NOT NULL, "claimed_by" character varying NULL, "lease_until" timestamptz NULL, "delivered_at" timestamptz NULL, PRIMARY KEY ("id"));
-- Create index "webhookevent_project_id" to table: "webhook_events"
CREATE INDEX "webhookevent_project_id" ON "webhook_events" ("project_id");
-- Create index "webhookevent_state_next_attempt_at" to table: "webhook_events"
CREATE INDEX "webhookevent_state_next_attempt_at" ON "webhook_events" ("state", "next_attempt_at");
-- Create index "webhookevent_webhook_id_object_id_state" to table: "webhook_events"
CREATE INDEX "webhookevent_webhook_id_object_id_state" ON "webhook_events" ("webhook_id", "object_id", "state");
-- Create "webhook_deliveries" table
CREATE TABLE "webhook_deliveries" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "event_id" character varying NOT NULL, "webhook_id" character varying NOT NULL, "attempt" bigint NOT NULL, "status_code" bigint NULL, "success" boolean NOT NULL, "error" character varying NULL, "duration_ms" bigint NOT NULL, "target_url" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "webhookdelivery_event_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_event_id" ON "webhook_deliveries" ("event_id");
-- Create index "webhookdelivery_project_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_project_id" ON "webhook_deliveries" ("project_id");
-- Create index "webhookdelivery_webhook_id_created_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_webhook_id_created_at" ON "webhook_deliveries" ("webhook_id", "created_at");
-- Create "webhooks" table
CREATE TABLE "webhooks" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "target_url" character varying NOT NULL, "events" jsonb NOT NULL, "active" boolean NOT NULL DEFAULT true, PRIMARY KEY ("id"));
-- Create index "webhook_project_id" to table: "webhooks"
CREATE INDEX "webhook_project_id" ON "webhooks" ("project_id");
-- Create "card_definitions" table
CREATE TABLE "card_definitions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL DEFAULT 'INDIVIDUAL', "status" character varying NOT NULL DEFAULT 'DRAFT', "code_config" jsonb NOT NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "carddefinition_project_id" to table: "card_definitions"
CREATE INDEX "carddefinition_project_id" ON "card_definitions" ("project_id");
-- Create "voucher_transactions" table
CREATE TABLE "voucher_transactions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "voucher_id" character varying NOT NULL, "campaign_id" character varying NULL, "type" character varying NOT NULL, "source_id" character varying NULL, "reason" character varying NULL, "source" character varying NOT NULL DEFAULT 'API', "amount" bigint NOT NULL, "balance" bigint NOT NULL, "details" jsonb NOT NULL, "related_transaction_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "vouchertransaction_project_id" to table: "voucher_transactions"
CREATE INDEX "vouchertransaction_project_id" ON "voucher_transactions" ("project_id");
-- Create index "vouchertransaction_voucher_id_created_at_id" to table: "voucher_transactions"
CREATE INDEX "vouchertransaction_voucher_id_created_at_id" ON "voucher_transactions" ("voucher_id", "created_at", "id");
-- Create "cursor_secrets" table
CREATE TABLE "cursor_secrets" ("id" character varying NOT NULL, "secret" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create "custom_events" table
CREATE TABLE "custom_events" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "type" character varying NOT NULL, "customer_id" character varying NOT NULL, "metadata" jsonb NOT NULL, "referral_code" character varying NULL, "loyalty_code" character varying NULL, PRIMARY KEY ("id"));
-- Create index "customevent_customer_id_type" to table: "custom_events"
CREATE INDEX "customevent_customer_id_type" ON "custom_events" ("customer_id", "type");
-- Create index "customevent_project_id" to table: "custom_events"
CREATE INDEX "customevent_project_id" ON "custom_events" ("project_id");
-- Create "validation_rule_assignments" table
CREATE TABLE "validation_rule_assignments" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "rule_id" character varying NOT NULL, "related_object_type" character varying NOT NULL, "related_object_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "validationruleassignment_project_id_related_object_id_rule_id" to table: "validation_rule_assignments"
CREATE UNIQUE INDEX "validationruleassignment_project_id_related_object_id_rule_id" ON "validation_rule_assignments" ("project_id", "related_object_id", "rule_id");
-- Create index "validationruleassignment_rule_id" to table: "validation_rule_assignments"
CREATE INDEX "validationruleassignment_rule_id" ON "validation_rule_assignments" ("rule_id");
-- Create "customer_event_counts" table
CREATE TABLE "customer_event_counts" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "customer_id" character varying NOT NULL, "event" character varying NOT NULL, "count" bigint NOT NULL DEFAULT 0, "last_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "customereventcount_customer_id_event" to table: "customer_event_counts"
CREATE UNIQUE INDEX "customereventcount_customer_id_event" ON "customer_event_counts" ("customer_id", "event");
-- Create index "customereventcount_project_id" to table: "customer_event_counts"
CREATE INDEX "customereventcount_project_id" ON "customer_event_counts" ("project_id");
-- Create "earning_rules" table
CREATE TABLE "earning_rules" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'DRAFT', "earnings" jsonb NOT NULL, "trigger" jsonb NOT NULL, "error" jsonb NULL, "validity_hours" jsonb NULL, "trigger_limits" jsonb NULL, "start_date" timestamptz NULL, "end_date" timestamptz NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "earningrule_project_id" to table: "earning_rules"
CREATE INDEX "earningrule_project_id" ON "earning_rules" ("project_id");
-- Create "exports" table
CREATE TABLE "exports" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "status" character varying NOT NULL DEFAULT 'SCHEDULED', "channel" character varying NOT NULL DEFAULT 'API', "exported_object" character varying NOT NULL, "parameters" jsonb NOT NULL, "voucher_id" character varying NULL, "user_id" character varying NULL, "rows" bigint NULL, "size" bigint NULL, "chunks" bigint NULL, "failure_reason" character varying NULL, "download_secret" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "export_project_id" to table: "exports"
CREATE INDEX "export_project_id" ON "exports" ("project_id");
-- Create "export_chunks" table
CREATE TABLE "export_chunks" ("id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, "project_id" character varying NOT NULL, "export_id" character varying NOT NULL, "seq" bigint NOT NULL, "data" text NOT NULL, "byte_offset" bigint NOT NULL, "size" bigint NOT NULL, "rows" bigint NOT NULL, "last_created_at" timestamptz NULL, "last_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "exportchunk_export_id_seq" to table: "export_chunks"
CREATE UNIQUE INDEX "exportchunk_export_id_seq" ON "export_chunks" ("export_id", "seq");
-- Create index "exportchunk_project_id" to table: "export_chunks"
CREATE INDEX "exportchunk_project_id" ON "export_chunks" ("project_id");
-- Create "idempotency_keys" table
CREATE TABLE "idempotency_keys" ("id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, "project_id" character varying NOT NULL, "credential" character varying NOT NULL, "key" character varying NOT NULL, "method" character varying NOT NULL, "path" character varying NOT NULL, "request_hash" character varying NOT NULL, "state" character varying NOT NULL DEFAULT 'IN_PROGRESS', "lock_id" character varying NOT NULL, "locked_until" timestamptz NOT NULL, "response_status" bigint NULL, "response_content_type" character varying NULL, "response_body" text NULL, "created_at" timestamptz NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "idempotencykey_expires_at" to table: "idempotency_keys"
CREATE INDEX "idempotencykey_expires_at" ON "idempotency_keys" ("expires_at");
-- Create index "idempotencykey_project_id_credential_key" to table: "idempotency_keys"
CREATE UNIQUE INDEX "idempotencykey_project_id_credential_key" ON "idempotency_keys" ("project_id", "credential", "key");
-- Create "incentives" table
CREATE TABLE "incentives" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'DRAFT', "stock" bigint NOT NULL, "points" jsonb NULL, "points_proportional" jsonb NULL, "material" jsonb NULL, "digital" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "incentive_project_id_name" to table: "incentives"
CREATE UNIQUE INDEX "incentive_project_id_name" ON "incentives" ("project_id", "name");
-- Create "validation_rules" table
CREATE TABLE "validation_rules" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL DEFAULT 'basic', "context_type" character varying NOT NULL DEFAULT 'global', "rules" jsonb NOT NULL, "error" jsonb NULL, "applicable_to" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "validationrule_project_id" to table: "validation_rules"
CREATE INDEX "validationrule_project_id" ON "validation_rules" ("project_id");
-- Create "session_locks" table
CREATE TABLE "session_locks" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "key" character varying NOT NULL, "voucher_id" character varying NOT NULL, "credits" bigint NOT NULL DEFAULT 0, "points" bigint NOT NULL DEFAULT 0, "ttl" bigint NOT NULL, "ttl_unit" character varying NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "sessionlock_project_id_key_voucher_id" to table: "session_locks"
CREATE UNIQUE INDEX "sessionlock_project_id_key_voucher_id" ON "session_locks" ("project_id", "key", "voucher_id");
-- Create index "sessionlock_voucher_id_expires_at" to table: "session_locks"
CREATE INDEX "sessionlock_voucher_id_expires_at" ON "session_locks" ("voucher_id", "expires_at");
-- Create "management_keys" table
CREATE TABLE "management_keys" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL DEFAULT 'default', "token_hash" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create "async_actions" table
CREATE TABLE "async_actions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "type" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'ENQUEUED', "campaign_id" character varying NULL, "export_id" character varying NULL, "params" jsonb NOT NULL, "total" bigint NOT NULL, "done" bigint NOT NULL DEFAULT 0, "failure_reason" character varying NULL, "result" jsonb NULL, "request_id" character varying NULL, "attempts" bigint NOT NULL DEFAULT 0, "claimed_by" character varying NULL, "lease_until" timestamptz NULL, "started_at" timestamptz NULL, "finished_at" timestamptz NULL, PRIMARY KEY ("id"));
-- Create index "asyncaction_project_id" to table: "async_actions"
CREATE INDEX "asyncaction_project_id" ON "async_actions" ("project_id");
-- Create index "asyncaction_status_lease_until" to table: "async_actions"
CREATE INDEX "asyncaction_status_lease_until" ON "async_actions" ("status", "lease_until");
-- Create "metadata_schemas" table
CREATE TABLE "metadata_schemas" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "related_object" character varying NOT NULL, "name" character varying NOT NULL, "properties" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "metadataschema_project_id_related_object_name" to table: "metadata_schemas"
CREATE UNIQUE INDEX "metadataschema_project_id_related_object_name" ON "metadata_schemas" ("project_id", "related_object", "name");
-- Create "brandings" table
CREATE TABLE "brandings" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "brand" jsonb NOT NULL, "address" jsonb NOT NULL, "contact" jsonb NOT NULL, "cockpits" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "branding_one_per_project" to table: "brandings"
CREATE UNIQUE INDEX "branding_one_per_project" ON "brandings" ("project_id");
-- Create index "branding_project_id" to table: "brandings"
CREATE INDEX "branding_project_id" ON "brandings" ("project_id");
-- Create "projects" table
CREATE TABLE "projects" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "features" jsonb NULL, "description" character varying NULL, "timezone" character varying NOT NULL DEFAULT 'UTC', "currency" character varying NOT NULL DEFAULT 'USD', "client_trusted_domains" jsonb NULL, "client_redeem_enabled" boolean NOT NULL DEFAULT false, "client_publish_enabled" boolean NOT NULL DEFAULT false, "client_list_vouchers_enabled" boolean NOT NULL DEFAULT false, "client_create_customer_enabled" boolean NOT NULL DEFAULT false, "client_loyalty_events_enabled" boolean NOT NULL DEFAULT false, "client_set_voucher_expiration_date_enabled" boolean NOT NULL DEFAULT false, "webhook_token" character varying NULL, PRIMARY KEY ("id"));
-- Create index "project_name" to table: "projects"
CREATE UNIQUE INDEX "project_name" ON "projects" ("name");
-- Create "referral_conversions" table
CREATE TABLE "referral_conversions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "campaign_id" character varying NOT NULL, "voucher_id" character varying NOT NULL, "referrer_id" character varying NOT NULL, "referee_id" character varying NOT NULL, "event_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "referralconversion_campaign_id_referee_id" to table: "referral_conversions"
CREATE UNIQUE INDEX "referralconversion_campaign_id_referee_id" ON "referral_conversions" ("campaign_id", "referee_id");
-- Create index "referralconversion_project_id" to table: "referral_conversions"
CREATE INDEX "referralconversion_project_id" ON "referral_conversions" ("project_id");
-- Create index "referralconversion_referee_id" to table: "referral_conversions"
CREATE INDEX "referralconversion_referee_id" ON "referral_conversions" ("referee_id");
-- Create index "referralconversion_referrer_id" to table: "referral_conversions"
CREATE INDEX "referralconversion_referrer_id" ON "referral_conversions" ("referrer_id");
-- Create "app_keys" table
CREATE TABLE "app_keys" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL DEFAULT 'default', "token_hash" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'ACTIVE', "side" character varying NOT NULL DEFAULT 'SERVER', "allowed_ips" jsonb NULL, "project_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "app_keys_projects_app_keys" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "appkey_project_id" to table: "app_keys"
CREATE INDEX "appkey_project_id" ON "app_keys" ("project_id");
-- Create "loyalty_programs" table
CREATE TABLE "loyalty_programs" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'DRAFT', "start_date" timestamptz NULL, "end_date" timestamptz NULL, "card_definition_ids" jsonb NOT NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "loyaltyprogram_project_id" to table: "loyalty_programs"
CREATE INDEX "loyaltyprogram_project_id" ON "loyalty_programs" ("project_id");
-- Create "loyalty_members" table
CREATE TABLE "loyalty_members" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "customer_id" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'ACTIVE', "metadata" jsonb NOT NULL, "program_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "loyalty_members_loyalty_programs_members" FOREIGN KEY ("program_id") REFERENCES "loyalty_programs" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "loyaltymember_program_id_customer_id" to table: "loyalty_members"
CREATE UNIQUE INDEX "loyaltymember_program_id_customer_id" ON "loyalty_members" ("program_id", "customer_id");
-- Create index "loyaltymember_project_id" to table: "loyalty_members"
CREATE INDEX "loyaltymember_project_id" ON "loyalty_members" ("project_id");
-- Create "cards" table
CREATE TABLE "cards" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "program_id" character varying NOT NULL, "card_definition_id" character varying NULL, "code" character varying NULL, "balance" bigint NOT NULL DEFAULT 0, "member_id" character varying NULL, PRIMARY KEY ("id"), CONSTRAINT "cards_loyalty_members_cards" FOREIGN KEY ("member_id") REFERENCES "loyalty_members" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "card_project_id_code" to table: "cards"
CREATE UNIQUE INDEX "card_project_id_code" ON "cards" ("project_id", "code");
-- Create "card_activities" table
CREATE TABLE "card_activities" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "type" character varying NOT NULL, "data" jsonb NOT NULL, "group_id" character varying NULL, "source" jsonb NULL, "card_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "card_activities_cards_activities" FOREIGN KEY ("card_id") REFERENCES "cards" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "cardactivity_card_id_created_at_id" to table: "card_activities"
CREATE INDEX "cardactivity_card_id_created_at_id" ON "card_activities" ("card_id", "created_at", "id");
-- Create index "cardactivity_project_id" to table: "card_activities"
CREATE INDEX "cardactivity_project_id" ON "card_activities" ("project_id");
-- Create "card_transactions" table
CREATE TABLE "card_transactions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "type" character varying NOT NULL, "amount" bigint NOT NULL, "balance" bigint NOT NULL, "reason" character varying NULL, "source_id" character varying NULL, "earning_rule_id" character varying NULL, "card_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "card_transactions_cards_transactions" FOREIGN KEY ("card_id") REFERENCES "cards" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "cardtransaction_card_id_created_at_id" to table: "card_transactions"
CREATE INDEX "cardtransaction_card_id_created_at_id" ON "card_transactions" ("card_id", "created_at", "id");
-- Create index "cardtransaction_card_id_earning_rule_id_created_at" to table: "card_transactions"
CREATE INDEX "cardtransaction_card_id_earning_rule_id_created_at" ON "card_transactions" ("card_id", "earning_rule_id", "created_at");
-- Create index "cardtransaction_project_id" to table: "card_transactions"
CREATE INDEX "cardtransaction_project_id" ON "card_transactions" ("project_id");
-- Create "oauth_tokens" table
CREATE TABLE "oauth_tokens" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "token_hash" character varying NOT NULL, "scopes" jsonb NOT NULL, "expires_at" timestamptz NOT NULL, "app_key_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "oauth_tokens_app_keys_oauth_tokens" FOREIGN KEY ("app_key_id") REFERENCES "app_keys" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "oauth_tokens_token_hash_key" to table: "oauth_tokens"
CREATE UNIQUE INDEX "oauth_tokens_token_hash_key" ON "oauth_tokens" ("token_hash");
-- Create index "oauthtoken_project_id_expires_at" to table: "oauth_tokens"
CREATE INDEX "oauthtoken_project_id_expires_at" ON "oauth_tokens" ("project_id", "expires_at");
-- Create "users" table
CREATE TABLE "users" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "login" character varying NOT NULL, "email" character varying NOT NULL, "first_name" character varying NOT NULL DEFAULT '', "last_name" character varying NOT NULL DEFAULT '', "is_owner" boolean NOT NULL DEFAULT false, PRIMARY KEY ("id"));
-- Create index "users_login_key" to table: "users"
CREATE UNIQUE INDEX "users_login_key" ON "users" ("login");
-- Create "project_users" table
CREATE TABLE "project_users" ("id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "role" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "project_users_users_memberships" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "projectuser_project_id_user_id" to table: "project_users"
CREATE UNIQUE INDEX "projectuser_project_id_user_id" ON "project_users" ("project_id", "user_id");
-- Create "customers" table
CREATE TABLE "customers" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "source_id" character varying NULL, "name" character varying NULL, "description" character varying NULL, "email" character varying NULL, "phone" character varying NULL, "birthday" character varying NULL, "address" jsonb NULL, "metadata" jsonb NOT NULL, "system_metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "customer_project_id_source_id" to table: "customers"
CREATE UNIQUE INDEX "customer_project_id_source_id" ON "customers" ("project_id", "source_id");
-- Create "publications" table
CREATE TABLE "publications" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "tracking_id" character varying NULL, "metadata" jsonb NOT NULL, "channel" character varying NOT NULL DEFAULT 'API', "source_id" character varying NULL, "result" character varying NOT NULL DEFAULT 'SUCCESS', "campaign_id" character varying NULL, "requested_code" character varying NULL, "count_form" boolean NOT NULL DEFAULT false, "voucher_ids" jsonb NOT NULL, "customer_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "publications_customers_publications" FOREIGN KEY ("customer_id") REFERENCES "customers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "publication_customer_id_campaign_id" to table: "publications"
CREATE INDEX "publication_customer_id_campaign_id" ON "publications" ("customer_id", "campaign_id");
-- Create index "publication_project_id_source_id" to table: "publications"
CREATE UNIQUE INDEX "publication_project_id_source_id" ON "publications" ("project_id", "source_id");
-- Create "campaigns" table
CREATE TABLE "campaigns" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "description" character varying NULL, "campaign_type" character varying NOT NULL, "type" character varying NOT NULL, "auto_join" boolean NOT NULL DEFAULT false, "join_once" boolean NOT NULL DEFAULT false, "use_voucher_metadata_schema" boolean NOT NULL DEFAULT true, "creation_status" character varying NOT NULL DEFAULT 'DONE', "vouchers_generation_status" character varying NOT NULL DEFAULT 'DONE', "protected" boolean NOT NULL DEFAULT false, "category_id" character varying NULL, "category" character varying NULL, "voucher" jsonb NULL, "validity_timeframe" jsonb NULL, "validity_day_of_week" jsonb NULL, "validity_hours" jsonb NULL, "activity_duration_after_publishing" character varying NULL, "vouchers_count" bigint NOT NULL DEFAULT 0, "start_date" timestamptz NULL, "expiration_date" timestamptz NULL, "active" boolean NOT NULL DEFAULT true, "metadata" jsonb NOT NULL, "referral_program" jsonb NULL, "loyalty_tiers_expiration" jsonb NULL, "promotion" jsonb NULL, PRIMARY KEY ("id"));
-- Create index "campaign_project_id_name" to table: "campaigns"
CREATE UNIQUE INDEX "campaign_project_id_name" ON "campaigns" ("project_id", "name");
-- Create "vouchers" table
CREATE TABLE "vouchers" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "code" character varying NOT NULL, "type" character varying NOT NULL, "category" character varying NULL, "category_id" character varying NULL, "discount" jsonb NULL, "gift" jsonb NULL, "loyalty_card" jsonb NULL, "start_date" timestamptz NULL, "expiration_date" timestamptz NULL, "validity_timeframe" jsonb NULL, "validity_day_of_week" jsonb NULL, "validity_hours" jsonb NULL, "active" boolean NOT NULL DEFAULT true, "additional_info" character varying NULL, "metadata" jsonb NOT NULL, "is_referral_code" boolean NOT NULL DEFAULT false, "holder_id" character varying NULL, "referrer_id" character varying NULL, "publish_count" bigint NOT NULL DEFAULT 0, "redemption_quantity" bigint NULL, "redeemed_quantity" bigint NOT NULL DEFAULT 0, "redeemed_points" bigint NOT NULL DEFAULT 0, "campaign_id" character varying NULL, PRIMARY KEY ("id"), CONSTRAINT "vouchers_campaigns_vouchers" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "voucher_campaign_id_publish_count_id" to table: "vouchers"
CREATE INDEX "voucher_campaign_id_publish_count_id" ON "vouchers" ("campaign_id", "publish_count", "id");
-- Create index "voucher_project_id_code" to table: "vouchers"
CREATE UNIQUE INDEX "voucher_project_id_code" ON "vouchers" ("project_id", "code");
-- Create "publication_vouchers" table
CREATE TABLE "publication_vouchers" ("publication_id" character varying NOT NULL, "voucher_id" character varying NOT NULL, PRIMARY KEY ("publication_id", "voucher_id"), CONSTRAINT "publication_vouchers_publication_id" FOREIGN KEY ("publication_id") REFERENCES "publications" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "publication_vouchers_voucher_id" FOREIGN KEY ("voucher_id") REFERENCES "vouchers" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create "redemptions" table
CREATE TABLE "redemptions" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "object" character varying NOT NULL, "result" character varying NOT NULL, "status" character varying NOT NULL, "failure_code" character varying NULL, "failure_message" character varying NULL, "parent_id" character varying NULL, "rolled_back_id" character varying NULL, "rollback_id" character varying NULL, "voucher_code" character varying NULL, "campaign_id" character varying NULL, "order_id" character varying NULL, "tracking_id" character varying NULL, "session_key" character varying NULL, "reason" character varying NULL, "related_object_type" character varying NOT NULL, "related_object_id" character varying NOT NULL, "amount" bigint NULL, "applied_discount" bigint NOT NULL DEFAULT 0, "metadata" jsonb NOT NULL, "order" jsonb NULL, "reward" jsonb NULL, "channel" jsonb NULL, "customer_id" character varying NULL, "voucher_id" character varying NULL, PRIMARY KEY ("id"), CONSTRAINT "redemptions_customers_redemptions" FOREIGN KEY ("customer_id") REFERENCES "customers" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "redemptions_vouchers_redemptions" FOREIGN KEY ("voucher_id") REFERENCES "vouchers" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "redemption_customer_id_voucher_id" to table: "redemptions"
CREATE INDEX "redemption_customer_id_voucher_id" ON "redemptions" ("customer_id", "voucher_id");
-- Create index "redemption_parent_id" to table: "redemptions"
CREATE INDEX "redemption_parent_id" ON "redemptions" ("parent_id");
-- Create index "redemption_project_id_created_at_id" to table: "redemptions"
CREATE INDEX "redemption_project_id_created_at_id" ON "redemptions" ("project_id", "created_at", "id");
-- Create index "redemption_rolled_back_id_result" to table: "redemptions"
CREATE UNIQUE INDEX "redemption_rolled_back_id_result" ON "redemptions" ("rolled_back_id", "result");
-- Create index "redemption_voucher_id_created_at" to table: "redemptions"
CREATE INDEX "redemption_voucher_id_created_at" ON "redemptions" ("voucher_id", "created_at");
-- Create "rewards" table
CREATE TABLE "rewards" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "name" character varying NOT NULL, "type" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'DRAFT', "material" jsonb NULL, "digital" jsonb NULL, "metadata" jsonb NOT NULL, PRIMARY KEY ("id"));
-- Create index "reward_project_id" to table: "rewards"
CREATE INDEX "reward_project_id" ON "rewards" ("project_id");
-- Create "reward_activities" table
CREATE TABLE "reward_activities" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "type" character varying NOT NULL, "data" jsonb NOT NULL, "group_id" character varying NULL, "source" jsonb NULL, "reward_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "reward_activities_rewards_activities" FOREIGN KEY ("reward_id") REFERENCES "rewards" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "rewardactivity_project_id" to table: "reward_activities"
CREATE INDEX "rewardactivity_project_id" ON "reward_activities" ("project_id");
-- Create index "rewardactivity_reward_id_created_at_id" to table: "reward_activities"
CREATE INDEX "rewardactivity_reward_id_created_at_id" ON "reward_activities" ("reward_id", "created_at", "id");
