package vouchers

import (
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/categories"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Body is the interface's Voucher object: every field present, null
// where unset.
type Body struct {
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
	StartDate                  *httpkit.Timestamp           `json:"start_date"`
	ExpirationDate             *httpkit.Timestamp           `json:"expiration_date"`
	ValidityTimeframe          *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek          []int                        `json:"validity_day_of_week"`
	ValidityHours              *jsonfield.ValidityHours     `json:"validity_hours"`
	Active                     bool                         `json:"active"`
	AdditionalInfo             *string                      `json:"additional_info"`
	Metadata                   map[string]any               `json:"metadata"`
	Assets                     voucherAssetsBody            `json:"assets"`
	IsReferralCode             bool                         `json:"is_referral_code"`
	CreatedAt                  httpkit.Timestamp            `json:"created_at"`
	UpdatedAt                  *httpkit.Timestamp           `json:"updated_at"`
	HolderID                   *string                      `json:"holder_id"`
	ReferrerID                 *string                      `json:"referrer_id"`
	Object                     string                       `json:"object"`
	Publish                    publishBody                  `json:"publish"`
	Redemption                 redemptionBody               `json:"redemption"`
	ValidationRulesAssignments httpkit.ListEnvelope[any]    `json:"validation_rules_assignments"`
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

// JSON renders a voucher (loaded with its campaign, for the name).
// Its categories resolve as the GraphQL field Voucher.categories does;
// outside a request (webhook payloads) from the edges loaded with it.
func (r Renderer) JSON(c *gin.Context, v *ent.Voucher) Body {
	cats, err := r.Root.Voucher().Categories(c.Request.Context(), v)
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
	base := r.BaseURL(c)
	assets := graph.VoucherAssetPaths(v)
	escaped := url.PathEscape(v.Code)
	return Body{
		ID: v.ID, Code: v.Code, Campaign: campaignName, CampaignID: v.CampaignID,
		Category: v.Category, CategoryID: v.CategoryID, Categories: categories.ListJSON(cats),
		Type: string(v.Type), Discount: v.Discount, Gift: v.Gift, LoyaltyCard: v.LoyaltyCard,
		StartDate: httpkit.OptionalTime(v.StartDate), ExpirationDate: httpkit.OptionalTime(v.ExpirationDate),
		ValidityTimeframe: v.ValidityTimeframe, ValidityDayOfWeek: v.ValidityDayOfWeek, ValidityHours: v.ValidityHours,
		Active: v.Active, AdditionalInfo: v.AdditionalInfo, Metadata: metadata,
		Assets: voucherAssetsBody{
			QR:      assetBody{ID: assets.QR.ID, URL: base + assets.QR.URL},
			Barcode: assetBody{ID: assets.Barcode.ID, URL: base + assets.Barcode.URL},
		},
		IsReferralCode: v.IsReferralCode,
		CreatedAt:      httpkit.Timestamp(v.CreatedAt), UpdatedAt: httpkit.OptionalTime(v.UpdatedAt),
		HolderID: v.HolderID, ReferrerID: v.ReferrerID, Object: "voucher",
		Publish: publishBody{Object: "list", Count: v.PublishCount,
			URL: "/v1/vouchers/" + escaped + "/publications?page=1&limit=10"},
		Redemption: redemptionBody{Quantity: v.RedemptionQuantity, RedeemedQuantity: v.RedeemedQuantity,
			RedeemedPoints: v.RedeemedPoints, Object: "list",
			URL: "/v1/vouchers/" + escaped + "/redemptions?page=1&limit=10"},
		ValidationRulesAssignments: httpkit.NewList[any](nil, 0),
	}
}

// BaseURL is the configured public URL, or the one the request came to;
// empty (links relative, /v1/…) when neither names a host, as when webhook
// payloads are rendered outside a request.
func (r Renderer) BaseURL(c *gin.Context) string {
	if r.PublicURL != "" {
		return r.PublicURL
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
