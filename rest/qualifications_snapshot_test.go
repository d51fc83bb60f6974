package rest_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// The qualification's tier snapshot (graph/redemption/tiersnapshot):
// each server process keeps the project's active tiers in memory, and a
// write through any process changes the project's qualification_version,
// so the next qualification in every process sees it.

// qualifyAt posts a qualification of the cart for bob to server and
// returns the listed entries by tier name (see qualificationShop.names).
func (s *qualificationShop) qualifyAt(t *testing.T, server string) []string {
	t.Helper()
	r := s.e.DoAt(server, http.MethodPost, "/v1/qualifications", []byte(mustJSON(map[string]any{"customer": map[string]any{"source_id": "bob"},
		"order": cart(), "options": map[string]any{"limit": 50}})), s.app)
	return s.names(must(t, r, http.StatusOK))
}

// entryAt is the entry of the tier named name in a qualification at
// server (nil: not listed).
func (s *qualificationShop) entryAt(t *testing.T, server, name string) map[string]any {
	t.Helper()
	r := s.e.DoAt(server, http.MethodPost, "/v1/qualifications", []byte(mustJSON(map[string]any{"customer": map[string]any{"source_id": "bob"},
		"order": cart(), "options": map[string]any{"limit": 50, "expand": []string{"redeemable", "category"}}})), s.app)
	for _, x := range must(t, r, http.StatusOK)["redeemables"].(map[string]any)["data"].([]any) {
		if q := x.(map[string]any); q["id"] == s.tier[name] {
			return q
		}
	}
	return nil
}

// TestQualificationSnapshotSeesWritesOfAnotherProcess: two server
// processes, each with its snapshot in use; every kind of write that
// changes what a qualification lists, made through one, shows in the very
// next qualification through the other.
func TestQualificationSnapshotSeesWritesOfAnotherProcess(t *testing.T) {
	s := newQualificationShop(t)
	e, app := s.e, s.app
	a, b := e.Server.URL, e.AnotherServer().URL
	base := []string{"Big", "Mug", "Pen"}
	for _, server := range []string{a, b} {
		if got := s.qualifyAt(t, server); !slices.Equal(got, base) {
			t.Fatalf("at first: %v, want %v", got, base)
		}
	}
	step := 0
	// expect writes through one server and checks the other (alternating).
	expect := func(what string, want []string, write func(server string)) {
		t.Helper()
		writer, reader := a, b
		if step%2 == 1 {
			writer, reader = b, a
		}
		step++
		write(writer)
		if got := s.qualifyAt(t, reader); !slices.Equal(got, want) {
			t.Fatalf("after %s: %v, want %v", what, got, want)
		}
	}
	do := func(server, method, path string, body any) map[string]any {
		t.Helper()
		var raw []byte
		if body != nil {
			raw = []byte(mustJSON(body))
		}
		r := e.DoAt(server, method, path, raw, app)
		if r.Status == http.StatusNoContent {
			return nil
		}
		return must(t, r, http.StatusOK)
	}

	// Tiers: disabled, enabled, updated, created, deleted.
	expect("disabling a tier", []string{"Mug", "Pen"}, func(w string) {
		do(w, http.MethodPost, "/v1/promotions/tiers/"+s.tier["Big"]+"/disable", map[string]any{})
	})
	expect("enabling it", base, func(w string) {
		do(w, http.MethodPost, "/v1/promotions/tiers/"+s.tier["Big"]+"/enable", map[string]any{})
	})
	expect("updating a tier's metadata", base, func(w string) {
		do(w, http.MethodPut, "/v1/promotions/tiers/"+s.tier["Mug"], map[string]any{"metadata": map[string]any{"season": "winter"}})
	})
	if md := s.entryAt(t, a, "Mug")["metadata"]; mustJSON(md) != `{"season":"winter"}` {
		t.Fatalf("the other process shows the tier's metadata %v", md)
	}
	expect("creating a tier", []string{"Big", "Mug", "New", "Pen"}, func(w string) {
		created := do(w, http.MethodPost, "/v1/promotions/Cart/tiers", amountTier("New", 100))
		s.tier["New"] = created["id"].(string)
	})
	expect("deleting it", base, func(w string) {
		do(w, http.MethodDelete, "/v1/promotions/tiers/"+s.tier["New"], nil)
	})
	// The campaign: disabled, enabled.
	expect("disabling the campaign", nil, func(w string) { do(w, http.MethodPost, "/v1/campaigns/Cart/disable", map[string]any{}) })
	expect("enabling it", base, func(w string) { do(w, http.MethodPost, "/v1/campaigns/Cart/enable", map[string]any{}) })
	// Rules: a rule's conditions, an assignment made and removed.
	rules := map[string]string{}
	e.SkipContract = true // the reference's schema refuses a boolean $is operand of this list
	defer func() { e.SkipContract = false }()
	for _, x := range do(a, http.MethodGet, "/v1/validation-rules?limit=100", nil)["data"].([]any) {
		r := x.(map[string]any)
		rules[r["name"].(string)] = r["id"].(string)
	}
	e.SkipContract = false
	expect("raising a rule's amount", []string{"Mug", "Pen"}, func(w string) {
		do(w, http.MethodPut, "/v1/validation-rules/"+rules["big carts"], map[string]any{"rules": map[string]any{"1": map[string]any{
			"name": "order.amount", "conditions": map[string]any{"$more_than": []any{100_000_000}}}}})
	})
	expect("lowering it again", base, func(w string) {
		do(w, http.MethodPut, "/v1/validation-rules/"+rules["big carts"], map[string]any{"rules": map[string]any{"1": map[string]any{
			"name": "order.amount", "conditions": map[string]any{"$more_than": []any{5000}}}}})
	})
	var assignment string
	expect("assigning the VIP rule to a tier", []string{"Big", "Pen"}, func(w string) {
		assignment = do(w, http.MethodPost, "/v1/validation-rules/"+rules["vips"]+"/assignments",
			map[string]any{"related_object_type": "promotion_tier", "related_object_id": s.tier["Mug"]})["id"].(string)
	})
	expect("removing the assignment", base, func(w string) {
		do(w, http.MethodDelete, "/v1/validation-rules/"+rules["vips"]+"/assignments/"+assignment, nil)
	})
	// Categories: a tier put in one, the category renamed.
	var category string
	expect("putting a tier in a category", base, func(w string) {
		category = do(w, http.MethodPost, "/v1/categories", map[string]any{"name": "Autumn", "hierarchy": 1})["id"].(string)
		do(w, http.MethodPut, "/v1/promotions/tiers/"+s.tier["Pen"], map[string]any{"category_id": category})
	})
	categoryName := func(server string) any {
		t.Helper()
		cats, _ := s.entryAt(t, server, "Pen")["categories"].([]any)
		if len(cats) != 1 {
			t.Fatalf("the tier's categories: %v", cats)
		}
		return cats[0].(map[string]any)["name"]
	}
	if got := categoryName(b); got != "Autumn" {
		t.Fatalf("category %v, want Autumn", got)
	}
	do(b, http.MethodPut, "/v1/categories/"+category, map[string]any{"name": "Winter", "hierarchy": 2})
	if got := categoryName(a); got != "Winter" {
		t.Fatalf("after renaming the category through the other process: %v, want Winter", got)
	}
}

// TestQualificationSnapshotDatesAndCounters: the snapshot's tiers are
// filtered by their dates at each request (a tier starts and another
// expires with no write in between), and redeeming a tier — which counts
// in its summary — does not change the project's qualification version
// (the snapshot stays in use).
func TestQualificationSnapshotDatesAndCounters(t *testing.T) {
	s := newQualificationShop(t)
	e, app := s.e, s.app
	// Far enough ahead for the set-up and the first qualification on a
	// loaded machine (race detector, PostgreSQL beside other suites).
	at := time.Now().Add(4 * time.Second)
	soon := at.UTC().Format(time.RFC3339Nano)
	for name, field := range map[string]string{"Later": "start_date", "Briefly": "expiration_date"} {
		tier := amountTier(name, 100)
		tier[field] = soon
		s.tier[name] = must(t, e.DoJSON(http.MethodPost, "/v1/promotions/Cart/tiers", tier, app), http.StatusOK)["id"].(string)
	}
	if got, want := s.qualifyAt(t, e.Server.URL), []string{"Big", "Briefly", "Mug", "Pen"}; !slices.Equal(got, want) {
		t.Fatalf("before: %v, want %v", got, want)
	}
	version := qualificationVersion(t, e)
	if time.Now().After(at) {
		t.Fatalf("the set-up took past %s: the test needs a longer lead", soon)
	}
	time.Sleep(time.Until(at.Add(500 * time.Millisecond)))
	if got, want := s.qualifyAt(t, e.Server.URL), []string{"Big", "Later", "Mug", "Pen"}; !slices.Equal(got, want) {
		t.Fatalf("after: %v, want %v", got, want)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"customer": map[string]any{"source_id": "bob"},
		"order": cart(), "redeemables": []any{map[string]any{"object": "promotion_tier", "id": s.tier["Big"]}}}, app), http.StatusOK)
	if got := qualificationVersion(t, e); got != version {
		t.Fatalf("a redemption changed the qualification version (%d → %d)", version, got)
	}
}

// TestQualificationSnapshotTenancy: two projects qualify through one
// server process: each sees only its own tiers, and a write in one leaves
// the other's version alone.
func TestQualificationSnapshotTenancy(t *testing.T) {
	s := newQualificationShop(t)
	e := s.e
	other := e.NewProject("other")
	oh := resttest.App(other)
	_, tiers := promotionCampaign(t, e, oh, "Theirs", amountTier("Theirs", 300))
	theirs := tiers[0]["id"].(string)
	for range 2 { // the second time from the snapshots
		mine := s.qualifyAt(t, e.Server.URL)
		if want := []string{"Big", "Mug", "Pen"}; !slices.Equal(mine, want) {
			t.Fatalf("own project: %v, want %v", mine, want)
		}
		res := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": cart(),
			"options": map[string]any{"limit": 50}}, oh), http.StatusOK)
		if got := qualifiedIDs(res); !slices.Equal(got, []string{theirs}) {
			t.Fatalf("other project: %v, want [%s]", got, theirs)
		}
	}
	version := qualificationVersion(t, e)
	must(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/"+theirs+"/disable", map[string]any{}, oh), http.StatusOK)
	if got := qualificationVersion(t, e); got != version {
		t.Fatalf("another project's write changed this one's version")
	}
	res := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": cart()}, oh), http.StatusOK)
	if got := qualifiedIDs(res); len(got) != 0 {
		t.Fatalf("other project after disabling its tier: %v", got)
	}
}

// qualificationVersion reads the first project's qualification_version.
func qualificationVersion(t *testing.T, e *resttest.Env) int64 {
	t.Helper()
	p, err := e.DB.Client.Project.Query().Where(project.ID(e.Project.ProjectID)).
		Only(viewer.NewSystemContext(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return p.QualificationVersion
}

// TestQualificationSnapshotUnderConcurrentWrites: while 8 clients qualify
// through two server processes (rebuilding their snapshots as the version
// changes), a tier is disabled and enabled 10 times, alternating the
// processes; each write shows in the next qualification through the
// other process, and every answer is one of the two states.
func TestQualificationSnapshotUnderConcurrentWrites(t *testing.T) {
	s := newQualificationShop(t)
	e := s.e
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	with, without := []string{"Big", "Mug", "Pen"}, []string{"Mug", "Pen"}
	done := make(chan struct{})
	errs := make(chan string, 8)
	for i := range 8 {
		go func() {
			for n := 0; ; n++ {
				select {
				case <-done:
					errs <- ""
					return
				default:
				}
				r := e.DoAt(servers[(i+n)%2], http.MethodPost, "/v1/qualifications", []byte(mustJSON(map[string]any{
					"customer": map[string]any{"source_id": "bob"}, "order": cart(), "options": map[string]any{"limit": 50}})), s.app)
				if r.Status != http.StatusOK {
					errs <- string(r.Body)
					return
				}
				if got := s.names(r.JSON(t)); !slices.Equal(got, with) && !slices.Equal(got, without) {
					errs <- mustJSON(got)
					return
				}
			}
		}()
	}
	for i := range 10 {
		w, r := servers[i%2], servers[(i+1)%2]
		must(t, e.DoAt(w, http.MethodPost, "/v1/promotions/tiers/"+s.tier["Big"]+"/disable", []byte("{}"), s.app), http.StatusOK)
		if got := s.qualifyAt(t, r); !slices.Equal(got, without) {
			t.Fatalf("round %d, after disabling: %v", i, got)
		}
		must(t, e.DoAt(r, http.MethodPost, "/v1/promotions/tiers/"+s.tier["Big"]+"/enable", []byte("{}"), s.app), http.StatusOK)
		if got := s.qualifyAt(t, w); !slices.Equal(got, with) {
			t.Fatalf("round %d, after enabling: %v", i, got)
		}
	}
	close(done)
	for range 8 {
		if msg := <-errs; msg != "" {
			t.Fatalf("a concurrent qualification: %s", msg)
		}
	}
}

// TestQualificationSnapshotLimits: with one project's snapshot kept and
// at most 3 tiers in it, a project with 5 active tiers is served by SQL
// (the same answers, edits seen at once) and two projects taking turns
// evict each other's snapshot without changing any answer.
func TestQualificationSnapshotLimits(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) {
		o.TierSnapshotLimits = &tiersnapshot.TierSnapshotLimits{Projects: 1, Tiers: 3, TotalTiers: 3}
	})
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("other"))
	var big, small []string
	_, tiers := promotionCampaign(t, e, app, "Five", amountTier("A", 100), amountTier("B", 100), amountTier("C", 100),
		amountTier("D", 100), amountTier("E", 100))
	for _, tr := range tiers {
		big = append(big, tr["id"].(string))
	}
	_, tiers = promotionCampaign(t, e, other, "Two", amountTier("F", 100), amountTier("G", 100))
	for _, tr := range tiers {
		small = append(small, tr["id"].(string))
	}
	listed := func(h resttest.Headers) []string {
		t.Helper()
		ids := qualifiedIDs(must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": cart(),
			"options": map[string]any{"limit": 50}}, h), http.StatusOK))
		slices.Sort(ids)
		return ids
	}
	sorted := func(ids []string) []string { return slices.Sorted(slices.Values(ids)) }
	for round := range 3 {
		if got := listed(app); !slices.Equal(got, sorted(big)) {
			t.Fatalf("round %d, 5 tiers (over the cap): %v, want %v", round, got, sorted(big))
		}
		if got := listed(other); !slices.Equal(got, sorted(small)) {
			t.Fatalf("round %d, 2 tiers: %v, want %v", round, got, sorted(small))
		}
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/"+big[0]+"/disable", map[string]any{}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/promotions/tiers/"+small[0]+"/disable", map[string]any{}, other), http.StatusOK)
	if got := listed(app); !slices.Equal(got, sorted(big[1:])) {
		t.Fatalf("after disabling one of 5: %v", got)
	}
	if got := listed(other); !slices.Equal(got, sorted(small[1:])) {
		t.Fatalf("after disabling one of 2: %v", got)
	}
}

// TestQualificationSnapshotSeesCodeCampaigns: the tier snapshot records
// whether the project has an active code campaign (a qualification then
// skips reading them when it has none); creating, disabling and enabling
// one through one server process shows in the next qualification through
// the other.
func TestQualificationSnapshotSeesCodeCampaigns(t *testing.T) {
	s := newQualificationShop(t)
	e, app := s.e, s.app
	a, b := e.Server.URL, e.AnotherServer().URL
	campaigns := func(server string) []string {
		t.Helper()
		r := e.DoAt(server, http.MethodPost, "/v1/qualifications", []byte(mustJSON(map[string]any{"customer": map[string]any{"source_id": "bob"},
			"order": cart(), "options": map[string]any{"limit": 50}})), app)
		var ids []string
		for _, x := range must(t, r, http.StatusOK)["redeemables"].(map[string]any)["data"].([]any) {
			if q := x.(map[string]any); q["object"] == "campaign" {
				ids = append(ids, q["id"].(string))
			}
		}
		return ids
	}
	for _, server := range []string{a, b} {
		if got := campaigns(server); len(got) != 0 {
			t.Fatalf("at first: campaigns %v", got)
		}
	}
	cmp := must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Coupons", "campaign_type": "DISCOUNT_COUPONS",
		"type": "STATIC", "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 300}}},
		app), http.StatusOK)["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+cmp+"/vouchers", map[string]any{"code": "CPN-1"}, app), http.StatusOK)
	if got := campaigns(b); !slices.Equal(got, []string{cmp}) {
		t.Fatalf("after creating it: campaigns %v, want [%s]", got, cmp)
	}
	must(t, e.DoAt(a, http.MethodPost, "/v1/campaigns/"+cmp+"/disable", nil, app), http.StatusOK)
	if got := campaigns(b); len(got) != 0 {
		t.Fatalf("disabled: campaigns %v", got)
	}
	must(t, e.DoAt(b, http.MethodPost, "/v1/campaigns/"+cmp+"/enable", nil, app), http.StatusOK)
	if got := campaigns(a); !slices.Equal(got, []string{cmp}) {
		t.Fatalf("enabled again: campaigns %v, want [%s]", got, cmp)
	}
}
