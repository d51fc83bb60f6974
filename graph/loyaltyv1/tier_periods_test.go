package loyaltyv1

import (
	"context"
	"testing"
	"time"

	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestTiersByPointsEarnedInPeriodFollowTheClock: with POINTS_IN_PERIOD
// (MONTH) and END_OF_NEXT_PERIOD, 120 points earned this month place the
// member in Gold now (spending them does not matter), still next month,
// and in no tier the month after; with the points earned again, Gold again.
func TestTiersByPointsEarnedInPeriodFollowTheClock(t *testing.T) {
	_, ctx := graphtest.ProjectContext(t)
	var code string
	err := store.InTx(ctx, func(ctx context.Context) error {
		typ, kind := entcampaign.TypeAUTO_UPDATE, entcampaign.CampaignTypeLOYALTY_PROGRAM
		cmp, err := CreateProgram(ctx, campaign.CreateCampaignInput{Name: "Periods", Type: &typ, CampaignType: &kind,
			Voucher: &jsonfield.VoucherProfile{Type: jsonfield.VoucherTypeLoyaltyCard, LoyaltyCard: &jsonfield.LoyaltyCard{}}},
			&ProgramSettings{LoyaltyTiersExpiration: map[string]any{"qualification_type": "POINTS_IN_PERIOD",
				"qualification_period": "MONTH", "start_date": map[string]any{"type": "IMMEDIATE"},
				"expiration_date": map[string]any{"type": "END_OF_NEXT_PERIOD", "extend": "P0D"}}})
		if err != nil {
			return err
		}
		from, to := int64(1), int64(99)
		gold := int64(100)
		if _, err := CreateTiers(ctx, cmp.ID, []*TierInput{{Name: "Bronze", Points: &TierPoints{From: &from, To: &to}},
			{Name: "Gold", Points: &TierPoints{From: &gold}}}); err != nil {
			return err
		}
		src := "periodic"
		card, err := AddMember(ctx, cmp.ID, AddMemberInput{Customer: &customer.CustomerInput{SourceID: &src}})
		if err != nil {
			return err
		}
		code = card.Code
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	move := func(points int64) {
		t.Helper()
		if _, err := AdjustBalance(ctx, nil, code, BalanceInput{Points: &points}); err != nil {
			t.Fatal(err)
		}
	}
	tierAt := func(at time.Time) string {
		t.Helper()
		ts, err := MemberTiers(clock.WithNow(ctx, at), code)
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) == 0 {
			return "none"
		}
		return ts[0].Name
	}
	move(120)
	move(-110) // spending does not lower points earned
	now := time.Now().UTC()
	month := periodStart(1, now)
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{now, "Gold"},
		{month.AddDate(0, 1, 14), "Gold"}, // kept through the next period
		{month.AddDate(0, 2, 1), "none"},  // nothing earned in the two periods before
		{month.AddDate(0, -1, 3), "none"}, // before the points were earned
	} {
		if got := tierAt(c.at); got != c.want {
			t.Errorf("at %s: tier %s, want %s", c.at.Format(time.DateOnly), got, c.want)
		}
	}
}
