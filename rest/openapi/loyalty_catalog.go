package openapi

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// loyaltyCatalog documents rewards (with their activities) and incentives
// (rest/loyaltyv2: routes.go, activities.go).
func loyaltyCatalog(a *API) {
	a.Tag("Loyalty rewards and incentives", "What points buy (rewards) and what members earn (incentives) (v2).")
	material, digital := FromGo[*jsonfield.MaterialDetail](), FromGo[*jsonfield.DigitalDetail]()
	reward := a.Schema("Reward", Object(
		Req("id", String()),
		Req("name", String()),
		Req("type", EnumOf(rewardTypes...)),
		Req("status", EnumOf(rewardStatuses...)),
		Req("material", material.Desc("MATERIAL: a product or a SKU.")),
		Req("digital", digital.Desc("DIGITAL: a discount coupons or a gift vouchers campaign.")),
		Req("metadata", Metadata()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("reward")),
	))
	loyaltyResource{path: "rewards", name: "Reward", noun: "reward", plural: "rewards", param: "id", schema: reward,
		create: Input[loyaltybase.CreateRewardInput]("name", "type"), update: Input[loyaltybase.UpdateRewardInput](),
		moves: []string{"activate", "deactivate", "draft"}}.add(a)
	a.Add("GET /v2/loyalties/rewards/{id}/activities", Op{Summary: "List reward activities", Auth: Loyalty,
		PathParams: map[string]string{"id": "The reward's ID."},
		Query:      append(append([]Param{}, v2ListQuery...), activityFilters(loyalty.RewardActivityTypes)...),
		Response: V2List(Object(
			Req("id", String()),
			Req("type", Enum(loyalty.RewardActivityTypes...)),
			Req("reward_id", String()),
			Req("data", Object(Req("reward", reward)).Desc("The reward as it was after the change.")),
			Req("created_at", DateTime()),
			Req("group_id", String().Null()),
			Req("source", Ref("ActivitySource").Null()),
			Req("object", Const("reward_activity")),
		))})
	incentive := a.Schema("Incentive", Object(
		Req("id", String().Desc("linc_ and hex digits.")),
		Req("name", String().Length(1, 200)),
		Req("type", EnumOf(incentiveTypes...)),
		Req("status", EnumOf(incentiveStatuses...)),
		Req("stock", Integer().Range(0, 2147483647)),
		Opt("points", notNull(FromGo[*jsonfield.IncentivePoints]())),
		Opt("points_proportional", notNull(FromGo[*jsonfield.PointsProportional]())),
		Opt("material", notNull(material)),
		Opt("digital", notNull(digital)),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("incentive")),
	).Desc("Shows the detail object of its type only."))
	loyaltyResource{path: "incentives", name: "Incentive", noun: "incentive", plural: "incentives", param: "id",
		schema: incentive,
		create: Input[loyaltybase.CreateIncentiveInput]("name", "type", "stock"), update: Input[loyaltybase.UpdateIncentiveInput](),
		moves: []string{"activate", "draft"}}.add(a)
}
