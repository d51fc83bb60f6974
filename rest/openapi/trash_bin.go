package openapi

import "net/http"

// trashBin documents GET /v1/trash-bin, DELETE /v1/trash-bin/{binEntryId} and
// POST /v1/trash-bin/{binEntryId}/restore (our extension)
// (rest/trash_bin.go, docs/trash-bin.md).
func trashBin(a *API) {
	a.Tag("Bin", "Campaigns, vouchers, products and SKUs deleted without force, kept 30 days.")
	types := []string{"campaign", "product", "sku", "voucher"}
	entry := a.Schema("TrashBinItem", Object(
		Req("id", String().Desc("tbe_…")),
		Req("created_at", DateTime().Desc("When the resource was moved to the bin.")),
		Req("deleted_by_user_id", String().Null().Desc("null: deleted through the API.")),
		Req("resource_id", String()),
		Req("resource_type", Enum(types...)),
		Req("resource_name", String().Desc("The campaign's name, the voucher's code, the product's or SKU's name.")),
		Req("resource_parent_id", String().Null().Desc("The voucher's campaign or the SKU's product; null otherwise.")),
		Req("object", Enum(types...)),
	))
	a.Add("GET /v1/trash-bin", Op{Summary: "List bin entries", Auth: ServerAPI,
		Description: "The project's bin entries in id (creation) order. Filters: filters[<field>][conditions][<op>]=… on id, " +
			"resource_type, resource_name, resource_id with $in, $not_in, $is, $is_not, $has_value, $is_unknown, " +
			"$starts_with, $ends_with, $contains, $not_contain; filters[junction]=and|or.",
		Query: []Param{LimitParam, OrderParam("id"),
			Query("starting_after_id", String(), "The tbe_ id of the entry the page starts after (more_starting_after).")},
		Response: Object(
			Req("object", Const("list")), Req("data_ref", Const("data")), Req("data", Array(entry)),
			Req("total", Integer().Desc("The number of entries on this page.")), Req("has_more", Boolean()),
			Opt("more_starting_after", String().Desc("The starting_after_id of the next page, when there is one.")),
		)})
	a.Add("DELETE /v1/trash-bin/{binEntryId}", Op{Summary: "Delete bin entry", Auth: ServerAPI,
		Description: "Deletes the entry for good: the resource's name (campaign name, voucher code, product or SKU source_id) is free again.",
		PathParams:  map[string]string{"binEntryId": "The bin entry's ID."},
		Status:      http.StatusNoContent, Errors: []int{404}})
	a.Add("POST /v1/trash-bin/{binEntryId}/restore", Op{Summary: "Restore bin entry", Auth: ServerAPI,
		Description: "Our extension, not in the reference documents (bin.json has no restore): re-creates the voucher, " +
			"product (with its SKUs), SKU or campaign (with its vouchers, rule assignments, promotion tiers and stacks) " +
			"with the same id and code/source_id/name and deletes the entry; answers the entry restored. A voucher's " +
			"redemptions, transactions and publication links are not restored. A campaign with more than 1000 vouchers " +
			"answers 202 with the CAMPAIGN.RESTORE async action that re-creates its vouchers (the campaign stays " +
			"disabled until it is done). A voucher whose campaign or a SKU whose product is deleted, a campaign deleted " +
			"before campaigns could be restored: 400 not_restorable. A campaign whose deletion job still runs: 409 " +
			"deletion_in_progress; whose restore job runs: 409 restore_in_progress; whose name or a code is taken: 409 " +
			"duplicate_found.",
		PathParams: map[string]string{"binEntryId": "The bin entry's ID."},
		Response:   entry, Errors: []int{409},
		Also: []Response{{Status: http.StatusAccepted, Description: "A large campaign: its vouchers come back by a job.",
			Schema: Object(
				Req("id", String()), Req("created_at", DateTime()), Req("deleted_by_user_id", String().Null()),
				Req("resource_id", String()), Req("resource_type", Const("campaign")), Req("resource_name", String()),
				Req("resource_parent_id", String().Null()), Req("object", Const("campaign")),
				Req("async_action_id", String().Desc("The CAMPAIGN.RESTORE async action (GET /v1/async-actions/{id})."))),
		}}})
}
