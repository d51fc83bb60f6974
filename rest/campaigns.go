package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/promotions"
)

// campaignHandlers serve /v1/campaigns through the GraphQL resolvers.
type campaignHandlers struct{ root *graph.Resolver }

// create serves POST /v1/campaigns (SDK: campaigns.create).
func (h campaignHandlers) create(c *gin.Context) {
	var in campaign.CreateCampaignInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	created, err := inTx(c, func(ctx context.Context) (*ent.Campaign, error) {
		return h.root.Mutation().CreateCampaign(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	h.renderCampaign(c, http.StatusOK, created)
}

// get serves GET /v1/campaigns/{campaignId}: the ID or the name.
func (h campaignHandlers) get(c *gin.Context) {
	found, err := h.root.Query().Campaign(c.Request.Context(), c.Param("campaignId"))
	if err != nil {
		renderError(c, err)
		return
	}
	h.renderCampaign(c, http.StatusOK, found)
}

// campaignBody is the interface's Campaign object. Required fields are
// always present; optional ones are null when unset.
type campaignBody struct {
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
	StartDate                       *timestamp                   `json:"start_date"`
	ExpirationDate                  *timestamp                   `json:"expiration_date"`
	Active                          bool                         `json:"active"`
	Metadata                        map[string]any               `json:"metadata"`
	CreatedAt                       timestamp                    `json:"created_at"`
	UpdatedAt                       *timestamp                   `json:"updated_at"`
	Category                        *string                      `json:"category"`
	CreationStatus                  string                       `json:"creation_status"`
	VouchersGenerationStatus        string                       `json:"vouchers_generation_status"`
	Protected                       bool                         `json:"protected"`
	CategoryID                      *string                      `json:"category_id"`
	Categories                      []categories.Body            `json:"categories"`
	ReferralProgram                 map[string]any               `json:"referral_program,omitempty"`
	LoyaltyTiersExpiration          map[string]any               `json:"loyalty_tiers_expiration,omitempty"`
	Promotion                       map[string]any               `json:"promotion,omitempty"`
	ValidationRulesAssignments      listEnvelope[any]            `json:"validation_rules_assignments"`
	Object                          string                       `json:"object"`
}

// campaignJSON is the campaign object; its categories come from the
// category edge when it was loaded (a list with expand=category), else
// they are empty. Single-campaign answers use renderCampaign.
func campaignJSON(c *ent.Campaign) campaignBody {
	metadata := c.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	return campaignBody{
		ID: c.ID, Name: c.Name, Description: c.Description,
		CampaignType: c.CampaignType.String(), Type: c.Type.String(),
		Voucher: c.Voucher, AutoJoin: c.AutoJoin, JoinOnce: c.JoinOnce,
		UseVoucherMetadataSchema: c.UseVoucherMetadataSchema,
		ValidityTimeframe:        c.ValidityTimeframe, ValidityDayOfWeek: c.ValidityDayOfWeek,
		ValidityHours:                   c.ValidityHours,
		ActivityDurationAfterPublishing: c.ActivityDurationAfterPublishing,
		VouchersCount:                   c.VouchersCount,
		StartDate:                       optionalTime(c.StartDate), ExpirationDate: optionalTime(c.ExpirationDate),
		Active: c.Active, Metadata: metadata,
		CreatedAt: timestamp(c.CreatedAt), UpdatedAt: optionalTime(c.UpdatedAt),
		Category: c.Category, CreationStatus: c.CreationStatus.String(),
		VouchersGenerationStatus: c.VouchersGenerationStatus.String(),
		Protected:                c.Protected, CategoryID: c.CategoryID, Categories: categories.ListJSON(loadedCategories(c)),
		ReferralProgram: c.ReferralProgram, LoyaltyTiersExpiration: tiersExpirationJSON(c.LoyaltyTiersExpiration),
		Promotion:                  c.Promotion,
		ValidationRulesAssignments: newList[any](nil, 0),
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

// renderCampaign answers with one campaign, its categories resolved as the
// GraphQL field Campaign.categories resolves them.
func (h campaignHandlers) renderCampaign(c *gin.Context, status int, cmp *ent.Campaign) {
	cats, err := h.root.Campaign().Categories(c.Request.Context(), cmp)
	if err != nil {
		renderError(c, err)
		return
	}
	body := campaignJSON(cmp)
	body.Categories = categories.ListJSON(cats)
	if body.Promotion, err = promotions.CampaignPromotion(c, h.root, cmp); err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(status, body)
}
