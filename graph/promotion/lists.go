package promotion

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/promotionstack"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ListInput is the query of the tier and stack lists (REST GET
// /v1/promotions/tiers, /v1/promotions/stacks and the campaign's lists)
// and the GraphQL PromotionListInput.
type ListInput struct {
	// Limit is the page size, 1-100 (default 10; a campaign's lists: 100).
	Limit *int `json:"limit"`
	// Page is the 1-based page, 1-99 (default 1).
	Page *int `json:"page"`
	// Order is created_at or updated_at (stacks: also name); - for
	// descending. Default: -created_at (a campaign's tiers: hierarchy).
	Order *string `json:"order"`
	// IsAvailable keeps the tiers that are active, begun and not expired,
	// in an active campaign (tiers only).
	IsAvailable *bool `json:"is_available"`
	// CreatedAfter … UpdatedBefore filter the stacks by date.
	CreatedAfter  *time.Time `json:"created_after"`
	CreatedBefore *time.Time `json:"created_before"`
	UpdatedAfter  *time.Time `json:"updated_after"`
	UpdatedBefore *time.Time `json:"updated_before"`
}

// TierList is a page of tiers, how many match in all (exact up to
// ent.TotalCountCap) and whether more follow the page.
type TierList struct {
	Total   int                  `json:"total"`
	HasMore bool                 `json:"hasMore"`
	Data    []*ent.PromotionTier `json:"data"`
}

// StackList is a page of stacks and how many match in all.
type StackList struct {
	Total   int                   `json:"total"`
	HasMore bool                  `json:"hasMore"`
	Data    []*ent.PromotionStack `json:"data"`
}

// ListTiers serves REST GET /v1/promotions/tiers and promotionTierList.
func ListTiers(ctx context.Context, in *ListInput) (*TierList, error) {
	return listTiers(ctx, "", in)
}

// CampaignTiers serves REST GET /v1/promotions/{campaignId}/tiers and
// campaignPromotionTiers: the campaign's tiers by hierarchy.
func CampaignTiers(ctx context.Context, campaignRef string, in *ListInput) (*TierList, error) {
	cmp, err := campaignpkg.ByIDOrName(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	if in == nil {
		in = &ListInput{}
	}
	if in.Limit == nil {
		limit := 100
		in.Limit = &limit
	}
	return listTiers(ctx, cmp.ID, in)
}

func listTiers(ctx context.Context, campaignID string, in *ListInput) (*TierList, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.PromotionTier.Query()
	order := []promotiontier.OrderOption{}
	if campaignID != "" {
		q.Where(promotiontier.CampaignID(campaignID))
		if in.Order == nil {
			order = append(order, promotiontier.ByHierarchy(), promotiontier.ByID())
		}
	}
	if len(order) == 0 {
		column, desc, err := listOrder(in.Order, promotiontier.FieldCreatedAt, promotiontier.FieldUpdatedAt, "")
		if err != nil {
			return nil, err
		}
		order = orderTerms[promotiontier.OrderOption](column, desc)
	}
	if in.IsAvailable != nil && *in.IsAvailable {
		now := clock.Now()
		q.Where(promotiontier.Active(true),
			promotiontier.Or(promotiontier.StartDateIsNil(), promotiontier.StartDateLTE(now)),
			promotiontier.Or(promotiontier.ExpirationDateIsNil(), promotiontier.ExpirationDateGT(now)),
			promotiontier.HasCampaignWith(campaign.Active(true)))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting promotion tiers: %w", err)
	}
	data, err := q.WithCampaign().Order(order...).Offset(offset).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing promotion tiers: %w", err)
	}
	out := &TierList{Total: total, Data: data}
	if len(data) > limit {
		out.Data, out.HasMore = data[:limit], true
	}
	return out, nil
}

// ListStacks serves REST GET /v1/promotions/stacks and promotionStackList.
func ListStacks(ctx context.Context, in *ListInput) (*StackList, error) {
	return listStacks(ctx, "", in)
}

// CampaignStacks serves REST GET /v1/promotions/{campaignId}/stacks and
// campaignPromotionStacks.
func CampaignStacks(ctx context.Context, campaignRef string, in *ListInput) (*StackList, error) {
	cmp, err := campaignpkg.ByIDOrName(ctx, campaignRef)
	if err != nil {
		return nil, err
	}
	if in == nil {
		in = &ListInput{}
	}
	if in.Limit == nil {
		limit := 100
		in.Limit = &limit
	}
	return listStacks(ctx, cmp.ID, in)
}

func listStacks(ctx context.Context, campaignID string, in *ListInput) (*StackList, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	column, desc, err := listOrder(in.Order, promotionstack.FieldCreatedAt, promotionstack.FieldUpdatedAt, promotionstack.FieldName)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.PromotionStack.Query()
	if campaignID != "" {
		q.Where(promotionstack.CampaignID(campaignID))
	}
	if in.CreatedAfter != nil {
		q.Where(promotionstack.CreatedAtGT(*in.CreatedAfter))
	}
	if in.CreatedBefore != nil {
		q.Where(promotionstack.CreatedAtLT(*in.CreatedBefore))
	}
	if in.UpdatedAfter != nil {
		q.Where(promotionstack.UpdatedAtGT(*in.UpdatedAfter))
	}
	if in.UpdatedBefore != nil {
		q.Where(promotionstack.UpdatedAtLT(*in.UpdatedBefore))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting promotion stacks: %w", err)
	}
	data, err := q.Order(orderTerms[promotionstack.OrderOption](column, desc)...).Offset(offset).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing promotion stacks: %w", err)
	}
	out := &StackList{Total: total, Data: data}
	if len(data) > limit {
		out.Data, out.HasMore = data[:limit], true
	}
	return out, nil
}

// listOrder reads a list order (created_at, updated_at, and name when
// nameColumn is set; - for descending; default -created_at).
func listOrder(order *string, created, updated, nameColumn string) (string, bool, error) {
	name, desc := "created_at", true
	if order != nil && *order != "" {
		name, desc = strings.TrimPrefix(*order, "-"), strings.HasPrefix(*order, "-")
	}
	switch {
	case name == "created_at":
		return created, desc, nil
	case name == "updated_at":
		return updated, desc, nil
	case name == "name" && nameColumn != "":
		return nameColumn, desc, nil
	}
	allowed := "created_at, updated_at"
	if nameColumn != "" {
		allowed += ", name"
	}
	return "", false, apperr.InvalidQueryParams("Query parameter order must be one of %s (with - for descending)", allowed)
}

// orderTerms sorts by the column, then by id for a stable page.
func orderTerms[T ~func(*sql.Selector)](column string, desc bool) []T {
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	opts := []sql.OrderTermOption{dir}
	if column != "created_at" {
		opts = append(opts, sql.OrderNullsLast())
	}
	return []T{sql.OrderByField(column, opts...).ToFunc(), sql.OrderByField("id", dir).ToFunc()}
}
