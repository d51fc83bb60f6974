package validationrules_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// num is a JSON number (0 when v is not one).
func num(v any) float64 { f, _ := v.(float64); return f }

// TestValidationRuleUpdateAndUnassign: PUT /v1/validation-rules/{id}
// changes a rule; DELETE …/assignments/{assignmentId} removes the rule from
// the campaign, so the voucher is valid again.
func TestValidationRuleUpdateAndUnassign(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DiscountCode(t, e, app, "Rules", "RULED", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	rule := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "min 50",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{5000}}}}}, app), http.StatusOK)
	id := rule["id"].(string)
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/validation-rules/"+id, map[string]any{"name": "min 60",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than_or_equal": []any{6000}}}}}, app), http.StatusOK)
	if upd["name"] != "min 60" || upd["updated_at"] == nil {
		t.Errorf("update: %v", upd)
	}
	asg := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+id+"/assignments", map[string]any{"campaign": "Rules"}, app), http.StatusOK)
	validate := func() bool {
		t.Helper()
		r := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/RULED/validate", map[string]any{"order": map[string]any{"amount": 5500}}, app), http.StatusOK)
		return r["valid"] == true
	}
	if validate() {
		t.Fatal("5500 passes the updated rule (min 6000)")
	}
	if r := e.Do(http.MethodDelete, "/v1/validation-rules/"+id+"/assignments/"+asg["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("unassign: %d %s", r.Status, r.Body)
	}
	if !validate() {
		t.Error("the unassigned rule still applies")
	}
	resttest.WantError(t, e.Do(http.MethodDelete, "/v1/validation-rules/"+id+"/assignments/"+asg["id"].(string), nil, app), http.StatusNotFound, "not_found", "")
}

// TestValidationRuleAssignmentLists: the assignments are listed across
// rules (filtered by rule and by the object they are assigned to) and per
// rule, newest first unless order says otherwise, paged, also through
// GraphQL; an unknown rule has an empty list, and another project's
// assignments never show.
func TestValidationRuleAssignmentLists(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	rule := func(name string) string {
		return resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": name,
			"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1}}}}}, app), http.StatusOK)["id"].(string)
	}
	first, second := rule("first"), rule("second")
	resttest.DiscountCode(t, e, app, "C1", "CODE-1", map[string]any{"type": "AMOUNT", "amount_off": 1}, nil)
	resttest.DiscountCode(t, e, app, "C2", "CODE-2", map[string]any{"type": "AMOUNT", "amount_off": 1}, nil)
	var ids []string
	for _, a := range []struct{ rule, key, value string }{{first, "campaign", "C1"}, {first, "voucher", "CODE-2"}, {second, "campaign", "C1"}} {
		ids = append(ids, resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+a.rule+"/assignments",
			map[string]any{a.key: a.value}, app), http.StatusOK)["id"].(string))
		resttest.WaitABit()
	}
	c1 := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/C1", nil, app), http.StatusOK)["id"].(string)
	listed := func(path string) (ids []string, total float64) {
		got := resttest.Must(t, e.Do(http.MethodGet, path, nil, app), http.StatusOK)
		for _, d := range got["data"].([]any) {
			ids = append(ids, d.(map[string]any)["id"].(string))
		}
		return ids, num(got["total"])
	}
	for path, want := range map[string][]string{
		"/v1/validation-rules-assignments":                                  {ids[2], ids[1], ids[0]},
		"/v1/validation-rules-assignments?order=created_at":                 {ids[0], ids[1], ids[2]},
		"/v1/validation-rules-assignments?rule=" + first:                    {ids[1], ids[0]},
		"/v1/validation-rules-assignments?related_object_id=" + c1:          {ids[2], ids[0]},
		"/v1/validation-rules-assignments?limit=1&page=2":                   {ids[1]},
		"/v1/validation-rules/" + first + "/assignments":                    {ids[1], ids[0]},
		"/v1/validation-rules/" + second + "/assignments?order=-created_at": {ids[2]},
		"/v1/validation-rules/val_unknown/assignments":                      nil,
	} {
		got, total := listed(path)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
		if strings.Contains(path, "limit=1") {
			if total != 3 {
				t.Errorf("%s: total %v, want 3", path, total)
			}
		} else if int(total) != len(want) {
			t.Errorf("%s: total %v, want %d", path, total, len(want))
		}
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/validation-rules-assignments?order=name", nil, app), http.StatusBadRequest, "invalid_query_params", "order")
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/validation-rules-assignments?limit=0", nil, app), http.StatusBadRequest, "invalid_query_params", "limit")
	g := e.GraphQL(app, `query($r: ID) { validationRuleAssignments(input: {rule: $r}) { total data { id ruleID } } }`, map[string]any{"r": second})
	if len(g.Errors) > 0 || num(g.Data["validationRuleAssignments"].(map[string]any)["total"]) != 1 {
		t.Errorf("GraphQL assignments = %+v", g)
	}
	other := resttest.App(e.NewProject("other"))
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/validation-rules-assignments", nil, other), http.StatusOK); num(got["total"]) != 0 {
		t.Errorf("another project sees assignments: %v", got)
	}
}
