package bin

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Restore serves POST /v1/trash-bin/{binEntryId}/restore and
// restoreBinEntry (our extension, docs/trash-bin.md): the voucher, product
// (with its SKUs) or SKU comes back from the entry's snapshot with the
// same id and code/source_id, and the entry goes with the names it kept
// (they belong to the restored object now). Redemptions, transactions,
// session locks and publication links a voucher's delete removed are not
// restored. A campaign comes back with its vouchers (restoreCampaign): at
// once when they are few, else by a job whose id the answer carries.
// Another project's entry is a 404; of two restores of one entry, the one
// that claims the entry first wins and the other finds no entry (404) or
// the entry being restored (409).
func Restore(ctx context.Context, id string) (*Entry, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	e, err := c.BinEntry.Query().Where(binentry.ID(id), binentry.ParentEntryIDIsNil()).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(ResourceType, id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading bin entry: %w", err)
	}
	if string(e.ResourceType) == TypeCampaign {
		return restoreCampaign(ctx, c, e)
	}
	if len(e.Snapshot) == 0 || string(e.Snapshot) == "null" {
		return nil, notRestorable(id, "This entry was made before the bin kept what it deleted; it can only be deleted")
	}
	snap, err := decodeSnapshot(e.Snapshot)
	if err != nil {
		return nil, err
	}
	// Claim the entry: a concurrent restore or delete of it waits on the
	// row and then deletes nothing.
	n, err := c.BinEntry.Delete().Where(binentry.ID(id), binentry.ParentEntryIDIsNil()).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("deleting the restored bin entry: %w", err)
	}
	if n == 0 {
		return nil, apperr.NotFound(ResourceType, id)
	}
	if _, err := c.BinEntry.Delete().Where(binentry.ParentEntryID(id)).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting the restored bin entry's reservations: %w", err)
	}
	if err := restoreSnapshot(ctx, c, string(e.ResourceType), snap); err != nil {
		return nil, err
	}
	return entryOf(e), nil
}

// restoreSnapshot re-creates the rows of a snapshot of the type.
func restoreSnapshot(ctx context.Context, c *ent.Client, typ string, snap *Snapshot) error {
	switch {
	case typ == TypeVoucher && snap.Voucher != nil:
		return restoreVoucher(ctx, c, snap)
	case typ == TypeProduct && snap.Product != nil:
		return restoreProduct(ctx, c, snap)
	case typ == TypeSku && len(snap.Skus) == 1:
		return restoreSku(ctx, c, snap.Skus[0])
	}
	return fmt.Errorf("bin snapshot of a %s holds nothing to restore", typ)
}

// notRestorable is the 400 of an entry that cannot be restored.
func notRestorable(id, details string) *apperr.Error {
	e := apperr.New(http.StatusBadRequest, "not_restorable", "Bin entry cannot be restored", details)
	e.ResourceID, e.ResourceType = id, ResourceType
	return e
}

// restoreConflict is the 409 of a restore whose row conflicts with what
// exists now (taken id or name, or a row it refers to is gone).
func restoreConflict(what string, err error) error {
	if ent.IsConstraintError(err) {
		return apperr.Duplicate(what, fmt.Sprintf("The %s cannot be restored: it conflicts with an existing resource or refers to a deleted one", what))
	}
	return fmt.Errorf("restoring the %s: %w", what, err)
}
