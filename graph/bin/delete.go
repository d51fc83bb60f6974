package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ResourceType is the error resource type of a bin entry.
const ResourceType = "bin_entry"

// Delete serves DELETE /v1/trash-bin/{binEntryId} and deleteBinEntry: the
// entry goes for good, so the resource is deleted as with force=true and
// its name is free again, with the names its hidden entries kept (a
// product's SKUs) and the records of a campaign's vouchers (the database
// cascades). Another project's entry is a 404; an entry whose restore job
// runs is a 409.
func Delete(ctx context.Context, id string) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.BinEntry.Delete().Where(binentry.ParentEntryID(id)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting the bin entry's reservations: %w", err)
	}
	n, err := c.BinEntry.Delete().Where(binentry.ID(id), binentry.ParentEntryIDIsNil(),
		binentry.StateNEQ(binentry.StateRESTORING)).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("deleting bin entry: %w", err)
	}
	if n == 0 {
		if restoring, err := c.BinEntry.Query().Where(binentry.ID(id), binentry.ParentEntryIDIsNil()).Exist(ctx); err == nil && restoring {
			return "", restoreInProgress(id)
		}
		return "", apperr.NotFound(ResourceType, id)
	}
	return id, nil
}
