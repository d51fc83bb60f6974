package openapi

import (
	"net/http"

	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/order"
)

// orders documents /v1/orders (rest/orders.go).
func orders(a *API) {
	a.Tag("Orders", "Orders: created directly or by redemptions, with their amounts and status. "+
		"An order in a path is its id or its source_id.")
	amount := func(desc string) *Schema { return Integer().Desc(desc) }
	line := Object(
		Req("object", Const("order_item")),
		Opt("product_id", String()), Opt("sku_id", String()), Opt("source_id", String()),
		Opt("related_object", Enum("product", "sku")),
		Req("quantity", Integer()), Req("price", Integer().Desc("Unit price in cents (the catalogue's when not sent).")),
		Req("amount", amount("price × quantity when not sent.")),
		Req("discount_amount", Integer()), Req("applied_discount_amount", Integer()),
		Req("subtotal_amount", amount("amount − discount_amount.")),
		Opt("initial_quantity", Integer()), Opt("initial_amount", Integer()), Opt("discount_quantity", Integer()),
		Opt("product", FreeObject().Desc("The catalogue's product (id, source_id, name, price, metadata).")),
		Opt("sku", FreeObject().Desc("The catalogue's SKU.")),
		Opt("metadata", Metadata()),
	)
	ord := a.Schema("OrderResource", Object(
		Req("id", String().Desc("ord_…")),
		Req("source_id", String().Null()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("status", Enum(order.StatusCreated, order.StatusPaid, order.StatusCanceled, order.StatusFulfilled)),
		Req("amount", amount("Before discounts: the sum of the lines' amounts unless sent.")),
		Req("discount_amount", amount("Order-level discounts.")),
		Req("items_discount_amount", amount("Σ items[].discount_amount.")),
		Req("total_discount_amount", amount("discount_amount + items_discount_amount.")),
		Req("total_amount", amount("amount − total_discount_amount.")),
		Req("applied_discount_amount", amount("Order-level discount of the last redemption.")),
		Req("items_applied_discount_amount", Integer()),
		Req("total_applied_discount_amount", Integer()),
		Req("items", Array(line)),
		Req("metadata", Metadata()),
		Opt("customer", Object(Req("id", String()), Req("object", Const("customer")))),
		Req("customer_id", String().Null()),
		Opt("referrer", Object(Req("id", String()), Req("object", Const("customer")))),
		Req("referrer_id", String().Null()),
		Req("object", Const("order")),
		Req("redemptions", FreeObject().Desc("Redemption id → {date, related_object_type, related_object_id, …}.")),
	))
	orderID := map[string]string{"orderId": "The order's id (ord_…) or source_id."}
	body := Input[order.OrderInput]()
	a.Add("GET /v1/orders", Op{Summary: "List orders", Auth: ServerAPI,
		Description: "Newest first by default.",
		Query: []Param{LimitParam, Query("page", Integer().Range(1, 100), "Page number (1-100, default 1)."),
			OrderParam("created_at", "updated_at")},
		Response: V1List("orders", ord, true)})
	a.Add("POST /v1/orders", Op{Summary: "Create an order", Auth: ServerAPI, Body: body,
		Description: "An upsert: an existing id (404 when unknown) or source_id gets the sent fields; otherwise a new " +
			"order (status CREATED unless sent). At most 500 items; a quantity below 1 or a negative price or amount is 400. " +
			"The customer and referrer are found or upserted.",
		Response: ord, Errors: []int{http.StatusNotFound}})
	a.Add("GET /v1/orders/{orderId}", Op{Summary: "Get an order", Auth: ServerAPI, PathParams: orderID, Response: ord})
	a.Add("PUT /v1/orders/{orderId}", Op{Summary: "Update an order", Auth: ServerAPI, PathParams: orderID, Body: body,
		Description: "Changes the sent fields; items, when sent, replace the lines. Moving to PAID fires the " +
			"customer.order.paid earning rules once per order.",
		Response: ord})
	a.Add("POST /v1/orders/import", Op{Summary: "Import orders", Auth: ServerAPI,
		Description: "Up to 2000 orders, written by an async action (ORDERS.IMPORT). Imported orders send no " +
			"webhooks, record no activities and fire no earning rules; they count in their customers' summaries.",
		Body:   Array(body),
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
	a.Add("POST /v1/orders/export", Op{Summary: "Export orders", Auth: ServerAPI,
		Description: "A CSV of the orders, made in the background (GET /v1/exports/{id}). Default columns id, " +
			"source_id, status.",
		Body: Object(Opt("parameters", Input[exportpkg.OrderExportParameters]())), Response: Ref("Export")})
}
