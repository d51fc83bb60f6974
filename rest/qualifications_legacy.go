package rest

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/qualification"
	"github.com/promoengine/promoengine/rest/campaigns"
)

// The legacy qualifications (deprecated in the reference, still served):
// POST /v1/vouchers/qualification and POST /v1/campaigns/qualification,
// graph/qualification.QualifyVouchers / QualifyCampaigns
// (docs/qualifications.md "Legacy endpoints"), through the resolvers of
// the GraphQL voucherQualification and campaignQualification. Nothing is
// written: no transaction.

func registerLegacyQualifications(v1 *gin.RouterGroup, auth gin.HandlerFunc, vouchers voucherHandlers) {
	v1.POST("/vouchers/qualification", auth, vouchers.qualify)
	v1.POST("/campaigns/qualification", auth, vouchers.qualifyCampaigns)
}

// legacyQualificationBody is a legacy qualification's answer: the list
// envelope with the qualification's id, date and tracking id.
type legacyQualificationBody[T any] struct {
	listEnvelope[T]
	ID         string    `json:"id"`
	CreatedAt  timestamp `json:"created_at"`
	TrackingID *string   `json:"tracking_id,omitempty"`
}

// qualifiedVoucherBody is a qualified voucher: the voucher object and
// what its validation computes.
type qualifiedVoucherBody struct {
	voucherBody
	ApplicableTo   any `json:"applicable_to"`
	InapplicableTo any `json:"inapplicable_to"`
}

// legacyQualificationInput decodes the body and the query parameters
// audienceRulesOnly, limit and order.
func legacyQualificationInput(c *gin.Context) (qualification.LegacyInput, error) {
	var in qualification.LegacyInput
	if err := decodeBody(c, &in); err != nil {
		return in, err
	}
	if raw, ok := c.GetQuery("audienceRulesOnly"); ok {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return in, apperr.InvalidQueryParams("Query parameter audienceRulesOnly must be true or false")
		}
		in.AudienceRulesOnly = b
	}
	limit, err := queryInt(c, "limit")
	if err != nil {
		return in, err
	}
	in.Limit = limit
	queryStrings(c, map[string]**string{"order": &in.OrderBy})
	return in, nil
}

// qualify serves POST /v1/vouchers/qualification.
func (h voucherHandlers) qualify(c *gin.Context) {
	in, err := legacyQualificationInput(c)
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().VoucherQualification(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	data := make([]qualifiedVoucherBody, len(res.Data))
	for i, v := range res.Data {
		data[i] = qualifiedVoucherBody{voucherBody: h.voucherJSON(c, v),
			ApplicableTo: res.ApplicableTo[i], InapplicableTo: res.InapplicableTo[i]}
	}
	c.PureJSON(http.StatusOK, legacyQualificationBody[qualifiedVoucherBody]{listEnvelope: newList(data, len(data)),
		ID: res.ID, CreatedAt: timestamp(res.CreatedAt), TrackingID: res.TrackingID})
}

// qualifyCampaigns serves POST /v1/campaigns/qualification.
func (h voucherHandlers) qualifyCampaigns(c *gin.Context) {
	in, err := legacyQualificationInput(c)
	if err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().CampaignQualification(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	data := make([]campaigns.Body, len(res.Data))
	for i, cmp := range res.Data {
		data[i] = campaigns.JSON(cmp)
	}
	c.PureJSON(http.StatusOK, legacyQualificationBody[campaigns.Body]{listEnvelope: newList(data, len(data)),
		ID: res.ID, CreatedAt: timestamp(res.CreatedAt), TrackingID: res.TrackingID})
}
