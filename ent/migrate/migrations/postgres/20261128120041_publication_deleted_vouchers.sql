-- A publication keeps what its deleted vouchers looked like (docs/publications.md, "Deleted vouchers"): NULL while
-- every voucher lives, so adding the column rewrites nothing.
ALTER TABLE "publications" ADD COLUMN "deleted_vouchers" jsonb NULL;
