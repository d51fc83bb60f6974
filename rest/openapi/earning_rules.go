package openapi

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// earningRules documents earning rules (beta; rest/loyaltyv2/routes.go).
func earningRules(a *API) {
	a.Tag("Loyalty earning rules", "When members earn points or incentives (v2, beta).")
	rule := a.Schema("EarningRule", Object(
		Req("id", String()),
		Req("name", String()),
		Req("status", EnumOf(earningRuleStatuses...)),
		Req("earnings", notNull(FromGo[jsonfield.Earnings]()).
			Desc("What is earned: effects points, points_proportional or incentive.")),
		Req("trigger", FromGo[*jsonfield.EarningTrigger]().Desc("An event, a custom event's schema or a segment.")),
		Req("error", FreeObject().Null().Desc("message shown when the rule does not apply.")),
		Req("validity_hours", FromGo[*jsonfield.EarningValidityHours]()),
		Req("start_date", DateTime().Null()),
		Req("end_date", DateTime().Null()),
		Req("trigger_limits", FromGo[*jsonfield.TriggerLimits]()),
		Req("metadata", Metadata()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("earning_rule")),
	))
	loyaltyResource{path: "earning-rules", name: "EarningRule", noun: "earning rule", plural: "earning rules",
		param: "id", schema: rule,
		create: Input[loyaltybase.CreateEarningRuleInput]("name", "trigger", "earnings"),
		update: Input[loyaltybase.UpdateEarningRuleInput](), moves: []string{"activate", "deactivate", "draft"}}.add(a)
}
