package loyaltyv2_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2BenefitsAndIncentivesAreOneResource: an incentive created through
// /incentives is read, listed, updated and deleted through /benefits (and
// the other way round) with stable ids (linc_ ↔ lben_), each spelling in
// its document's shape; activities follow both spellings; a deleted one is
// 404 through both.
func TestV2BenefitsAndIncentivesAreOneResource(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prod, _ := resttest.NewMaterial(t, e, resttest.App(e.Project))
	inc := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{"name": "Mug", "type": "MATERIAL",
		"stock": 5, "material": productMaterial(prod)}, s.H)
	id := inc["id"].(string)
	bid := "lben_" + strings.TrimPrefix(id, "linc_")
	b := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/benefits/"+bid, nil, s.H)
	if b["id"] != bid || b["object"] != "benefit" || resttest.MustJSON(b["stock"]) != `{"limited":{"quantity":5},"type":"LIMITED"}` {
		t.Fatalf("benefit view of an incentive: %v", b)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/benefits/"+id, nil, s.H); got["id"] != bid {
		t.Errorf("benefit read by its linc_ id: %v", got)
	}
	upd := resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/benefits/"+bid, map[string]any{"stock": map[string]any{"type": "UNLIMITED"}}, s.H)
	if _, has := upd["stock"]; has {
		t.Errorf("unlimited stock shown: %v", upd)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/incentives/"+bid, nil, s.H); got["id"] != id || got["stock"] != float64(2147483647) {
		t.Errorf("incentive view after the benefit update: %v", got)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/benefits/"+bid, map[string]any{"stock": map[string]any{"type": "LIMITED"}}, s.H),
		http.StatusBadRequest, "invalid_payload")

	created := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/benefits", map[string]any{"name": "Bonus", "type": "POINTS",
		"points": map[string]any{"value": 10, "card_definition_id": s.CardDef}}, s.H)
	if !strings.HasPrefix(created["id"].(string), "lben_") || created["status"] != "DRAFT" {
		t.Fatalf("created benefit: %v", created)
	}
	list := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/benefits?limit=1", nil, s.H)
	if d := list["data"].([]any); len(d) != 1 || d[0].(map[string]any)["object"] != "benefit" || list["cursor"] == nil {
		t.Errorf("benefits list: %v", list)
	}

	acts := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/benefits/"+bid+"/activities", nil, s.H)["data"].([]any)
	if len(acts) != 2 {
		t.Fatalf("benefit activities %v", acts)
	}
	newest := acts[0].(map[string]any)
	if newest["type"] != "vl.benefit.updated" || newest["benefit_id"] != bid || !strings.HasPrefix(newest["id"].(string), "laben_") ||
		newest["data"].(map[string]any)["benefit"].(map[string]any)["id"] != bid {
		t.Errorf("benefit activity %v", newest)
	}
	june := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/incentives/"+id+"/activities?order=created_at", nil, s.H)["data"].([]any)
	if first := june[0].(map[string]any); first["type"] != "vl.incentive.created" || first["incentive_id"] != id {
		t.Errorf("incentive activity %v", first)
	}

	del := resttest.MustOK(t, e, http.MethodDelete, "/v2/loyalties/benefits/"+bid, nil, s.H)
	if del["status"] != "DELETED" {
		t.Errorf("delete: %v", del)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/incentives/"+id, nil, s.H), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/incentives/"+id, nil, s.H), http.StatusNotFound, "not_found")
}

// TestV2IncentiveInUseIsNotDeleted: an incentive an earning rule gives (by
// its lben_ spelling) cannot be deleted (409) and stays readable.
func TestV2IncentiveInUseIsNotDeleted(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prod, _ := resttest.NewMaterial(t, e, resttest.App(e.Project))
	bid := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/benefits", map[string]any{"name": "Mug", "type": "MATERIAL",
		"material": productMaterial(prod)}, s.H)["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn",
		"trigger":  map[string]any{"event": "customer.order.paid"},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"benefit": map[string]any{"id": bid}}}}}}, s.H)
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v2/loyalties/benefits/"+bid, nil, s.H), http.StatusConflict, "resource_in_use")
	resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/benefits/"+bid, nil, s.H)
}
