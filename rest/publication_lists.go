package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// list serves GET /v1/publications: page/limit, campaign, customer,
// voucher, result, source_id, order, voucher_type, is_referral_code and
// the filters[…] object (graph/publication list_filters.go).
func (h publicationHandlers) list(c *gin.Context) {
	var in publication.PublicationListInput
	var err error
	if in.Limit, in.Page, err = limitAndPage(c); err != nil {
		renderError(c, err)
		return
	}
	queryStrings(c, map[string]**string{"campaign": &in.Campaign, "customer": &in.Customer, "voucher": &in.Voucher,
		"result": &in.Result, "source_id": &in.SourceID, "order": &in.Order, "voucher_type": &in.VoucherType})
	if in.IsReferralCode, err = httpkit.QueryBool(c, "is_referral_code"); err != nil {
		renderError(c, err)
		return
	}
	if in.Filters, err = httpkit.DeepFilters(c.Request.URL.Query()); err != nil {
		renderError(c, err)
		return
	}
	h.listWith(c, in)
}

// voucherPublications serves GET /v1/vouchers/{code}/publications (what a
// voucher's publish.url points at): the publications of that code.
func (h publicationHandlers) voucherPublications(c *gin.Context) {
	var in publication.PublicationListInput
	var err error
	if in.Limit, in.Page, err = limitAndPage(c); err != nil {
		renderError(c, err)
		return
	}
	if _, err := h.root.Query().Voucher(c.Request.Context(), c.Param("code")); err != nil {
		renderError(c, err) // an unknown code is a 404, not an empty list
		return
	}
	code := c.Param("code")
	in.Voucher = &code
	h.listWith(c, in)
}

// listWith answers with a page of publications in the v1 envelope.
func (h publicationHandlers) listWith(c *gin.Context, in publication.PublicationListInput) {
	res, err := h.root.Query().PublicationList(c.Request.Context(), &in)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]publicationBody, len(res.Data))
	for i, p := range res.Data {
		out[i] = h.publicationJSON(c, p)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "publications", "publications": out, "total": res.Total})
}
