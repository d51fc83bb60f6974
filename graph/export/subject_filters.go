package export

import (
	"context"
	"strings"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
)

// The exports of one subject through POST /v1/exports: voucher_transactions
// (ExportVoucherTransactionsFilters: voucher_id or campaign_id, and
// created_at) and points_expiration (ExportPointsExpirationFilters:
// campaign_id, and voucher_id). The subject is one voucher (code or ID),
// card or campaign named by $in (one value) or $is; the other member
// narrows its rows. The members are joined by and.

// subjectParameters are the parameters of a subject's export.
type subjectParameters struct {
	Order   *string        `json:"order"`
	Fields  []string       `json:"fields"`
	Filters map[string]any `json:"filters"`
}

// voucherTransactionsFromFilters is the voucher_transactions export.
func voucherTransactionsFromFilters(ctx context.Context, params map[string]any) (*ent.Export, error) {
	var p subjectParameters
	if err := decodeParameters(params, &p); err != nil {
		return nil, err
	}
	if err := checkSubjectFilters(p.Filters, "voucher_id", "campaign_id", "created_at"); err != nil {
		return nil, err
	}
	if _, err := parseFilters(only(p.Filters, "created_at"), filterSet{members: map[string]filterColumn{
		"created_at": timeCol("created_at")}}, ""); err != nil {
		return nil, err
	}
	in := &ExportParametersInput{Order: p.Order, Fields: p.Fields}
	voucher, err := subjectOf(p.Filters, "voucher_id")
	if err != nil {
		return nil, err
	}
	campaignID, err := subjectOf(p.Filters, "campaign_id")
	if err != nil {
		return nil, err
	}
	switch {
	case voucher != "" && campaignID == "":
		return voucherTransactions(ctx, voucher, in, storedFilters(only(p.Filters, "created_at"))["created_at"])
	case campaignID != "" && voucher == "":
		cmp, err := campaignByRef(ctx, campaignID)
		if err != nil {
			return nil, err
		}
		return campaignTransactions(ctx, cmp, in, storedFilters(only(p.Filters, "created_at"))["created_at"])
	}
	return nil, apperr.InvalidPayload("Property .parameters.filters must name one voucher (voucher_id) or one campaign (campaign_id) with $in or $is")
}

// pointsExpirationFromFilters is the points_expiration export.
func pointsExpirationFromFilters(ctx context.Context, params map[string]any) (*ent.Export, error) {
	var p subjectParameters
	if err := decodeParameters(params, &p); err != nil {
		return nil, err
	}
	if err := checkSubjectFilters(p.Filters, "campaign_id", "voucher_id"); err != nil {
		return nil, err
	}
	if _, err := parseFilters(only(p.Filters, "voucher_id"), filterSet{members: map[string]filterColumn{
		"voucher_id": textCol("voucher_id")}}, ""); err != nil {
		return nil, err
	}
	campaignID, err := subjectOf(p.Filters, "campaign_id")
	if err != nil {
		return nil, err
	}
	if campaignID == "" {
		return nil, apperr.InvalidPayload("Property .parameters.filters.campaign_id must name one loyalty campaign with $in or $is")
	}
	cmp, err := campaignByRef(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	return pointsExpiration(ctx, cmp, &ExportParametersInput{Order: p.Order, Fields: p.Fields},
		storedFilters(only(p.Filters, "voucher_id"))["voucher_id"])
}

// checkSubjectFilters refuses members other than allowed and a junction
// other than and.
func checkSubjectFilters(filters map[string]any, allowed ...string) error {
	for k, v := range filters {
		if k == "junction" {
			if j, _ := v.(string); !strings.EqualFold(j, "and") {
				return apperr.InvalidPayload("Property .parameters.filters.junction must be and here")
			}
			continue
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		if !ok {
			return apperr.InvalidPayload("Property .parameters.filters.%s is not supported; the filters are junction, %s",
				k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// subjectOf is the one value member's conditions name ("" when the member
// is absent).
func subjectOf(filters map[string]any, member string) (string, error) {
	raw, ok := filters[member]
	if !ok {
		return "", nil
	}
	f, _ := raw.(map[string]any)
	conds, _ := f["conditions"].(map[string]any)
	for _, op := range []string{"$in", "$is"} {
		v, ok := conds[op]
		if !ok {
			continue
		}
		if list, isList := v.([]any); isList && len(list) == 1 {
			v = list[0]
		}
		if s, _ := v.(string); s != "" && len(conds) == 1 {
			return s, nil
		}
	}
	return "", apperr.InvalidPayload("Property .parameters.filters.%s.conditions must name one value with $in or $is", member)
}

// only is filters' member alone (nil when absent).
func only(filters map[string]any, member string) map[string]any {
	if v, ok := filters[member]; ok {
		return map[string]any{member: v}
	}
	return nil
}

// subjectWindow reads the stored member of an export's filters (a
// narrowing of its subject's rows) as predicates over col.
func subjectWindow(params map[string]any, member string, col filterColumn, projectID string) ([]func(*entsql.Selector), error) {
	filters, _ := params["filters"].(map[string]any)
	return parseFilters(only(filters, member), filterSet{members: map[string]filterColumn{member: col}}, projectID)
}

// campaignByRef is the ID of a campaign named by ID or name (404 when
// unknown).
func campaignByRef(ctx context.Context, idOrName string) (string, error) {
	cmp, err := campaign.ByIDOrName(ctx, idOrName)
	if err != nil {
		return "", err
	}
	return cmp.ID, nil
}

// withCreatedAt adds a generic export's created_at filter (when set) to
// the subject's filters.
func withCreatedAt(filters map[string]any, createdAt any) map[string]any {
	if createdAt != nil {
		filters["created_at"] = createdAt
	}
	return filters
}
