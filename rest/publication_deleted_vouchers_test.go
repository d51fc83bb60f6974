package rest_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"entgo.io/ent/dialect"

	entpublication "github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/rest/resttest"
)

// publicationsByID lists the project's publications (every page entry
// checked against the reference by the harness) by id.
func publicationsByID(t *testing.T, e *resttest.Env, app resttest.Headers, query string) map[string]map[string]any {
	t.Helper()
	got := must(t, e.Do(http.MethodGet, "/v1/publications?limit=100"+query, nil, app), http.StatusOK)
	out := map[string]map[string]any{}
	for _, p := range got["publications"].([]any) {
		out[p.(map[string]any)["id"].(string)] = p.(map[string]any)
	}
	return out
}

// TestPublicationsKeepTheirDeletedVouchers: a publication is a record of a
// past event. Its vouchers deleted later — one code without force (to the
// bin) and with it, codes of a count-form publication, a whole campaign
// (its job), a gift card — still show as they were at the deletion, in
// the list (single and count forms, one statement and ent's loading), in
// a repeated publication answering the original, and GraphQL's vouchers
// edge lists the live ones; another project's publications are untouched.
func TestPublicationsKeepTheirDeletedVouchers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Keep", "type": "STATIC", "category": "Kept",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 15}}}, app), http.StatusOK)
	for _, code := range []string{"K-1", "K-2", "K-3", "K-4", "K-5"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Keep/vouchers", map[string]any{"code": code,
			"metadata": map[string]any{"n": 1, "none": nil}}, app), http.StatusOK)
	}
	staticCampaign(t, e, "Solo", "S-1")
	staticCampaign(t, e, "Live", "L-1")
	createCampaign(t, e, map[string]any{"name": "Cards", "type": "STATIC", "voucher": map[string]any{"type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 1000}}})
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Cards/vouchers", map[string]any{"code": "GIFT-1"}, app), http.StatusOK)
	other := resttest.App(e.NewProject("other"))
	discountCode(t, e, other, "Keep", "K-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	otherPub := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "K-1",
		"customer": map[string]any{"source_id": "ann"}}, other), http.StatusOK)

	pub := func(body map[string]any) string {
		t.Helper()
		p := must(t, e.DoJSON(http.MethodPost, "/v1/publications", body, app), http.StatusOK)
		waitABit()
		return p["id"].(string)
	}
	k1 := pub(map[string]any{"voucher": "K-1", "customer": map[string]any{"source_id": "ann"}})
	counted := pub(map[string]any{"campaign": map[string]any{"name": "Keep", "count": 3}, "customer": map[string]any{"source_id": "bob"}})
	solo := pub(map[string]any{"campaign": map[string]any{"name": "Solo"}, "customer": map[string]any{"source_id": "ann"}, "source_id": "s1"})
	gift := pub(map[string]any{"voucher": "GIFT-1", "customer": map[string]any{"source_id": "cid"}})
	live := pub(map[string]any{"campaign": map[string]any{"name": "Live"}, "customer": map[string]any{"source_id": "eve"}})
	before := publicationsByID(t, e, app, "")
	codes := before[counted]["vouchers"].([]any)
	if len(before) != 5 || len(codes) != 3 {
		t.Fatalf("before: %s", mustJSON(before))
	}

	del := func(code, query string) {
		t.Helper()
		if r := e.Do(http.MethodDelete, "/v1/vouchers/"+code+query, nil, app); r.Status != http.StatusNoContent {
			t.Fatalf("DELETE %s%s: %d %s", code, query, r.Status, r.Body)
		}
	}
	del("K-1", "")                              // to the bin
	del("GIFT-1", "?force=true")                // for good
	del(codes[1].(string), "?force=true")       // one of a count-form publication's codes
	del("S-1", "?force=true")                   // the only code of a campaign that lives on
	same := func(when string, want ...string) { // the listed entries show what they showed before
		t.Helper()
		after := publicationsByID(t, e, app, "")
		for _, id := range want {
			for _, k := range []string{"voucher", "vouchers", "vouchers_id"} {
				if !reflect.DeepEqual(after[id][k], before[id][k]) {
					t.Errorf("%s: %s %s = %s, was %s", when, id, k, mustJSON(after[id][k]), mustJSON(before[id][k]))
				}
			}
		}
	}
	same("codes deleted", k1, counted, solo, gift, live)
	// A live code's publications show its publication's deleted codes; a
	// deleted code's are a 404, a filter by it matches nothing.
	byCode := must(t, e.Do(http.MethodGet, "/v1/vouchers/"+codes[0].(string)+"/publications", nil, app), http.StatusOK)
	if got := byCode["publications"].([]any); len(got) != 1 || !reflect.DeepEqual(got[0].(map[string]any)["vouchers"], codes) {
		t.Errorf("GET /v1/vouchers/%s/publications = %s", codes[0], mustJSON(byCode))
	}
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/K-1/publications", nil, app), http.StatusNotFound, "not_found", "")
	if got := must(t, e.Do(http.MethodGet, "/v1/publications?voucher=K-1", nil, app), http.StatusOK); got["total"] != float64(0) {
		t.Errorf("?voucher=K-1 = %s", mustJSON(got))
	}

	// The whole campaign, by its job (without force: to the bin).
	job, _ := must(t, e.Do(http.MethodDelete, "/v1/campaigns/Keep", nil, app), http.StatusAccepted)["async_action_id"].(string)
	if done := e.WaitForJob(app, job); done["status"] != "DONE" {
		t.Fatalf("deleting Keep: %v", done)
	}
	same("campaign deleted", k1, counted, solo, gift, live)
	if v := publicationsByID(t, e, app, "")[k1]["voucher"].(map[string]any); v["code"] != "K-1" || v["campaign"] != "Keep" ||
		v["discount"].(map[string]any)["percent_off"] != float64(15) || v["categories"].([]any)[0].(map[string]any)["name"] != "Kept" {
		t.Errorf("K-1 as deleted: %s", mustJSON(v))
	}
	if v := publicationsByID(t, e, app, "")[gift]["voucher"].(map[string]any); v["gift"].(map[string]any)["amount"] != float64(1000) {
		t.Errorf("GIFT-1 as deleted: %s", mustJSON(v))
	}

	// A publications export and the customer's activities show them too.
	csv := exportCSV(t, e, app, "publication", map[string]any{"fields": []string{"voucher_code", "customer_source_id"}})
	for _, code := range append([]any{"K-1", "GIFT-1", "S-1"}, codes...) {
		if !strings.Contains(csv, code.(string)) {
			t.Errorf("the export lacks %s:\n%s", code, csv)
		}
	}
	acts := must(t, e.Do(http.MethodGet, "/v1/customers/bob/activities", nil, app), http.StatusOK)["data"].([]any)
	var shown []any
	for _, a := range acts {
		if a := a.(map[string]any); a["type"] == "customer.publication.succeeded" {
			for _, v := range a["data"].(map[string]any)["publication"].(map[string]any)["vouchers"].([]any) {
				shown = append(shown, v.(map[string]any)["code"])
			}
		}
	}
	if !reflect.DeepEqual(shown, codes) {
		t.Errorf("bob's publication activity shows %v, want %v", shown, codes)
	}

	// The list read by ent answers the same bytes as its one statement.
	for _, q := range []string{"limit=100", "limit=2&page=2", "customer=bob", "order=customer_id"} {
		fast := checkedGet(t, e, app, "/v1/publications?"+q)
		publication.RESTPageInOneStatement = false
		loaded := checkedGet(t, e, app, "/v1/publications?"+q)
		publication.RESTPageInOneStatement = true
		if fast != loaded {
			t.Errorf("?%s: one statement answered\n%s\nent's loading\n%s", q, fast, loaded)
		}
	}

	// A repeated publication answers the original, its code deleted since.
	again := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Solo"},
		"customer": map[string]any{"source_id": "ann"}, "source_id": "s1"}, app), http.StatusOK)
	if again["id"] != solo || !reflect.DeepEqual(jsonRound(t, again["voucher"]), before[solo]["voucher"]) {
		t.Errorf("repeated publication: %s, was %s", mustJSON(again), mustJSON(before[solo]))
	}
	joined := must(t, e.DoJSON(http.MethodPost, "/v1/publications?join_once=true", map[string]any{"campaign": map[string]any{"name": "Solo"},
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	if joined["id"] != solo || !reflect.DeepEqual(jsonRound(t, joined["voucher"]), before[solo]["voucher"]) {
		t.Errorf("join_once publication: %s, was %s", mustJSON(joined), mustJSON(before[solo]))
	}

	// GraphQL: the vouchers edge lists the live vouchers.
	gql := e.GraphQL(app, `query($id: ID!) { node(id: $id) { ... on Publication { vouchers { totalCount } } } }`, map[string]any{"id": live})
	if len(gql.Errors) > 0 || gql.Data["node"].(map[string]any)["vouchers"].(map[string]any)["totalCount"] != float64(1) {
		t.Errorf("live publication over GraphQL: %+v", gql)
	}
	gql = e.GraphQL(app, `query($id: ID!) { node(id: $id) { ... on Publication { vouchers { totalCount } } } }`, map[string]any{"id": k1})
	if len(gql.Errors) > 0 || gql.Data["node"].(map[string]any)["vouchers"].(map[string]any)["totalCount"] != float64(0) {
		t.Errorf("publication of a deleted code over GraphQL: %+v", gql)
	}

	// Restored from the bin (the campaign, then K-1), the vouchers are
	// linked again: the publications show them live, as they were.
	bin := map[string]string{}
	for _, en := range must(t, e.Do(http.MethodGet, "/v1/trash-bin?limit=100", nil, app), http.StatusOK)["data"].([]any) {
		bin[en.(map[string]any)["resource_name"].(string)] = en.(map[string]any)["id"].(string)
	}
	for _, name := range []string{"Keep", "K-1"} {
		must(t, e.Do(http.MethodPost, "/v1/trash-bin/"+bin[name]+"/restore", nil, app), http.StatusOK)
	}
	same("restored", k1, counted, solo, gift, live)
	for id, want := range map[string][]string{k1: nil, counted: {before[counted]["vouchers_id"].([]any)[1].(string)}, gift: {"GIFT-1"}} {
		stored, err := e.DB.Client.Publication.Query().Where(entpublication.ID(id)).WithVouchers().Only(systemCtx())
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for k := range stored.DeletedVouchers {
			kept = append(kept, k)
		}
		if id == gift { // kept under the voucher's id
			if len(kept) != 1 || len(stored.Edges.Vouchers) != 0 {
				t.Errorf("%s keeps %v, links %d", id, kept, len(stored.Edges.Vouchers))
			}
			continue
		}
		if !reflect.DeepEqual(kept, want) || len(stored.Edges.Vouchers)+len(kept) != len(stored.VoucherIds) {
			t.Errorf("%s keeps %v (want %v), links %d of %d", id, kept, want, len(stored.Edges.Vouchers), len(stored.VoucherIds))
		}
	}

	// Another project's publication of its own K-1 is untouched.
	stored, err := e.DB.Client.Publication.Query().Where(entpublication.ID(otherPub["id"].(string))).Only(systemCtx())
	if err != nil || stored.DeletedVouchers != nil {
		t.Errorf("other project's publication: %+v, %v", stored, err)
	}
	if got := publicationsByID(t, e, other, "")[otherPub["id"].(string)]; !reflect.DeepEqual(got["voucher"], jsonRound(t, otherPub["voucher"])) {
		t.Errorf("other project's publication: %s, was %s", mustJSON(got), mustJSON(otherPub))
	}
}

// jsonRound is v after a JSON round trip (as a listed entry decodes).
func jsonRound(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAFailedVoucherDeletionKeepsNoSnapshot: a deletion that fails after
// the snapshots were written (here the database refuses the voucher's
// DELETE) writes nothing: the publication keeps no snapshot and its link.
func TestAFailedVoucherDeletionKeepsNoSnapshot(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Fail", "FAIL-1")
	p := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "FAIL-1",
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	refuse := []string{"CREATE TRIGGER refuse_fail_1 BEFORE DELETE ON vouchers WHEN OLD.code = 'FAIL-1' BEGIN SELECT RAISE(ABORT, 'refused'); END"}
	undo := []string{"DROP TRIGGER refuse_fail_1"}
	if e.DB.Dialect == dialect.Postgres {
		refuse = []string{"CREATE FUNCTION refuse_fail_1() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
			"CREATE TRIGGER refuse_fail_1 BEFORE DELETE ON vouchers FOR EACH ROW WHEN (OLD.code = 'FAIL-1') EXECUTE FUNCTION refuse_fail_1()"}
		undo = []string{"DROP TRIGGER refuse_fail_1 ON vouchers", "DROP FUNCTION refuse_fail_1()"}
	}
	for _, q := range refuse {
		if _, err := e.DB.SQL.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, q := range undo {
			_, _ = e.DB.SQL.Exec(q)
		}
	})
	for _, force := range []string{"?force=true", ""} {
		if r := e.Do(http.MethodDelete, "/v1/vouchers/FAIL-1"+force, nil, app); r.Status != http.StatusInternalServerError {
			t.Fatalf("DELETE FAIL-1%s: %d %s", force, r.Status, r.Body)
		}
	}
	stored, err := e.DB.Client.Publication.Query().Where(entpublication.ID(p["id"].(string))).WithVouchers().Only(systemCtx())
	if err != nil || stored.DeletedVouchers != nil || len(stored.Edges.Vouchers) != 1 {
		t.Fatalf("after a failed deletion: %+v, %v", stored, err)
	}
}

// TestPublicationsOfVouchersDeletedBeforeSnapshots: a voucher deleted
// before publications kept their deleted vouchers left nothing but its
// id: the publication shows it by its id (as its code), conforming to the
// reference in both forms.
func TestPublicationsOfVouchersDeletedBeforeSnapshots(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Old", "OLD-1", "OLD-2", "OLD-3")
	single := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "OLD-1",
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	waitABit()
	counted := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Old", "count": 2},
		"customer": map[string]any{"source_id": "bob"}}, app), http.StatusOK)
	for _, code := range []string{"OLD-1", counted["vouchers"].([]any)[0].(string)} {
		if r := e.Do(http.MethodDelete, "/v1/vouchers/"+code+"?force=true", nil, app); r.Status != http.StatusNoContent {
			t.Fatalf("DELETE %s: %d %s", code, r.Status, r.Body)
		}
	}
	if _, err := e.DB.Client.Publication.Update().ClearDeletedVouchers().Save(systemCtx()); err != nil { // as before the migration
		t.Fatal(err)
	}
	got := publicationsByID(t, e, app, "")
	oldID := single["vouchers_id"].([]any)[0]
	if v := got[single["id"].(string)]["voucher"].(map[string]any); v["id"] != oldID || v["code"] != oldID {
		t.Errorf("single form: %s", mustJSON(v))
	}
	ids := counted["vouchers_id"].([]any)
	if codes := got[counted["id"].(string)]["vouchers"].([]any); len(codes) != 2 || codes[0] != ids[0] || codes[1] != counted["vouchers"].([]any)[1] {
		t.Errorf("count form: %s", mustJSON(got[counted["id"].(string)]))
	}
}

// TestConcurrentDeletionsKeepEveryCode: the codes of one count-form
// publication deleted at once by parallel requests (each merging its
// snapshot into the same row) all stay on it.
func TestConcurrentDeletionsKeepEveryCode(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	codes := []string{"C-1", "C-2", "C-3", "C-4", "C-5", "C-6", "C-7", "C-8"}
	staticCampaign(t, e, "Many", codes...)
	p := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Many", "count": len(codes)},
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	var wg sync.WaitGroup
	status := make([]int, len(codes))
	for i, code := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status[i] = e.Do(http.MethodDelete, "/v1/vouchers/"+code+"?force=true", nil, app).Status
		}()
	}
	wg.Wait()
	for i, s := range status {
		if s != http.StatusNoContent {
			t.Errorf("DELETE %s: %d", codes[i], s)
		}
	}
	got := publicationsByID(t, e, app, "")[p["id"].(string)]
	if !reflect.DeepEqual(got["vouchers"], p["vouchers"]) {
		t.Errorf("after parallel deletions: %v, was %v", got["vouchers"], p["vouchers"])
	}
	stored, err := e.DB.Client.Publication.Query().Where(entpublication.ID(p["id"].(string))).Only(systemCtx())
	if err != nil || len(stored.DeletedVouchers) != len(codes) {
		t.Errorf("stored: %+v, %v", stored, err)
	}
}
