package redemption

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
)

// filters[voucher_code] and filters[related_object_id] with $is or $in
// name a few redeemables of the project, whose entries an index of their
// own serves: the rows they name are looked up first, and the filter
// keeps its equality on the column beside the indexed condition (so it
// stays exact). The other operators, and a value nothing serves, are a
// filter on the newest-first walk of the project's entries
// (docs/architecture.md, "Indexes of the list filters").

// voucherCodeCondition is filters[voucher_code]: $is and $in look the
// project's vouchers of those codes up (unique (project_id, code)) and
// keep their entries by voucher_id ((voucher_id, created_at)). An entry
// outlives no voucher: deleting a voucher deletes its redemptions
// (graph/campaign deleteVouchers; a restore from the bin does not bring
// them back), so a code without a live voucher has no entries and the
// filter keeps none without reading the history.
func voucherCodeCondition(ctx context.Context, c *ent.Client) func(op string, values []string) (func(*sql.Selector), error) {
	column := listfilter.Field{Kind: listfilter.NullableString, Column: redemption.FieldVoucherCode}
	return func(op string, values []string) (func(*sql.Selector), error) {
		codes, ok := namedValues(op, values)
		if !ok {
			return column.OnColumn("voucher_code", op, values)
		}
		ids, err := c.Voucher.Query().Where(voucher.CodeIn(codes...)).IDs(ctx)
		if err != nil {
			return nil, fmt.Errorf("looking up filters[voucher_code]: %w", err)
		}
		return sql.AndPredicates(sql.FieldIn(redemption.FieldVoucherID, ids...),
			sql.FieldIn(redemption.FieldVoucherCode, codes...)), nil
	}
}

// relatedObjectCondition is filters[related_object_id]: $is and $in keep
// each ID's entries off an index by its kind — a voucher's by voucher_id
// (every entry of a voucher has both), a promotion tier's by its
// campaign's campaign_id (the tier looked up first; an entry of a tier
// has its campaign), a stacked parent's (r_, rf_: the parent itself and
// its rollback, the only entries naming it) by id or rolled_back_id. An
// ID of none of those kinds, or of a deleted tier (its entries stay in
// the history, without a tier to find their campaign by), walks the
// project's entries.
func relatedObjectCondition(ctx context.Context, c *ent.Client) func(op string, values []string) (func(*sql.Selector), error) {
	column := listfilter.Field{Kind: listfilter.String, Column: redemption.FieldRelatedObjectID}
	return func(op string, values []string) (func(*sql.Selector), error) {
		ids, ok := namedValues(op, values)
		if !ok {
			return column.OnColumn("related_object_id", op, values)
		}
		var vouchers, tiers, parents []string
		for _, id := range ids {
			switch {
			case strings.HasPrefix(id, pulid.PrefixVoucher):
				vouchers = append(vouchers, id)
			case strings.HasPrefix(id, pulid.PrefixPromotionTier):
				tiers = append(tiers, id)
			case strings.HasPrefix(id, pulid.PrefixRedemption), strings.HasPrefix(id, pulid.PrefixRedemptionFailed):
				parents = append(parents, id)
			default:
				return column.OnColumn("related_object_id", op, values)
			}
		}
		var served []func(*sql.Selector)
		if len(vouchers) > 0 {
			served = append(served, sql.FieldIn(redemption.FieldVoucherID, vouchers...))
		}
		if len(tiers) > 0 {
			found, err := c.PromotionTier.Query().Where(promotiontier.IDIn(tiers...)).
				Select(promotiontier.FieldID, promotiontier.FieldCampaignID).All(ctx)
			if err != nil {
				return nil, fmt.Errorf("looking up filters[related_object_id]: %w", err)
			}
			if len(found) < len(slices.Compact(slices.Sorted(slices.Values(tiers)))) { // a deleted tier's entries stay
				return column.OnColumn("related_object_id", op, values)
			}
			var campaigns []string
			for _, t := range found {
				campaigns = append(campaigns, t.CampaignID)
			}
			served = append(served, sql.FieldIn(redemption.FieldCampaignID, campaigns...))
		}
		if len(parents) > 0 {
			served = append(served, sql.OrPredicates(sql.FieldIn(redemption.FieldID, parents...),
				sql.FieldIn(redemption.FieldRolledBackID, parents...)))
		}
		return sql.AndPredicates(sql.OrPredicates(served...), sql.FieldIn(redemption.FieldRelatedObjectID, ids...)), nil
	}
}

// namedValues are the values a set operator names ($is: the first, $in:
// all); ok false for the other operators.
func namedValues(op string, values []string) (named []string, ok bool) {
	switch op {
	case "$is":
		if len(values) == 0 {
			return []string{""}, true
		}
		return values[:1], true
	case "$in":
		return values, true
	}
	return nil, false
}
