package campaign

import (
	"maps"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
)

// The filters[…] object of the campaign list (GET /v1/campaigns and
// GraphQL campaignList alike; ParameterFiltersListCampaigns, docs/
// campaigns.md "Filters of the list"). Every filter is a condition on the
// campaign's own row: a project holds few campaigns, so the list walks the
// project's campaigns (through (project_id, name)) and needs no index per
// field (docs/architecture.md, "Indexes of the list filters").

// campaignFilterFields are the documented filters this list honours; the
// documented ones it cannot are refused by name (unsupportedFilter).
var campaignFilterFields = map[string]listfilter.Field{
	"campaigns":            {Kind: listfilter.String, Column: campaign.FieldName},
	"campaigns_id":         {Kind: listfilter.String, Column: campaign.FieldID},
	"campaign_status":      {Condition: campaignStatusCondition},
	"status":               {Condition: stateCondition("status", statusStates)},
	"active":               {Condition: stateCondition("active", activeStates)},
	"is_referral_code":     {Condition: referralCondition},
	"voucher_type":         {Condition: voucherTypeCondition},
	"categories":           {Kind: listfilter.NullableString, Column: campaign.FieldCategory},
	"category_ids":         {Kind: listfilter.NullableString, Column: campaign.FieldCategoryID},
	"type":                 {Condition: typeCondition},
	"created_date":         {Kind: listfilter.Time, Column: campaign.FieldCreatedAt},
	"updated_at":           {Kind: listfilter.Time},
	"start_date":           {Kind: listfilter.Time},
	"expiration_date":      {Kind: listfilter.Time},
	"validity_timeframe":   {Condition: unsupportedFilter("validity_timeframe")},
	"validity_day_of_week": {Condition: unsupportedFilter("validity_day_of_week")},
}

// campaignFilterPredicate is the filters object as one predicate.
func campaignFilterPredicate(filters map[string]any) (func(*sql.Selector), error) {
	return listfilter.BuildFields(filters, campaignFilterFields)
}

// campaignStatusCondition is filters[campaign_status]: the creation
// status. DRAFT and MODIFYING are valid names no campaign here has.
func campaignStatusCondition(op string, values []string) (func(*sql.Selector), error) {
	switch op {
	case "$is", "$is_not", "$in", "$not_in":
		for _, v := range values {
			switch v {
			case "DONE", "IN_PROGRESS", "FAILED", "DRAFT", "MODIFYING":
			default:
				return nil, apperr.InvalidQueryParams("Query parameter filters[campaign_status][conditions][%s] takes DONE, IN_PROGRESS, FAILED, DRAFT or MODIFYING, got %q", op, v)
			}
		}
	case "$has_value", "$is_unknown", "$starts_with", "$ends_with":
	default:
		return nil, apperr.InvalidQueryParams("Query parameter filters[campaign_status][conditions][%s] is not a supported operator", op)
	}
	return listfilter.BuildFields(map[string]any{"s": condition(op, values)},
		map[string]listfilter.Field{"s": {Kind: listfilter.String, Column: campaign.FieldCreationStatus}})
}

// referralCondition is filters[is_referral_code]: $is / $is_not TRUE or
// FALSE (any case); a referral campaign is a REFERRAL_PROGRAM.
func referralCondition(op string, values []string) (func(*sql.Selector), error) {
	if op != "$is" && op != "$is_not" {
		return nil, apperr.InvalidQueryParams("Query parameter filters[is_referral_code][conditions][%s] is not a supported operator (use $is, $is_not)", op)
	}
	var want bool
	switch v := strings.ToUpper(first(values)); v {
	case "TRUE":
		want = true
	case "FALSE":
	default:
		return nil, apperr.InvalidQueryParams("Query parameter filters[is_referral_code][conditions][%s] must be TRUE or FALSE, got %q", op, first(values))
	}
	if op == "$is_not" {
		want = !want
	}
	if want {
		return campaign.CampaignTypeEQ(campaign.CampaignTypeREFERRAL_PROGRAM), nil
	}
	return campaign.CampaignTypeNEQ(campaign.CampaignTypeREFERRAL_PROGRAM), nil
}

// voucherCampaignTypes are the campaign types whose codes are of each
// voucher type (a referral program hands out discount codes; a promotion
// has no codes, so its voucher type is unknown).
var voucherCampaignTypes = map[string][]campaign.CampaignType{
	"DISCOUNT_VOUCHER": {campaign.CampaignTypeDISCOUNT_COUPONS, campaign.CampaignTypeREFERRAL_PROGRAM},
	"GIFT_VOUCHER":     {campaign.CampaignTypeGIFT_VOUCHERS},
	"LOYALTY_CARD":     {campaign.CampaignTypeLOYALTY_PROGRAM},
}

// voucherTypeCondition is filters[voucher_type]: the type of the
// campaign's codes, derived from its campaign type.
func voucherTypeCondition(op string, values []string) (func(*sql.Selector), error) {
	switch op {
	case "$has_value":
		return campaign.CampaignTypeNEQ(campaign.CampaignTypePROMOTION), nil
	case "$is_unknown":
		return campaign.CampaignTypeEQ(campaign.CampaignTypePROMOTION), nil
	case "$is", "$in", "$is_not", "$not_in":
	default:
		return nil, apperr.InvalidQueryParams("Query parameter filters[voucher_type][conditions][%s] is not a supported operator (use $is, $is_not, $in, $not_in, $has_value, $is_unknown)", op)
	}
	var types []campaign.CampaignType
	for _, v := range values {
		ts, ok := voucherCampaignTypes[v]
		if !ok {
			return nil, apperr.InvalidQueryParams("Query parameter filters[voucher_type][conditions][%s] takes DISCOUNT_VOUCHER, GIFT_VOUCHER or LOYALTY_CARD, got %q", op, v)
		}
		types = append(types, ts...)
	}
	if op == "$is_not" || op == "$not_in" {
		return campaign.CampaignTypeNotIn(types...), nil
	}
	return campaign.CampaignTypeIn(types...), nil
}

// typeCondition is filters[type]: $in / $not_in of AUTO_UPDATE, STATIC,
// STANDALONE and BULK (AUTO_UPDATE or STATIC).
func typeCondition(op string, values []string) (func(*sql.Selector), error) {
	if op != "$in" && op != "$not_in" {
		return nil, apperr.InvalidQueryParams("Query parameter filters[type][conditions][%s] is not a supported operator (use $in, $not_in)", op)
	}
	var types []campaign.Type
	for _, v := range values {
		switch t := campaign.Type(v); {
		case v == "BULK":
			types = append(types, campaign.TypeAUTO_UPDATE, campaign.TypeSTATIC)
		case campaign.TypeValidator(t) == nil:
			types = append(types, t)
		default:
			return nil, apperr.InvalidQueryParams("Query parameter filters[type][conditions][%s] takes AUTO_UPDATE, BULK, STANDALONE or STATIC, got %q", op, v)
		}
	}
	if op == "$not_in" {
		return campaign.TypeNotIn(types...), nil
	}
	return campaign.TypeIn(types...), nil
}

// statusStates are filters[status]'s operators (each passed as an empty
// value): the creation status, or where now falls in the campaign's dates.
var statusStates = map[string]func(now time.Time) func(*sql.Selector){
	"$active": func(time.Time) func(*sql.Selector) { return campaign.CreationStatusEQ(campaign.CreationStatusDONE) },
	"$failed": func(time.Time) func(*sql.Selector) { return campaign.CreationStatusEQ(campaign.CreationStatusFAILED) },
	"$in_progress": func(time.Time) func(*sql.Selector) {
		return campaign.CreationStatusEQ(campaign.CreationStatusIN_PROGRESS)
	},
	"$expired":     expired,
	"before_start": func(now time.Time) func(*sql.Selector) { return campaign.StartDateGT(now) },
}

// activeStates are filters[active]'s operators: the campaign's switch, or
// whether it is running now (switched on, started and not expired).
var activeStates = map[string]func(now time.Time) func(*sql.Selector){
	"$enabled":  func(time.Time) func(*sql.Selector) { return campaign.Active(true) },
	"$disabled": func(time.Time) func(*sql.Selector) { return campaign.Active(false) },
	"$expired":  expired,
	"$active": func(now time.Time) func(*sql.Selector) {
		return campaign.And(campaign.Active(true),
			campaign.Or(campaign.StartDateIsNil(), campaign.StartDateLTE(now)),
			campaign.Or(campaign.ExpirationDateIsNil(), campaign.ExpirationDateGT(now)))
	},
}

func expired(now time.Time) func(*sql.Selector) { return campaign.ExpirationDateLTE(now) }

// stateCondition is a filter whose operators name states and take no
// value (filters[active][conditions][$enabled]=).
func stateCondition(field string, states map[string]func(time.Time) func(*sql.Selector)) func(string, []string) (func(*sql.Selector), error) {
	return func(op string, _ []string) (func(*sql.Selector), error) {
		state, ok := states[op]
		if !ok {
			return nil, apperr.InvalidQueryParams("Query parameter filters[%s][conditions][%s] is not a supported operator (use one of %s)",
				field, op, strings.Join(slices.Sorted(maps.Keys(states)), ", "))
		}
		return state(time.Now().UTC()), nil
	}
}

// unsupportedFilter refuses a documented filter this list cannot honour:
// the validity rules are JSON documents, not comparable columns.
func unsupportedFilter(field string) func(string, []string) (func(*sql.Selector), error) {
	return func(string, []string) (func(*sql.Selector), error) {
		return nil, apperr.InvalidQueryParams("Query parameter filters[%s] is not supported by the campaign list", field)
	}
}

// condition is {conditions: {op: values}}, the shape listfilter reads.
func condition(op string, values []string) map[string]any {
	vals := make([]any, len(values))
	for i, v := range values {
		vals[i] = v
	}
	return map[string]any{"conditions": map[string]any{op: vals}}
}

func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}
