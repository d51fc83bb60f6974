package redemption

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/window"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// checkFailure is why a redeemable cannot be used: the error object the
// real service shows for it.
type checkFailure struct {
	code                                    int
	key, message, details                   string
	resourceID, resourceType, customMessage string
}

// failureMessages are the real service's messages for each failure key.
var failureMessages = map[string]string{
	"voucher_disabled":                 "voucher is disabled",
	window.KeyNotActiveYet:             "voucher is not active yet",
	window.KeyExpired:                  "voucher expired",
	window.KeyNotActiveNow:             "voucher not active now",
	"quantity_exceeded":                "quantity exceeded",
	"gift_amount_exceeded":             "gift amount has been exceeded",
	"loyalty_card_points_exceeded":     "loyalty card points exceeded",
	"invalid_customer":                 "Customer must be a holder of a loyalty card.",
	"missing_reward":                   "Missing reward",
	"invalid_reward":                   "Invalid reward",
	"invalid_order":                    "Invalid order",
	"no_effect":                        "Redeemable has no effect on the order",
	"reward_out_of_stock":              "Reward out of stock",
	"referrer_not_permitted_to_redeem": "voucher cannot be redeemed by referrer",
}

func failure(key, details string) *checkFailure {
	msg := failureMessages[key]
	if msg == "" {
		msg = validationrule.DefaultMessage(key)
	}
	return &checkFailure{code: http.StatusBadRequest, key: key, message: msg, details: details}
}

func notFoundFailure(resourceType, id string) *checkFailure {
	return &checkFailure{code: http.StatusNotFound, key: "not_found", message: "Resource not found",
		details: fmt.Sprintf("Cannot find %s with id %s", resourceType, id), resourceID: id, resourceType: resourceType}
}

// redeemableState is one redeemable while a request is evaluated.
type redeemableState struct {
	input   *RedeemableInput
	voucher *ent.Voucher // with its campaign edge; nil when not found
	// tier is the promotion tier a promotion_tier redeemable names, with
	// its campaign edge (nil: a voucher, or not found; tiers.go).
	tier    *ent.PromotionTier
	failure *checkFailure
	rules   []validationrule.Definition
	ruleIDs []string
	// hasRules: rules are assigned to the voucher or its campaign.
	hasRules bool
	// fromSnapshot: the tier, its rules and category came from the tier
	// snapshot (graph/redemption/tiersnapshot), not from SQL.
	fromSnapshot bool
	// credits: gift credits asked for (-1: as much as the order takes).
	credits int64
	// points: loyalty points the reward costs; reward the reward redeemed.
	points int64
	reward *rewardRef
	// coinDiscount: the order discount (cents) a COIN reward's points pay.
	coinDiscount int64
	// category: the voucher's category in the stacking rules (nil: none;
	// see loadCategories).
	category *ent.Category
	// version is the voucher row's version as read (guarded mode only;
	// see statement.go).
	version string
	// read is what the guarded look-up read along with the voucher
	// (session locks, rules), nil in the other modes.
	read *lookedUpVoucher
	// itemView shows a calculation line to rules and applicable_to with
	// the catalogue's view (nil: ids only; applicable.go).
	itemView func(discount.Item) validationrule.Item
	// unitPrices are the catalogue prices of UNIT discounts' unit types
	// (unit_prices.go).
	unitPrices map[string]int64
	// budgets are what is left of the persistent unit budgets of the
	// included applicable_to entries, index-aligned with includedEntries
	// (nil: none; unit_budgets.go).
	budgets []entryBudget
	// bundle is what the rules' bundle_rules found in the cart (nil: no
	// rule of it has bundle_rules; bundles.go).
	bundle *validationrule.BundleResult
}

// code is the redeemable's id as the client sent it.
func (s *redeemableState) code() string { return s.input.ID }

// checkRedeemable runs the real service's checks in its order and records
// the first failure: active → dates → timeframe/day/hours → campaign →
// quantity (with other sessions' locks) → holder → validation rules →
// gift balance / loyalty points.
func (e *evaluation) checkRedeemable(ctx context.Context, s *redeemableState) error {
	if s.isTier() {
		return e.checkTier(ctx, s) // tiers.go
	}
	v := s.voucher
	if v == nil {
		s.failure = notFoundFailure("voucher", s.code())
		return nil
	}
	if !v.Active {
		s.failure = failure("voucher_disabled", v.Code)
		return nil
	}
	w := window.Window{Start: v.StartDate, Expiration: v.ExpirationDate, Timeframe: v.ValidityTimeframe,
		DaysOfWeek: v.ValidityDayOfWeek, Hours: v.ValidityHours}
	if key := w.Check(e.now); key != "" {
		s.failure = failure(key, v.Code)
		return nil
	}
	if cmp := v.Edges.Campaign; cmp != nil {
		// A campaign's switch and dates hold for all its vouchers: the
		// voucher-level keys are reported (the real service's choice is
		// not documented; see docs/redemptions.md).
		if !cmp.Active {
			s.failure = failure("voucher_disabled", v.Code)
			return nil
		}
		cw := window.Window{Start: cmp.StartDate, Expiration: cmp.ExpirationDate, Timeframe: cmp.ValidityTimeframe,
			DaysOfWeek: cmp.ValidityDayOfWeek, Hours: cmp.ValidityHours}
		if key := cw.Check(e.now); key != "" {
			s.failure = failure(key, v.Code)
			return nil
		}
	}
	held, err := e.heldOn(ctx, s)
	if err != nil {
		return err
	}
	if q := v.RedemptionQuantity; q != nil && int64(v.RedeemedQuantity)+held.units >= int64(*q) {
		s.failure = failure("quantity_exceeded", v.Code)
		return nil
	}
	if v.Type == jsonfield.VoucherTypeLoyaltyCard {
		if v.HolderID != nil && (e.customer == nil || e.customer.ID != *v.HolderID) {
			s.failure = failure("invalid_customer", v.Code)
			return nil
		}
	}
	if v.IsReferralCode && v.HolderID != nil && e.customer != nil && e.customer.ID == *v.HolderID {
		s.failure = failure("referrer_not_permitted_to_redeem", v.Code) // reference §7.1
		return nil
	}
	if f, err := e.checkRules(ctx, s); err != nil || f != nil {
		s.failure = f
		return err
	}
	switch v.Type {
	case jsonfield.VoucherTypeGift:
		s.failure = e.checkGift(s, held)
	case jsonfield.VoucherTypeLoyaltyCard:
		f, err := e.checkLoyalty(ctx, s, held)
		if err != nil {
			return err
		}
		s.failure = f
	}
	return nil
}

// checkGift sets how many credits the gift card gives: the credits asked
// for (at most the balance left after other sessions' locks), or — when
// none are named — as much of that balance as the order takes.
func (e *evaluation) checkGift(s *redeemableState, held heldAmounts) *checkFailure {
	balance := int64(0)
	if g := s.voucher.Gift; g != nil {
		balance = g.Balance
	}
	available := balance - held.credits
	s.credits = -1
	if g := s.input.Gift; g != nil && g.Credits != nil {
		s.credits = *g.Credits
	}
	if available <= 0 || s.credits > available {
		return failure("gift_amount_exceeded", s.voucher.Code)
	}
	if s.credits < 0 {
		s.credits = available
	}
	return nil
}

// checkLoyalty checks a loyalty card redemption: a reward that exists and
// is active, the points it costs (reward.points of the request), and a
// balance (after other sessions' locks) that covers them.
func (e *evaluation) checkLoyalty(ctx context.Context, s *redeemableState, held heldAmounts) (*checkFailure, error) {
	r := s.input.Reward
	if r == nil || r.ID == nil || *r.ID == "" {
		return failure("missing_reward", "A reward is required when redeeming a LOYALTY_CARD"), nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(*r.ID, pulid.PrefixRewardV1) {
		return e.checkV1Reward(ctx, s, held)
	}
	rw, err := c.Reward.Get(ctx, *r.ID)
	if ent.IsNotFound(err) {
		return notFoundFailure("reward", *r.ID), nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up reward: %w", err)
	}
	if rw.Status.String() != "ACTIVE" {
		return failure("invalid_reward", fmt.Sprintf("Reward %s is not active", rw.ID)), nil
	}
	if r.Points == nil || *r.Points < 1 {
		return failure("invalid_reward", "reward.points must name the points (at least 1) the reward costs"), nil
	}
	s.reward, s.points = &rewardRef{ID: rw.ID, Name: rw.Name}, *r.Points
	balance := int64(0)
	if l := s.voucher.LoyaltyCard; l != nil {
		balance = l.Balance
	}
	if balance-held.points < s.points {
		return failure("loyalty_card_points_exceeded", s.voucher.Code), nil
	}
	return nil, nil
}

// candidate is what the stacking calculation gets for a redeemable.
func (s *redeemableState) candidate() discount.Candidate {
	var c discount.Candidate
	if s.category != nil {
		c.Category, c.Hierarchy = s.category.ID, s.category.Hierarchy
	}
	if s.failure != nil {
		c.Failure = s.failure.key
		return c
	}
	if s.tier != nil {
		return s.tierCandidate(c)
	}
	v := s.voucher
	c.Eligible = s.eligible()
	switch v.Type {
	case jsonfield.VoucherTypeDiscount:
		if v.Discount != nil {
			d := s.withTargets(campaign.DiscountOf(v.Discount)) // applicable.go
			c.Discount = &d
		}
	case jsonfield.VoucherTypeGift:
		d := discount.Discount{Type: discount.TypeAmount, AmountOff: s.credits, Effect: discount.EffectApplyToOrder}
		if v.Gift != nil && v.Gift.Effect != nil && *v.Gift.Effect == "APPLY_TO_ITEMS" {
			d.Effect = discount.EffectApplyToItemsProportionally
		}
		c.Discount = &d
	case jsonfield.VoucherTypeLoyaltyCard:
		if s.coinDiscount > 0 {
			return s.coinCandidate(c) // coin.go
		}
	}
	return c
}
