package campaigns

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/promotions"
)

// Body is the interface's Campaign object. Required fields are
// always present; optional ones are null when unset.
type Body struct {
	ID                              string                       `json:"id"`
	Name                            string                       `json:"name"`
	Description                     *string                      `json:"description"`
	CampaignType                    string                       `json:"campaign_type"`
	Type                            string                       `json:"type"`
	Voucher                         *jsonfield.VoucherProfile    `json:"voucher"`
	AutoJoin                        bool                         `json:"auto_join"`
	JoinOnce                        bool                         `json:"join_once"`
	UseVoucherMetadataSchema        bool                         `json:"use_voucher_metadata_schema"`
	ValidityTimeframe               *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int                        `json:"validity_day_of_week"`
	ValidityHours                   *jsonfield.ValidityHours     `json:"validity_hours"`
	ActivityDurationAfterPublishing *string                      `json:"activity_duration_after_publishing"`
	VouchersCount                   int                          `json:"vouchers_count"`
	StartDate                       *httpkit.Timestamp           `json:"start_date"`
	ExpirationDate                  *httpkit.Timestamp           `json:"expiration_date"`
	Active                          bool                         `json:"active"`
	Metadata                        map[string]any               `json:"metadata"`
	CreatedAt                       httpkit.Timestamp            `json:"created_at"`
	UpdatedAt                       *httpkit.Timestamp           `json:"updated_at"`
	Category                        *string                      `json:"category"`
	CreationStatus                  string                       `json:"creation_status"`
	VouchersGenerationStatus        string                       `json:"vouchers_generation_status"`
	Protected                       bool                         `json:"protected"`
	CategoryID                      *string                      `json:"category_id"`
	Categories                      []categories.Body            `json:"categories"`
	ReferralProgram                 map[string]any               `json:"referral_program,omitempty"`
	LoyaltyTiersExpiration          map[string]any               `json:"loyalty_tiers_expiration,omitempty"`
	Promotion                       map[string]any               `json:"promotion,omitempty"`
	ValidationRulesAssignments      httpkit.ListEnvelope[any]    `json:"validation_rules_assignments"`
	Object                          string                       `json:"object"`
}

// JSON is the campaign object; its categories come from the
// category edge when it was loaded (a list with expand=category), else
// they are empty. Single-campaign answers use Render.
func JSON(c *ent.Campaign) Body {
	metadata := c.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	return Body{
		ID: c.ID, Name: c.Name, Description: c.Description,
		CampaignType: c.CampaignType.String(), Type: c.Type.String(),
		Voucher: c.Voucher, AutoJoin: c.AutoJoin, JoinOnce: c.JoinOnce,
		UseVoucherMetadataSchema: c.UseVoucherMetadataSchema,
		ValidityTimeframe:        c.ValidityTimeframe, ValidityDayOfWeek: c.ValidityDayOfWeek,
		ValidityHours:                   c.ValidityHours,
		ActivityDurationAfterPublishing: c.ActivityDurationAfterPublishing,
		VouchersCount:                   c.VouchersCount,
		StartDate:                       httpkit.OptionalTime(c.StartDate), ExpirationDate: httpkit.OptionalTime(c.ExpirationDate),
		Active: c.Active, Metadata: metadata,
		CreatedAt: httpkit.Timestamp(c.CreatedAt), UpdatedAt: httpkit.OptionalTime(c.UpdatedAt),
		Category: c.Category, CreationStatus: c.CreationStatus.String(),
		VouchersGenerationStatus: c.VouchersGenerationStatus.String(),
		Protected:                c.Protected, CategoryID: c.CategoryID, Categories: categories.ListJSON(loadedCategories(c)),
		ReferralProgram: c.ReferralProgram, LoyaltyTiersExpiration: tiersExpirationJSON(c.LoyaltyTiersExpiration),
		Promotion:                  c.Promotion,
		ValidationRulesAssignments: httpkit.NewList[any](nil, 0),
		Object:                     "campaign",
	}
}

// loadedCategories is the campaign's category as a list when the edge was
// loaded (nil otherwise, and for a campaign without one).
func loadedCategories(c *ent.Campaign) []*ent.Category {
	if cat, err := c.Edges.AssignedCategoryOrErr(); err == nil && cat != nil {
		return []*ent.Category{cat}
	}
	return nil
}

// Render is the answer with one campaign, its categories resolved as the
// GraphQL field Campaign.categories resolves them, and a PROMOTION
// campaign's tiers (promotions.CampaignPromotion).
func Render(root *graph.Resolver) func(c *gin.Context, status int, cmp *ent.Campaign) {
	return func(c *gin.Context, status int, cmp *ent.Campaign) {
		cats, err := root.Campaign().Categories(c.Request.Context(), cmp)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		body := JSON(cmp)
		body.Categories = categories.ListJSON(cats)
		if body.Promotion, err = promotions.CampaignPromotion(c, root, cmp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(status, body)
	}
}

// ListJSON is a v1 list of campaigns.
func ListJSON(res *campaign.CampaignList) gin.H {
	out := make([]Body, len(res.Data))
	for i, cmp := range res.Data {
		out[i] = JSON(cmp)
	}
	return gin.H{"object": "list", "data_ref": "campaigns", "campaigns": out, "total": res.Total}
}

// RenderList answers with a v1 list of campaigns.
func RenderList(c *gin.Context, res *campaign.CampaignList) { c.PureJSON(http.StatusOK, ListJSON(res)) }

// noExtension is the extend of a tier expiration stored without one: no
// grace period (ISO 8601 zero duration).
const noExtension = "P0D"

// tiersExpirationJSON is a program's loyalty_tiers_expiration as stored,
// with expiration_date.extend (required by the documents:
// LoyaltyTiersExpirationAll) set to no extension when the program was
// created without one — which is how the tiers behave then (a copy: the
// entity is not changed).
func tiersExpirationJSON(stored map[string]any) map[string]any {
	exp, ok := stored["expiration_date"].(map[string]any)
	if !ok {
		return stored
	}
	if _, has := exp["extend"]; has {
		return stored
	}
	out := make(map[string]any, len(stored))
	for k, v := range stored {
		out[k] = v
	}
	date := make(map[string]any, len(exp)+1)
	for k, v := range exp {
		date[k] = v
	}
	date["extend"] = noExtension
	out["expiration_date"] = date
	return out
}
