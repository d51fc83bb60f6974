package customer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The customer's wallet (REST GET /v1/customers/{customerId}/redeemables,
// the GraphQL customerRedeemables): the vouchers, gift cards and loyalty
// cards (v1) the customer holds — published to them (holder_id). Each
// entry's id is the voucher's with the rh_ prefix, so a page starts after
// an entry by the voucher id index.

// PrefixHolder is the id prefix of a wallet entry.
const PrefixHolder = "rh_"

// WalletFilterFields are the fields a wallet filter may name.
var WalletFilterFields = []string{"id", "created_at", "redeemable_id", "redeemable_object", "holder_role",
	"campaign_id", "campaign_type", "voucher_type"}

// WalletFilter is one condition: field, operator ($is, $in, $is_not,
// $not_in; created_at: $before, $after) and values.
type WalletFilter struct {
	Field  string   `json:"field"`
	Op     string   `json:"op"`
	Values []string `json:"values"`
}

// WalletInput is the query of a wallet list.
type WalletInput struct {
	// Limit is 1-100 (default 10).
	Limit *int `json:"limit"`
	// Order is id (default) or -id.
	Order *string `json:"order"`
	// StartingAfterID is the rh_ id of the entry the page starts after.
	StartingAfterID *string        `json:"starting_after_id"`
	Filters         []WalletFilter `json:"filters"`
	// Or joins the filters with OR (default AND).
	Or bool `json:"or"`
}

// WalletEntry is one redeemable the customer holds.
type WalletEntry struct {
	ID         string       `json:"id"`
	CreatedAt  time.Time    `json:"created_at"`
	HolderRole string       `json:"holder_role"`
	Status     string       `json:"status"`
	Voucher    *ent.Voucher `json:"voucher"`
}

// Wallet is a page of a customer's wallet.
type Wallet struct {
	CustomerID string         `json:"customer_id"`
	Total      int            `json:"total"`
	HasMore    bool           `json:"has_more"`
	Data       []*WalletEntry `json:"data"`
}

// ListRedeemables serves REST GET /v1/customers/{customerId}/redeemables:
// ref is the customer's id or source_id (404 customer). A page reads
// limit+1 of the customer's vouchers in id order (no count beyond
// ent.TotalCountCap).
func ListRedeemables(ctx context.Context, ref string, in *WalletInput) (*Wallet, error) {
	if in == nil {
		in = &WalletInput{}
	}
	limit, err := page.Limit(in.Limit)
	if err != nil {
		return nil, err
	}
	desc := false
	if in.Order != nil && *in.Order != "" {
		switch *in.Order {
		case "id":
		case "-id":
			desc = true
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be id or -id")
		}
	}
	preds, err := walletPredicates(in)
	if err != nil {
		return nil, err
	}
	cust, err := ByIDOrSourceID(ctx, ref)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Voucher.Query().Where(voucher.HolderID(cust.ID))
	if len(preds) > 0 {
		if in.Or {
			q.Where(voucher.Or(preds...))
		} else {
			q.Where(voucher.And(preds...))
		}
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting the customer's redeemables: %w", err)
	}
	if in.StartingAfterID != nil && *in.StartingAfterID != "" {
		after := voucherIDOf(*in.StartingAfterID)
		if desc {
			q.Where(voucher.IDLT(after))
		} else {
			q.Where(voucher.IDGT(after))
		}
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	vs, err := q.Order(sql.OrderByField(voucher.FieldID, dir).ToFunc()).Limit(limit + 1).WithCampaign().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the customer's redeemables: %w", err)
	}
	out := &Wallet{CustomerID: cust.ID, Total: total, HasMore: len(vs) > limit, Data: []*WalletEntry{}}
	if out.HasMore {
		vs = vs[:limit]
	}
	assigned, err := assignmentTimes(ctx, c, cust.ID, vs)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	for _, v := range vs {
		at, ok := assigned[v.ID]
		if !ok {
			at = v.CreatedAt
		}
		out.Data = append(out.Data, &WalletEntry{ID: PrefixHolder + strings.TrimPrefix(v.ID, pulid.PrefixVoucher),
			CreatedAt: at, HolderRole: "OWNER", Status: voucherStatus(v, now), Voucher: v})
	}
	return out, nil
}

// voucherIDOf is the voucher of a wallet entry id (a voucher id as is).
func voucherIDOf(id string) string {
	if rest, ok := strings.CutPrefix(id, PrefixHolder); ok {
		return pulid.PrefixVoucher + rest
	}
	return id
}

// walletPredicates reads the filters (400 naming what is not understood).
func walletPredicates(in *WalletInput) ([]predicate.Voucher, error) {
	var out []predicate.Voucher
	for _, f := range in.Filters {
		name := "filters[" + f.Field + "][conditions][" + f.Op + "]"
		if len(f.Values) == 0 {
			return nil, apperr.InvalidQueryParams("Query parameter %s must have a value", name)
		}
		p, err := walletCondition(f, name)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// walletCondition is one filter as a predicate on the customer's vouchers.
func walletCondition(f WalletFilter, name string) (predicate.Voucher, error) {
	values := make([]any, len(f.Values))
	for i, v := range f.Values {
		values[i] = v
	}
	var match func(s *sql.Selector) *sql.Predicate
	in := func(col func(*sql.Selector) string) func(s *sql.Selector) *sql.Predicate {
		return func(s *sql.Selector) *sql.Predicate { return sql.In(col(s), values...) }
	}
	switch f.Field {
	case "id", "redeemable_id":
		for i, v := range f.Values {
			values[i] = voucherIDOf(v)
		}
		match = in(func(s *sql.Selector) string { return s.C(voucher.FieldID) })
	case "campaign_id":
		match = in(func(s *sql.Selector) string { return s.C(voucher.FieldCampaignID) })
	case "voucher_type":
		match = in(func(s *sql.Selector) string { return s.C(voucher.FieldType) })
	case "campaign_type":
		match = func(s *sql.Selector) *sql.Predicate {
			t := sql.Table(campaign.Table)
			sub := sql.Select(t.C(campaign.FieldID)).From(t).Where(sql.In(t.C(campaign.FieldCampaignType), values...))
			return sql.In(s.C(voucher.FieldCampaignID), sub)
		}
	case "redeemable_object", "holder_role":
		// Every entry is a voucher held as its OWNER.
		const voucherObject, owner = "voucher", "OWNER"
		want := voucherObject
		if f.Field == "holder_role" {
			want = owner
		}
		hit := false
		for _, v := range f.Values {
			hit = hit || v == want
		}
		match = func(*sql.Selector) *sql.Predicate {
			if hit {
				return sql.ExprP("1 = 1")
			}
			return sql.ExprP("1 = 0")
		}
	case "created_at":
		if f.Op != "$before" && f.Op != "$after" || len(f.Values) != 1 {
			return nil, apperr.InvalidQueryParams("Query parameter %s: created_at takes $before or $after and one date-time", name)
		}
		at, err := time.Parse(time.RFC3339Nano, f.Values[0])
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter %s must be a date-time", name)
		}
		return func(s *sql.Selector) {
			if f.Op == "$before" {
				s.Where(sql.LT(s.C(voucher.FieldCreatedAt), at.UTC()))
			} else {
				s.Where(sql.GT(s.C(voucher.FieldCreatedAt), at.UTC()))
			}
		}, nil
	default:
		return nil, apperr.InvalidQueryParams("Unknown filter %s (filters: %s)", name, strings.Join(WalletFilterFields, ", "))
	}
	switch f.Op {
	case "$is", "$in":
		return func(s *sql.Selector) { s.Where(match(s)) }, nil
	case "$is_not", "$not_in":
		return func(s *sql.Selector) { s.Where(sql.Not(match(s))) }, nil
	}
	return nil, apperr.InvalidQueryParams("Query parameter %s: the operator must be $is, $in, $is_not or $not_in", name)
}

// assignmentTimes are when the customer was given each voucher (its
// earliest publication to them; one query for the page).
func assignmentTimes(ctx context.Context, c *ent.Client, customerID string, vs []*ent.Voucher) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	if len(vs) == 0 {
		return out, nil
	}
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = v.ID
	}
	pubs, err := c.Publication.Query().Where(publication.CustomerID(customerID), publication.HasVouchersWith(voucher.IDIn(ids...))).
		WithVouchers(func(q *ent.VoucherQuery) { q.Where(voucher.IDIn(ids...)).Select(voucher.FieldID) }).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the redeemables' publications: %w", err)
	}
	for _, p := range pubs {
		for _, v := range p.Edges.Vouchers {
			if at, ok := out[v.ID]; !ok || p.CreatedAt.Before(at) {
				out[v.ID] = p.CreatedAt
			}
		}
	}
	return out, nil
}

// voucherStatus is a held voucher's status: DISABLED, NOT_ACTIVE_YET,
// EXPIRED, USED (its redemptions spent), NO_BALANCE (a gift card or
// loyalty card at 0) or ACTIVE.
func voucherStatus(v *ent.Voucher, now time.Time) string {
	switch {
	case !v.Active:
		return "DISABLED"
	case v.StartDate != nil && now.Before(*v.StartDate):
		return "NOT_ACTIVE_YET"
	case v.ExpirationDate != nil && now.After(*v.ExpirationDate):
		return "EXPIRED"
	case v.RedemptionQuantity != nil && v.RedeemedQuantity >= *v.RedemptionQuantity:
		return "USED"
	case v.Type == jsonfield.VoucherTypeGift && v.Gift != nil && v.Gift.Balance <= 0:
		return "NO_BALANCE"
	case v.Type == jsonfield.VoucherTypeLoyaltyCard && v.LoyaltyCard != nil && v.LoyaltyCard.Balance <= 0:
		return "NO_BALANCE"
	}
	return "ACTIVE"
}
