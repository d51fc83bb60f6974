package loyaltyv2

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty/examine"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerExamineEarning adds POST /v2/loyalties/examine/earning-rules:
// what an event would earn a customer's cards; nothing is written.
func registerExamineEarning(v2 *gin.RouterGroup, root *graph.Resolver) {
	v2.POST("/examine/earning-rules", func(c *gin.Context) {
		var in examine.ExamineEarningInput
		if err := httpkit.DecodeBody(c, &in); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		x, err := root.Query().ExamineEarningRules(c.Request.Context(), in)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, earningExaminationJSON(x))
	})
}

// earningExaminationJSON renders the preview in the August document's
// outline.
func earningExaminationJSON(x *examine.EarningExamination) map[string]any {
	rules := make([]map[string]any, len(x.EarningRules))
	for i, r := range x.EarningRules {
		rules[i] = map[string]any{"id": r.ID, "name": r.Name, "metadata": httpkit.OrEmpty(r.Metadata), "object": "earning_rule"}
		if ev := examine.TriggerEvent(r.Trigger); ev != "" {
			rules[i]["event"] = ev // the rule's own event (with ALL triggers, they differ)
		}
	}
	ruleRef := func(id string) map[string]any { return map[string]any{"id": id, "object": "earning_rule"} }
	memberships := make([]map[string]any, len(x.Memberships))
	for i, m := range x.Memberships {
		cards := make([]map[string]any, len(m.Cards))
		for j, ce := range m.Cards {
			per := make([]map[string]any, len(ce.Rules))
			for k, r := range ce.Rules {
				per[k] = map[string]any{"earning_rule": ruleRef(r.EarningRuleID), "points_estimation": r.Points, "object": "earning_rule_estimation"}
			}
			def := ""
			if ce.Card.CardDefinitionID != nil {
				def = *ce.Card.CardDefinitionID
			}
			cards[j] = map[string]any{"card": map[string]any{"id": ce.Card.ID, "card_definition_id": def, "card_type": "INDIVIDUAL",
				"code": ce.Card.Code, "object": "card"}, "points_estimation": ce.Points, "earning_rules": per, "object": "card_estimation"}
		}
		benefits := make([]map[string]any, len(m.Benefits))
		for j, b := range m.Benefits {
			per := make([]map[string]any, len(b.EarningRuleIDs))
			for k, id := range b.EarningRuleIDs {
				per[k] = map[string]any{"earning_rule": ruleRef(id), "object": "earning_rule_estimation"}
			}
			benefits[j] = map[string]any{"benefit": map[string]any{"id": b.Benefit.ID, "name": b.Benefit.Name, "type": string(b.Benefit.Type),
				"object": "benefit"}, "earning_rules": per, "object": "benefit_estimation"}
		}
		memberships[i] = map[string]any{
			"member": map[string]any{"id": m.Member.ID, "customer_id": m.Member.CustomerID, "program_id": m.Member.ProgramID,
				"metadata": httpkit.OrEmpty(m.Member.Metadata), "object": "member"},
			"program": map[string]any{"id": m.Program.ID, "name": m.Program.Name, "metadata": httpkit.OrEmpty(m.Program.Metadata), "object": "program"},
			"cards":   cards, "benefits": benefits, "object": "member_earnings_opportunity"}
	}
	out := map[string]any{"customer": map[string]any{"id": x.Customer.ID, "source_id": x.Customer.SourceID,
		"metadata": httpkit.OrEmpty(x.Customer.Metadata), "object": "customer"}, "earning_rules": rules, "memberships": memberships,
		"object": "earnings_examine_result"}
	if x.Event != nil { // ALL triggers: no one event; each rule names its own
		out["event"] = *x.Event
	}
	return out
}
