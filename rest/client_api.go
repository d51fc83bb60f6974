package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	accesspkg "github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/loyalty/event"
	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/graph/redemption"
	voucherarea "github.com/promoengine/promoengine/rest/vouchers"
)

// The client-side API (/client/v1): what the official SDK's
// VoucherifyClientSide calls from web pages. Every route calls the same
// resolver as its server-side twin; what differs is who may call it
// (clientAccess), which operations the project has switched on, and that
// a browser can neither choose a customer by id nor read a stored
// customer profile (client_view.go).
type clientHandlers struct {
	redemptions    redemptionHandlers
	publications   publicationHandlers
	events         eventHandlers
	customers      customerHandlers
	vouchers       voucherHandlers
	promotionTiers gin.HandlerFunc // rest/promotions
}

func registerClientAPI(r *gin.Engine, access clientAccess, h clientHandlers) {
	cl := r.Group("/client/v1", access.authenticate, markClientView)
	cl.GET("/validate", h.validate)
	cl.POST("/validations", h.redemptions.validateStacked)
	cl.POST("/redeem", requireClientOperation(accesspkg.ClientRedeem), h.redeem)
	cl.POST("/redemptions", requireClientOperation(accesspkg.ClientRedeem), h.redemptions.redeemStacked)
	cl.POST("/publish", requireClientOperation(accesspkg.ClientPublish), h.publish)
	cl.POST("/events", h.event)
	cl.GET("/vouchers", requireClientOperation(accesspkg.ClientListVouchers), h.listVouchers)
	cl.POST("/customers", requireClientOperation(accesspkg.ClientCreateCustomer), h.createCustomer)
	cl.GET("/promotions/tiers", h.promotionTiers) // the server list, for a web page's promotion widget
}

// validate serves GET /client/v1/validate?code=…: the legacy validation,
// its request sent as a bracketed query (customer[source_id], item[0][…],
// amount, metadata[…], order[metadata][…], tracking_id, session_*).
func (h clientHandlers) validate(c *gin.Context) {
	q, err := nestedQuery(c.Request.URL.Query())
	if err != nil {
		renderError(c, err)
		return
	}
	code, _ := q["code"].(string)
	if code == "" {
		renderError(c, apperr.MissingParameters("Query parameter code is required"))
		return
	}
	order, _ := q["order"].(map[string]any)
	if order == nil {
		order = map[string]any{}
	}
	for from, to := range map[string]string{"amount": "amount", "item": "items", "items": "items"} {
		if v, ok := q[from]; ok {
			order[to] = v
		}
	}
	req := map[string]any{"customer": q["customer"], "metadata": q["metadata"], "tracking_id": q["tracking_id"], "order": order}
	session := map[string]any{}
	for _, k := range []string{"type", "key", "ttl", "ttl_unit"} {
		if v, ok := q["session_"+k]; ok {
			session[k] = v
		}
	}
	if len(session) > 0 {
		req["session"] = session
	}
	raw, err := json.Marshal(req)
	if err != nil {
		renderError(c, err)
		return
	}
	var in redemption.VoucherRedemptionInput
	if err := decodeJSON(raw, &in); err != nil {
		renderError(c, err)
		return
	}
	res, err := h.redemptions.root.Mutation().ValidateVoucher(c.Request.Context(), code, &in)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, res.Body)
}

// redeem serves POST /client/v1/redeem?code=…: the legacy redemption.
func (h clientHandlers) redeem(c *gin.Context) {
	code := c.Query("code")
	if code == "" {
		renderError(c, apperr.MissingParameters("Query parameter code is required"))
		return
	}
	var in redemption.VoucherRedemptionInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	h.redemptions.redeemCode(c, code, in)
}

// publish serves POST /client/v1/publish?campaign=…: a voucher of the
// campaign for the customer the body names by source_id. A browser cannot
// pick the code or name a customer by id.
func (h clientHandlers) publish(c *gin.Context) {
	campaign := c.Query("campaign")
	if campaign == "" {
		renderError(c, apperr.MissingParameters("Query parameter campaign is required"))
		return
	}
	in, joinOnce, err := decodePublish(c)
	if err != nil {
		renderError(c, err)
		return
	}
	if in.Customer == nil || in.Customer.SourceID == nil || in.Customer.ID != nil {
		renderError(c, apperr.InvalidPayload("Property .customer.source_id is required (and .customer.id is not accepted) on the client-side API"))
		return
	}
	in.Voucher, in.SourceID = nil, nil
	in.Campaign = &publication.PublishCampaignInput{Name: campaign}
	h.publications.publish(c, in, joinOnce)
}

// event serves POST /client/v1/events. Unless the project enabled
// client_loyalty_events_enabled, client events earn no loyalty points and
// may not carry referral or loyalty data.
func (h clientHandlers) event(c *gin.Context) {
	var in event.SendEventInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	ctx := c.Request.Context()
	if accesspkg.ClientAllows(clientProject(c), accesspkg.ClientLoyaltyEvents) != nil {
		if in.Referral != nil || in.Loyalty != nil {
			renderError(c, accesspkg.ClientAllows(clientProject(c), accesspkg.ClientLoyaltyEvents))
			return
		}
		ctx = customer.WithoutLoyaltyEarning(ctx)
	}
	h.events.record(c, ctx, in)
}

// createCustomer serves POST /client/v1/customers: creates a customer
// from a browser. A customer that already exists (by source_id) is left
// as it is and answered only with its id and source_id, so a page can
// neither read nor overwrite another customer's profile.
func (h clientHandlers) createCustomer(c *gin.Context) {
	var in customer.CustomerInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	if in.ID != nil {
		renderError(c, apperr.InvalidPayload("Property .id is not accepted on the client-side API"))
		return
	}
	body, err := inTx(c, func(ctx context.Context) (any, error) {
		if in.SourceID != nil {
			existing, err := h.customers.root.Query().Customer(ctx, *in.SourceID)
			if err == nil {
				return gin.H{"id": existing.ID, "source_id": existing.SourceID, "object": "customer"}, nil
			}
			if e, ok := apperr.From(err); !ok || e.Code != http.StatusNotFound {
				return nil, err
			}
		}
		cust, err := h.customers.root.Mutation().UpsertCustomer(ctx, in)
		if err != nil {
			return nil, err
		}
		return h.customers.customerJSON(ctx, cust)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

// listVouchers serves GET /client/v1/vouchers: the server list with the
// SDK's parameters only (campaign, category, customer, created_at,
// updated_at, page, limit); a page cannot look codes up one by one.
func (h clientHandlers) listVouchers(c *gin.Context) {
	in, err := voucherarea.ListQuery(c)
	if err != nil {
		renderError(c, err)
		return
	}
	in.Code, in.IDs, in.Order = nil, nil, nil
	h.vouchers.listWith(c, in)
}
