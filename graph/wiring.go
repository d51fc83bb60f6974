package graph

import (
	"context"
	"time"

	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/event"
	"github.com/promoengine/promoengine/graph/loyalty/tier"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/graph/order"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
	"github.com/promoengine/promoengine/graph/reward"
)

// Wiring: the calls that would point upwards — a lower domain reacting
// to something of a higher one — are registered here, at program start.
func init() {
	// Custom events, segment entries and paid orders earn loyalty points:
	// the v2 area's rules and the v1 programs' rules.
	customer.Earning = customer.Earnings{loyalty.RuleEarning{}, loyaltyv1.RuleEarning{}}
	customer.TierExpirationDate = loyaltyv1.TierExpirationDate
	order.RevokeV1OrderAccruals = loyaltyv1.RevokeOrderAccruals
	// A deleted category leaves the project's stacking rules.
	campaign.OnCategoryDeleted = stacking.ForgetStackingCategory
	// A loyalty card redeemed for a v1 reward issues what the reward gives.
	redemption.IssueReward = reward.Issue
	// Every v2 card booking moves the member's tiers (tier transactions).
	loyalty.TrackTiers = tier.TrackTiers
	// A referral conversion rewards its referrer (referral tiers).
	event.OnReferralConverted = reward.RewardConversion
	// A PROMOTION campaign is created with its tiers.
	campaign.CreatePromotionTiers = promotion.CreateCampaignTiers

	// The daily points job of v1 cards (expiry, pending activation),
	// swept hourly: it does nothing until a bucket's day has come.
	job.RegisterPeriodic(job.Periodic{Name: "loyalty.points.daily", Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			_, err := loyaltyv1.RunDailyPoints(ctx, now)
			return err
		}})

	// Bin entries older than the retention period go for good.
	job.RegisterPeriodic(job.Periodic{Name: "bin.purge", Every: bin.PurgeEvery,
		Run: func(ctx context.Context, now time.Time) error {
			_, err := bin.Purge(ctx, now)
			return err
		}})

	// The job types every worker runs, and who runs them.
	for _, handlers := range []map[string]job.Handler{campaign.JobHandlers(), export.JobHandlers(),
		catalog.JobHandlers(), order.JobHandlers(), customer.JobHandlers(),
		loyalty.JobHandlers(), loyaltyv1.JobHandlers(), bin.JobHandlers()} {
		for typ, h := range handlers {
			job.Register(typ, h)
		}
	}
}
