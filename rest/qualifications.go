package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	accesspkg "github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/qualification"
)

// Qualifications: POST /v1/qualifications (application keys) and POST
// /client/v1/qualifications (client-side keys and origin), one use case
// (graph/qualification, docs/qualifications.md). Nothing is written: no
// transaction.
type qualificationHandlers struct{ root *graph.Resolver }

func registerQualifications(v1 *gin.RouterGroup, auth gin.HandlerFunc, r *gin.Engine, client clientAccess, h qualificationHandlers) {
	v1.POST("/qualifications", auth, h.qualify)
	r.POST("/client/v1/qualifications", client.authenticate, markClientView, h.qualifyClient)
}

// qualify serves POST /v1/qualifications.
func (h qualificationHandlers) qualify(c *gin.Context) {
	var in qualification.Input
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	h.answer(c, in)
}

// qualifyClient serves POST /client/v1/qualifications: a page names its
// customer by source_id only, and sees held codes only when the project
// lets pages list codes (client_list_vouchers_enabled).
func (h qualificationHandlers) qualifyClient(c *gin.Context) {
	var in qualification.Input
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	if in.Customer != nil && in.Customer.ID != nil {
		renderError(c, apperr.InvalidPayload("Property .customer.id is not accepted on the client-side API"))
		return
	}
	in.WithoutHeldVouchers = accesspkg.ClientAllows(clientProject(c), accesspkg.ClientListVouchers) != nil
	h.answer(c, in)
}

func (h qualificationHandlers) answer(c *gin.Context, in qualification.Input) {
	res, err := h.root.Query().Qualifications(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, res)
}
