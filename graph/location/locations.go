// Package location owns a project's locations (REST GET /v1/locations…,
// GraphQL location*): named geographic shapes, a circle or a polygon, that
// rules refer to. The real service's API only reads them; here they are
// made and deleted through GraphQL (docs/locations.md).
package location

import (
	"context"
	"fmt"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	entlocation "github.com/promoengine/promoengine/ent/location"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// resourceType names locations in errors.
const resourceType = "location"

// ListInput is the query of REST GET /v1/locations.
type ListInput struct {
	// Limit is 1 to 100 (default 10).
	Limit *int `json:"limit"`
	// Order is created_at, -created_at (default), updated_at or -updated_at.
	Order *string `json:"order"`
	// Filters is the filters[...] object over name, created_at, updated_at.
	Filters map[string]any `json:"filters"`
}

// List is a page of locations.
type List struct {
	Data    []*ent.Location `json:"data"`
	Total   int             `json:"total"`
	HasMore bool            `json:"has_more"`
}

var filterColumns = map[string]listfilter.Kind{
	"name": listfilter.String, "created_at": listfilter.Time, "updated_at": listfilter.Time,
}

// Location serves REST GET /v1/locations/{id} and location(id).
func Location(ctx context.Context, id string) (*ent.Location, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	l, err := c.Location.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(resourceType, id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading location: %w", err)
	}
	return l, nil
}

// ListLocations serves REST GET /v1/locations and locations.
func ListLocations(ctx context.Context, in *ListInput) (*List, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, err := page.Limit(in.Limit)
	if err != nil {
		return nil, err
	}
	order := []entlocation.OrderOption{entlocation.ByCreatedAt(entsql.OrderDesc()), entlocation.ByID(entsql.OrderDesc())}
	if in.Order != nil {
		switch *in.Order {
		case "-created_at":
		case "created_at":
			order = []entlocation.OrderOption{entlocation.ByCreatedAt(), entlocation.ByID()}
		case "updated_at":
			order = []entlocation.OrderOption{entlocation.ByUpdatedAt(), entlocation.ByID()}
		case "-updated_at":
			order = []entlocation.OrderOption{entlocation.ByUpdatedAt(entsql.OrderDesc()), entlocation.ByID(entsql.OrderDesc())}
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be created_at, -created_at, updated_at or -updated_at, got %q", *in.Order)
		}
	}
	where, err := listfilter.Build(in.Filters, filterColumns)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Location.Query().Where(predicate.Location(where))
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting locations: %w", err)
	}
	data, err := q.Order(order...).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing locations: %w", err)
	}
	return &List{Data: data, Total: total, HasMore: total > len(data)}, nil
}

// DeleteLocation serves deleteLocation.
func DeleteLocation(ctx context.Context, id string) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	n, err := c.Location.Delete().Where(entlocation.ID(id)).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("deleting location: %w", err)
	}
	if n == 0 {
		return "", apperr.NotFound(resourceType, id)
	}
	return id, nil
}
