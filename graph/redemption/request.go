package redemption

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// Request limits of validation and redemption.
const (
	// maxRedeemables is the real service's redeemables_limit (schema maxItems).
	maxRedeemables = 30
	// maxOrderItems bounds the order lines of one request.
	maxOrderItems = 500
	// maxSessionTTL bounds a session lock (one year).
	maxSessionTTL = 365 * 24 * time.Hour
	// defaultSessionTTL is the real service's lock length when no ttl is sent.
	defaultSessionTTL = 7 * 24 * time.Hour
)

// redemptionRequest is a validated stacked or legacy request.
type redemptionRequest struct {
	redeemables []*RedeemableInput
	order       *OrderInput
	customer    *customerpkg.CustomerInput
	session     *SessionInput
	trackingID  *string
	metadata    map[string]any
	expand      map[string]bool
	// legacy marks the single-code forms (no parent redemption).
	legacy bool
	// stack is the promotion stack the request named, its tiers now the
	// redeemables (tiers.go).
	stack *ent.PromotionStack
}

// stackedRequest checks a stacked body: 1–30 redeemables, each naming an
// object and an id, no pair twice.
func stackedRequest(in StackedRedemptionInput) (*redemptionRequest, error) {
	rs := in.Redeemables
	if len(rs) == 0 {
		return nil, apperr.InvalidPayload("Property .redeemables must NOT have fewer than 1 items")
	}
	if len(rs) > maxRedeemables {
		return nil, apperr.InvalidPayload("Property .redeemables must NOT have more than %d items", maxRedeemables)
	}
	seen := map[string]bool{}
	for i, r := range rs {
		if r == nil || strings.TrimSpace(r.ID) == "" {
			return nil, apperr.InvalidPayload("Property .redeemables[%d] should have required property 'id'", i)
		}
		obj := redeemableObject(r)
		switch obj {
		case "voucher", "promotion_tier":
		case "promotion_stack":
			if len(rs) > 1 {
				return nil, apperr.New(400, "invalid_redeemables", "Invalid redeemables",
					fmt.Sprintf("Property .redeemables[%d]: Promotion Stack cannot be use with other redeemables", i))
			}
		default:
			return nil, apperr.InvalidPayload("Property .redeemables[%d].object must be equal to one of the allowed values: voucher, promotion_tier, promotion_stack", i)
		}
		if seen[obj+"\x00"+r.ID] {
			return nil, apperr.New(400, "duplicated_redeemables", "Duplicated redeemables detected",
				"Duplicated redeemables detected in one redemption")
		}
		seen[obj+"\x00"+r.ID] = true
		if r.Gift != nil && r.Gift.Credits != nil && (*r.Gift.Credits < 0 || *r.Gift.Credits > discount.MaxAmount) {
			return nil, apperr.InvalidPayload("Property .redeemables[%d].gift.credits must be between 0 and %d", i, discount.MaxAmount)
		}
	}
	req := in.request()
	req.redeemables = rs
	return req, req.check()
}

func (in StackedRedemptionInput) request() *redemptionRequest {
	req := &redemptionRequest{order: in.Order, customer: in.Customer, session: in.Session,
		trackingID: in.TrackingID, metadata: in.Metadata, expand: map[string]bool{}}
	if in.Options != nil {
		for _, e := range in.Options.Expand {
			req.expand[e] = true
		}
	}
	return req
}

// legacyRequest turns a single-code body into a one-redeemable request.
func legacyRequest(code string, in *VoucherRedemptionInput) (*redemptionRequest, error) {
	if in == nil {
		in = &VoucherRedemptionInput{}
	}
	if strings.TrimSpace(code) == "" {
		return nil, apperr.InvalidPayload("A voucher code is required")
	}
	req := &redemptionRequest{
		redeemables: []*RedeemableInput{{ID: code, Gift: in.Gift, Reward: in.Reward}},
		order:       in.Order, customer: in.Customer, session: in.Session, trackingID: in.TrackingID,
		metadata: in.Metadata, expand: map[string]bool{}, legacy: true,
	}
	if in.Gift != nil && in.Gift.Credits != nil && (*in.Gift.Credits < 0 || *in.Gift.Credits > discount.MaxAmount) {
		return nil, apperr.InvalidPayload("Property .gift.credits must be between 0 and %d", discount.MaxAmount)
	}
	return req, req.check()
}

// check validates the parts both forms share.
func (r *redemptionRequest) check() error {
	if o := r.order; o != nil {
		if len(o.Items) > maxOrderItems {
			return apperr.InvalidPayload("Property .order.items must NOT have more than %d items", maxOrderItems)
		}
		for i, it := range o.Items {
			if it != nil && it.Quantity != nil && *it.Quantity < 1 {
				// As the orders resource: a line is at least one unit.
				return apperr.InvalidPayload("Property .order.items[%d].quantity cannot be lower than 1", i)
			}
		}
		if o.Status != nil && !validOrderStatus(*o.Status) {
			return apperr.InvalidPayload("Property .order.status must be one of CREATED, PAID, CANCELED, FULFILLED")
		}
	}
	if s := r.session; s != nil {
		if s.Type != nil && *s.Type != "LOCK" {
			return apperr.InvalidPayload("Property .session.type must be equal to LOCK")
		}
		if s.Key != nil && (strings.TrimSpace(*s.Key) == "" || len(*s.Key) > 200) {
			return apperr.InvalidPayload("Property .session.key must be 1 to 200 characters")
		}
		if _, err := sessionTTL(s); err != nil {
			return err
		}
	}
	_, err := r.discountOrder()
	return err
}

func validOrderStatus(s string) bool {
	switch s {
	case "CREATED", "PAID", "CANCELED", "FULFILLED":
		return true
	}
	return false
}

func redeemableObject(r *RedeemableInput) string {
	if r.Object == nil || *r.Object == "" {
		return "voucher"
	}
	return *r.Object
}

// discountOrder builds the calculation's starting order from the request.
func (r *redemptionRequest) discountOrder() (*discount.Order, error) {
	if r.order == nil {
		return discount.NewOrder(nil, nil)
	}
	items := make([]discount.Item, 0, len(r.order.Items))
	for i, it := range r.order.Items {
		if it == nil {
			return nil, apperr.InvalidPayload("Property .order.items[%d] must be an object", i)
		}
		d := discountItem(it)
		d.Line = i + 1
		items = append(items, d)
	}
	o, err := discount.NewOrder(r.order.Amount, items)
	if err != nil {
		return nil, apperr.InvalidPayload("Property .order.%s", strings.TrimPrefix(err.Error(), discount.ErrInvalidOrder.Error()+": "))
	}
	return o, nil
}

// discountItem maps an order line; product and sku ids may come flat or in
// the nested product/sku objects.
func discountItem(it *OrderItemInput) discount.Item {
	out := discount.Item{ProductID: shape.FirstNonEmpty(it.ProductID, nestedString(it.Product, "id"), nestedString(it.Product, "source_id"), it.SourceID),
		SKUID: shape.FirstNonEmpty(it.SkuID, nestedString(it.Sku, "id"), nestedString(it.Sku, "source_id"))}
	if it.Quantity != nil {
		out.Quantity = int64(*it.Quantity)
	}
	if it.Price != nil {
		out.Price = *it.Price
	} else if p, ok := it.Product["price"].(float64); ok {
		out.Price = int64(p)
	}
	if it.Amount != nil {
		out.Amount = *it.Amount
	}
	return out
}

func nestedString(m map[string]any, key string) *string {
	if s, ok := m[key].(string); ok && s != "" {
		return &s
	}
	return nil
}

// sessionTTL is the lock length a session asks for (7 days by default).
func sessionTTL(s *SessionInput) (time.Duration, error) {
	if s.TTL == nil {
		return defaultSessionTTL, nil
	}
	unit := "MINUTES"
	if s.TTLUnit != nil {
		unit = *s.TTLUnit
	}
	per, ok := map[string]time.Duration{"DAYS": 24 * time.Hour, "HOURS": time.Hour, "MINUTES": time.Minute,
		"SECONDS": time.Second, "MILLISECONDS": time.Millisecond, "MICROSECONDS": time.Microsecond,
		"NANOSECONDS": time.Nanosecond}[unit]
	if !ok {
		return 0, apperr.InvalidPayload("Property .session.ttl_unit must be one of DAYS, HOURS, MINUTES, SECONDS, MILLISECONDS, MICROSECONDS, NANOSECONDS")
	}
	if *s.TTL < 1 || time.Duration(*s.TTL) > maxSessionTTL/per {
		return 0, apperr.InvalidPayload("Property .session.ttl must be a positive integer of at most one year")
	}
	return time.Duration(*s.TTL) * per, nil
}

// trackingIDFor is the request's tracking id: the one sent, else one
// derived from the customer's source_id (stable per customer, like the
// real service's track_… values), else none.
func trackingIDFor(given *string, customerSourceID *string) *string {
	if given != nil && *given != "" {
		return given
	}
	if customerSourceID == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(*customerSourceID))
	t := "track_" + base64.StdEncoding.EncodeToString(sum[:16])
	return &t
}

// newSessionKey makes a session key like the real service's (ssn_ + 32).
func newSessionKey() string { return pulid.New(pulid.PrefixSession, 32) }

// voucherIDs are the codes (or ids) the request names, one per redeemable,
// for the per-code queue (enterRows).
func (r *redemptionRequest) voucherIDs() []string {
	ids := make([]string, 0, len(r.redeemables))
	for _, x := range r.redeemables {
		ids = append(ids, x.ID)
	}
	return ids
}
