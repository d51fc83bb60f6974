package publication

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The filters of the publication list (GET /v1/publications and GraphQL
// publicationList alike; docs/publications.md, "Filters of the list").
// A filter on what was published (voucher_type, is_referral_code) is a
// correlated EXISTS over the publication's links to its vouchers,
// evaluated for each publication the page reads: PostgreSQL plans
// HasVouchersWith's IN (…) as a hashed subplan over every voucher of that
// type in the table. A publication whose codes were all deleted since has
// no links left and matches no such filter.

// publicationFilters builds the list's predicates; empty reports a filter
// naming something that does not exist.
func publicationFilters(ctx context.Context, in *PublicationListInput) (preds []predicate.Publication, empty bool, err error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, false, err
	}
	if r := in.Result; r != nil {
		switch *r {
		case "SUCCESS", "FAILURE":
			preds = append(preds, publication.Result(*r))
		default:
			return nil, false, apperr.InvalidQueryParams("Query parameter result must be SUCCESS or FAILURE")
		}
	}
	if in.SourceID != nil {
		preds = append(preds, publication.SourceID(*in.SourceID))
	}
	if in.VoucherType != nil {
		t, ok := map[string]jsonfield.VoucherType{"discount": jsonfield.VoucherTypeDiscount,
			"loyalty": jsonfield.VoucherTypeLoyaltyCard}[*in.VoucherType]
		if !ok {
			return nil, false, apperr.InvalidQueryParams("Query parameter voucher_type must be discount or loyalty, got %q", *in.VoucherType)
		}
		preds = append(preds, publishedVoucherWith(voucher.TypeEQ(t)))
	}
	if in.IsReferralCode != nil && *in.IsReferralCode { // false filters nothing, as in the reference
		preds = append(preds, publishedVoucherWith(voucher.IsReferralCode(true)))
	}
	if in.Campaign != nil {
		ids, err := c.Campaign.Query().Where(campaign.Or(campaign.Name(*in.Campaign), campaign.ID(*in.Campaign))).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return nil, err == nil, store.WrapErr("looking up campaign", err)
		}
		preds = append(preds, publication.CampaignIDIn(ids...))
	}
	if in.Customer != nil {
		ids, err := c.Customer.Query().Where(customer.Or(customer.ID(*in.Customer), customer.SourceID(*in.Customer))).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return nil, err == nil, store.WrapErr("looking up customer", err)
		}
		preds = append(preds, publication.CustomerIDIn(ids...))
	}
	if in.Voucher != nil {
		ids, err := c.Voucher.Query().Where(voucher.Or(voucher.Code(*in.Voucher), voucher.ID(*in.Voucher))).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return nil, err == nil, store.WrapErr("looking up voucher", err)
		}
		preds = append(preds, publication.HasVouchersWith(voucher.IDIn(ids...)))
	}
	if len(in.Filters) > 0 {
		where, err := listfilter.BuildFields(in.Filters, filterFields(ctx, c))
		if err != nil {
			return nil, false, err
		}
		preds = append(preds, where)
	}
	return preds, false, nil
}

// filterFields are the fields of the filters[…] object
// (ParameterFiltersListPublications): the publication's own columns, the
// campaign's name, and what was published.
func filterFields(ctx context.Context, c *ent.Client) map[string]listfilter.Field {
	return map[string]listfilter.Field{
		"result":       {Kind: listfilter.String},
		"customer_id":  {Kind: listfilter.String},
		"source_id":    {Kind: listfilter.NullableString},
		"failure_code": {Condition: neverFailed},
		// The campaigns are looked up first, as ?campaign= does, so that
		// one campaign is a walk of its own index. A publication of a code
		// named in the request has no campaign: only $is_unknown keeps it.
		"campaign_name": {Condition: listfilter.Related("campaign_name", campaign.FieldName, listfilter.String, publication.FieldCampaignID,
			func(where func(*sql.Selector)) ([]string, error) {
				return c.Campaign.Query().Where(where).IDs(ctx)
			})},
		"voucher_type":      {Condition: voucherTypeCondition},
		"is_referral_code":  {Condition: referralCondition},
		"parent_object_id":  {Condition: notSupported("parent_object_id")},
		"related_object_id": {Condition: notSupported("related_object_id")},
	}
}

// neverFailed is filters[failure_code]: a failed publication is not
// stored, so every listed one has no failure code — $is_unknown and the
// negative operators keep every publication, the others none.
func neverFailed(op string, _ []string) (func(*sql.Selector), error) {
	switch op {
	case "$is_unknown", "$is_not", "$not_in", "$not_contain":
		return func(*sql.Selector) {}, nil
	case "$has_value", "$is", "$in", "$starts_with", "$ends_with", "$contains":
		return func(s *sql.Selector) { s.Where(sql.False()) }, nil
	}
	return nil, unsupportedOperator("failure_code", op)
}

// voucherTypeCondition is filters[voucher_type]: the type of the
// published codes, named as the voucher_type parameter does (discount,
// loyalty) or as vouchers are typed (DISCOUNT_VOUCHER, GIFT_VOUCHER,
// LOYALTY_CARD).
func voucherTypeCondition(op string, values []string) (func(*sql.Selector), error) {
	types := make([]jsonfield.VoucherType, len(values))
	for i, v := range values {
		t, ok := map[string]jsonfield.VoucherType{"discount": jsonfield.VoucherTypeDiscount, "loyalty": jsonfield.VoucherTypeLoyaltyCard,
			"gift": jsonfield.VoucherTypeGift}[strings.ToLower(v)]
		if !ok && !jsonfield.VoucherType(v).IsValid() {
			return nil, apperr.InvalidQueryParams("Query parameter filters[voucher_type][conditions][%s] takes discount, loyalty, DISCOUNT_VOUCHER, GIFT_VOUCHER or LOYALTY_CARD, got %q", op, v)
		} else if !ok {
			t = jsonfield.VoucherType(v)
		}
		types[i] = t
	}
	return setCondition("voucher_type", op, len(types), publishedVoucherWith(voucher.TypeIn(types...)))
}

// referralCondition is filters[is_referral_code]: true or false.
func referralCondition(op string, values []string) (func(*sql.Selector), error) {
	want := make([]bool, len(values))
	for i, v := range values {
		switch v {
		case "true":
			want[i] = true
		case "false":
		default:
			return nil, apperr.InvalidQueryParams("Query parameter filters[is_referral_code][conditions][%s] must be true or false, got %q", op, v)
		}
	}
	if len(want) > 1 && want[0] != want[1] { // $in/$not_in of both values
		return setCondition("is_referral_code", op, 1, func(*sql.Selector) {})
	}
	if len(want) == 0 {
		return nil, apperr.InvalidQueryParams("Query parameter filters[is_referral_code][conditions][%s] needs a value", op)
	}
	return setCondition("is_referral_code", op, 1, publishedVoucherWith(voucher.IsReferralCode(want[0])))
}

// setCondition applies a membership test (in: what the values name) for
// the operators of a value set: $is/$in keep the publications in, $is_not
// /$not_in the others.
func setCondition(field, op string, n int, in func(*sql.Selector)) (func(*sql.Selector), error) {
	switch op {
	case "$is", "$in":
		if n == 0 {
			return func(s *sql.Selector) { s.Where(sql.False()) }, nil
		}
		return in, nil
	case "$is_not", "$not_in":
		return sql.NotPredicates(in), nil
	}
	return nil, unsupportedOperator(field, op)
}

// publishedVoucherWith keeps the publications of which a linked voucher
// meets p: a correlated EXISTS (see the top of this file); OFFSET 0
// keeps PostgreSQL from turning it into a hashed IN (…).
func publishedVoucherWith(p predicate.Voucher) predicate.Publication {
	return func(s *sql.Selector) {
		links, codes := sql.Table(publication.VouchersTable), sql.Table(voucher.Table)
		code := sql.Select(codes.C(voucher.FieldID)).From(codes).
			Join(links).On(links.C(publication.VouchersPrimaryKey[1]), codes.C(voucher.FieldID)).
			Where(sql.ColumnsEQ(links.C(publication.VouchersPrimaryKey[0]), s.C(publication.FieldID)))
		p(code)
		s.Where(sql.Exists(code.Limit(1).Offset(0)))
	}
}

func notSupported(field string) func(string, []string) (func(*sql.Selector), error) {
	return func(string, []string) (func(*sql.Selector), error) {
		return nil, apperr.InvalidQueryParams("Query parameter filters[%s] is not supported: a publication here has no %s", field,
			strings.ReplaceAll(strings.TrimSuffix(field, "_id"), "_", " "))
	}
}

func unsupportedOperator(field, op string) error {
	return apperr.InvalidQueryParams("Query parameter filters[%s][conditions][%s] is not a supported operator (use $is, $is_not, $in, $not_in)", field, op)
}
