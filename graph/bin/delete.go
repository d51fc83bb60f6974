package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ResourceType is the error resource type of a bin entry.
const ResourceType = "bin_entry"

// Delete serves DELETE /v1/trash-bin/{binEntryId} and deleteBinEntry: the
// entry goes for good, so the resource is deleted as with force=true and
// its name is free again. Another project's entry is a 404.
func Delete(ctx context.Context, id string) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	err = c.BinEntry.DeleteOneID(id).Exec(ctx)
	if ent.IsNotFound(err) {
		return "", apperr.NotFound(ResourceType, id)
	}
	if err != nil {
		return "", fmt.Errorf("deleting bin entry: %w", err)
	}
	return id, nil
}
