package promotions

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// TierBody is the real service's promotion tier object (reference §4.3):
// banner, updated_at, dates and validity windows are absent when unset.
type TierBody struct {
	ID                        string                                `json:"id"`
	CreatedAt                 httpkit.Timestamp                     `json:"created_at"`
	UpdatedAt                 *httpkit.Timestamp                    `json:"updated_at,omitempty"`
	Name                      string                                `json:"name"`
	Banner                    *string                               `json:"banner,omitempty"`
	Action                    tierAction                            `json:"action"`
	Metadata                  map[string]any                        `json:"metadata"`
	Hierarchy                 int                                   `json:"hierarchy"`
	PromotionID               string                                `json:"promotion_id"`
	Campaign                  *tierCampaign                         `json:"campaign,omitempty"`
	CampaignID                string                                `json:"campaign_id"`
	Active                    bool                                  `json:"active"`
	StartDate                 *httpkit.Timestamp                    `json:"start_date,omitempty"`
	ExpirationDate            *httpkit.Timestamp                    `json:"expiration_date,omitempty"`
	ValidityTimeframe         *jsonfield.ValidityTimeframe          `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek         []int                                 `json:"validity_day_of_week,omitempty"`
	ValidityHours             *jsonfield.ValidityHours              `json:"validity_hours,omitempty"`
	Summary                   tierSummary                           `json:"summary"`
	ValidationRuleAssignments *httpkit.ListEnvelope[ruleAssignment] `json:"validation_rule_assignments"`
	CategoryID                *string                               `json:"category_id"`
	Categories                []categories.Body                     `json:"categories"`
	Object                    string                                `json:"object"`
}

type tierAction struct {
	Discount *jsonfield.Discount `json:"discount"`
}

// tierCampaign is the tier's campaign as a tier object embeds it.
type tierCampaign struct {
	ID                string                       `json:"id"`
	StartDate         *httpkit.Timestamp           `json:"start_date"`
	ExpirationDate    *httpkit.Timestamp           `json:"expiration_date"`
	ValidityTimeframe *jsonfield.ValidityTimeframe `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek []int                        `json:"validity_day_of_week,omitempty"`
	ValidityHours     *jsonfield.ValidityHours     `json:"validity_hours,omitempty"`
	Active            bool                         `json:"active"`
	CategoryID        *string                      `json:"category_id"`
	Object            string                       `json:"object"`
}

type tierSummary struct {
	Redemptions struct {
		TotalRedeemed int `json:"total_redeemed"`
	} `json:"redemptions"`
	Orders struct {
		TotalAmount         int64 `json:"total_amount"`
		TotalDiscountAmount int64 `json:"total_discount_amount"`
	} `json:"orders"`
}

// ruleAssignment is a tier's validation rule assignment.
type ruleAssignment struct {
	ID                string            `json:"id"`
	RuleID            string            `json:"rule_id"`
	RelatedObjectID   string            `json:"related_object_id"`
	RelatedObjectType string            `json:"related_object_type"`
	CreatedAt         httpkit.Timestamp `json:"created_at"`
	Object            string            `json:"object"`
}

// TierJSON renders a tier; d holds its assignments and category (nil:
// none shown).
func TierJSON(t *ent.PromotionTier, d *promotion.TierDetails) TierBody {
	out := TierBody{ID: t.ID, CreatedAt: httpkit.Timestamp(t.CreatedAt), UpdatedAt: httpkit.OptionalTime(t.UpdatedAt), Name: t.Name,
		Banner: t.Banner, Action: tierAction{Discount: t.Discount}, Metadata: t.Metadata, Hierarchy: t.Hierarchy,
		PromotionID: t.CampaignID, CampaignID: t.CampaignID, Active: t.Active, StartDate: httpkit.OptionalTime(t.StartDate),
		ExpirationDate: httpkit.OptionalTime(t.ExpirationDate), ValidityTimeframe: t.ValidityTimeframe,
		ValidityDayOfWeek: t.ValidityDayOfWeek, ValidityHours: t.ValidityHours, CategoryID: t.CategoryID,
		Categories: []categories.Body{}, Object: "promotion_tier"}
	if out.Metadata == nil {
		out.Metadata = map[string]any{}
	}
	out.Summary.Redemptions.TotalRedeemed = t.RedeemedCount
	out.Summary.Orders.TotalAmount, out.Summary.Orders.TotalDiscountAmount = t.OrdersAmount, t.OrdersDiscountAmount
	if cmp := t.Edges.Campaign; cmp != nil {
		out.Campaign = &tierCampaign{ID: cmp.ID, StartDate: httpkit.OptionalTime(cmp.StartDate),
			ExpirationDate: httpkit.OptionalTime(cmp.ExpirationDate), ValidityTimeframe: cmp.ValidityTimeframe,
			ValidityDayOfWeek: cmp.ValidityDayOfWeek, ValidityHours: cmp.ValidityHours, Active: cmp.Active,
			CategoryID: cmp.CategoryID, Object: "campaign"}
	}
	if d == nil {
		return out
	}
	if as := d.Assignments[t.ID]; len(as) > 0 {
		items := make([]ruleAssignment, len(as))
		for i, a := range as {
			items[i] = ruleAssignment{ID: a.ID, RuleID: a.RuleID, RelatedObjectID: a.RelatedObjectID,
				RelatedObjectType: a.RelatedObjectType.String(), CreatedAt: httpkit.Timestamp(a.CreatedAt),
				Object: "validation_rules_assignment"}
		}
		l := httpkit.NewList(items, len(items))
		out.ValidationRuleAssignments = &l
	}
	if t.CategoryID != nil {
		if cat := d.Categories[*t.CategoryID]; cat != nil {
			out.Categories = categories.ListJSON([]*ent.Category{cat})
		}
	}
	return out
}

// StackBody is the real service's promotion stack object.
type StackBody struct {
	ID         string             `json:"id"`
	Name       string             `json:"name"`
	CreatedAt  httpkit.Timestamp  `json:"created_at"`
	UpdatedAt  *httpkit.Timestamp `json:"updated_at,omitempty"`
	CampaignID string             `json:"campaign_id"`
	Object     string             `json:"object"`
	Tiers      stackTiers         `json:"tiers"`
	CategoryID *string            `json:"category_id"`
	Categories []categories.Body  `json:"categories"`
}

type stackTiers struct {
	IDs           []string `json:"ids"`
	HierarchyMode string   `json:"hierarchy_mode"`
}

// StackJSON renders a stack.
func StackJSON(s *ent.PromotionStack) StackBody {
	return StackBody{ID: s.ID, Name: s.Name, CreatedAt: httpkit.Timestamp(s.CreatedAt), UpdatedAt: httpkit.OptionalTime(s.UpdatedAt),
		CampaignID: s.CampaignID, Object: "promotion_stack", Tiers: stackTiers{IDs: s.TierIds, HierarchyMode: s.HierarchyMode},
		CategoryID: s.CategoryID, Categories: []categories.Body{}}
}

// CampaignPromotion is a PROMOTION campaign's promotion object: its first
// 100 tiers by hierarchy ({object, data_ref: "tiers", tiers, total, has_more});
// other campaigns keep what they store.
func CampaignPromotion(c *gin.Context, root *graph.Resolver, cmp *ent.Campaign) (map[string]any, error) {
	if cmp.CampaignType != entcampaign.CampaignTypePROMOTION {
		return cmp.Promotion, nil
	}
	ctx := c.Request.Context()
	limit := 100
	res, err := root.Query().CampaignPromotionTiers(ctx, cmp.ID, &promotion.ListInput{Limit: &limit})
	if err != nil {
		return nil, err
	}
	d, err := promotion.DetailsOf(ctx, res.Data...)
	if err != nil {
		return nil, err
	}
	tiers := make([]TierBody, len(res.Data))
	for i, t := range res.Data {
		t.Edges.Campaign = cmp
		tiers[i] = TierJSON(t, d)
	}
	return map[string]any{"object": "list", "data_ref": "tiers", "tiers": tiers, "total": res.Total, "has_more": res.HasMore}, nil
}
