package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CheckFree answers 409 duplicate_found when a binned resource of the type
// still holds name (a campaign name, voucher code, product or SKU
// source_id): the name is free again once its bin entry is deleted
// (DELETE /v1/trash-bin/{id}, or purged), or when it was deleted with
// force=true.
func CheckFree(ctx context.Context, typ, name string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	taken, err := c.BinEntry.Query().Where(binentry.ResourceTypeEQ(binentry.ResourceType(typ)),
		binentry.ReservedName(name)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("checking the bin for %s %s: %w", typ, name, err)
	}
	if taken {
		return apperr.Duplicate(typ, fmt.Sprintf("A %s %s is in the trash bin; delete its bin entry to use the name again", typ, name))
	}
	return nil
}
