package qualification

import (
	"context"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
)

// The legacy qualifications (deprecated in the reference, still served):
// POST /v1/vouchers/qualification lists the generic codes, and POST
// /v1/campaigns/qualification the code campaigns, that a customer and
// an order qualify for. They read their candidates in SQL (bounded by
// MaxCandidates, in the requested order) and check them through
// redemption.Qualify in passes of evalChunk, as Qualify does; nothing is
// written (docs/qualifications.md "Legacy endpoints").

// LegacyInput is the body of a legacy qualification with its query
// parameters (audienceRulesOnly, limit, order).
type LegacyInput struct {
	Customer   *customer.CustomerInput `json:"customer"`
	Order      *redemption.OrderInput  `json:"order"`
	TrackingID *string                 `json:"tracking_id"`
	// Metadata is the redemption metadata redemption.metadata rules read.
	Metadata map[string]any `json:"metadata"`
	// AudienceRulesOnly checks only the customer conditions of the rules
	// (the AUDIENCE_ONLY scenario).
	AudienceRulesOnly bool `json:"-"`
	// Limit is 1–50 (default MaxLimit).
	Limit *int `json:"-"`
	// OrderBy is the query's order: a field, "-" first for descending.
	OrderBy *string `json:"-"`
}

// VoucherQualification is what the vouchers' legacy qualification
// found (GraphQL VoucherQualification).
type VoucherQualification struct {
	// ID is the qualification's id (qfl_…); nothing is stored under it.
	ID         string
	CreatedAt  time.Time
	TrackingID *string
	// Data are the qualified vouchers (with their campaign); Total their
	// number.
	Data  []*ent.Voucher
	Total int
	// ApplicableTo and InapplicableTo are, for each entry of Data, what
	// its validation computes (the REST entries show them).
	ApplicableTo, InapplicableTo []any
}

// CampaignQualification is what the campaigns' legacy qualification
// found (GraphQL CampaignQualification).
type CampaignQualification struct {
	// ID is the qualification's id (qfl_…); nothing is stored under it.
	ID         string
	CreatedAt  time.Time
	TrackingID *string
	// Data are the qualified campaigns (with their category); Total their
	// number.
	Data  []*ent.Campaign
	Total int
}

// VoucherOrders and CampaignOrders are the accepted order values
// (without the "-").
var (
	VoucherOrders  = []string{"created_at", "updated_at", "code"}
	CampaignOrders = []string{"created_at", "updated_at", "type", "code", "category", "campaign"}
)

// legacyRequest is a checked LegacyInput.
type legacyRequest struct {
	in    LegacyInput
	limit int
	field string // one of the orders
	desc  bool
	sc    scenario
}

// check validates the query parameters.
func (in LegacyInput) check(orders []string) (*legacyRequest, error) {
	r := &legacyRequest{in: in, limit: MaxLimit, field: "created_at", desc: true, sc: legacyChecked}
	if in.AudienceRulesOnly {
		r.sc = scenarios[ScenarioAudienceOnly]
	}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > MaxLimit {
			return nil, apperr.InvalidQueryParams("Query parameter limit must be between 1 and %d", MaxLimit)
		}
		r.limit = *in.Limit
	}
	if in.OrderBy != nil {
		field, desc := strings.CutPrefix(*in.OrderBy, "-")
		if !contains(orders, field) {
			return nil, apperr.InvalidQueryParams("Query parameter order must be one of: %s (- first for descending)", join(orders))
		}
		r.field, r.desc = field, desc
	}
	return r, nil
}

// legacyChecked keeps a candidate whose checks (rules included) pass,
// whether or not its discount changes the order: a rule a property does
// not meet disqualifies it (the legacy endpoints' documented meaning).
var legacyChecked = scenario{vouchers: true}

// evaluate checks n candidates in passes of evalChunk until limit of
// them qualify: codes(lo, hi) names the codes of candidates lo..hi-1 and
// the candidate each belongs to (a candidate without a code is left
// out); keep is called with the candidate of each qualified code and its
// outcome.
func (r *legacyRequest) evaluate(ctx context.Context, n int, codes func(lo, hi int) ([]string, []int, error),
	keep func(i int, q *redemption.Qualified)) (*redemption.QualifyOutcome, error) {
	if store.IsPostgres(ctx) {
		release, err := store.Admit(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	in := redemption.QualifyInput{Customer: r.in.Customer, Order: r.in.Order, TrackingID: r.in.TrackingID,
		Metadata: r.in.Metadata, Omit: r.sc.omit}
	var first *redemption.QualifyOutcome
	kept := 0
	for lo := 0; lo < n && kept < r.limit; lo += evalChunk {
		batch, owners, err := codes(lo, min(lo+evalChunk, n))
		if err != nil {
			return nil, err
		}
		if len(batch) == 0 {
			continue
		}
		in.Candidates = in.Candidates[:0]
		for _, code := range batch {
			object := "voucher"
			in.Candidates = append(in.Candidates, &redemption.RedeemableInput{Object: &object, ID: code})
		}
		out, err := redemption.Qualify(ctx, in)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = out
		}
		for i, q := range out.Items {
			if kept < r.limit && r.sc.keeps(q, out.CartItems) {
				keep(owners[i], q)
				kept++
			}
		}
	}
	if first == nil {
		// Nothing was evaluated: the customer and order are still checked.
		in.Candidates = nil
		return redemption.Qualify(ctx, in)
	}
	return first, nil
}

// newQualificationID is a legacy qualification's id.
func newQualificationID() string { return pulid.New("qfl_", 24) }
