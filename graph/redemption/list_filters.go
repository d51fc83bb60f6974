package redemption

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
)

// The filters[…] object of the redemption history (GET /v1/redemptions
// and GraphQL redemptionList alike; ParameterFiltersListRedemptions,
// docs/redemptions.md "Filters of the list"). Each field is a column of
// the entry itself, so the filters are predicates of the list's rows
// (the REST page's sub-select, its deferred page and its count alike):
//   - voucher_code: the code the entry was written with; an entry of a
//     promotion tier has none. $is and $in look the codes' vouchers up
//     first (list_filter_lookups.go).
//   - related_object_id: the redeemable (voucher or promotion tier ID; a
//     stacked entry's, its parent redemption's ID); $is and $in look up
//     what serves each ID (list_filter_lookups.go).
//   - related_object_parent_id: the redeemable's campaign (campaign_id).
//   - parent_redemption_id: the stack's parent redemption (parent_id).
//   - failure_code, result, object (redemption, redemption_rollback),
//     customer_id: the entry's columns. result and object hold one of two
//     values: $is, $in, $is_not and $not_in name the values kept, written
//     as constants, so that the partial indexes of the rare ones
//     (ent/schema/redemption.go: failures, rollbacks) serve them; a
//     failure code is only on a FAILURE entry, which its filters say.
//   - campaign_name: the campaigns so named are looked up first, then
//     their entries by campaign_id (its index).
//
// user_login is refused: the service keeps no dashboard users.

// listFilterFields are the fields of the list's filters[…] object.
func listFilterFields(ctx context.Context, c *ent.Client) map[string]listfilter.Field {
	return map[string]listfilter.Field{
		"voucher_code":             {Condition: voucherCodeCondition(ctx, c)},
		"related_object_id":        {Condition: relatedObjectCondition(ctx, c)},
		"related_object_parent_id": {Kind: listfilter.NullableString, Column: redemption.FieldCampaignID},
		"parent_redemption_id":     {Kind: listfilter.NullableString, Column: redemption.FieldParentID},
		"failure_code": {Kind: listfilter.NullableString, Column: redemption.FieldFailureCode,
			ValueImplies: listfilter.Literal(redemption.FieldResult, redemption.ResultFAILURE.String())},
		"result": {Kind: listfilter.String, Column: redemption.FieldResult,
			Values: []string{redemption.ResultSUCCESS.String(), redemption.ResultFAILURE.String()}},
		"object": {Kind: listfilter.String, Column: redemption.FieldObject,
			Values: []string{redemption.ObjectRedemption.String(), redemption.ObjectRedemptionRollback.String()}},
		"customer_id": {Kind: listfilter.NullableString, Column: redemption.FieldCustomerID},
		"campaign_name": {Condition: listfilter.Related("campaign_name", campaign.FieldName, listfilter.String, redemption.FieldCampaignID,
			func(where func(*sql.Selector)) ([]string, error) {
				return c.Campaign.Query().Where(where).IDs(ctx)
			})},
		"user_login": {Condition: listfilter.Unsupported("user_login", "the service keeps no users")},
	}
}
