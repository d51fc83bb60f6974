package store

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// ProjectOf returns the project of the viewer in ctx.
func ProjectOf(ctx context.Context) (string, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return "", fmt.Errorf("application keys: no project in context")
	}
	return v.ProjectID, nil
}
