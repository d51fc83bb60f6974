package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
)

// customerHandlers serve /v1/customers through the GraphQL resolvers.
type customerHandlers struct{ root *graph.Resolver }

// upsert serves POST /v1/customers: create, or update the customer whose
// source_id (or id) is given.
func (h customerHandlers) upsert(c *gin.Context) {
	var in graph.CustomerInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	cust, err := inTx(c, func(ctx context.Context) (*ent.Customer, error) {
		return h.root.Mutation().UpsertCustomer(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, customerJSON(cust))
}

// get serves GET /v1/customers/{id}: by ID or source_id.
func (h customerHandlers) get(c *gin.Context) {
	cust, err := h.root.Query().Customer(c.Request.Context(), c.Param("customerId"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, customerJSON(cust))
}

// customerBody is the customer response form: summary, loyalty and
// referrals are always present (null until those features fill them).
type customerBody struct {
	ID             string                     `json:"id"`
	SourceID       *string                    `json:"source_id"`
	Name           *string                    `json:"name"`
	Description    *string                    `json:"description"`
	Email          *string                    `json:"email"`
	Phone          *string                    `json:"phone"`
	Birthday       *string                    `json:"birthday"`
	Address        *jsonfield.CustomerAddress `json:"address"`
	Metadata       map[string]any             `json:"metadata"`
	Summary        map[string]any             `json:"summary"`
	Loyalty        map[string]any             `json:"loyalty"`
	Referrals      map[string]any             `json:"referrals"`
	SystemMetadata map[string]any             `json:"system_metadata"`
	CreatedAt      timestamp                  `json:"created_at"`
	UpdatedAt      *timestamp                 `json:"updated_at"`
	Object         string                     `json:"object"`
}

func customerJSON(c *ent.Customer) customerBody {
	return customerBody{
		ID: c.ID, SourceID: c.SourceID, Name: c.Name, Description: c.Description, Email: c.Email,
		Phone: c.Phone, Birthday: c.Birthday, Address: c.Address,
		Metadata: orEmpty(c.Metadata), SystemMetadata: orEmpty(c.SystemMetadata),
		CreatedAt: timestamp(c.CreatedAt), UpdatedAt: optionalTime(c.UpdatedAt), Object: "customer",
	}
}

// orEmpty turns a nil map into {} for fields the API always shows as objects.
func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
