package rest_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestRedemptionOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "GQL", "GQL-1", map[string]any{"type": "PERCENT", "percent_off": 25, "amount_limit": 300}, 1)

	input := map[string]any{"redeemables": []any{map[string]any{"id": "GQL-1"}},
		"order":    map[string]any{"items": []any{map[string]any{"productID": "p", "quantity": 2, "price": 1000}}},
		"customer": map[string]any{"sourceID": "gql-cust"}}
	r := e.GraphQL(app, `mutation($in: StackedRedemptionInput!) { validateStacked(input: $in) { valid order redeemables { status id } } }`,
		map[string]any{"in": input})
	if len(r.Errors) > 0 {
		t.Fatalf("validateStacked: %+v", r.Errors)
	}
	val := r.Data["validateStacked"].(map[string]any)
	if val["valid"] != true || num(val["order"].(map[string]any)["total_amount"]) != 1700 {
		t.Fatalf("validateStacked: %v", val)
	}

	redeem := `mutation($in: StackedRedemptionInput!) { redeemStacked(input: $in) {
		parentRedemption { id result status } redemptions { id voucher { code } customer { sourceID } }
		order failure { code key resourceID } } }`
	r = e.GraphQL(app, redeem, map[string]any{"in": input})
	if len(r.Errors) > 0 {
		t.Fatalf("redeemStacked: %+v", r.Errors)
	}
	res := r.Data["redeemStacked"].(map[string]any)
	parent := res["parentRedemption"].(map[string]any)
	if parent["result"] != "SUCCESS" || res["failure"] != nil || len(res["redemptions"].([]any)) != 1 {
		t.Fatalf("redeemStacked: %v", res)
	}
	// The second one fails: the failure is data, and it is stored.
	r = e.GraphQL(app, redeem, map[string]any{"in": input})
	failure := r.Data["redeemStacked"].(map[string]any)["failure"].(map[string]any)
	if failure["key"] != "quantity_exceeded" || failure["code"] != 400.0 {
		t.Fatalf("second redemption: %v %+v", r.Data, r.Errors)
	}
	must(t, e.Do(http.MethodGet, "/v1/redemptions/"+failure["resourceID"].(string), nil, app), http.StatusOK)

	r = e.GraphQL(app, `query { vouchers(where: {code: "GQL-1"}) { edges { node { redemptions(first: 10) { totalCount edges { node { id result } } } } } }
		redemptions(first: 5, where: {result: FAILURE}) { totalCount } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("connections: %+v", r.Errors)
	}
	vr := r.Data["vouchers"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)["redemptions"].(map[string]any)
	if num(vr["totalCount"]) != 2 || num(r.Data["redemptions"].(map[string]any)["totalCount"]) != 2 {
		t.Fatalf("Voucher.redemptions / redemptions: %v", r.Data)
	}

	r = e.GraphQL(app, `mutation($id: ID!) { rollbackStackedRedemption(parentID: $id, input: {reason: "gql"}) { rollback { id object } rollbacks { id } } }`,
		map[string]any{"id": parent["id"]})
	if len(r.Errors) > 0 {
		t.Fatalf("rollback: %+v", r.Errors)
	}
	r = e.GraphQL(app, `mutation($id: ID!) { rollbackStackedRedemption(parentID: $id) { rollback { id } } }`, map[string]any{"id": parent["id"]})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "already_rolled_back" {
		t.Fatalf("second rollback: %+v", r.Errors)
	}
	r = e.GraphQL(app, `query { customer(idOrSourceID: "gql-cust") { summary redemptions(first: 10) { totalCount } } }`, nil)
	cust := r.Data["customer"].(map[string]any)
	if num(cust["redemptions"].(map[string]any)["totalCount"]) < 3 {
		t.Fatalf("Customer.redemptions: %v %+v", r.Data, r.Errors)
	}
}

// TestStoredOrdersOverGraphQL: the calculated order a redemption and its
// order store (documents, shown as stored) read the same through GraphQL
// as through REST, and a rollback's canceled order shows there too.
func TestStoredOrdersOverGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "DOC", "DOC-1", map[string]any{"type": "AMOUNT", "amount_off": 500}, nil)
	res := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{
		"redeemables": []any{map[string]any{"object": "voucher", "id": "DOC-1"}},
		"order":       map[string]any{"items": []any{map[string]any{"product_id": "p", "quantity": 2, "price": 1500}}},
	}, app), http.StatusOK)
	parent := res["parent_redemption"].(map[string]any)
	child := res["redemptions"].([]any)[0].(map[string]any)
	orderID := res["order"].(map[string]any)["id"].(string)

	q := `query($p: ID!, $c: ID!, $o: ID!) { p: node(id: $p) { ... on Redemption { order } }
		c: node(id: $c) { ... on Redemption { order } } o: node(id: $o) { ... on Order { calculated } } }`
	vars := map[string]any{"p": parent["id"], "c": child["id"], "o": orderID}
	r := e.GraphQL(app, q, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("query: %+v", r.Errors)
	}
	gotParent := r.Data["p"].(map[string]any)["order"]
	if !reflect.DeepEqual(gotParent, parent["order"]) {
		t.Errorf("parent's order over GraphQL:\n%v\nREST:\n%v", gotParent, parent["order"])
	}
	if got := r.Data["c"].(map[string]any)["order"]; !reflect.DeepEqual(got, child["order"]) {
		t.Errorf("child's order over GraphQL:\n%v\nREST:\n%v", got, child["order"])
	}
	calc := r.Data["o"].(map[string]any)["calculated"].(map[string]any)
	if num(calc["total_discount_amount"]) != 500 || num(calc["total_amount"]) != 2500 || calc["status"] != "CREATED" {
		t.Errorf("Order.calculated: %v", calc)
	}

	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+parent["id"].(string)+"/rollbacks", map[string]any{}, app), http.StatusOK)
	r = e.GraphQL(app, q, vars)
	calc = r.Data["o"].(map[string]any)["calculated"].(map[string]any)
	if num(calc["total_discount_amount"]) != 0 || num(calc["total_amount"]) != 3000 || calc["status"] != "CANCELED" {
		t.Errorf("Order.calculated after the rollback: %v %+v", calc, r.Errors)
	}
	if got := r.Data["p"].(map[string]any)["order"]; !reflect.DeepEqual(got, parent["order"]) {
		t.Errorf("the parent's stored order changed with the rollback: %v", got)
	}
}
