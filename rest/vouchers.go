package rest

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	jobrun "github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/validationrules"
)

// voucherHandlers serve vouchers and async actions through the GraphQL resolvers.
type voucherHandlers struct {
	root      *graph.Resolver
	publicURL string
}

// addCertainVoucher serves POST /v1/campaigns/{campaignId}/vouchers/{code}
// (SDK campaigns.addCertainVoucher): one voucher with the path's code; a
// code in the body must agree with it.
func (h voucherHandlers) addCertainVoucher(c *gin.Context) {
	var in campaign.AddVouchersInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	code := c.Param("code")
	if in.Code != nil && *in.Code != code {
		renderError(c, apperr.InvalidPayload("Property .code must be the code in the path (%q) or absent", code))
		return
	}
	in.Code = &code
	created, err := inTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return h.root.Mutation().AddVoucher(ctx, c.Param("campaignId"), &in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.voucherJSON(c, created))
}

// addVouchers serves POST /v1/campaigns/{campaignId}/vouchers: one voucher
// (200, the voucher) or, with any other vouchers_count, a background job
// (202, {async_action_id}); generateVouchers checks the count's range.
func (h voucherHandlers) addVouchers(c *gin.Context) {
	count := 1
	if raw := c.Query("vouchers_count"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			renderError(c, apperr.InvalidQueryParams("vouchers_count must be an integer, got %q", raw))
			return
		}
		count = n
	}
	var in campaign.AddVouchersInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	campaignID := c.Param("campaignId")
	if count != 1 {
		job, err := inTx(c, func(ctx context.Context) (*ent.AsyncAction, error) {
			return h.root.Mutation().GenerateVouchers(ctx, campaignID, count, &in)
		})
		if err != nil {
			renderError(c, err)
			return
		}
		c.PureJSON(http.StatusAccepted, gin.H{"async_action_id": job.ID})
		return
	}
	created, err := inTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return h.root.Mutation().AddVoucher(ctx, campaignID, &in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.voucherJSON(c, created))
}

// get serves GET /v1/vouchers/{code}: by code or ID.
func (h voucherHandlers) get(c *gin.Context) {
	v, err := h.root.Query().Voucher(c.Request.Context(), c.Param("code"))
	if err != nil {
		renderError(c, err)
		return
	}
	body, err := h.voucherWithAssignments(c, v)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

// voucherWithAssignments is the voucher object with the validation rules
// assigned to it and to its campaign (the form of GET and of create).
func (h voucherHandlers) voucherWithAssignments(c *gin.Context, v *ent.Voucher) (voucherBody, error) {
	assignments, err := h.root.Voucher().ValidationRulesAssignments(c.Request.Context(), v)
	if err != nil {
		return voucherBody{}, err
	}
	body := h.voucherJSON(c, v)
	items := make([]any, len(assignments))
	for i, a := range assignments {
		items[i] = validationrules.AssignmentJSON(a)
	}
	body.ValidationRulesAssignments = newList(items, len(items))
	return body, nil
}

// asyncAction serves GET /v1/async-actions/{id}.
func (h voucherHandlers) asyncAction(c *gin.Context) {
	job, err := h.root.Query().AsyncAction(c.Request.Context(), c.Param("id"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, asyncActionJSON(job))
}

// asyncActionBody is the real service's async action object.
type asyncActionBody struct {
	ID             string         `json:"id"`
	Type           string         `json:"type"`
	Status         string         `json:"status"`
	Result         map[string]any `json:"result"`
	CreatedAt      timestamp      `json:"created_at"`
	UpdatedAt      *timestamp     `json:"updated_at"`
	RequestID      *string        `json:"request_id"`
	ProcessingTime *int64         `json:"processing_time"`
	Progress       int            `json:"progress"`
	Object         string         `json:"object"`
}

func asyncActionJSON(j *ent.AsyncAction) asyncActionBody {
	var processing *int64
	if j.StartedAt != nil && j.FinishedAt != nil {
		ms := j.FinishedAt.Sub(*j.StartedAt).Milliseconds()
		processing = &ms
	}
	return asyncActionBody{
		ID: j.ID, Type: asyncActionType(j.Type), Status: j.Status.String(), Result: j.Result,
		CreatedAt: timestamp(j.CreatedAt), UpdatedAt: optionalTime(j.UpdatedAt),
		RequestID: j.RequestID, ProcessingTime: processing, Progress: jobrun.Progress(j),
		Object: "async_action",
	}
}

// voucherBody is the interface's Voucher object: every field present, null
// where unset.
type voucherBody struct {
	ID                         string                       `json:"id"`
	Code                       string                       `json:"code"`
	Campaign                   *string                      `json:"campaign"`
	CampaignID                 *string                      `json:"campaign_id"`
	Category                   *string                      `json:"category"`
	CategoryID                 *string                      `json:"category_id"`
	Categories                 []categories.Body            `json:"categories"`
	Type                       string                       `json:"type"`
	Discount                   *jsonfield.Discount          `json:"discount"`
	Gift                       *jsonfield.Gift              `json:"gift"`
	LoyaltyCard                *jsonfield.LoyaltyCard       `json:"loyalty_card"`
	StartDate                  *timestamp                   `json:"start_date"`
	ExpirationDate             *timestamp                   `json:"expiration_date"`
	ValidityTimeframe          *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek          []int                        `json:"validity_day_of_week"`
	ValidityHours              *jsonfield.ValidityHours     `json:"validity_hours"`
	Active                     bool                         `json:"active"`
	AdditionalInfo             *string                      `json:"additional_info"`
	Metadata                   map[string]any               `json:"metadata"`
	Assets                     voucherAssetsBody            `json:"assets"`
	IsReferralCode             bool                         `json:"is_referral_code"`
	CreatedAt                  timestamp                    `json:"created_at"`
	UpdatedAt                  *timestamp                   `json:"updated_at"`
	HolderID                   *string                      `json:"holder_id"`
	ReferrerID                 *string                      `json:"referrer_id"`
	Object                     string                       `json:"object"`
	Publish                    publishBody                  `json:"publish"`
	Redemption                 redemptionBody               `json:"redemption"`
	ValidationRulesAssignments listEnvelope[any]            `json:"validation_rules_assignments"`
}

type voucherAssetsBody struct {
	QR      assetBody `json:"qr"`
	Barcode assetBody `json:"barcode"`
}

type assetBody struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

type publishBody struct {
	Object string `json:"object"`
	Count  int    `json:"count"`
	URL    string `json:"url"`
}

type redemptionBody struct {
	Quantity         *int   `json:"quantity"`
	RedeemedQuantity int    `json:"redeemed_quantity"`
	RedeemedPoints   int    `json:"redeemed_points"`
	Object           string `json:"object"`
	URL              string `json:"url"`
}

// voucherJSON renders a voucher (loaded with its campaign, for the name).
// Its categories resolve as the GraphQL field Voucher.categories does;
// outside a request (webhook payloads) from the edges loaded with it.
func (h voucherHandlers) voucherJSON(c *gin.Context, v *ent.Voucher) voucherBody {
	cats, err := h.root.Voucher().Categories(c.Request.Context(), v)
	if err != nil {
		cats = campaign.VoucherCategories(v)
	}
	var campaignName *string
	if cmp := v.Edges.Campaign; cmp != nil {
		campaignName = &cmp.Name
	}
	metadata := v.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	base := h.baseURL(c)
	assets := graph.VoucherAssetPaths(v)
	escaped := url.PathEscape(v.Code)
	return voucherBody{
		ID: v.ID, Code: v.Code, Campaign: campaignName, CampaignID: v.CampaignID,
		Category: v.Category, CategoryID: v.CategoryID, Categories: categories.ListJSON(cats),
		Type: string(v.Type), Discount: v.Discount, Gift: v.Gift, LoyaltyCard: v.LoyaltyCard,
		StartDate: optionalTime(v.StartDate), ExpirationDate: optionalTime(v.ExpirationDate),
		ValidityTimeframe: v.ValidityTimeframe, ValidityDayOfWeek: v.ValidityDayOfWeek, ValidityHours: v.ValidityHours,
		Active: v.Active, AdditionalInfo: v.AdditionalInfo, Metadata: metadata,
		Assets: voucherAssetsBody{
			QR:      assetBody{ID: assets.QR.ID, URL: base + assets.QR.URL},
			Barcode: assetBody{ID: assets.Barcode.ID, URL: base + assets.Barcode.URL},
		},
		IsReferralCode: v.IsReferralCode,
		CreatedAt:      timestamp(v.CreatedAt), UpdatedAt: optionalTime(v.UpdatedAt),
		HolderID: v.HolderID, ReferrerID: v.ReferrerID, Object: "voucher",
		Publish: publishBody{Object: "list", Count: v.PublishCount,
			URL: "/v1/vouchers/" + escaped + "/publications?page=1&limit=10"},
		Redemption: redemptionBody{Quantity: v.RedemptionQuantity, RedeemedQuantity: v.RedeemedQuantity,
			RedeemedPoints: v.RedeemedPoints, Object: "list",
			URL: "/v1/vouchers/" + escaped + "/redemptions?page=1&limit=10"},
		ValidationRulesAssignments: newList[any](nil, 0),
	}
}

// baseURL is the configured public URL, or the one the request came to;
// empty (links relative, /v1/…) when neither names a host, as when webhook
// payloads are rendered outside a request.
func (h voucherHandlers) baseURL(c *gin.Context) string {
	if h.publicURL != "" {
		return h.publicURL
	}
	if c.Request.Host == "" {
		return ""
	}
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.Request.Host
}
