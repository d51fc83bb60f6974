package graph

import (
	"testing"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/qualification"
	"github.com/promoengine/promoengine/graph/redemption"
)

// TestQualificationReadsNoDisabledTier: a qualification's candidates are
// read off the partial index of the active tiers. On PostgreSQL the
// project holds bigRows disabled tiers, all newer than its one active
// tier (an index walk over every tier would read them all before it),
// and the plans of every statement that reads promotion_tiers must stay
// within the page (planProblem).
func TestQualificationReadsNoDisabledTier(t *testing.T) {
	db, ctx := projectContext(t)
	c := ent.FromContext(ctx)
	cmp := c.Campaign.Create().SetName("promo").SetCampaignType(campaign.CampaignTypePROMOTION).
		SetType(campaign.TypeSTATIC).SaveX(ctx)
	off := jsonfield.Discount{Type: "AMOUNT", AmountOff: graphtest.Ptr(100.0)}
	active := c.PromotionTier.Create().SetCampaignID(cmp.ID).SetName("on").SetDiscount(&off).SaveX(ctx)
	disabled := c.PromotionTier.Create().SetCampaignID(cmp.ID).SetName("off").SetDiscount(&off).SetActive(false).SaveX(ctx)
	if db.Dialect == dialect.Postgres {
		cloneRows(t, db, "promotion_tiers", disabled.ID, bigRows, map[string]string{
			"id": `'promo_' || substr(md5(g::text), 1, 24)`, "created_at": `t."created_at" + g * interval '1 second'`})
		if _, err := db.SQL.Exec(`VACUUM ANALYZE "promotion_tiers"`); err != nil {
			t.Fatal(err)
		}
	}
	rctx, rec := recordArgs(ctx, db)
	amount := int64(5000)
	res, err := qualification.Qualify(rctx, qualification.Input{Order: &redemption.OrderInput{Amount: &amount}})
	if err != nil {
		t.Fatal(err)
	}
	if data := res.Redeemables.Data; len(data) != 1 || data[0]["id"] != active.ID {
		t.Fatalf("qualified: %v", data)
	}
	checkPlans(t, db, "POST /v1/qualifications", "promotion_tiers", rec.take())
}
