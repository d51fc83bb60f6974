-- Modify "order_payments" table
ALTER TABLE "order_payments" ADD COLUMN "order_amount" bigint NULL, ADD COLUMN "order_items" jsonb NULL, ADD COLUMN "returned_points" bigint NOT NULL DEFAULT 0;
