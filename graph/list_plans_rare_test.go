package graph

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/graph/redemption"
)

// rareRows is how many entries of each rare kind the big project's
// redemption history holds beside its bigRows successes: fewer than a
// page, so a filter on the newest-first walk of (project_id, created_at,
// id) reads every row of the project before it gives up filling the page.
const rareRows = 20

// rareRedemptions adds the rare entries of a shop's redemption history to
// the cloned successes (PostgreSQL; base is the redemption they copy),
// spread over the cloned rows' hour span: rareRows failures
// (quantity_exceeded), rareRows rollbacks of cloned redemptions, and
// rareRows successes of the code B001 (campaign "big"), whose history is
// short beside S000's.
func rareRedemptions(t *testing.T, db *entdb.DB, base string) {
	t.Helper()
	spread := `t."created_at" - g * interval '1500 seconds'`
	cloneRows(t, db, "redemptions", base, rareRows, map[string]string{
		"id": `'rf_' || substr(md5('f' || g), 1, 18)`, "result": `'FAILURE'`, "status": `'FAILED'`,
		"failure_code": `'quantity_exceeded'`, "failure_message": `'quantity exceeded'`, "created_at": spread})
	cloneRows(t, db, "redemptions", base, rareRows, map[string]string{
		"id": `'rr_' || substr(md5('b' || g), 1, 18)`, "object": `'redemption_rollback'`,
		"rolled_back_id": `'r_' || substr(md5(g::text), 1, 18)`, "created_at": spread})
	b001 := `(SELECT id FROM vouchers WHERE code = 'B001')`
	cloneRows(t, db, "redemptions", base, rareRows, map[string]string{
		"id": `'r_' || substr(md5('v' || g), 1, 18)`, "voucher_id": b001, "voucher_code": `'B001'`,
		"related_object_id": b001, "campaign_id": `(SELECT id FROM campaigns WHERE name = 'big')`, "created_at": spread})
}

// rareRedemptionCases are the redemption history's filters on a value few
// entries have (rareRedemptions): each reads its page off an index of its
// own (docs/architecture.md, "Indexes of the list filters"), never the
// project's walk.
func rareRedemptionCases(db *entdb.DB, limit int) []listCase {
	list := func(in *redemption.RedemptionListInput) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) {
			in.Limit = &limit
			if _, err := redemption.List(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	filter := func(field, op string, value any) map[string]any {
		return map[string]any{field: map[string]any{"conditions": map[string]any{op: value}}}
	}
	return []listCase{
		{"GET /v1/redemptions?result=FAILURE", "redemptions", list(&redemption.RedemptionListInput{Result: []string{"FAILURE"}})},
		{"GET /v1/redemptions?filters[result][conditions][$is]=FAILURE", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("result", "$is", "FAILURE")})},
		{"GET /v1/redemptions?filters[result][conditions][$is_not]=SUCCESS", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("result", "$is_not", "SUCCESS")})},
		{"GET /v1/redemptions?filters[failure_code][conditions][$is]=quantity_exceeded", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("failure_code", "$is", "quantity_exceeded")})},
		{"GET /v1/redemptions?filters[failure_code][conditions][$has_value]", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("failure_code", "$has_value", "")})},
		{"GET /v1/redemptions?filters[object][conditions][$is]=redemption_rollback", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("object", "$is", "redemption_rollback")})},
		{"GET /v1/redemptions?filters[voucher_code][conditions][$is]=B001", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("voucher_code", "$is", "B001")})},
		{"GET /v1/redemptions?filters[voucher_code][conditions][$in]=B001,B000", "redemptions",
			list(&redemption.RedemptionListInput{Filters: filter("voucher_code", "$in", []any{"B001", "B000"})})},
		{"GET /v1/redemptions?filters[related_object_id][conditions][$is]=<B001's id>", "redemptions", func(t *testing.T, ctx context.Context) {
			var id string
			if err := db.SQL.QueryRow(`SELECT id FROM vouchers WHERE code = 'B001'`).Scan(&id); err != nil {
				t.Fatal(err)
			}
			list(&redemption.RedemptionListInput{Filters: filter("related_object_id", "$is", id)})(t, ctx)
		}},
	}
}
