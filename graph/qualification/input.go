// Package qualification answers "which offers fit this cart" (REST POST
// /v1/qualifications and /client/v1/qualifications, the legacy campaign
// and voucher qualifications, GraphQL qualifications): the promotion
// tiers, held and generic vouchers, code campaigns and promotion stacks
// of the project that a customer could use on an order, each computed
// alone, nothing written (docs/qualifications.md).
package qualification

import (
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
)

// Limits of one qualification.
const (
	// DefaultLimit and MaxLimit bound options.limit (the reference's 5 and 50).
	DefaultLimit = 5
	MaxLimit     = 50
	// MaxCandidates is how many redeemables one request evaluates at most
	// (of each source: tiers, held vouchers, generic vouchers, campaigns,
	// and of them all), newest first; beyond it the
	// page ends with has_more and more_starting_after, so a project with
	// 100,000 codes cannot make one request unbounded.
	MaxCandidates = 1000
	// MaxStacks is how many promotion stacks PROMOTION_STACKS evaluates at
	// most (each is a stacked validation of its tiers).
	MaxStacks = 50
)

// Scenarios (reference §5.2).
const (
	ScenarioAll                   = "ALL"
	ScenarioCustomerWallet        = "CUSTOMER_WALLET"
	ScenarioAudienceOnly          = "AUDIENCE_ONLY"
	ScenarioProducts              = "PRODUCTS"
	ScenarioProductsDiscount      = "PRODUCTS_DISCOUNT"
	ScenarioPromotionStacks       = "PROMOTION_STACKS"
	ScenarioProductsByCustomer    = "PRODUCTS_BY_CUSTOMER"
	ScenarioProductsDiscountByCus = "PRODUCTS_DISCOUNT_BY_CUSTOMER"
)

// Scenarios lists every scenario, in the reference's order.
var Scenarios = []string{ScenarioAll, ScenarioCustomerWallet, ScenarioAudienceOnly, ScenarioProducts,
	ScenarioProductsDiscount, ScenarioPromotionStacks, ScenarioProductsByCustomer, ScenarioProductsDiscountByCus}

// Sorting rules.
const (
	SortDefault   = "DEFAULT"
	SortBestDeal  = "BEST_DEAL"
	SortLeastDeal = "LEAST_DEAL"
)

// Expand values.
const (
	ExpandRedeemable      = "redeemable"
	ExpandCategory        = "category"
	ExpandValidationRules = "validation_rules"
)

// Input is the body of POST /v1/qualifications (and its client form), and
// the GraphQL QualificationsInput.
type Input struct {
	// Customer names the customer (id, source_id) or describes one; it is
	// never created or updated.
	Customer   *customer.CustomerInput `json:"customer"`
	Order      *redemption.OrderInput  `json:"order"`
	TrackingID *string                 `json:"tracking_id"`
	// Scenario is one of Scenarios (default ALL).
	Scenario *string  `json:"scenario"`
	Options  *Options `json:"options"`
	// Session is accepted for the gift cards' locked credits and not used.
	Session *redemption.SessionInput `json:"session"`
	// Metadata is the redemption metadata redemption.metadata rules read.
	Metadata map[string]any `json:"metadata"`
	// WithoutHeldVouchers leaves codes out, held and generic (the
	// client-side form, unless the project lets pages list codes).
	WithoutHeldVouchers bool `json:"-"`
}

// Options are a qualification's options.
type Options struct {
	// Limit is 1–50 (default 5).
	Limit *int `json:"limit"`
	// StartingAfter: only redeemables created before it (the previous
	// page's more_starting_after).
	StartingAfter *time.Time `json:"starting_after"`
	// Filters: {junction, <field>: {conditions: {$op: value(s)}}}.
	Filters map[string]any `json:"filters"`
	// Expand: redeemable, category, validation_rules.
	Expand []string `json:"expand"`
	// SortingRule is DEFAULT (newest first), BEST_DEAL or LEAST_DEAL.
	SortingRule *string `json:"sorting_rule"`
}

// request is a checked Input.
type request struct {
	in            Input
	scenario      string
	limit         int
	startingAfter *time.Time
	filter        *filter
	expand        map[string]bool
	sorting       string
	// tiers is the project's tier snapshot (nil: tiers are read by SQL).
	tiers *tiersnapshot.TierSnapshot
}

// check validates the input: a documented 400 names the property.
func (in Input) check() (*request, error) {
	r := &request{in: in, scenario: ScenarioAll, limit: DefaultLimit, expand: map[string]bool{}, sorting: SortDefault}
	if in.Scenario != nil {
		if !contains(Scenarios, *in.Scenario) {
			return nil, apperr.InvalidPayload("Property .scenario must be equal to one of the allowed values: %s", join(Scenarios))
		}
		r.scenario = *in.Scenario
	}
	o := in.Options
	if o == nil {
		o = &Options{}
	}
	if o.Limit != nil {
		if *o.Limit < 1 || *o.Limit > MaxLimit {
			return nil, apperr.InvalidPayload("Property .options.limit must be between 1 and %d", MaxLimit)
		}
		r.limit = *o.Limit
	}
	r.startingAfter = o.StartingAfter
	for _, e := range o.Expand {
		if !contains([]string{ExpandRedeemable, ExpandCategory, ExpandValidationRules}, e) {
			return nil, apperr.InvalidPayload("Property .options.expand[] must be equal to one of the allowed values: redeemable, category, validation_rules")
		}
		r.expand[e] = true
	}
	if s := o.SortingRule; s != nil {
		if !contains([]string{SortDefault, SortBestDeal, SortLeastDeal}, *s) {
			return nil, apperr.InvalidPayload("Property .options.sorting_rule must be equal to one of the allowed values: DEFAULT, BEST_DEAL, LEAST_DEAL")
		}
		r.sorting = *s
	}
	f, err := parseFilter(o.Filters)
	if err != nil {
		return nil, err
	}
	r.filter = f
	return r, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func join(list []string) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}
