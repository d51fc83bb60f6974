package loyalty

import (
	"context"

	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	rules "github.com/promoengine/promoengine/graph/validationrule"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateEarningRule creates an earning rule.
func CreateEarningRule(ctx context.Context, in loyaltybase.CreateEarningRuleInput) (*ent.EarningRule, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	status, err := loyaltybase.InitialStatus(in.Status, earningrule.StatusDRAFT, earningrule.StatusACTIVE)
	if err != nil {
		return nil, err
	}
	if err := validateEarningRule(ctx, &in); err != nil {
		return nil, err
	}
	if err := checkTriggerReferences(ctx, in.Trigger); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	create := c.EarningRule.Create().SetName(*in.Name).SetStatus(status).SetTrigger(in.Trigger).
		SetEarnings(in.Earnings).SetMetadata(shape.OrEmptyMap(in.Metadata)).
		SetNillableStartDate(loyaltybase.UTCMillis(in.StartDate)).SetNillableEndDate(loyaltybase.UTCMillis(in.EndDate))
	if in.Error != nil {
		create.SetError(in.Error)
	}
	if in.ValidityHours != nil {
		create.SetValidityHours(in.ValidityHours)
	}
	if in.TriggerLimits != nil {
		create.SetTriggerLimits(in.TriggerLimits)
	}
	return loyaltybase.Logged(ctx, loyaltybase.EarningRuleActivities, "created", loyaltybase.EarningRuleIDOf)(create.Save(ctx))
}

// validateEarningRule checks everything of a rule but its name and status.
func validateEarningRule(ctx context.Context, in *loyaltybase.CreateEarningRuleInput) error {
	if err := validateTrigger(in.Trigger); err != nil {
		return err
	}
	if err := validateEarnings(ctx, in.Earnings); err != nil {
		return err
	}
	if err := validateEarningHours(in.ValidityHours); err != nil {
		return err
	}
	if err := validateTriggerLimits(in.TriggerLimits); err != nil {
		return err
	}
	if err := loyaltybase.CheckDateOrder(in.StartDate, in.EndDate); err != nil {
		return err
	}
	if in.Error != nil {
		if _, ok := in.Error["message"].(string); !ok {
			return apperr.InvalidPayload("Property .error.message must be a string")
		}
	}
	return nil
}

var triggerEvents = map[string]string{
	"customer.order.paid":      "",
	"customer.custom_event":    "custom_event",
	"customer.segment.entered": "segment",
}

func validateTrigger(t *jsonfield.EarningTrigger) error {
	if t == nil {
		return apperr.InvalidPayload("Payload must have required property 'trigger'")
	}
	if t.Event == nil {
		return apperr.InvalidPayload("Property .trigger must have required property 'event'")
	}
	needs, ok := triggerEvents[*t.Event]
	if !ok {
		return apperr.InvalidPayload("Property .trigger.event must be one of customer.order.paid, customer.custom_event, customer.segment.entered, got %q", *t.Event)
	}
	switch {
	case needs == "custom_event" && (t.CustomEvent == nil || t.CustomEvent.SchemaID == ""):
		return apperr.InvalidPayload("Property .trigger.custom_event.schema_id is required when event is customer.custom_event")
	case needs != "custom_event" && t.CustomEvent != nil:
		return apperr.InvalidPayload("Property .trigger.custom_event must be null unless event is customer.custom_event")
	case needs == "segment" && (t.Segment == nil || t.Segment.ID == ""):
		return apperr.InvalidPayload("Property .trigger.segment.id is required when event is customer.segment.entered")
	case needs != "segment" && t.Segment != nil:
		return apperr.InvalidPayload("Property .trigger.segment must be null unless event is customer.segment.entered")
	}
	return nil
}

func validateEarnings(ctx context.Context, earnings jsonfield.Earnings) error {
	if len(earnings) == 0 {
		return apperr.InvalidPayload("Property .earnings must have at least 1 item")
	}
	for i, e := range earnings {
		if len(e.Effects) == 0 {
			return apperr.InvalidPayload("Property .earnings[%d].effects must have at least 1 item", i)
		}
		for j := range e.Effects {
			eff := &e.Effects[j]
			path := loyaltybase.Pathf("earnings[%d].effects[%d]", i, j)
			if eff.Benefit != nil && eff.Incentive == nil { // the August spelling
				eff.Incentive, eff.Benefit = eff.Benefit, nil
			}
			n := 0
			for _, set := range []bool{eff.Points != nil, eff.PointsProportional != nil, eff.Incentive != nil, eff.Benefit != nil} {
				if set {
					n++
				}
			}
			if n != 1 {
				return apperr.InvalidPayload("Property .%s must have exactly one of points, points_proportional, incentive", path)
			}
			var err error
			switch {
			case eff.Points != nil:
				err = ValidatePoints(ctx, path+".points", eff.Points)
			case eff.PointsProportional != nil:
				err = ValidatePointsProportional(ctx, path+".points_proportional", eff.PointsProportional)
			default:
				if eff.Incentive.ID == "" {
					return apperr.InvalidPayload("Property .%s.incentive must have required property 'id'", path)
				}
				eff.Incentive.ID = loyaltybase.IncentiveID(eff.Incentive.ID)
				_, err = loyaltybase.IncentiveByID(ctx, eff.Incentive.ID)
			}
			if err != nil {
				return err
			}
		}
		if e.Rules != nil { // earning_conditions.go
			if _, ok := e.Rules["logic"].(string); !ok {
				return apperr.InvalidPayload("Property .earnings[%d].rules.logic must be a string", i)
			}
			if len(e.Rules) > 1 {
				if _, err := rules.Parse(e.Rules, "", nil); err != nil {
					return apperr.InvalidPayload("Property .earnings[%d].%s", i, err.Error())
				}
			}
		}
		if e.TierRules != nil && e.TierRules.Type != "NO_REQUIREMENTS" {
			return apperr.InvalidPayload("Property .earnings[%d].tier_rules.type must be NO_REQUIREMENTS, got %q", i, e.TierRules.Type)
		}
	}
	return nil
}

func setEarningRuleStatus(ctx context.Context, id string, to earningrule.Status) (*ent.EarningRule, error) {
	r, err := loyaltybase.EarningRule(ctx, id)
	if err != nil {
		return nil, err
	}
	return loyaltybase.Logged(ctx, loyaltybase.EarningRuleActivities, loyaltybase.StatusVerb(to), loyaltybase.EarningRuleIDOf)(r.Update().SetStatus(to).Save(ctx))
}

// UpdateEarningRule replaces the given fields and validates the result
// with the create rules; a given trigger's schema or segment must exist
// (checkTriggerReferences).
func UpdateEarningRule(ctx context.Context, id string, in loyaltybase.UpdateEarningRuleInput) (*ent.EarningRule, error) {
	if err := in.RefuseNull("name", "trigger", "earnings"); err != nil {
		return nil, err
	}
	r, err := loyaltybase.EarningRule(ctx, id)
	if err != nil {
		return nil, err
	}
	merged := loyaltybase.CreateEarningRuleInput{Name: &r.Name, Trigger: r.Trigger, Earnings: r.Earnings, Error: r.Error,
		ValidityHours: r.ValidityHours, TriggerLimits: r.TriggerLimits, StartDate: r.StartDate, EndDate: r.EndDate}
	if in.Name != nil {
		merged.Name = in.Name
	}
	if in.Trigger != nil {
		merged.Trigger = in.Trigger
	}
	if in.Earnings != nil {
		merged.Earnings = in.Earnings
	}
	if in.Error != nil {
		merged.Error = in.Error
	}
	if in.ValidityHours != nil {
		merged.ValidityHours = in.ValidityHours
	}
	if in.TriggerLimits != nil {
		merged.TriggerLimits = in.TriggerLimits
	}
	if in.StartDate != nil {
		merged.StartDate = in.StartDate
	}
	if in.EndDate != nil {
		merged.EndDate = in.EndDate
	}
	nullEarningRuleMembers(&merged, &in)
	if err := loyaltybase.RequiredName(merged.Name); err != nil {
		return nil, err
	}
	if err := validateEarningRule(ctx, &merged); err != nil {
		return nil, err
	}
	if in.Trigger != nil { // a kept trigger was checked when set; what it names cannot be deleted since
		if err := checkTriggerReferences(ctx, in.Trigger); err != nil {
			return nil, err
		}
	}
	upd := r.Update().SetName(*merged.Name).SetTrigger(merged.Trigger).SetEarnings(merged.Earnings).
		SetNillableStartDate(loyaltybase.UTCMillis(merged.StartDate)).SetNillableEndDate(loyaltybase.UTCMillis(merged.EndDate))
	if merged.Error != nil {
		upd.SetError(merged.Error)
	}
	if merged.ValidityHours != nil {
		upd.SetValidityHours(merged.ValidityHours)
	}
	if merged.TriggerLimits != nil {
		upd.SetTriggerLimits(merged.TriggerLimits)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	clearEarningRuleFields(upd, &in)
	return loyaltybase.Logged(ctx, loyaltybase.EarningRuleActivities, "updated", loyaltybase.EarningRuleIDOf)(upd.Save(ctx))
}
