-- Data: before vouchers had a category edge, category_id held whatever the client sent;
-- keep it only where it names a category of the voucher's project, else link the
-- category named by the voucher's category tag, if any (the tag itself stays).
UPDATE "vouchers" SET "category_id" = NULL WHERE "category_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "categories" AS c WHERE c."id" = "vouchers"."category_id" AND c."project_id" = "vouchers"."project_id");
UPDATE "vouchers" SET "category_id" = (SELECT c."id" FROM "categories" AS c WHERE c."project_id" = "vouchers"."project_id" AND c."name" = "vouchers"."category") WHERE "category_id" IS NULL AND "category" IS NOT NULL;
-- Modify "vouchers" table
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_categories_vouchers" FOREIGN KEY ("category_id") REFERENCES "categories" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
