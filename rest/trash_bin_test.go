package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/rest/resttest"
)

// binList is resttest.BinList.
func binList(t *testing.T, e *resttest.Env, h resttest.Headers, query string) map[string]any {
	t.Helper()
	return resttest.BinList(t, e, h, query)
}

// binEntryOf is resttest.BinEntryOf.
func binEntryOf(t *testing.T, e *resttest.Env, h resttest.Headers, resourceID string) map[string]any {
	t.Helper()
	return resttest.BinEntryOf(t, e, h, resourceID)
}

func TestTrashBinVoucherIsBinnedInvisibleAndDeletedForGood(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	v := discountCode(t, e, app, "Keep", "BIN-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	discountCode(t, e, app, "Other", "GONE-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)

	// Bad input writes nothing: the voucher stays, the bin stays empty.
	wantError(t, e.Do(http.MethodDelete, "/v1/vouchers/BIN-1?force=maybe", nil, app), http.StatusBadRequest, "invalid_query_params", "force")
	must(t, e.Do(http.MethodGet, "/v1/vouchers/BIN-1", nil, app), http.StatusOK)
	if l := binList(t, e, app, ""); len(l["data"].([]any)) != 0 {
		t.Fatalf("bin after a refused delete = %s", mustJSON(l))
	}

	if r := e.Do(http.MethodDelete, "/v1/vouchers/BIN-1", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	// force=true skips the bin.
	if r := e.Do(http.MethodDelete, "/v1/vouchers/GONE-1?force=true", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE force: %d %s", r.Status, r.Body)
	}

	// Binned: every read, list, validation and redemption treats the code
	// as one that never existed.
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/BIN-1", nil, app), http.StatusNotFound, "not_found", "")
	if l := must(t, e.Do(http.MethodGet, "/v1/vouchers?campaign=Keep", nil, app), http.StatusOK); len(l["vouchers"].([]any)) != 0 {
		t.Errorf("voucher list shows a binned voucher: %s", mustJSON(l))
	}
	for _, call := range []struct{ path string }{{"/v1/vouchers/%s/validate"}, {"/v1/vouchers/%s/redemption"}} {
		binned := e.DoJSON(http.MethodPost, fmt.Sprintf(call.path, "BIN-1"), map[string]any{}, app)
		never := e.DoJSON(http.MethodPost, fmt.Sprintf(call.path, "NEVER-1"), map[string]any{}, app)
		if binned.Status != never.Status || binned.JSON(t)["key"] != never.JSON(t)["key"] || binned.JSON(t)["valid"] != never.JSON(t)["valid"] {
			t.Errorf("%s: binned %d %s, unknown %d %s", call.path, binned.Status, binned.Body, never.Status, never.Body)
		}
	}
	r := e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{
		map[string]any{"object": "voucher", "id": "BIN-1"}}}, app)
	if got := r.JSON(t); r.Status == http.StatusOK && got["result"] != "FAILURE" {
		t.Errorf("POST /v1/redemptions of a binned code: %d %s", r.Status, r.Body)
	}

	// Listed, with the documented shape; only the voucher deleted without force.
	list := binList(t, e, app, "")
	data := list["data"].([]any)
	if len(data) != 1 || list["total"] != float64(1) || list["has_more"] != false || list["data_ref"] != "data" {
		t.Fatalf("GET /v1/trash-bin = %s", mustJSON(list))
	}
	entry := data[0].(map[string]any)
	if entry["resource_id"] != v["id"] || entry["resource_type"] != "voucher" || entry["object"] != "voucher" ||
		entry["resource_name"] != "BIN-1" || entry["resource_parent_id"] != v["campaign_id"] ||
		entry["deleted_by_user_id"] != nil || len(entry["id"].(string)) != len("tbe_0eb6515f758ae37126") {
		t.Errorf("entry = %s (voucher %s)", mustJSON(entry), mustJSON(v))
	}
	id := entry["id"].(string)

	// The code stays reserved while binned.
	wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Keep/vouchers", map[string]any{"code": "BIN-1"}, app),
		http.StatusConflict, "duplicate_found", "bin")

	// Another project sees none of it.
	other := resttest.App(e.NewProject("other"))
	if l := binList(t, e, other, ""); len(l["data"].([]any)) != 0 {
		t.Errorf("another project's bin = %s", mustJSON(l))
	}
	wantNotFound(t, e.Do(http.MethodDelete, "/v1/trash-bin/"+id, nil, other), "bin_entry", id)

	// GraphQL lists the same entry.
	gql := e.GraphQL(app, `{ binEntries(input: {filters: [{field: "resource_type", op: "$is", values: ["voucher"]}]}) {
		total hasMore data { id resourceID resourceType resourceName resourceParentID deletedByUserID } } }`, nil)
	if len(gql.Errors) > 0 || mustJSON(gql.Data["binEntries"].(map[string]any)["data"]) !=
		mustJSON([]any{map[string]any{"id": id, "resourceID": v["id"], "resourceType": "voucher", "resourceName": "BIN-1",
			"resourceParentID": v["campaign_id"], "deletedByUserID": nil}}) {
		t.Errorf("binEntries = %+v", gql)
	}

	// Deleted for good: gone from the bin, the code free again.
	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+id, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	wantNotFound(t, e.Do(http.MethodDelete, "/v1/trash-bin/"+id, nil, app), "bin_entry", id)
	if l := binList(t, e, app, ""); len(l["data"].([]any)) != 0 {
		t.Errorf("bin after the delete = %s", mustJSON(l))
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Keep/vouchers", map[string]any{"code": "BIN-1"}, app), http.StatusOK)
	gqlDel := e.GraphQL(app, `mutation { deleteBinEntry(id: "`+id+`") }`, nil)
	if len(gqlDel.Errors) == 0 {
		t.Errorf("deleteBinEntry of a deleted entry = %+v", gqlDel)
	}
}

func TestTrashBinCampaignProductSkuPagesFiltersAndPurge(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Binned", "BINNED-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	job := must(t, e.Do(http.MethodDelete, "/v1/campaigns/Binned", nil, app), http.StatusAccepted)
	e.WaitForJob(app, job["async_action_id"].(string))
	wantError(t, e.Do(http.MethodGet, "/v1/campaigns/Binned", nil, app), http.StatusNotFound, "not_found", "")
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/BINNED-1", nil, app), http.StatusNotFound, "not_found", "")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Binned", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}}, app),
		http.StatusConflict, "duplicate_found", "bin")

	prod := createProduct(t, e, app, map[string]any{"source_id": "lamp", "name": "Lamp"})
	sku := must(t, e.DoJSON(http.MethodPost, "/v1/products/lamp/skus", map[string]any{"source_id": "lamp-red", "sku": "Red lamp"}, app), http.StatusOK)
	if r := e.Do(http.MethodDelete, "/v1/products/lamp/skus/lamp-red", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE SKU: %d %s", r.Status, r.Body)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/products/lamp/skus", map[string]any{"source_id": "lamp-red"}, app),
		http.StatusConflict, "duplicate_found", "bin")
	if r := e.Do(http.MethodDelete, "/v1/products/lamp", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE product: %d %s", r.Status, r.Body)
	}

	// Three entries in id (creation) order: campaign, sku, product.
	all := binList(t, e, app, "")["data"].([]any)
	names := func(list []any) (out []any) {
		for _, x := range list {
			out = append(out, x.(map[string]any)["resource_type"].(string)+":"+x.(map[string]any)["resource_name"].(string))
		}
		return out
	}
	if mustJSON(names(all)) != `["campaign:Binned","sku:Red lamp","product:Lamp"]` {
		t.Fatalf("bin = %s", mustJSON(all))
	}
	if s := all[1].(map[string]any); s["resource_id"] != sku["id"] || s["resource_parent_id"] != prod["id"] {
		t.Errorf("SKU entry = %s", mustJSON(s))
	}
	if c := all[0].(map[string]any); c["resource_parent_id"] != nil || c["object"] != "campaign" {
		t.Errorf("campaign entry = %s", mustJSON(c))
	}

	// Pages: limit=2 then starting_after_id; -id reverses.
	first := binList(t, e, app, "?limit=2")
	if first["has_more"] != true || first["total"] != float64(2) || first["more_starting_after"] != all[1].(map[string]any)["id"] {
		t.Errorf("first page = %s", mustJSON(first))
	}
	rest := binList(t, e, app, "?limit=2&starting_after_id="+first["more_starting_after"].(string))
	if mustJSON(names(rest["data"].([]any))) != `["product:Lamp"]` || rest["has_more"] != false || rest["more_starting_after"] != nil {
		t.Errorf("second page = %s", mustJSON(rest))
	}
	if got := names(binList(t, e, app, "?order=-id")["data"].([]any)); mustJSON(got) != `["product:Lamp","sku:Red lamp","campaign:Binned"]` {
		t.Errorf("order=-id = %v", got)
	}

	// Filters.
	for query, want := range map[string]string{
		"?filters[resource_type][conditions][$in][]=sku&filters[resource_type][conditions][$in][]=campaign":                                 `["campaign:Binned","sku:Red lamp"]`,
		"?filters[resource_type][conditions][$is_not]=campaign":                                                                             `["sku:Red lamp","product:Lamp"]`,
		"?filters[resource_name][conditions][$starts_with]=Red":                                                                             `["sku:Red lamp"]`,
		"?filters[resource_name][conditions][$contains]=amp&filters[resource_type][conditions][$is]=product":                                `["product:Lamp"]`,
		"?filters[junction]=or&filters[resource_name][conditions][$is]=Binned&filters[resource_id][conditions][$is]=" + prod["id"].(string): `["campaign:Binned","product:Lamp"]`,
		"?filters[resource_name][conditions][$is_unknown]=":                                                                                 `null`,
	} {
		if got := names(binList(t, e, app, query)["data"].([]any)); mustJSON(got) != want {
			t.Errorf("%s = %s, want %s", query, mustJSON(got), want)
		}
	}
	for _, query := range []string{"?limit=0", "?limit=101", "?order=created_at", "?filters[kind][conditions][$is]=x",
		"?filters[resource_type][conditions][$in]=dog", "?filters[junction]=xor", "?filters[id]=tbe_1",
		"?filters[id][conditions][$before]=x", "?filters[id][conditions][$is]="} {
		wantError(t, e.Do(http.MethodGet, "/v1/trash-bin"+query, nil, app), http.StatusBadRequest, "invalid_query_params", "")
	}

	// The purge deletes entries older than the retention period only.
	ctx := ent.NewContext(context.Background(), e.DB.Client)
	if n, err := bin.Purge(ctx, time.Now()); err != nil || n != 0 {
		t.Fatalf("purge now: %d %v", n, err)
	}
	if n, err := bin.Purge(ctx, time.Now().Add(bin.Retention+time.Hour)); err != nil || n != 3 {
		t.Fatalf("purge after the retention: %d %v", n, err)
	}
	if l := binList(t, e, app, ""); len(l["data"].([]any)) != 0 {
		t.Errorf("bin after the purge = %s", mustJSON(l))
	}
	createProduct(t, e, app, map[string]any{"source_id": "lamp"})
}
