package rest

import (
	"github.com/gin-gonic/gin"
)

// What a client-side caller may see of a customer. A page's public key
// proves nothing about who is at the keyboard, and a customer is named
// there by source_id alone, so no answer of /client/v1 carries a stored
// profile field (name, email, phone, address, metadata, …): a customer is
// shown as its id and source_id, with the simple customer object's other
// keys empty. The stored profile still drives validation rules and
// segments; only the answer is cut.

const clientViewKey = "promo.client_view"

// markClientView tags a /client/v1 request so that the shared renderers
// show customers in their client-side form (clientCustomer).
func markClientView(c *gin.Context) {
	c.Set(clientViewKey, true)
	c.Next()
}

// isClientView reports whether c is a /client/v1 request.
func isClientView(c *gin.Context) bool {
	return c != nil && c.GetBool(clientViewKey)
}

// clientCustomerBody is the simple customer object: the shape of the real
// service's client-side answers and of an event's customer; on /client/v1
// it carries nothing stored beyond the ids (clientCustomer).
type clientCustomerBody struct {
	ID       string         `json:"id"`
	Name     *string        `json:"name"`
	Email    *string        `json:"email"`
	SourceID *string        `json:"source_id"`
	Metadata map[string]any `json:"metadata"`
	Object   string         `json:"object"`
}

// clientCustomer is the customer id and sourceID as a client-side caller
// sees them: name and email null, metadata empty.
func clientCustomer(id string, sourceID *string) clientCustomerBody {
	return clientCustomerBody{ID: id, SourceID: sourceID, Metadata: map[string]any{}, Object: "customer"}
}
