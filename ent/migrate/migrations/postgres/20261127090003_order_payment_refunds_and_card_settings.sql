-- Modify "card_definitions" table
ALTER TABLE "card_definitions" ADD COLUMN "settings" jsonb NULL;
-- Modify "order_payments" table
ALTER TABLE "order_payments" ADD COLUMN "rejection_details" jsonb NULL, ADD COLUMN "refund_transaction_id" character varying NULL;
