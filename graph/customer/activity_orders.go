package customer

import (
	"encoding/json"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/orderevent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// orderEventSource: customer.order.created, .updated, .paid, .canceled
// and .fulfilled, recorded by graph/order with the order as it was then.
func orderEventSource() customerActivitySource {
	types := []string{"customer.order.created", "customer.order.updated", "customer.order.paid",
		"customer.order.canceled", "customer.order.fulfilled"}
	return tableSource(customerActivitySource{name: "order", prefixes: []string{pulid.PrefixOrderEvent}, types: types},
		orderevent.FieldCreatedAt, orderevent.FieldID,
		func(c *ent.Client, f activityFilter) *ent.OrderEventQuery {
			q := c.OrderEvent.Query().Where(orderevent.CustomerID(f.customerID))
			if !f.wantsAll(types) {
				var kept []string
				for _, t := range types {
					if f.wants(t) {
						kept = append(kept, t)
					}
				}
				q.Where(orderevent.TypeIn(kept...))
			}
			return q
		}, eachRow(func(e *ent.OrderEvent) *CustomerActivity {
			var order any = json.RawMessage(e.Order)
			if len(e.Order) == 0 {
				order = map[string]any{"id": e.OrderID, "object": "order"}
			}
			return &CustomerActivity{ID: e.ID, Type: e.Type, CreatedAt: e.CreatedAt,
				Data: map[string]any{"order": order}}
		}))
}
