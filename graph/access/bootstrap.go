package access

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// BootstrapKeys are explicit credentials for the first start (from the
// PROMO_BOOTSTRAP_* settings); empty values are generated.
type BootstrapKeys struct {
	AppID, AppToken               string
	ManagementID, ManagementToken string
}

// Bootstrapped is what a first start created. It is nil when the database
// already had a project.
type Bootstrapped struct {
	Project    ProjectCredentials
	Management ManagementCredentials
}

// Bootstrap creates the default project with one application key and one
// management key when the database has no project yet. The caller makes it
// exclusive across processes (entdb.WithAdvisoryLock on PostgreSQL).
func Bootstrap(ctx context.Context, c *ent.Client, keys BootstrapKeys) (*Bootstrapped, error) {
	n, err := c.Project.Query().Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting projects: %w", err)
	}
	if n > 0 {
		return nil, nil
	}
	var out Bootstrapped
	err = store.InTx(ent.NewContext(ctx, c), func(ctx context.Context) error {
		var err error
		if out.Project, err = CreateProject(ctx, "Default project", keys.AppID, keys.AppToken); err != nil {
			return err
		}
		out.Management, err = CreateManagementKey(ctx, keys.ManagementID, keys.ManagementToken)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("bootstrapping default project: %w", err)
	}
	return &out, nil
}
