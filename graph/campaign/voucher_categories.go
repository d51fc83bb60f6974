package campaign

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A voucher's categories: its own category (category_id, set on create or
// update by ID or name, see campaignCategory), else its campaign's. New
// campaign vouchers copy the campaign's category when they are made, so
// the fallback matters for campaigns that got one later.

// WithVoucherCategories loads what VoucherCategories shows: the voucher's
// category and its campaign (whose name REST shows) with the campaign's.
func WithVoucherCategories(q *ent.VoucherQuery) *ent.VoucherQuery {
	return q.WithAssignedCategory().WithCampaign(func(cq *ent.CampaignQuery) { cq.WithAssignedCategory() })
}

// WithJoinedVoucherCategories loads what WithVoucherCategories does for a
// page of vouchers read with JoinEdges: the voucher's category, and of its
// campaign only the name and category_id, so that both join into the
// vouchers' statement (a campaign loading its own category would not
// join: a statement of its own, and every campaign column decoded).
// CampaignCategories then reads the campaigns' categories, if any.
func WithJoinedVoucherCategories(q *ent.VoucherQuery) *ent.VoucherQuery {
	return q.WithAssignedCategory().WithCampaign(func(cq *ent.CampaignQuery) {
		cq.Select(entcampaign.FieldName, entcampaign.FieldCategoryID)
	})
}

// CampaignCategories completes vouchers loaded with
// WithJoinedVoucherCategories: the categories of their campaigns that have
// one, in one statement (none when no campaign has a category, the common
// case), set on each campaign as if loaded with it.
func CampaignCategories(ctx context.Context, vs []*ent.Voucher) error {
	var ids []string
	for _, v := range vs {
		if cmp := v.Edges.Campaign; v.CategoryID == nil && cmp != nil && cmp.CategoryID != nil && !slices.Contains(ids, *cmp.CategoryID) {
			ids = append(ids, *cmp.CategoryID)
		}
	}
	byID, err := CategoriesByID(ctx, ids)
	if err != nil {
		return fmt.Errorf("reading the campaigns' categories: %w", err)
	}
	for _, v := range vs {
		if cmp := v.Edges.Campaign; v.CategoryID == nil && cmp != nil && cmp.CategoryID != nil {
			if cat, ok := byID[*cmp.CategoryID]; ok {
				cmp.Edges.AssignedCategory = cat
			}
		}
	}
	return nil
}

// CategoriesByID reads the categories of ids in one statement (none when
// ids is empty), by ID; an ID without a category is absent.
func CategoriesByID(ctx context.Context, ids []string) (map[string]*ent.Category, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cats, err := c.Category.Query().Where(category.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading categories by ID: %w", err)
	}
	byID := make(map[string]*ent.Category, len(cats))
	for _, cat := range cats {
		byID[cat.ID] = cat
	}
	return byID, nil
}

// VoucherCategories is a voucher's categories from the edges loaded with
// it (withVoucherCategories): its own category, else its campaign's, as a
// one-element list; empty without one or when the edges were not loaded.
func VoucherCategories(v *ent.Voucher) []*ent.Category {
	if v.CategoryID != nil {
		if cat := v.Edges.AssignedCategory; cat != nil {
			return []*ent.Category{cat}
		}
		return []*ent.Category{}
	}
	if cmp := v.Edges.Campaign; cmp != nil && cmp.CategoryID != nil && cmp.Edges.AssignedCategory != nil {
		return []*ent.Category{cmp.Edges.AssignedCategory}
	}
	return []*ent.Category{}
}

// CategoriesOfVoucher is Voucher.categories: VoucherCategories, reading
// what was not loaded with the voucher with the request's client — the
// category alone when its id is known (a campaign read with the voucher
// carries its category_id), the voucher's edges otherwise. Nothing is read
// for a voucher whose campaign is loaded and has no category (every
// validation and redemption response).
func CategoriesOfVoucher(ctx context.Context, v *ent.Voucher) ([]*ent.Category, error) {
	loaded := func(_ *ent.Category, err error) bool { return err == nil || ent.IsNotFound(err) }
	id := v.CategoryID
	switch cmp := v.Edges.Campaign; {
	case id != nil && loaded(v.Edges.AssignedCategoryOrErr()):
		return VoucherCategories(v), nil
	case id != nil:
	case v.CampaignID == nil || (cmp != nil && cmp.CategoryID == nil):
		return []*ent.Category{}, nil
	case cmp != nil && loaded(cmp.Edges.AssignedCategoryOrErr()):
		return VoucherCategories(v), nil
	case cmp != nil:
		id = cmp.CategoryID
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if id != nil {
		cats, err := c.Category.Query().Where(category.ID(*id)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading the voucher's category: %w", err)
		}
		return cats, nil
	}
	read, err := WithVoucherCategories(c.Voucher.Query().Where(voucher.ID(v.ID))).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the voucher's categories: %w", err)
	}
	return VoucherCategories(read), nil
}

// addedVouchersCategory sets the category vouchers added to a campaign get
// when the request names one (by name, found or created; "" for none);
// otherwise they keep the campaign's (see voucherTemplate).
func addedVouchersCategory(ctx context.Context, tmpl *jsonfield.VoucherTemplate, name *string) error {
	if name == nil {
		return nil
	}
	cat, _, err := campaignCategory(ctx, name, nil)
	if err != nil {
		return err
	}
	tmpl.Category, tmpl.CategoryID = categoryNameID(cat)
	return nil
}

// dropDeletedCategory clears the template's category when it no longer
// exists (a generation job made before the category was deleted), so the
// Vouchers' foreign key holds: they are made without a category, as the
// delete left the others.
func dropDeletedCategory(ctx context.Context, c *ent.Client, tmpl *jsonfield.VoucherTemplate) error {
	if tmpl.CategoryID == nil {
		return nil
	}
	ok, err := c.Category.Query().Where(category.ID(*tmpl.CategoryID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("checking the vouchers' category: %w", err)
	}
	if !ok {
		tmpl.Category, tmpl.CategoryID = nil, nil
	}
	return nil
}
