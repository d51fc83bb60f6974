package qualification

import (
	"context"
	"fmt"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/promotionstack"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
)

// The candidates of a qualification come from SQL that selects only
// what could apply now: active, begun and unexpired tiers of active,
// begun and unexpired campaigns, and active, in-date vouchers the
// customer holds — newest first, after the cursor, at most
// MaxCandidates+1 of each source (the extra one says there is more).
// Tenancy is the ent client's: only the caller's project's rows.

// candidate is one redeemable to evaluate.
type candidate struct {
	object    string // promotion_tier, voucher, promotion_stack or campaign
	id        string // promo_…, the voucher code, stack_…, camp_…
	createdAt time.Time
	// fields are the filters' values (nil for a tier until values makes
	// them from tier: most requests filter nothing).
	fields fields
	tier   *ent.PromotionTier
	stack  *ent.PromotionStack
	// campaign is a campaign entry's campaign (with its category), code
	// the code it is checked through (campaigns.go).
	campaign *ent.Campaign
	code     string
}

// evaluated is the redeemable the evaluation checks for the candidate:
// a campaign is checked through its representative code.
func (c candidate) evaluated() (object, id string) {
	if c.object == ObjectCampaign {
		return "voucher", c.code
	}
	return c.object, c.id
}

// activeCampaign selects campaigns that are on and in their dates.
func activeCampaign(now time.Time) predicate.Campaign {
	return campaign.And(campaign.Active(true),
		campaign.Or(campaign.StartDateIsNil(), campaign.StartDateLTE(now)),
		campaign.Or(campaign.ExpirationDateIsNil(), campaign.ExpirationDateGT(now)))
}

// tierCandidates reads the available tiers created before the cursor,
// from the snapshot when there is one.
func tierCandidates(ctx context.Context, snap *tiersnapshot.TierSnapshot, now time.Time, before *time.Time) ([]candidate, error) {
	if snap != nil {
		tiers := snap.Available(now, before, MaxCandidates+1)
		out := make([]candidate, len(tiers))
		for i, st := range tiers {
			out[i] = tierCandidate(st.Tier)
		}
		return out, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.PromotionTier.Query().Where(promotiontier.Active(true),
		promotiontier.Or(promotiontier.StartDateIsNil(), promotiontier.StartDateLTE(now)),
		promotiontier.Or(promotiontier.ExpirationDateIsNil(), promotiontier.ExpirationDateGT(now)),
		promotiontier.HasCampaignWith(activeCampaign(now)))
	if before != nil {
		q = q.Where(promotiontier.CreatedAtLT(*before))
	}
	tiers, err := q.Order(ent.Desc(promotiontier.FieldCreatedAt), ent.Desc(promotiontier.FieldID)).
		Limit(MaxCandidates+1).
		Select(promotiontier.FieldID, promotiontier.FieldCreatedAt, promotiontier.FieldCampaignID, promotiontier.FieldCategoryID).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing available promotion tiers: %w", err)
	}
	out := make([]candidate, len(tiers))
	for i, t := range tiers {
		out[i] = tierCandidate(t)
	}
	return out, nil
}

// tierCandidate is the candidate of a tier.
func tierCandidate(t *ent.PromotionTier) candidate {
	return candidate{object: "promotion_tier", id: t.ID, createdAt: t.CreatedAt, tier: t}
}

// values are the candidate's values of the filter fields.
func (c candidate) values() fields {
	if c.fields == nil && c.tier != nil {
		t := c.tier
		return fields{"resource_id": t.ID, "resource_type": "promotion_tier", "campaign_id": t.CampaignID,
			"campaign_type": "PROMOTION", "category_id": deref(t.CategoryID)}
	}
	return c.fields
}

// usableVoucher selects the active vouchers inside their dates.
func usableVoucher(now time.Time) predicate.Voucher {
	return voucher.And(voucher.Active(true),
		voucher.Or(voucher.StartDateIsNil(), voucher.StartDateLTE(now)),
		voucher.Or(voucher.ExpirationDateIsNil(), voucher.ExpirationDateGT(now)))
}

// heldVoucherCandidates reads the active, in-date vouchers the customer
// (by id, else by source_id) holds — published to them —, of no campaign
// or of an active, in-date one, created before the cursor
// (candidate_codes.go).
func heldVoucherCandidates(ctx context.Context, id, sourceID *string, now time.Time, before *time.Time) ([]candidate, error) {
	if id != nil {
		return codeCandidates(ctx, id, true, "OWNER", now, before)
	}
	return codeCandidates(ctx, sourceID, false, "OWNER", now, before)
}

// genericVoucherCandidates reads the generic codes anyone may use (ALL):
// active, in-date codes held by nobody that are standalone or of an
// active, in-date STANDALONE campaign (not the codes of bulk campaigns,
// which are meant to be published), created before the cursor. The
// legacy voucher qualification lists the same codes (legacy_vouchers.go).
func genericVoucherCandidates(ctx context.Context, now time.Time, before *time.Time) ([]candidate, error) {
	return codeCandidates(ctx, nil, false, "", now, before)
}

// genericVoucher selects the usable standalone codes and those of usable
// STANDALONE campaigns.
func genericVoucher(now time.Time) predicate.Voucher {
	return voucher.And(usableVoucher(now), voucher.Or(voucher.CampaignIDIsNil(),
		voucher.HasCampaignWith(campaign.TypeEQ(campaign.TypeSTANDALONE), activeCampaign(now))))
}

// heldBy selects the vouchers the customer holds, named by its id or its
// source_id (a subquery of the customers: the vouchers' own project filter
// keeps another project's customer of that source_id out, its ids being
// no holder of this project's vouchers).
func heldBy(id, sourceID *string) predicate.Voucher {
	if id != nil {
		return voucher.HolderID(*id)
	}
	return func(s *sql.Selector) {
		t := sql.Table(customer.Table)
		s.Where(sql.In(s.C(voucher.FieldHolderID),
			sql.Select(t.C(customer.FieldID)).From(t).Where(sql.EQ(t.C(customer.FieldSourceID), *sourceID))))
	}
}

// stackCandidates reads the stacks of active, in-date campaigns created
// before the cursor (at most MaxStacks+1).
func stackCandidates(ctx context.Context, now time.Time, before *time.Time) ([]candidate, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.PromotionStack.Query().Where(promotionstack.HasCampaignWith(activeCampaign(now)))
	if before != nil {
		q = q.Where(promotionstack.CreatedAtLT(*before))
	}
	stacks, err := q.Order(ent.Desc(promotionstack.FieldCreatedAt), ent.Desc(promotionstack.FieldID)).
		Limit(MaxStacks + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing promotion stacks: %w", err)
	}
	out := make([]candidate, len(stacks))
	for i, s := range stacks {
		out[i] = candidate{object: "promotion_stack", id: s.ID, createdAt: s.CreatedAt, stack: s, fields: fields{
			"resource_id": s.ID, "resource_type": "promotion_stack", "campaign_id": s.CampaignID,
			"campaign_type": "PROMOTION", "category_id": deref(s.CategoryID)}}
	}
	return out, nil
}

// newestFirst merges candidate lists, each newest first (then by id,
// descending), in that order.
func newestFirst(lists ...[]candidate) []candidate {
	var all []candidate
	filled, n := 0, 0
	for _, l := range lists {
		if len(l) > 0 {
			all, filled, n = l, filled+1, n+len(l)
		}
	}
	if filled <= 1 {
		return all // one list (often the tiers alone): already in order
	}
	all = make([]candidate, 0, n)
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.SortStableFunc(all, func(a, b candidate) int {
		if c := b.createdAt.Compare(a.createdAt); c != 0 {
			return c
		}
		switch {
		case a.id > b.id:
			return -1
		case a.id < b.id:
			return 1
		}
		return 0
	})
	return all
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
