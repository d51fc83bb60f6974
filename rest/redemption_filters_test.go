package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// redemptionFilterFixture redeems, oldest first: TEN-A for ann, ONCE-A
// without a customer, ONCE-A again for ann (a failure: quantity
// exceeded), TEN-B for bob (then rolled back), and TEN-A with the
// standalone LONE-1 in one request for cid (a parent entry and its two
// children). It returns the rollback's and the parent's IDs.
func redemptionFilterFixture(t *testing.T, e *resttest.Env, app resttest.Headers) (rollbackID, parentID string) {
	t.Helper()
	discountCode(t, e, app, "Tenner", "TEN-A", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Tenner/vouchers", map[string]any{"code": "TEN-B"}, app), http.StatusOK)
	discountCode(t, e, app, "Once", "ONCE-A", map[string]any{"type": "PERCENT", "percent_off": 5}, 1)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/LONE-1", map[string]any{"type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 500}}, app), http.StatusOK)
	order := map[string]any{"amount": 5000}
	customer := func(id string) map[string]any {
		return map[string]any{"order": order, "customer": map[string]any{"source_id": id}}
	}
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN-A"}, customer("ann")), http.StatusOK)
	waitABit()
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "ONCE-A"}, map[string]any{"order": order}), http.StatusOK)
	waitABit()
	if r := redeemOne(e, app, map[string]any{"object": "voucher", "id": "ONCE-A"}, customer("ann")); r.Status != http.StatusBadRequest {
		t.Fatalf("redeeming a used code: %d %s", r.Status, r.Body)
	}
	waitABit()
	bob := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/TEN-B/redemption", customer("bob"), app), http.StatusOK)
	waitABit()
	id := bob["id"].(string)
	rb := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+id+"/rollback", map[string]any{"reason": "r"}, app), http.StatusOK)
	waitABit()
	body := map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "TEN-A"}, map[string]any{"object": "voucher", "id": "LONE-1"}}}
	for k, v := range customer("cid") {
		body[k] = v
	}
	stack := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", body, app), http.StatusOK)
	parent, _ := stack["parent_redemption"].(map[string]any)
	if parent == nil {
		t.Fatalf("a stacked redemption has no parent_redemption: %v", stack)
	}
	rbID, _ := rb["id"].(string)
	if rbs, ok := rb["rollbacks"].([]any); ok && len(rbs) > 0 {
		rbID, _ = rbs[0].(map[string]any)["id"].(string)
	}
	return rbID, parent["id"].(string)
}

// listedRedemptions is a page of GET /v1/redemptions?query (checked
// against the reference document), newest first unless ordered: each
// entry as object/result/code/customer ("-" for none), and the total.
func listedRedemptions(t *testing.T, e *resttest.Env, app resttest.Headers, query string) (entries []string, total int) {
	t.Helper()
	var page struct {
		Redemptions []struct {
			Object, Result string
			Voucher        *struct{ Code string }
			Customer       *struct {
				SourceID string `json:"source_id"`
			}
		}
		Total int
	}
	if err := json.Unmarshal([]byte(checkedGet(t, e, app, "/v1/redemptions?"+query)), &page); err != nil {
		t.Fatal(err)
	}
	for _, r := range page.Redemptions {
		code, who := "-", "-"
		if r.Voucher != nil {
			code = r.Voucher.Code
		}
		if r.Customer != nil && r.Customer.SourceID != "" {
			who = r.Customer.SourceID
		}
		entries = append(entries, strings.Join([]string{strings.TrimPrefix(r.Object, "redemption_"), r.Result, code, who}, "/"))
	}
	return entries, page.Total
}

// TestRedemptionListFilters: every documented filters[…] field of GET
// /v1/redemptions keeps what it names and nothing else, alone, together
// (junction and, or), with the other parameters and across pages (both
// ways of reading a deep page); user_login, an unknown field or operator
// and a malformed object are a 400 in the error shape naming the field.
func TestRedemptionListFilters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	rollbackID, parentID := redemptionFilterFixture(t, e, app)
	other := resttest.App(e.NewProject("other")) // another project's entry of a TEN-A of Tenner is never listed
	discountCode(t, e, other, "Tenner", "TEN-A", map[string]any{"type": "AMOUNT", "amount_off": 1}, nil)
	must(t, redeemOne(e, other, map[string]any{"object": "voucher", "id": "TEN-A"}, map[string]any{"order": map[string]any{"amount": 100},
		"customer": map[string]any{"source_id": "bob"}}), http.StatusOK)
	tenA := must(t, e.Do(http.MethodGet, "/v1/vouchers/TEN-A", nil, app), http.StatusOK)
	bob := must(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, app), http.StatusOK)

	all := []string{ // newest first
		"redemption/SUCCESS/-/cid",      // 0: the stack's parent (its related object is itself)
		"redemption/SUCCESS/TEN-A/cid",  // 1: its children
		"redemption/SUCCESS/LONE-1/cid", // 2
		"rollback/SUCCESS/TEN-B/bob",    // 3: the rollback of 4
		"redemption/SUCCESS/TEN-B/bob",  // 4: a legacy redemption (no parent)
		"redemption/FAILURE/ONCE-A/ann", // 5: the failed second use of ONCE-A
		"redemption/FAILURE/-/ann",      // 6: and its parent
		"redemption/SUCCESS/ONCE-A/-",   // 7
		"redemption/SUCCESS/-/-",        // 8: 7's parent
		"redemption/SUCCESS/-/ann",      // 9: 10's parent
		"redemption/SUCCESS/TEN-A/ann",  // 10
	}
	pick := func(idx ...int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, all[i])
		}
		return out
	}
	without := func(idx ...int) []string {
		var out []string
		for i, s := range all {
			if !slices.Contains(idx, i) {
				out = append(out, s)
			}
		}
		return out
	}
	tenner := pick(1, 3, 4, 10)
	noCampaign := pick(0, 2, 6, 8, 9)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", all},
		{resttest.FilterQuery("voucher_code", "$is", "TEN-A"), pick(1, 10)},
		{resttest.FilterQuery("voucher_code", "$in", "TEN-A", "LONE-1", "NOPE"), pick(1, 2, 10)},
		{resttest.FilterQuery("voucher_code", "$starts_with", "TEN"), tenner},
		{resttest.FilterQuery("voucher_code", "$is_not", "TEN-A"), without(1, 10)}, // an entry without a code is not TEN-A's
		{resttest.FilterQuery("voucher_code", "$is_unknown"), pick(0, 6, 8, 9)},
		{resttest.FilterQuery("related_object_id", "$is", tenA["id"].(string)), pick(1, 10)},
		{resttest.FilterQuery("related_object_id", "$is", parentID), pick(0)},
		{resttest.FilterQuery("related_object_parent_id", "$is", tenA["campaign_id"].(string)), tenner},
		{resttest.FilterQuery("related_object_parent_id", "$is_unknown"), noCampaign},
		{resttest.FilterQuery("parent_redemption_id", "$is", parentID), pick(1, 2)},
		{resttest.FilterQuery("parent_redemption_id", "$has_value"), pick(1, 2, 5, 7, 10)},
		{resttest.FilterQuery("failure_code", "$is", "quantity_exceeded"), pick(5, 6)},
		{resttest.FilterQuery("failure_code", "$has_value"), pick(5, 6)},
		{resttest.FilterQuery("failure_code", "$is_not", "quantity_exceeded"), without(5, 6)},
		{resttest.FilterQuery("result", "$is", "FAILURE"), pick(5, 6)},
		{resttest.FilterQuery("result", "$in", "SUCCESS", "FAILURE"), all},
		// result and object hold one of two values: the negative
		// operators name the other one (the partial indexes of failures
		// and rollbacks serve them); a value neither is keeps none.
		{resttest.FilterQuery("result", "$is_not", "SUCCESS"), pick(5, 6)},
		{resttest.FilterQuery("result", "$not_in", "FAILURE"), without(5, 6)},
		{resttest.FilterQuery("result", "$is", "failure"), nil},
		{resttest.FilterQuery("result", "$not_in", "SUCCESS", "FAILURE"), nil},
		{resttest.FilterQuery("result", "$starts_with", "FAIL"), pick(5, 6)},
		{resttest.FilterQuery("object", "$not_in", "redemption"), pick(3)},
		{resttest.FilterQuery("object", "$in", "redemption", "redemption_rollback", "x"), all},
		{resttest.FilterQuery("failure_code", "$starts_with", "quantity"), pick(5, 6)},
		{resttest.FilterQuery("failure_code", "$is_unknown"), without(5, 6)},
		{resttest.FilterQuery("related_object_id", "$in", tenA["id"].(string), parentID, "v_nope"), pick(0, 1, 10)},
		{resttest.FilterQuery("related_object_id", "$is", "v_nope"), nil},
		{resttest.FilterQuery("related_object_id", "$is_not", tenA["id"].(string)), without(1, 10)},
		{resttest.FilterQuery("voucher_code", "$in", "TEN-A", "TEN-B") + "&" + resttest.FilterQuery("result", "$is_not", "SUCCESS"), nil},
		{resttest.FilterQuery("voucher_code", "$is", "ONCE-A") + "&" + resttest.FilterQuery("failure_code", "$has_value"), pick(5)},
		{resttest.FilterQuery("voucher_code", "$is", "ONCE-A") + "&" + resttest.FilterQuery("failure_code", "$has_value") + "&filters[junction]=or", pick(5, 6, 7)},
		{resttest.FilterQuery("object", "$is", "redemption_rollback"), pick(3)},
		{resttest.FilterQuery("object", "$is_not", "redemption_rollback"), without(3)},
		{resttest.FilterQuery("customer_id", "$is", bob["id"].(string)), pick(3, 4)},
		{resttest.FilterQuery("customer_id", "$is_unknown"), pick(7, 8)},
		{resttest.FilterQuery("campaign_name", "$is", "Tenner"), tenner},
		{resttest.FilterQuery("campaign_name", "$in", "Once", "Nope"), pick(5, 7)},
		{resttest.FilterQuery("campaign_name", "$starts_with", "Ten"), tenner},
		{resttest.FilterQuery("campaign_name", "$is", "Nope"), nil},
		{resttest.FilterQuery("campaign_name", "$is_unknown"), noCampaign},
		{resttest.FilterQuery("campaign_name", "$has_value"), without(0, 2, 6, 8, 9)},
		{resttest.FilterQuery("voucher_code", "$is", "LONE-1") + "&" + resttest.FilterQuery("object", "$is", "redemption_rollback") + "&filters[junction]=or", pick(2, 3)},
		{resttest.FilterQuery("voucher_code", "$is", "LONE-1") + "&" + resttest.FilterQuery("object", "$is", "redemption_rollback") + "&filters[junction]=AND", nil},
		{resttest.FilterQuery("campaign_name", "$is", "Tenner") + "&" + resttest.FilterQuery("customer_id", "$is", bob["id"].(string)), pick(3, 4)},
		{resttest.FilterQuery("result", "$is", "FAILURE") + "&customer=ann", pick(5, 6)},
		{resttest.FilterQuery("campaign_name", "$is", "Tenner") + "&campaign=Once", nil},
	} {
		// A stack's parent and children share their created_at: the
		// order among them is their random IDs', so compared as sets.
		got, total := listedRedemptions(t, e, app, tc.query+"&limit=100")
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) || total != len(tc.want) {
			t.Errorf("?%s: %v (total %d), want %v", tc.query, got, total, tc.want)
		}
	}

	// Pages of a filtered list, newest first (the deferred keyset),
	// oldest first, and by voucher_code (the deferred IDs): each shows the
	// filter's total and its own slice of the whole filtered list.
	reversed := slices.Clone(tenner)
	slices.Reverse(reversed)
	for _, order := range []struct {
		query string
		want  []string
	}{
		{"", tenner},
		{"&order=created_at", reversed},
		{"&order=id", nil}, // random IDs: the unpaged list's order
		{"&order=-voucher_code", nil},
	} {
		want, _ := listedRedemptions(t, e, app, resttest.FilterQuery("campaign_name", "$is", "Tenner")+order.query+"&limit=100")
		if order.want != nil && !slices.Equal(want, order.want) {
			t.Errorf("campaign_name Tenner%s: %v, want %v", order.query, want, order.want)
		}
		for pg := 1; pg <= 3; pg++ {
			got, total := listedRedemptions(t, e, app, resttest.FilterQuery("campaign_name", "$is", "Tenner")+order.query+"&limit=3&page="+strconv.Itoa(pg))
			page := want[min(len(want), (pg-1)*3):min(len(want), pg*3)]
			if !slices.Equal(got, page) || total != len(tenner) {
				t.Errorf("campaign_name Tenner%s page %d: %v (total %d), want %v (total %d)", order.query, pg, got, total, page, len(tenner))
			}
		}
	}

	for query, want := range map[string]string{
		resttest.FilterQuery("user_login", "$is", "ann@example.com"):    "user_login",
		resttest.FilterQuery("id", "$is", rollbackID):                   "filters[id]",
		resttest.FilterQuery("result", "$after", "2024-01-01"):          "filters[result]",
		resttest.FilterQuery("campaign_name", "$after", "2024-01-01"):   "filters[campaign_name]",
		resttest.FilterQuery("customer_id", "$more_than", "2024-01-01"): "filters[customer_id]",
		"filters[junction]=xor":                                         "junction",
		"filters[result]=SUCCESS":                                       "filters[result]",
		"filters[result][conditions]=SUCCESS":                           "filters[result]",
	} {
		wantError(t, e.Do(http.MethodGet, "/v1/redemptions?"+query, nil, app), http.StatusBadRequest, "invalid_query_params", want)
	}

	// GraphQL's redemptionList takes the same filters (one rule).
	gql := e.GraphQL(app, `query($f: Map) { redemptionList(input: {customer: "ann", filters: $f}) { total data { id } } }`,
		map[string]any{"f": map[string]any{"result": map[string]any{"conditions": map[string]any{"$is": "FAILURE"}}}})
	if len(gql.Errors) > 0 || gql.Data["redemptionList"].(map[string]any)["total"] != float64(2) {
		t.Errorf("redemptionList(customer: ann, result FAILURE) = %+v", gql)
	}
	gql = e.GraphQL(app, `query($f: Map) { redemptionList(input: {filters: $f}) { total } }`,
		map[string]any{"f": map[string]any{"user_login": map[string]any{"conditions": map[string]any{"$is": "x"}}}})
	if len(gql.Errors) == 0 || !strings.Contains(gql.Errors[0].Message, "user_login") {
		t.Errorf("redemptionList(user_login) = %+v, want an error", gql)
	}
}
