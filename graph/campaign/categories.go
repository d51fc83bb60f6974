package campaign

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Categories (REST /v1/categories): create, read, list, update, delete.
// How campaigns name their category is in category_assign.go.

// CategoryInput is the body of REST POST /v1/categories and
// PUT /v1/categories/{categoryId} and the input of createCategory and
// UpdateCategory: both properties are required, as in the real service.
type CategoryInput struct {
	Name      *string `json:"name"`
	Hierarchy *int    `json:"hierarchy"`
}

// maxCategoryName is the longest category name (the ent schema's limit).
const maxCategoryName = 200

func (in CategoryInput) validate() (string, int, error) {
	switch {
	case in.Name == nil:
		return "", 0, apperr.InvalidPayload("Payload should have required property 'name'")
	case in.Hierarchy == nil:
		return "", 0, apperr.InvalidPayload("Payload should have required property 'hierarchy'")
	}
	name := strings.TrimSpace(*in.Name)
	if name == "" || len(name) > maxCategoryName {
		return "", 0, apperr.InvalidPayload("Property .name must be a non-empty string of at most %d characters", maxCategoryName)
	}
	if *in.Hierarchy < 0 {
		return "", 0, apperr.InvalidPayload("Property .hierarchy must be an integer of at least 0, got %d", *in.Hierarchy)
	}
	return name, *in.Hierarchy, nil
}

// CreateCategory stores a category; its name must be new in the project.
func CreateCategory(ctx context.Context, in CategoryInput) (*ent.Category, error) {
	name, hierarchy, err := in.validate()
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := categoryNameFree(ctx, c, name, ""); err != nil {
		return nil, err
	}
	created, err := c.Category.Create().SetName(name).SetHierarchy(hierarchy).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateCategory(name)
	}
	if err != nil {
		return nil, fmt.Errorf("creating category: %w", err)
	}
	return created, nil
}

// CategoryByID reads a category of the caller's project.
func CategoryByID(ctx context.Context, id string) (*ent.Category, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := c.Category.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("category", id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading category: %w", err)
	}
	return found, nil
}

// UpdateCategory renames a category and sets its hierarchy; the campaigns
// and vouchers assigned to it show the new name.
func UpdateCategory(ctx context.Context, id string, in CategoryInput) (*ent.Category, error) {
	name, hierarchy, err := in.validate()
	if err != nil {
		return nil, err
	}
	cat, err := CategoryByID(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := categoryNameFree(ctx, c, name, cat.ID); err != nil {
		return nil, err
	}
	updated, err := c.Category.UpdateOne(cat).SetName(name).SetHierarchy(hierarchy).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateCategory(name)
	}
	if err != nil {
		return nil, fmt.Errorf("updating category: %w", err)
	}
	if name != cat.Name {
		if err := c.Campaign.Update().Where(campaign.CategoryID(cat.ID)).SetCategory(name).Exec(ctx); err != nil {
			return nil, fmt.Errorf("renaming the category of its campaigns: %w", err)
		}
		if err := c.Voucher.Update().Where(voucher.CategoryID(cat.ID)).SetCategory(name).Exec(ctx); err != nil {
			return nil, fmt.Errorf("renaming the category of its vouchers: %w", err)
		}
	}
	return updated, nil
}

// DeleteCategory deletes a category that may be in use: like the real
// service (whose API documents no in-use error), the campaigns and vouchers
// assigned to it are left without a category and the project's stacking
// rules stop naming it. It returns the category's ID.
func DeleteCategory(ctx context.Context, id string) (string, error) {
	cat, err := CategoryByID(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if err := c.Campaign.Update().Where(campaign.CategoryID(cat.ID)).ClearCategory().ClearCategoryID().Exec(ctx); err != nil {
		return "", fmt.Errorf("detaching the category's campaigns: %w", err)
	}
	if err := c.Voucher.Update().Where(voucher.CategoryID(cat.ID)).ClearCategory().ClearCategoryID().Exec(ctx); err != nil {
		return "", fmt.Errorf("detaching the category's vouchers: %w", err)
	}
	if err := OnCategoryDeleted(ctx, cat.ID); err != nil {
		return "", err
	}
	if err := c.Category.DeleteOne(cat).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting category: %w", err)
	}
	return cat.ID, nil
}

// CategoryListInput is REST GET /v1/categories' query.
type CategoryListInput struct {
	// Limit is the page size, 1-100 (default 100).
	Limit *int `json:"limit"`
	// StartingAfterID continues the list after this category.
	StartingAfterID *string `json:"starting_after_id"`
}

// CategoryList is a page of categories, newest first, with the number of
// all categories and whether more follow.
type CategoryList struct {
	Total   int             `json:"total"`
	HasMore bool            `json:"has_more"`
	Data    []*ent.Category `json:"data"`
}

// ListCategories pages the caller's categories, newest first (IDs grow
// with creation time, so the ID orders the list and is the cursor).
func ListCategories(ctx context.Context, in *CategoryListInput) (*CategoryList, error) {
	if in == nil {
		in = &CategoryListInput{}
	}
	n := 100
	if in.Limit != nil {
		var err error
		if n, _, err = page.Offset(in.Limit, nil); err != nil {
			return nil, err
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.Category.Query().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting categories: %w", err)
	}
	q := c.Category.Query()
	if in.StartingAfterID != nil && *in.StartingAfterID != "" {
		q.Where(category.IDLT(*in.StartingAfterID))
	}
	data, err := q.Order(ent.Desc(category.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing categories: %w", err)
	}
	out := &CategoryList{Total: total, Data: data}
	if len(data) > n {
		out.Data, out.HasMore = data[:n], true
	}
	return out, nil
}

// categoryNameFree refuses a name another category (not except) has.
func categoryNameFree(ctx context.Context, c *ent.Client, name, except string) error {
	q := c.Category.Query().Where(category.Name(name))
	if except != "" {
		q.Where(category.IDNEQ(except))
	}
	taken, err := q.Exist(ctx)
	if err != nil {
		return fmt.Errorf("looking up category name: %w", err)
	}
	if taken {
		return duplicateCategory(name)
	}
	return nil
}

func duplicateCategory(name string) error {
	return apperr.Duplicate("category", fmt.Sprintf("A category named %q already exists", name))
}

// Categories lists the caller's categories as a Relay connection.
func Categories(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CategoryOrder, where *ent.CategoryWhereInput) (*ent.CategoryConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.Category.Query().Paginate(ctx, after, first, before, last,
		ent.WithCategoryOrder(orderBy), ent.WithCategoryFilter(where.Filter))
}

// OnCategoryDeleted runs in the transaction that deletes a category, for
// what refers to categories elsewhere (the project's stacking rules); set
// at wiring (graph/wiring.go).
var OnCategoryDeleted = func(ctx context.Context, id string) error { return nil }
