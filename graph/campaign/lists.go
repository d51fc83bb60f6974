package campaign

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
	fieldspkg "github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CampaignListInput is GET /v1/campaigns' query: page/limit, filters and
// an order.
type CampaignListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Page is the 1-based page number, 1-99 (default 1).
	Page *int `json:"page"`
	// CampaignType is one campaign type (DISCOUNT_COUPONS, GIFT_VOUCHERS, …).
	CampaignType *campaign.CampaignType `json:"campaign_type"`
	// CampaignStatus is the campaign's creation status (DONE, IN_PROGRESS,
	// FAILED; DRAFT and MODIFYING match nothing here).
	CampaignStatus *string `json:"campaign_status"`
	// IsReferralCode keeps referral campaigns (true) or the others (false).
	IsReferralCode *bool `json:"is_referral_code"`
	// Order is created_at or updated_at; a leading - sorts descending.
	// Default -created_at.
	Order *string `json:"order"`
	// Expand names what to include: category (each campaign's categories;
	// otherwise they are empty in lists) or access_settings_assignments
	// (accepted; there are no areas and stores here).
	Expand []string `json:"expand"`
	// Filters is the filters[…] object (ParameterFiltersListCampaigns:
	// junction and the fields of list_filters.go), ANDed with the
	// parameters above.
	Filters map[string]any `json:"filters"`
}

// CampaignList is a page of campaigns and the number of all matching ones.
type CampaignList struct {
	Total int             `json:"total"`
	Data  []*ent.Campaign `json:"data"`
}

// List pages the caller's campaigns, newest first by default.
func List(ctx context.Context, in *CampaignListInput) (*CampaignList, error) {
	if in == nil {
		in = &CampaignListInput{}
	}
	limit, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	field, dir, err := campaignOrder(in.Order)
	if err != nil {
		return nil, err
	}
	preds, err := campaignFilters(in)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Campaign.Query().Where(preds...)
	expandCategory, err := campaignExpand(in.Expand) // category_assign.go
	if err != nil {
		return nil, err
	}
	if expandCategory {
		q.WithAssignedCategory()
	}
	total := 0
	if fieldspkg.Selected(ctx, "total") {
		if total, err = q.Clone().CountAtMost(ctx, ent.TotalCountCap); err != nil {
			return nil, fmt.Errorf("counting campaigns: %w", err)
		}
	}
	opts := []sql.OrderTermOption{dir}
	if field == campaign.FieldUpdatedAt {
		opts = append(opts, sql.OrderNullsLast())
	}
	q = q.Order(sql.OrderByField(field, opts...).ToFunc(), campaign.ByID(dir)).Offset(offset).Limit(limit)
	if err := fieldspkg.CollectList(ctx, "data", func(ctx context.Context) error { _, err := q.CollectFields(ctx); return err }); err != nil {
		return nil, fmt.Errorf("listing campaigns: %w", err)
	}
	data, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing campaigns: %w", err)
	}
	return &CampaignList{Total: total, Data: data}, nil
}

// campaignOrder reads the order parameter (default -created_at).
func campaignOrder(order *string) (string, sql.OrderTermOption, error) {
	name, desc := "created_at", true
	if order != nil {
		name, desc = strings.TrimPrefix(*order, "-"), strings.HasPrefix(*order, "-")
	}
	fields := map[string]string{"created_at": campaign.FieldCreatedAt, "updated_at": campaign.FieldUpdatedAt}
	field, ok := fields[name]
	if !ok {
		return "", nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, updated_at (with - for descending)")
	}
	if desc {
		return field, sql.OrderDesc(), nil
	}
	return field, sql.OrderAsc(), nil
}

// campaignFilters are the list's predicates: its own parameters and the
// filters[…] object.
func campaignFilters(in *CampaignListInput) ([]predicate.Campaign, error) {
	var preds []predicate.Campaign
	if in.CampaignType != nil {
		if err := campaign.CampaignTypeValidator(*in.CampaignType); err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter campaign_type %q is not a campaign type", *in.CampaignType)
		}
		preds = append(preds, campaign.CampaignTypeEQ(*in.CampaignType))
	}
	if s := in.CampaignStatus; s != nil {
		switch *s {
		case "DONE", "IN_PROGRESS", "FAILED":
			preds = append(preds, campaign.CreationStatusEQ(campaign.CreationStatus(*s)))
		case "DRAFT", "MODIFYING":
			preds = append(preds, campaign.IDIn()) // no drafts here: nothing matches
		default:
			return nil, apperr.InvalidQueryParams("Query parameter campaign_status must be one of DONE, IN_PROGRESS, FAILED, DRAFT, MODIFYING")
		}
	}
	if r := in.IsReferralCode; r != nil {
		if *r {
			preds = append(preds, campaign.CampaignTypeEQ(campaign.CampaignTypeREFERRAL_PROGRAM))
		} else {
			preds = append(preds, campaign.CampaignTypeNEQ(campaign.CampaignTypeREFERRAL_PROGRAM))
		}
	}
	if len(in.Filters) > 0 {
		where, err := campaignFilterPredicate(in.Filters)
		if err != nil {
			return nil, err
		}
		preds = append(preds, predicate.Campaign(where))
	}
	return preds, nil
}
