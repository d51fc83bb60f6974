-- A publication keeps what its deleted vouchers looked like (docs/publications.md, "Deleted vouchers").
ALTER TABLE `publications` ADD COLUMN `deleted_vouchers` json NULL;
