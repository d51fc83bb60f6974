package redemption

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The budget and redemption-count validation rules (docs/promotions.md
// "Validation rule names"): counted from the project's successful
// redemptions when a rule asks, one query per rule. Periods are calendar
// periods in UTC (daily: since 00:00, weekly: since Monday 00:00,
// monthly: since the 1st).

// ruleCount is the value of count rule name for s, not counting this
// redemption; ok false when it is not known (only for names the rule
// check answers itself first: a per-customer count without a customer,
// per_api_key without an application key; redemption.count.per_user is
// refused when a rule is stored). A campaign count of a voucher without
// campaign counts the voucher's redemptions. per_api_key counts the
// redemptions whose channel is the calling application key.
func (e *evaluation) ruleCount(ctx context.Context, s *redeemableState, name string) (int64, bool) {
	if e.countErr != nil {
		return 0, false
	}
	base, since := e.countPeriod(name)
	c, err := store.Client(ctx)
	if err != nil {
		e.countErr = err
		return 0, false
	}
	q := c.Redemption.Query().Where(redemption.ObjectEQ(redemption.ObjectRedemption), redemption.StatusEQ(redemption.StatusSUCCEEDED))
	if !since.IsZero() {
		q = q.Where(redemption.CreatedAtGTE(since))
	}
	of := redemption.VoucherID
	if s.tier != nil {
		of = redemption.RelatedObjectID
	}
	campaignID := ""
	if s.tier != nil {
		campaignID = s.tier.CampaignID
	} else if s.voucher != nil && s.voucher.CampaignID != nil {
		campaignID = *s.voucher.CampaignID
	}
	switch {
	case base == "redemption.count":
		q = q.Where(of(s.ruleObjects()[0]))
	case base == "redemption.count.per_customer" && e.customer != nil:
		q = q.Where(of(s.ruleObjects()[0]), redemption.CustomerID(e.customer.ID))
	case base == "redemption.count.per_api_key" && apiKeyOf(ctx) != "":
		key := apiKeyOf(ctx)
		q = q.Where(of(s.ruleObjects()[0]), func(sel *sql.Selector) {
			sel.Where(sqljson.ValueEQ(sel.C(redemption.FieldChannel), key, sqljson.Path("channel_id")))
		})
	case strings.HasPrefix(base, "campaign.") && campaignID != "":
		q = q.Where(redemption.CampaignID(campaignID))
	case strings.HasPrefix(base, "campaign."):
		// A voucher without campaign is its own campaign.
		q = q.Where(of(s.ruleObjects()[0]))
	default:
		return 0, false
	}
	n, err := e.countQuery(ctx, q, base)
	if err != nil {
		e.countErr = fmt.Errorf("counting redemptions for the rule %s: %w", name, err)
		return 0, false
	}
	return n, true
}

// countQuery runs the count of base over q.
func (e *evaluation) countQuery(ctx context.Context, q *ent.RedemptionQuery, base string) (int64, error) {
	switch base {
	case "campaign.orders.amount", "campaign.orders.amount_discounted":
		field := redemption.FieldAmount
		if base == "campaign.orders.amount_discounted" {
			field = redemption.FieldAppliedDiscount
		}
		var sums []struct {
			Sum *int64 `json:"sum"`
		}
		if err := q.Aggregate(ent.Sum(field)).Scan(ctx, &sums); err != nil {
			return 0, err
		}
		if len(sums) == 0 || sums[0].Sum == nil {
			return 0, nil
		}
		return *sums[0].Sum, nil
	case "campaign.redemptions.customers_count":
		ids, err := q.Where(redemption.CustomerIDNotNil()).Unique(true).Select(redemption.FieldCustomerID).Strings(ctx)
		if err != nil {
			return 0, err
		}
		n := int64(len(ids))
		if e.customer != nil && slices.Contains(ids, e.customer.ID) {
			n-- // the customer already counts: this redemption adds no one
		}
		return n, nil
	}
	n, err := q.Count(ctx)
	return int64(n), err
}

// countPeriod splits a count name into its base and the start of its
// period (zero: all time).
func (e *evaluation) countPeriod(name string) (string, time.Time) {
	now := e.now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if base, ok := strings.CutSuffix(name, ".daily"); ok {
		return base, day
	}
	if base, ok := strings.CutSuffix(name, ".weekly"); ok {
		return base, day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	}
	if base, ok := strings.CutSuffix(name, ".monthly"); ok {
		return base, time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return name, time.Time{}
}

// apiKeyOf is the application key of the caller ("" unknown).
func apiKeyOf(ctx context.Context) string {
	v, _ := viewer.FromContext(ctx)
	return v.AppID
}
