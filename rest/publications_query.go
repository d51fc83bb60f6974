package rest

import (
	"encoding/json"

	"github.com/gin-gonic/gin"
)

// createFromQuery serves GET /v1/publications/create: the create-publication
// request written as a query string in the bracket form (customer[source_id]=…,
// campaign[name]=…, metadata[key]=…, voucher, source_id, channel, join_once),
// for publishing from an e-mail or landing-page link. It runs the same
// publication as POST /v1/publications and answers the same object.
// Metadata values stay text (a query string has no types).
func (h publicationHandlers) createFromQuery(c *gin.Context) {
	q := c.Request.URL.Query()
	q.Del("join_once") // read by publishInput from the query itself
	obj, err := nestedQuery(q)
	if err != nil {
		renderError(c, err)
		return
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		renderError(c, err)
		return
	}
	var req publishRequest
	if err := decodeJSON(raw, &req); err != nil {
		renderError(c, err)
		return
	}
	in, joinOnce, err := publishInput(c, req)
	if err != nil {
		renderError(c, err)
		return
	}
	h.publish(c, in, joinOnce)
}
