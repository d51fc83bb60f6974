package customer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltytier"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// tierActivityTypes are the activity types of the stored tier change
// types (graph/loyaltyv1/tier_activities.go writes the rows).
var tierActivityTypes = map[string]string{
	"JOINED":     "customer.loyalty.tier.joined",
	"LEFT":       "customer.loyalty.tier.left",
	"UPGRADED":   "customer.loyalty.tier.upgraded",
	"DOWNGRADED": "customer.loyalty.tier.downgraded",
	"PROLONGED":  "customer.loyalty.tier.prolonged",
	// EXPIRATION_CHANGED: the new expiry of a prolonged tier, shown as
	// expiration_date (TierExpirationDate).
	"EXPIRATION_CHANGED": "customer.loyalty.tier.expiration.changed",
}

// TierExpirationDate is the expiry (YYYY-MM-DD) a v1 member's tier
// prolonged at the time at got (graph/loyaltyv1, set at wiring; nil:
// the expiration.changed activities show no expiration_date).
var TierExpirationDate func(ctx context.Context, memberID string, tierID *string, at time.Time) (string, error)

// tierChangeSource: customer.loyalty.tier.joined|left|upgraded|downgraded,
// the v1 tier changes of the loyalty cards the customer holds (reference
// §5: {customer, campaign, loyalty_tier, created_at}, plus
// loyalty_tier_from/loyalty_tier_to for up- and downgrades), filtered by
// the campaign the request named.
func tierChangeSource() customerActivitySource {
	var types []string
	for _, t := range tierActivityTypes {
		types = append(types, t)
	}
	query := func(c *ent.Client, f activityFilter) *ent.TierTransactionQuery {
		var stored []string
		for typ, act := range tierActivityTypes {
			if f.wants(act) {
				stored = append(stored, typ)
			}
		}
		held := func(s *sql.Selector) {
			t := sql.Table(voucher.Table)
			s.Where(sql.In(s.C(tiertransaction.FieldMemberID), sql.Select(t.C(voucher.FieldID)).From(t).
				Where(sql.EQ(t.C(voucher.FieldHolderID), f.customerID))))
		}
		q := c.TierTransaction.Query().Where(held, tiertransaction.TypeIn(stored...))
		if f.campaignScoped {
			q.Where(f.campaign(tiertransaction.FieldProgramID))
		}
		return q
	}
	return tableSource(customerActivitySource{name: "tier", prefixes: []string{pulid.PrefixTierTx}, campaignScoped: true, types: types},
		tiertransaction.FieldCreatedAt, tiertransaction.FieldID, query, tierChanges)
}

// tierChanges are the activities of tier change rows, with the tiers' names.
func tierChanges(ctx context.Context, rows []*ent.TierTransaction) ([]*CustomerActivity, error) {
	var ids []string
	for _, r := range rows {
		for _, id := range []*string{r.FromTierID, r.ToTierID} {
			if id != nil {
				ids = append(ids, *id)
			}
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	tiers, err := c.LoyaltyTier.Query().Where(loyaltytier.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the tiers of tier changes: %w", err)
	}
	byID := map[string]*ent.LoyaltyTier{}
	for _, t := range tiers {
		byID[t.ID] = t
	}
	ref := func(id *string, campaignID string) map[string]any {
		if id == nil {
			return nil
		}
		out := map[string]any{"id": *id, "campaign_id": campaignID, "object": "loyalty_tier"}
		if t := byID[*id]; t != nil {
			out["name"] = t.Name
		}
		return out
	}
	out := make([]*CustomerActivity, len(rows))
	for i, r := range rows {
		typ := tierActivityTypes[r.Type]
		data := map[string]any{"campaign": map[string]any{"id": r.ProgramID, "object": "campaign"},
			"voucher": map[string]any{"id": r.MemberID, "object": "voucher"}, "points": r.Points}
		switch {
		case strings.HasSuffix(typ, ".left"):
			data["loyalty_tier"] = ref(r.FromTierID, r.ProgramID)
		case strings.HasSuffix(typ, ".joined"), strings.HasSuffix(typ, ".prolonged"):
			data["loyalty_tier"] = ref(r.ToTierID, r.ProgramID)
		case strings.HasSuffix(typ, ".expiration.changed"):
			data["loyalty_tier"] = ref(r.ToTierID, r.ProgramID)
			if TierExpirationDate != nil {
				exp, err := TierExpirationDate(ctx, r.MemberID, r.ToTierID, r.CreatedAt)
				if err != nil {
					return nil, err
				}
				if exp != "" {
					data["expiration_date"] = exp
				}
			}
		default:
			data["loyalty_tier"] = ref(r.ToTierID, r.ProgramID)
			data["loyalty_tier_from"], data["loyalty_tier_to"] = ref(r.FromTierID, r.ProgramID), ref(r.ToTierID, r.ProgramID)
		}
		out[i] = &CustomerActivity{ID: r.ID, Type: typ, CreatedAt: r.CreatedAt, Data: data}
	}
	return out, nil
}
