package loyaltyv2_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestProgramsAndCardDefinitions(t *testing.T) {
	e := resttest.New(t)
	h := resttest.V2(t, e, e.Project)
	def := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{"name": "Basic"}, h)
	if !regexp.MustCompile(`^lcdef_[a-f0-9]{18}$`).MatchString(def["id"].(string)) || def["status"] != "DRAFT" {
		t.Errorf("card definition %v", def)
	}
	cc := def["code_config"].(map[string]any)
	if cc["length"] != float64(10) || cc["pattern"] != strings.Repeat("#", 10) {
		t.Errorf("default code config %v", cc)
	}
	act := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions/"+def["id"].(string)+"/activate", nil, h)
	if act["status"] != "ACTIVE" {
		t.Errorf("activate %v", act)
	}
	prg := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{
		"name": "Club", "metadata": map[string]any{"tier": "x"}, "card_definitions": []any{map[string]any{"id": def["id"]}},
		"start_date": "2030-01-01T00:00:00Z"}, h)
	if !regexp.MustCompile(`^lprg_[a-f0-9]{18}$`).MatchString(prg["id"].(string)) || prg["status"] != "DRAFT" ||
		prg["start_date"] != "2030-01-01T00:00:00.000Z" || prg["end_date"] != nil || prg["object"] != "program" {
		t.Errorf("program %v", prg)
	}
	pid := prg["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+pid+"/activate", nil, h)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+pid+"/deactivate", nil, h)
	resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v2/loyalties/programs/"+pid+"/deactivate", nil, h), 409, "invalid_state_transition")
	tooMany := []any{}
	for range 11 {
		tooMany = append(tooMany, map[string]any{"id": def["id"]})
	}
	for name, c := range map[string]struct {
		path   string
		body   map[string]any
		status int
		detail string
	}{
		"program without name":         {"/v2/loyalties/programs", map[string]any{}, 400, "name"},
		"program unknown definition":   {"/v2/loyalties/programs", map[string]any{"name": "p", "card_definitions": []any{map[string]any{"id": "lcdef_00"}}}, 404, "lcdef_00"},
		"program 11 definitions":       {"/v2/loyalties/programs", map[string]any{"name": "p", "card_definitions": tooMany}, 400, "card_definitions"},
		"program status INACTIVE":      {"/v2/loyalties/programs", map[string]any{"name": "p", "status": "INACTIVE"}, 400, ".status"},
		"program ends before start":    {"/v2/loyalties/programs", map[string]any{"name": "p", "start_date": "2030-01-02T00:00:00Z", "end_date": "2030-01-01T00:00:00Z"}, 400, "end_date"},
		"definition name too long":     {"/v2/loyalties/card-definitions", map[string]any{"name": strings.Repeat("x", 201)}, 400, ".name"},
		"definition pattern without #": {"/v2/loyalties/card-definitions", map[string]any{"name": "d", "code_config": map[string]any{"pattern": "ABC"}}, 400, "code_config.pattern"},
		"definition bad status":        {"/v2/loyalties/card-definitions", map[string]any{"name": "d", "status": "INACTIVE"}, 400, ".status"},
	} {
		key := map[int]string{400: "invalid_payload", 404: "not_found"}[c.status]
		body := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, c.path, c.body, h), c.status, key)
		if d, _ := body["details"].(string); !strings.Contains(d, c.detail) {
			t.Errorf("%s: details %q do not name %q", name, d, c.detail)
		}
	}
	for path, typ := range map[string]string{
		"/v2/loyalties/programs/lprg_00":          "program",
		"/v2/loyalties/card-definitions/lcdef_00": "card_definition",
		"/v2/loyalties/rewards/lrew_00":           "reward",
		"/v2/loyalties/earning-rules/lern_00":     "earning_rule",
		"/v2/loyalties/incentives/linc_00":        "incentive",
	} {
		if body := resttest.WantErrorKey(t, e.Do(http.MethodGet, path, nil, h), 404, "not_found"); body["resource_type"] != typ {
			t.Errorf("%s: %v", path, body)
		}
	}
}

func TestUpdateIncentiveAndEarningRule(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prod, sku := resttest.NewMaterial(t, e, resttest.App(e.Project))
	inc := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "Mug", "type": "MATERIAL", "stock": 1, "material": productMaterial(prod)}, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
		"name": "Cup", "type": "MATERIAL", "stock": 1, "material": productMaterial(prod)}, s.H)
	path := "/v2/loyalties/incentives/" + inc["id"].(string)
	// A SKU must exist and belong to the product named beside it.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"material": map[string]any{"sku": map[string]any{"id": "sku_00", "product_id": prod}}}, s.H), 404, "not_found")
	other, _ := resttest.NewMaterial(t, e, resttest.App(e.Project))
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"material": map[string]any{"sku": map[string]any{"id": sku, "product_id": other}}}, s.H), 400, "invalid_payload")
	got := resttest.MustOK(t, e, http.MethodPut, path, map[string]any{"stock": 9, "material": map[string]any{"sku": map[string]any{"id": sku, "product_id": prod}}}, s.H)
	if got["stock"] != float64(9) || got["name"] != "Mug" || got["updated_at"] == nil || got["material"].(map[string]any)["sku"] == nil {
		t.Errorf("updated %v", got)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"name": "Cup"}, s.H), 409, "duplicate_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"stock": -2}, s.H), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, path, map[string]any{"points": map[string]any{"value": 1, "card_definition_id": s.CardDef}}, s.H), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/incentives/linc_00", map[string]any{"stock": 1}, s.H), 404, "not_found")

	rule := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", resttest.EarningRuleBody(s.CardDef, "ACTIVE"), s.H)
	rpath := "/v2/loyalties/earning-rules/" + rule["id"].(string)
	seg := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Chosen", "type": "static", "customers": []any{s.Cust}}, resttest.App(e.Project))
	got = resttest.MustOK(t, e, http.MethodPut, rpath, map[string]any{"name": "Renamed", "trigger": map[string]any{"event": "customer.segment.entered", "segment": map[string]any{"id": seg["id"]}}}, s.H)
	if got["name"] != "Renamed" || got["status"] != "ACTIVE" || got["trigger"].(map[string]any)["segment"] == nil {
		t.Errorf("updated rule %v", got)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, rpath, map[string]any{"trigger": map[string]any{"event": "customer.custom_event"}}, s.H), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, rpath, map[string]any{"earnings": []any{}}, s.H), 400, "invalid_payload")
}

func TestUpdateProgramAndCardDefinition(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	got := resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/programs/"+s.Program, map[string]any{"name": "Club 2", "card_definitions": []any{}}, s.H)
	if got["name"] != "Club 2" || len(got["card_definitions"].([]any)) != 0 || got["status"] != "ACTIVE" || got["updated_at"] == nil {
		t.Errorf("program %v", got)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/programs/"+s.Program, map[string]any{"card_definitions": []any{map[string]any{"id": "lcdef_00"}}}, s.H), 404, "not_found")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/programs/"+s.Program, map[string]any{"name": ""}, s.H), 400, "invalid_payload")
	def := resttest.MustOK(t, e, http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, map[string]any{"code_config": map[string]any{"pattern": "NEW-####"}}, s.H)
	if cc := def["code_config"].(map[string]any); cc["pattern"] != "NEW-####" || cc["length"] != float64(4) {
		t.Errorf("code config %v", cc)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/card-definitions/"+s.CardDef, map[string]any{"code_config": map[string]any{"pattern": "NONE"}}, s.H), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v2/loyalties/card-definitions/lcdef_00", map[string]any{"name": "x"}, s.H), 404, "not_found")
}
