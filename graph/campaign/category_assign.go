package campaign

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// campaignCategory is what a campaign write names as its category:
// category_id, which must name a category of the project (else 404), or
// category, a name, found or created (hierarchy one above the highest, so
// a category made on the fly never outranks an existing one). category_id
// wins when both are given. An empty string for the one given clears the
// category (clear is true); nothing given changes nothing (nil, false).
func campaignCategory(ctx context.Context, name, id *string) (cat *ent.Category, clear bool, err error) {
	switch {
	case id != nil && *id != "":
		cat, err = CategoryByID(ctx, *id)
		return cat, false, err
	case id != nil, name != nil && strings.TrimSpace(*name) == "":
		return nil, true, nil
	case name != nil:
		cat, err = categoryByName(ctx, strings.TrimSpace(*name), true)
		return cat, false, err
	}
	return nil, false, nil
}

// categoryNameID returns the name and ID a campaign stores for cat (both
// nil for none).
func categoryNameID(cat *ent.Category) (name, id *string) {
	if cat == nil {
		return nil, nil
	}
	return &cat.Name, &cat.ID
}

// categoryByName finds the project's category of that name; with create,
// one is made when there is none (a concurrent request making the same one
// is no error: its category is used).
func categoryByName(ctx context.Context, name string, create bool) (*ent.Category, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := c.Category.Query().Where(category.Name(name)).Only(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return found, store.WrapErr("looking up category", err)
	}
	if !create {
		return nil, apperr.NotFound("category", name)
	}
	if len(name) > maxCategoryName {
		return nil, apperr.InvalidPayload("Property .category must be at most %d characters", maxCategoryName)
	}
	var highest []struct {
		Max *int `json:"max"`
	}
	if err := c.Category.Query().Aggregate(ent.Max(category.FieldHierarchy)).Scan(ctx, &highest); err != nil {
		return nil, fmt.Errorf("reading category hierarchy: %w", err)
	}
	hierarchy := 1
	if len(highest) == 1 && highest[0].Max != nil {
		hierarchy = *highest[0].Max + 1
	}
	// ON CONFLICT DO NOTHING: a unique violation would abort the whole
	// transaction on PostgreSQL; the row that won is read below.
	err = c.Category.Create().SetName(name).SetHierarchy(hierarchy).
		OnConflict(sql.ConflictColumns(category.FieldProjectID, category.FieldName)).DoNothing().Exec(ctx)
	if err != nil && !customer.IsNoRows(err) {
		return nil, fmt.Errorf("creating category %q: %w", name, err)
	}
	found, err = c.Category.Query().Where(category.Name(name)).Only(ctx)
	return found, store.WrapErr("reading the new category", err)
}

// CategoriesOf is Campaign.categories: the campaign's category as a
// one-element list (empty without one), from the loaded edge when the list
// loaded it (expand=category), else read.
func CategoriesOf(ctx context.Context, cmp *ent.Campaign) ([]*ent.Category, error) {
	if cmp.CategoryID == nil {
		return []*ent.Category{}, nil
	}
	cat, err := cmp.Edges.AssignedCategoryOrErr()
	if err != nil && !ent.IsNotFound(err) { // not loaded: read it with the request's client (cmp's may be a finished transaction's)
		c, cerr := store.Client(ctx)
		if cerr != nil {
			return nil, cerr
		}
		if cat, err = c.Campaign.QueryAssignedCategory(cmp).Only(ctx); err != nil && !ent.IsNotFound(err) {
			return nil, fmt.Errorf("reading the campaign's category: %w", err)
		}
	}
	if cat == nil {
		return []*ent.Category{}, nil
	}
	return []*ent.Category{cat}, nil
}

// categoryOnCreate sets the category a new campaign names (see campaignCategory).
func categoryOnCreate(ctx context.Context, create *ent.CampaignCreate, name, id *string) error {
	cat, _, err := campaignCategory(ctx, name, id)
	if err != nil {
		return err
	}
	n, i := categoryNameID(cat)
	create.SetNillableCategory(n).SetNillableCategoryID(i)
	return nil
}

// categoryUpdate is an update of a row with its own category: a campaign
// or a voucher.
type categoryUpdate[U any] interface {
	ClearCategory() U
	ClearCategoryID() U
	SetCategory(string) U
	SetCategoryID(string) U
}

// categoryOnUpdate changes, clears or keeps the category of the campaign or
// voucher upd updates, as campaignCategory reads the update's category and
// category_id.
func categoryOnUpdate[U categoryUpdate[U]](ctx context.Context, upd U, name, id *string) error {
	cat, clear, err := campaignCategory(ctx, name, id)
	switch {
	case err != nil:
		return err
	case clear:
		upd.ClearCategory().ClearCategoryID()
	case cat != nil:
		upd.SetCategory(cat.Name).SetCategoryID(cat.ID)
	}
	return nil
}

// campaignExpand reads the campaign list's expand values and reports
// whether categories are wanted.
func campaignExpand(expand []string) (category bool, err error) {
	for _, e := range expand {
		switch e {
		case "category":
			category = true
		case "access_settings_assignments":
		default:
			return false, apperr.InvalidQueryParams("Query parameter expand must be category or access_settings_assignments, got %q", e)
		}
	}
	return category, nil
}

// voucherCategoryPredicate matches the vouchers of a category named by
// name or ID: by their category tag or category_id, and, when a category
// of that name or ID exists, by its ID or its current name.
func voucherCategoryPredicate(ctx context.Context, nameOrID string) (predicate.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	preds := []predicate.Voucher{voucher.Category(nameOrID), voucher.CategoryID(nameOrID)}
	cats, err := c.Category.Query().Where(category.Or(category.ID(nameOrID), category.Name(nameOrID))).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up category: %w", err)
	}
	for _, cat := range cats {
		preds = append(preds, voucher.CategoryID(cat.ID), voucher.Category(cat.Name))
	}
	return voucher.Or(preds...), nil
}
