// Package order owns orders as a resource (REST /v1/orders, GraphQL
// order, orderList, createOrder, updateOrder, importOrders): their
// amounts, statuses and the side effects of a change (webhook events,
// customer activities, the customer's summary.orders counters and the
// customer.order.paid loyalty earning). Validation and redemption store
// their implicit orders through it too (Written, SetColumns), so an order
// reads the same whichever way it was made.
package order

import (
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// Limits of an order request (docs/orders.md).
const (
	// MaxItems is the most lines an order may have: the real service
	// documents 500.
	MaxItems = 500
	// MaxImport is the most orders one POST /v1/orders/import may carry
	// (the real service documents 2000).
	MaxImport = 2000
)

// Statuses of an order.
const (
	StatusCreated   = "CREATED"
	StatusPaid      = "PAID"
	StatusCanceled  = "CANCELED"
	StatusFulfilled = "FULFILLED"
)

// OrderInput is the body of REST POST /v1/orders and PUT
// /v1/orders/{orderId}, an element of POST /v1/orders/import, and the
// GraphQL CreateOrderInput. On create an id names an existing order (404
// when unknown) and a source_id finds or creates one; both then get the
// sent fields. A field left out stays as it is.
type OrderInput struct {
	ID       *string `json:"id"`
	SourceID *string `json:"source_id"`
	// Status is CREATED (the default of a new order), PAID, CANCELED or FULFILLED.
	Status *string `json:"status"`
	// Amount is the amount before discounts; the sum of the lines'
	// amounts when left out.
	Amount *int64 `json:"amount"`
	// DiscountAmount is an order-level discount already given.
	DiscountAmount *int64                  `json:"discount_amount"`
	Items          []*ItemInput            `json:"items"`
	Metadata       map[string]any          `json:"metadata"`
	Customer       *customer.CustomerInput `json:"customer"`
	CustomerID     *string                 `json:"customer_id"`
	Referrer       *customer.CustomerInput `json:"referrer"`
	ReferrerID     *string                 `json:"referrer_id"`
	// CreatedAt is accepted and ignored: an order's created_at is the
	// time it was stored (the real service's import does the same).
	CreatedAt *time.Time `json:"created_at"`
	// Nulls are the members an update sent as an explicit null: metadata
	// empties, discount_amount drops the order-level discount,
	// customer/customer_id and referrer/referrer_id take the customer or
	// referrer off the order (a paid order leaves the customer's
	// summary.orders); status cannot be null. (On a create a null is an
	// absent member.)
	shape.Nulls
}

// ItemInput is one line of an order: a catalogue product or SKU named by
// product_id / sku_id (id or source_id), or a line named by source_id and
// related_object alone.
type ItemInput struct {
	ProductID     *string   `json:"product_id"`
	SkuID         *string   `json:"sku_id"`
	SourceID      *string   `json:"source_id"`
	RelatedObject *string   `json:"related_object"`
	Quantity      *Quantity `json:"quantity"`
	// Price is the unit price in cents; the catalogue's when left out.
	Price *int64 `json:"price"`
	// Amount is the line amount; price × quantity when left out.
	Amount         *int64         `json:"amount"`
	DiscountAmount *int64         `json:"discount_amount"`
	Product        map[string]any `json:"product"`
	Sku            map[string]any `json:"sku"`
	Metadata       map[string]any `json:"metadata"`
}

// Quantity is an item quantity, sent as a JSON integer or a string of
// digits (the real service's clients send both).
type Quantity int64

// UnmarshalJSON accepts a JSON integer or a string holding one.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return &quantityError{raw: string(b)}
	}
	*q = Quantity(n)
	return nil
}

type quantityError struct{ raw string }

func (e *quantityError) Error() string { return "quantity must be an integer, got " + e.raw }

// ListInput is the query of REST GET /v1/orders and the GraphQL OrderListInput.
type ListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Page is the 1-based page, 1-100 (default 1).
	Page *int `json:"page"`
	// Order is created_at or updated_at, - for descending (default -created_at).
	Order *string `json:"order"`
}

// List is a page of orders and how many there are (capped like every v1 total).
type List struct {
	Total int          `json:"total"`
	Data  []*ent.Order `json:"data"`
}

// SetItemQuantity sets a line's quantity from GraphQL's Int.
func SetItemQuantity(in *ItemInput, n *int) error {
	if n != nil {
		q := Quantity(*n)
		in.Quantity = &q
	}
	return nil
}
