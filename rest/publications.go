package rest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// publicationHandlers serve POST /v1/publications through the publish resolver.
type publicationHandlers struct{ voucherHandlers }

// publishRequest is the create-publication body as the SDKs send it:
// campaign and customer may each be an object or a plain string (a
// campaign name, a customer id), and join_once may come in the body.
type publishRequest struct {
	Voucher  *string         `json:"voucher"`
	Campaign json.RawMessage `json:"campaign"`
	Customer json.RawMessage `json:"customer"`
	SourceID *string         `json:"source_id"`
	Metadata map[string]any  `json:"metadata"`
	Channel  *string         `json:"channel"`
	JoinOnce *bool           `json:"join_once"`
}

// create serves POST /v1/publications.
func (h publicationHandlers) create(c *gin.Context) {
	in, joinOnce, err := decodePublish(c)
	if err != nil {
		renderError(c, err)
		return
	}
	h.publish(c, in, joinOnce)
}

// publish runs a decoded publication (server- or client-side).
func (h publicationHandlers) publish(c *gin.Context, in publication.PublishInput, joinOnce bool) {
	// The resolver runs its own transaction (the common case is a single
	// statement on PostgreSQL, so it is not wrapped here). The answer shows
	// only the name and category of the vouchers' campaign, so the single
	// statement need not return the rest of it.
	ctx := publication.WithCampaignSummary(c.Request.Context())
	pub, err := h.root.Mutation().Publish(ctx, in, &joinOnce)
	if err != nil {
		renderError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, h.publicationJSON(c, pub))
}

func decodePublish(c *gin.Context) (publication.PublishInput, bool, error) {
	var req publishRequest
	if err := decodeBody(c, &req); err != nil {
		return publication.PublishInput{}, false, err
	}
	return publishInput(c, req)
}

// publishInput turns a decoded request into the use case's input; a
// join_once query parameter overrides the body's.
func publishInput(c *gin.Context, req publishRequest) (publication.PublishInput, bool, error) {
	in := publication.PublishInput{Voucher: req.Voucher, SourceID: req.SourceID, Metadata: req.Metadata, Channel: req.Channel}
	if httpkit.Present(req.Campaign) {
		in.Campaign = &publication.PublishCampaignInput{}
		if err := httpkit.DecodeStringOr(req.Campaign, "campaign", &in.Campaign.Name, in.Campaign); err != nil {
			return in, false, err
		}
	}
	if httpkit.Present(req.Customer) {
		in.Customer = &customer.CustomerInput{}
		var id string
		if err := httpkit.DecodeStringOr(req.Customer, "customer", &id, in.Customer); err != nil {
			return in, false, err
		}
		if id != "" {
			in.Customer.ID = &id
		}
	}
	joinOnce := req.JoinOnce != nil && *req.JoinOnce
	if raw, ok := c.GetQuery("join_once"); ok {
		v, err := strconv.ParseBool(raw)
		if err != nil {
			return in, false, apperr.InvalidQueryParams("join_once must be true or false, got %q", raw)
		}
		joinOnce = v
	}
	return in, joinOnce, nil
}

// publicationBody is the Publication object: one voucher object in the
// single form, or the codes in the count form.
type publicationBody struct {
	ID         string         `json:"id"`
	Object     string         `json:"object"`
	CreatedAt  timestamp      `json:"created_at"`
	CustomerID string         `json:"customer_id"`
	TrackingID *string        `json:"tracking_id"`
	Metadata   map[string]any `json:"metadata"`
	Channel    string         `json:"channel"`
	SourceID   *string        `json:"source_id"`
	Result     string         `json:"result"`
	// Customer is a customerBody, or a clientCustomerBody on /client/v1.
	Customer   any          `json:"customer"`
	VouchersID []string     `json:"vouchers_id"`
	Voucher    *voucherBody `json:"voucher,omitempty"`
	Vouchers   []string     `json:"vouchers,omitempty"`
}

func (h publicationHandlers) publicationJSON(c *gin.Context, p *ent.Publication) publicationBody {
	out := publicationBody{
		ID: p.ID, Object: "publication", CreatedAt: timestamp(p.CreatedAt), CustomerID: p.CustomerID,
		TrackingID: p.TrackingID, Metadata: orEmpty(p.Metadata), Channel: p.Channel, SourceID: p.SourceID,
		Result: p.Result, VouchersID: p.VoucherIds,
	}
	if isClientView(c) {
		out.Customer = clientCustomer(p.CustomerID, p.Edges.Customer.SourceID)
	} else {
		out.Customer = customerJSON(p.Edges.Customer)
	}
	vouchers := publication.ShownVouchers(p) // a deleted voucher as it was (docs/publications.md)
	if p.CountForm {
		out.Vouchers = make([]string, len(vouchers))
		for i, v := range vouchers {
			out.Vouchers[i] = v.Code
		}
	} else if len(vouchers) > 0 {
		v := h.voucherJSON(c, vouchers[0])
		out.Voucher = &v
	}
	return out
}
