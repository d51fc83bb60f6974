-- Modify "card_definitions" table
ALTER TABLE "card_definitions" ADD COLUMN "pay_with_points" jsonb NULL, ADD COLUMN "pending_points" jsonb NULL;
-- Create "order_payments" table
CREATE TABLE "order_payments" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "program_id" character varying NOT NULL, "member_id" character varying NOT NULL, "card_id" character varying NOT NULL, "card_definition_id" character varying NOT NULL, "card_transaction_id" character varying NULL, "order_id" character varying NOT NULL, "status" character varying NOT NULL, "amount" bigint NOT NULL, "points" bigint NOT NULL, "exchange_ratio" double precision NOT NULL, "limits" jsonb NULL, "rejection_reason" character varying NULL, PRIMARY KEY ("id"));
-- Create index "orderpayment_member_id_created_at_id" to table: "order_payments"
CREATE INDEX "orderpayment_member_id_created_at_id" ON "order_payments" ("member_id", "created_at", "id");
-- Create index "orderpayment_order_id_status" to table: "order_payments"
CREATE INDEX "orderpayment_order_id_status" ON "order_payments" ("order_id", "status");
-- Create index "orderpayment_project_id" to table: "order_payments"
CREATE INDEX "orderpayment_project_id" ON "order_payments" ("project_id");
