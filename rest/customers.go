package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/loyalty/event"
)

// customerHandlers serve /v1/customers through the GraphQL resolvers.
type customerHandlers struct{ root *graph.Resolver }

// upsert serves POST /v1/customers: create, or update the customer whose
// source_id (or id) is given.
func (h customerHandlers) upsert(c *gin.Context) {
	var in customer.CustomerInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	body, err := inTx(c, func(ctx context.Context) (customerBody, error) {
		cust, err := h.root.Mutation().UpsertCustomer(ctx, in)
		if err != nil {
			return customerBody{}, err
		}
		return h.customerJSON(ctx, cust)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

// get serves GET /v1/customers/{id}: by ID or source_id.
func (h customerHandlers) get(c *gin.Context) {
	cust, err := h.root.Query().Customer(c.Request.Context(), c.Param("customerId"))
	if err != nil {
		renderError(c, err)
		return
	}
	body, err := h.customerJSON(c.Request.Context(), cust)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

// customerJSON is the customer's response form with its referrals
// ({total, campaigns: [...]}, or null when it has none).
func (h customerHandlers) customerJSON(ctx context.Context, cust *ent.Customer) (customerBody, error) {
	body := customerJSON(cust)
	refs, err := h.root.Customer().Referrals(ctx, cust)
	if err != nil {
		return body, err
	}
	if refs != nil {
		body.Referrals = referralsJSON(refs)
	}
	summary, err := h.root.Customer().Summary(ctx, cust)
	if err != nil {
		return body, err
	}
	body.Summary, _ = summary.(map[string]any)
	return body, nil
}

// customersJSON is customerJSON for a page of customers (GET
// /v1/customers): the page's summaries and referrals are read by a few
// statements for the whole page, not four per customer.
func customersJSON(ctx context.Context, custs []*ent.Customer) ([]customerBody, error) {
	summaries, err := customer.Summaries(ctx, custs)
	if err != nil {
		return nil, err
	}
	refs, err := event.ReferralsOfMany(ctx, custs)
	if err != nil {
		return nil, err
	}
	out := make([]customerBody, len(custs))
	for i, cust := range custs {
		out[i] = customerJSON(cust)
		if r := refs[cust.ID]; r != nil {
			out[i].Referrals = referralsJSON(r)
		}
		out[i].Summary = summaries[cust.ID]
	}
	return out, nil
}

type referralEntryBody struct {
	CampaignID        string    `json:"campaign_id"`
	ReferrerID        string    `json:"referrer_id"`
	RefereeID         string    `json:"referee_id"`
	RelatedObjectID   string    `json:"related_object_id"`
	RelatedObjectType string    `json:"related_object_type"`
	Date              timestamp `json:"date"`
}

func referralsJSON(r *event.CustomerReferrals) map[string]any {
	items := make([]referralEntryBody, len(r.Campaigns))
	for i, e := range r.Campaigns {
		items[i] = referralEntryBody{CampaignID: e.CampaignID, ReferrerID: e.ReferrerID, RefereeID: e.RefereeID,
			RelatedObjectID: e.RelatedObjectID, RelatedObjectType: "customer_event", Date: timestamp(e.Date)}
	}
	return map[string]any{"total": r.Total, "campaigns": items}
}

// customerBody is the customer response form: summary, loyalty and
// referrals are always present (null until those features fill them);
// metadata is left out while the customer has none, as the real service
// does.
type customerBody struct {
	ID             string                     `json:"id"`
	SourceID       *string                    `json:"source_id"`
	Name           *string                    `json:"name"`
	Description    *string                    `json:"description"`
	Email          *string                    `json:"email"`
	Phone          *string                    `json:"phone"`
	Birthday       *string                    `json:"birthday"`
	Address        *jsonfield.CustomerAddress `json:"address"`
	Metadata       map[string]any             `json:"metadata,omitempty"`
	Summary        map[string]any             `json:"summary"`
	Loyalty        map[string]any             `json:"loyalty"`
	Referrals      any                        `json:"referrals"`
	SystemMetadata map[string]any             `json:"system_metadata"`
	CreatedAt      timestamp                  `json:"created_at"`
	UpdatedAt      *timestamp                 `json:"updated_at"`
	Assets         customerAssets             `json:"assets"`
	Object         string                     `json:"object"`
}

// customerAssets are the links to the customer's cockpit and preference
// center (graph.CustomerAssetLinks, the same values as Customer.assets).
type customerAssets struct {
	CockpitURL                 *string `json:"cockpit_url"`
	CockpitPreferenceCenterURL *string `json:"cockpit_preference_center_url"`
}

func customerJSON(c *ent.Customer) customerBody {
	return customerBody{
		ID: c.ID, SourceID: c.SourceID, Name: c.Name, Description: c.Description, Email: c.Email,
		Phone: c.Phone, Birthday: c.Birthday, Address: c.Address,
		Metadata: c.Metadata, SystemMetadata: orEmpty(c.SystemMetadata),
		CreatedAt: timestamp(c.CreatedAt), UpdatedAt: optionalTime(c.UpdatedAt), Object: "customer",
		Assets: customerAssetsJSON(graph.CustomerAssetLinks(c)),
	}
}

func customerAssetsJSON(a *graph.CustomerAssets) customerAssets {
	return customerAssets{CockpitURL: a.CockpitURL, CockpitPreferenceCenterURL: a.CockpitPreferenceCenterURL}
}
