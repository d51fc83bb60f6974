// Package bin is the trash bin (docs/trash-bin.md): a campaign, voucher,
// product or SKU deleted without force leaves a bin entry (tbe_…) that
// GET /v1/trash-bin lists and that keeps the resource's name reserved;
// DELETE /v1/trash-bin/{id} and the purge of entries older than Retention
// delete the entry for good. The resource's own rows are deleted as with
// force, so no read, list, validation or redemption ever sees a binned
// object and no query pays for the bin; the entry keeps a snapshot of
// them, from which Restore (our extension) re-creates a voucher, product,
// SKU or campaign; a campaign's vouchers are kept as the entry's records by
// its deletion job (KeepVouchers, KeepCampaign) and come back in the
// request or by a CAMPAIGN.RESTORE job.
package bin
