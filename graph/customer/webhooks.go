package customer

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/webhook"
)

// emitCustomer: customer.created or customer.deleted.
func emitCustomer(ctx context.Context, name string, cust *ent.Customer) error {
	return webhook.Emit(ctx, name, "customer", cust.ID, webhook.CustomerData(cust))
}
