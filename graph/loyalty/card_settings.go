package loyalty

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A card definition's settings (loyalties-v2.json, CardDefinitionResponse):
// points_expiration, earning_limits, spending_limits, refunds and
// balance_settings. They are checked on create and update, stored as sent
// (jsonfield.CardSettings) and answered with their defaults when never
// set. Applied: points_expiration, to the points an earning rule awards
// without an expiration of its own (earning.go); spending_limits to order
// payments and reward purchases (spending_limits.go); earning_limits and
// balance_settings (earning_limits.go); refunds.spent_points to canceled
// orders (order_refunds.go). The rest of refunds is stored only
// (docs/loyalty.md, "not applied yet").

// cardSettings checks in and merges it over stored (nil: none yet); a
// member named in nulls goes back to its default.
func cardSettings(stored *jsonfield.CardSettings, in loyaltybase.CardSettingsInput, nulls shape.Nulls) (*jsonfield.CardSettings, error) {
	out := jsonfield.CardSettings{}
	if stored != nil {
		out = *stored
	}
	if in.PointsExpiration != nil {
		if err := validateCardExpiration(in.PointsExpiration); err != nil {
			return nil, err
		}
		out.PointsExpiration = in.PointsExpiration
	}
	if in.EarningLimits != nil {
		if err := validateCardLimits("earning_limits", in.EarningLimits, earningLimitTypes); err != nil {
			return nil, err
		}
		out.EarningLimits = in.EarningLimits
	}
	if in.SpendingLimits != nil {
		if err := validateCardLimits("spending_limits", in.SpendingLimits, spendingLimitTypes); err != nil {
			return nil, err
		}
		out.SpendingLimits = in.SpendingLimits
	}
	if in.Refunds != nil {
		if err := validateCardRefunds(in.Refunds); err != nil {
			return nil, err
		}
		out.Refunds = in.Refunds
	}
	if in.BalanceSettings != nil {
		out.BalanceSettings = in.BalanceSettings
	}
	for name, clear := range map[string]func(){
		"points_expiration": func() { out.PointsExpiration = nil },
		"earning_limits":    func() { out.EarningLimits = nil },
		"spending_limits":   func() { out.SpendingLimits = nil },
		"refunds":           func() { out.Refunds = nil },
		"balance_settings":  func() { out.BalanceSettings = nil },
	} {
		if nulls.IsNull(name) {
			clear()
		}
	}
	// The documents' cross-field rule: a balance may go negative only on
	// cards whose points never expire (checked on the merged settings).
	if out.BalanceSettings != nil && out.BalanceSettings.AllowNegative && out.PointsExpiration != nil &&
		out.PointsExpiration.Type != "NO_EXPIRATION" {
		return nil, apperr.InvalidPayload("Property .balance_settings.allow_negative can only be true when points_expiration.type is NO_EXPIRATION")
	}
	return &out, nil
}

// validateCardExpiration checks a card definition's points_expiration:
// its type and exactly the matching variant (none for NO_EXPIRATION).
func validateCardExpiration(e *jsonfield.CardPointsExpiration) error {
	const path = "points_expiration"
	variant := map[string]bool{
		"ROLLING_EXPIRATION":  e.RollingExpiration != nil,
		"CALENDAR_EXPIRATION": e.CalendarExpiration != nil,
		"SLIDING_EXPIRATION":  e.SlidingExpiration != nil,
	}
	switch e.Type {
	case "NO_EXPIRATION":
		for name, set := range variant {
			if set {
				return apperr.InvalidPayload("Property .%s.%s is not allowed with type NO_EXPIRATION", path, strings.ToLower(name))
			}
		}
		return nil
	case "ROLLING_EXPIRATION", "CALENDAR_EXPIRATION", "SLIDING_EXPIRATION":
	default:
		return apperr.InvalidPayload("Property .%s.type must be one of NO_EXPIRATION, ROLLING_EXPIRATION, CALENDAR_EXPIRATION, SLIDING_EXPIRATION", path)
	}
	if !variant[e.Type] {
		return apperr.InvalidPayload("Property .%s.%s is required with type %s", path, strings.ToLower(e.Type), e.Type)
	}
	if p := periodOf(e); p != nil && p.Unit == nil {
		return apperr.InvalidPayload("Property .%s.%s.period.unit is required", path, strings.ToLower(e.Type))
	}
	return validateExpiration(path, &e.PointsExpiration)
}

// periodOf is the period of a rolling or sliding expiration.
func periodOf(e *jsonfield.CardPointsExpiration) *jsonfield.IntValue {
	switch {
	case e.RollingExpiration != nil:
		return e.RollingExpiration.Period
	case e.SlidingExpiration != nil:
		return e.SlidingExpiration.Period
	}
	return nil
}

// The limit types the documents allow in each group.
var (
	earningLimitTypes  = [2][]string{{"BALANCE_BASED", "TIME_BASED"}, {"POINTS", "SPENDING"}}
	spendingLimitTypes = [2][]string{{"SPENDING_BASED", "TIME_BASED"}, {"POINTS"}}
)

// validateCardLimits checks earning_limits or spending_limits: both groups,
// NO_LIMIT without limits or LIMITED with them, each of an allowed type
// with a positive max.
func validateCardLimits(path string, l *jsonfield.CardLimits, types [2][]string) error {
	for i, g := range []struct {
		name  string
		group *jsonfield.CardLimitGroup
	}{{"global", l.Global}, {"transactions", l.Transactions}} {
		p := path + "." + g.name
		if g.group == nil {
			return apperr.InvalidPayload("Property .%s is required", p)
		}
		switch g.group.Type {
		case "NO_LIMIT":
			if len(g.group.Limits) > 0 {
				return apperr.InvalidPayload("Property .%s.limits must be empty with type NO_LIMIT", p)
			}
		case "LIMITED":
			if len(g.group.Limits) == 0 {
				return apperr.InvalidPayload("Property .%s.limits needs at least one limit with type LIMITED", p)
			}
		default:
			return apperr.InvalidPayload("Property .%s.type must be NO_LIMIT or LIMITED", p)
		}
		if g.group.Limits == nil {
			g.group.Limits = []jsonfield.CardLimit{}
		}
		for j, lim := range g.group.Limits {
			if !slices.Contains(types[i], lim.Type) {
				return apperr.InvalidPayload("Property .%s.limits[%d].type must be one of %v", p, j, types[i])
			}
			if lim.Max != nil && *lim.Max < 1 || lim.MinAmount != nil && *lim.MinAmount < 1 || lim.Points != nil && lim.Points.Max < 1 {
				return apperr.InvalidPayload("Property .%s.limits[%d]: max, min_amount and points.max must be >= 1", p, j)
			}
			if lim.Period != nil && lim.Period.Type != "CURRENT_PERIOD" {
				return apperr.InvalidPayload("Property .%s.limits[%d].period.type must be CURRENT_PERIOD", p, j)
			}
		}
	}
	return nil
}

// validateCardRefunds checks refunds: both policies, their types and
// methods.
func validateCardRefunds(r *jsonfield.CardRefunds) error {
	for _, pol := range []struct {
		name    string
		policy  *jsonfield.CardRefundPolicy
		methods []string
		modes   []string
	}{
		{"spent_points", r.SpentPoints, []string{"RETURN_POINTS"}, []string{"REFUND_ALL", "REFUND_ITEM", "REFUND_AMOUNT"}},
		{"earned_points", r.EarnedPoints, []string{"REVOKE_FROM_PENDING", "REVOKE_FROM_BALANCE"}, []string{"REVOKE_TO_ZERO", "REVOKE_BELOW_ZERO"}},
	} {
		p := "refunds." + pol.name
		if pol.policy == nil {
			return apperr.InvalidPayload("Property .%s is required", p)
		}
		if pol.policy.Type != "NONE" && pol.policy.Type != "REFUNDABLE" {
			return apperr.InvalidPayload("Property .%s.type must be NONE or REFUNDABLE", p)
		}
		if pol.policy.Methods == nil {
			pol.policy.Methods = []jsonfield.CardRefundMethod{}
		}
		for j, m := range pol.policy.Methods {
			if !slices.Contains(pol.methods, m.Type) {
				return apperr.InvalidPayload("Property .%s.methods[%d].type must be one of %v", p, j, pol.methods)
			}
			if m.Mode != nil && !slices.Contains(pol.modes, *m.Mode) || m.Mode == nil && pol.name == "spent_points" {
				return apperr.InvalidPayload("Property .%s.methods[%d].mode must be one of %v", p, j, pol.modes)
			}
		}
	}
	return nil
}

// CardSettingsOf are a card definition's settings as the documents show
// them: every member present, its default when never set (NO_EXPIRATION,
// NO_LIMIT, NONE, allow_negative false).
func CardSettingsOf(d *ent.CardDefinition) jsonfield.CardSettings {
	out := jsonfield.CardSettings{}
	if d.Settings != nil {
		out = *d.Settings
	}
	if out.PointsExpiration == nil {
		out.PointsExpiration = &jsonfield.CardPointsExpiration{Type: "NO_EXPIRATION"}
	}
	noLimits := func() *jsonfield.CardLimits {
		return &jsonfield.CardLimits{Global: &jsonfield.CardLimitGroup{Type: "NO_LIMIT", Limits: []jsonfield.CardLimit{}},
			Transactions: &jsonfield.CardLimitGroup{Type: "NO_LIMIT", Limits: []jsonfield.CardLimit{}}}
	}
	if out.EarningLimits == nil {
		out.EarningLimits = noLimits()
	}
	if out.SpendingLimits == nil {
		out.SpendingLimits = noLimits()
	}
	if out.Refunds == nil {
		out.Refunds = &jsonfield.CardRefunds{
			SpentPoints:  &jsonfield.CardRefundPolicy{Type: "NONE", Methods: []jsonfield.CardRefundMethod{}},
			EarnedPoints: &jsonfield.CardRefundPolicy{Type: "NONE", Methods: []jsonfield.CardRefundMethod{}}}
	}
	if out.BalanceSettings == nil {
		out.BalanceSettings = &jsonfield.CardBalanceSettings{}
	}
	return out
}

// cardExpiration is how the points a card earns expire when the earning
// rule's effect says nothing: its definition's points_expiration (nil:
// never).
func cardExpiration(d *ent.CardDefinition) *jsonfield.PointsExpiration {
	if d == nil || d.Settings == nil || d.Settings.PointsExpiration == nil || d.Settings.PointsExpiration.Type == "NO_EXPIRATION" {
		return nil
	}
	return &d.Settings.PointsExpiration.PointsExpiration
}

// awardExpiration is how the points an effect awards to crd expire: the
// effect's points_expiration, else the card definition's (nil: never).
func awardExpiration(ctx context.Context, e jsonfield.EarningEffect, crd *ent.Card) (*jsonfield.PointsExpiration, error) {
	if exp := effectExpiration(e); exp != nil || crd.CardDefinitionID == nil {
		return exp, nil
	}
	d, err := loyaltybase.CardDefinition(ctx, *crd.CardDefinitionID)
	if err != nil {
		return nil, err
	}
	return cardExpiration(d), nil
}
