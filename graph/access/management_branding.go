package access

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/branding"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A project's brand configuration beyond its creation (branding.go): list,
// get, update and delete, and their management graph fields. Every
// operation runs in the viewer's project (ManageProject) and needs the
// branding feature.

// Brandings lists the viewer's project's brand configurations: none or one.
func Brandings(ctx context.Context) ([]*ent.Branding, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	bs, err := c.Branding.Query().Order(ent.Asc(branding.FieldCreatedAt)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing brandings: %w", err)
	}
	return bs, nil
}

// BrandingByID reads one of the viewer's project's brand configurations; a
// brand of another project is not found.
func BrandingByID(ctx context.Context, id string) (*ent.Branding, error) {
	return brandingFor(ctx, id, false)
}

// brandingFor reads a brand configuration, with lock under a PostgreSQL
// row lock (SQLite write transactions hold the database's write lock).
func brandingFor(ctx context.Context, id string, lock bool) (*ent.Branding, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Branding.Query().Where(branding.ID(id))
	if lock && entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	b, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("branding_details", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up branding: %w", err)
	}
	return b, nil
}

// UpdateBranding changes what in gives of a brand configuration; the
// result must still be a complete, valid configuration.
func UpdateBranding(ctx context.Context, id string, in BrandingInput) (*ent.Branding, error) {
	b, err := brandingFor(ctx, id, true) // read, merge and write under the row lock
	if err != nil {
		return nil, err
	}
	v, err := in.validate(brandingValues{brand: b.Brand, address: b.Address, contact: b.Contact, cockpits: b.Cockpits}, false)
	if err != nil {
		return nil, err
	}
	b, err = b.Update().SetBrand(v.brand).SetAddress(v.address).SetContact(v.contact).SetCockpits(v.cockpits).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating branding: %w", err)
	}
	return b, nil
}

// DeleteBranding deletes a brand configuration; the project may create a
// new one afterwards.
func DeleteBranding(ctx context.Context, id string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	n, err := c.Branding.Delete().Where(branding.ID(id)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("deleting branding: %w", err)
	}
	if n == 0 {
		return apperr.NotFound("branding_details", id)
	}
	return nil
}

func ManagementBrandings(ctx context.Context, projectID string) ([]*ent.Branding, error) {
	return inManagedProjectWith(ctx, projectID, feature.Branding, Brandings)
}

func ManagementBranding(ctx context.Context, projectID, id string) (*ent.Branding, error) {
	return inManagedProjectWith(ctx, projectID, feature.Branding, func(ctx context.Context) (*ent.Branding, error) {
		return BrandingByID(ctx, id)
	})
}

func CreateManagementBranding(ctx context.Context, projectID string, in BrandingInput) (*ent.Branding, error) {
	return inManagedProjectWith(ctx, projectID, feature.Branding, func(ctx context.Context) (*ent.Branding, error) {
		return CreateBranding(ctx, in)
	})
}

func UpdateManagementBranding(ctx context.Context, projectID, id string, in BrandingInput) (*ent.Branding, error) {
	return inManagedProjectWith(ctx, projectID, feature.Branding, func(ctx context.Context) (*ent.Branding, error) {
		return UpdateBranding(ctx, id, in)
	})
}

func DeleteManagementBranding(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProjectWith(ctx, projectID, feature.Branding, func(ctx context.Context) (string, error) {
		return id, DeleteBranding(ctx, id)
	})
}
