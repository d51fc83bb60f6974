package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/customer"
)

// consentHandlers serve the legacy consents calls of SDK 2.9: the list
// (GET /v1/consents, /client/v1/consents) and a customer's consent
// changes (PUT /v1/customers/{id}/consents and its client form). Consents
// are defined through GraphQL (docs/customers.md "Consents").
type consentHandlers struct{ root *graph.Resolver }

// registerConsents mounts the server-side consents routes.
func registerConsents(v1 *gin.RouterGroup, auth gin.HandlerFunc, h consentHandlers) {
	v1.GET("/consents", auth, h.list)
	v1.PUT("/customers/:customerId/consents", auth, h.update)
}

// registerClientConsents mounts the client-side forms (client keys from a
// trusted origin, or a bearer token with client_consents).
func registerClientConsents(r *gin.Engine, access clientAccess, h consentHandlers) {
	r.GET("/client/v1/consents", access.authenticate, markClientView, h.list)
	r.PUT("/client/v1/customers/:customerId/consents", access.authenticate, markClientView, h.update)
}

// consentBody is the SDK's Consent.
type consentBody struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Category    string     `json:"category"`
	CreatedAt   timestamp  `json:"created_at"`
	UpdatedAt   *timestamp `json:"updated_at,omitempty"`
	Object      string     `json:"object"`
}

// consentGroupBody is the SDK's ConsentGroup.
type consentGroupBody struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Consents    []string   `json:"consents"`
	CreatedAt   timestamp  `json:"created_at"`
	UpdatedAt   *timestamp `json:"updated_at,omitempty"`
	Object      string     `json:"object"`
}

func consentJSON(k *ent.Consent) consentBody {
	return consentBody{ID: k.ID, Name: k.Name, Description: k.Description, Category: k.Category,
		CreatedAt: timestamp(k.CreatedAt), UpdatedAt: optionalTime(k.UpdatedAt), Object: "consent"}
}

func consentGroupJSON(g *ent.ConsentGroup) consentGroupBody {
	ids := g.Consents
	if ids == nil {
		ids = []string{}
	}
	return consentGroupBody{ID: g.ID, Name: g.Name, Description: g.Description, Consents: ids,
		CreatedAt: timestamp(g.CreatedAt), UpdatedAt: optionalTime(g.UpdatedAt), Object: "consent_group"}
}

// list serves GET /v1/consents and GET /client/v1/consents.
func (h consentHandlers) list(c *gin.Context) {
	l, err := h.root.Query().Consents(c.Request.Context())
	answer(c, http.StatusOK, l, err, func(l *customer.ConsentList) any {
		groups := make([]consentGroupBody, len(l.Groups))
		for i, g := range l.Groups {
			groups[i] = consentGroupJSON(g)
		}
		consents := make([]consentBody, len(l.Consents))
		for i, k := range l.Consents {
			consents[i] = consentJSON(k)
		}
		return gin.H{"groups": newList(groups, len(groups)), "consents": newList(consents, len(consents))}
	})
}

// update serves PUT /v1/customers/{id}/consents and its client form:
// 200 with an empty body, as the real service answered (the SDK resolves
// undefined).
func (h consentHandlers) update(c *gin.Context) {
	var body map[string]any
	if err := decodeBody(c, &body); err != nil {
		renderError(c, err)
		return
	}
	changes, err := customer.ConsentChangesFromBody(body)
	if err != nil {
		renderError(c, err)
		return
	}
	_, err = inTx(c, func(ctx context.Context) (*ent.Customer, error) {
		return h.root.Mutation().UpdateCustomerConsents(ctx, c.Param("customerId"), changes)
	})
	answer[any](c, http.StatusOK, nil, err, nil)
}
