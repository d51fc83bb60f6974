package loyaltyv1

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// EarningRuleInput is one earning rule of POST
// /v1/loyalties/{campaignId}/earning-rules (the body is an array) and the
// body of PUT …/earning-rules/{earningRuleId}, where event and its
// companion fields (custom_event, segment, loyalty_tier) cannot change.
type EarningRuleInput struct {
	Event            *string        `json:"event"`
	CustomEvent      map[string]any `json:"custom_event"`
	Segment          map[string]any `json:"segment"`
	LoyaltyTier      map[string]any `json:"loyalty_tier"`
	Loyalty          map[string]any `json:"loyalty"`
	Source           map[string]any `json:"source"`
	Active           *bool          `json:"active"`
	ValidationRuleID *string        `json:"validation_rule_id"`
	StartDate        *time.Time     `json:"start_date"`
	ExpirationDate   *time.Time     `json:"expiration_date"`
	// ValidityTimeframe, ValidityDayOfWeek and ValidityHours are kept as
	// sent.
	ValidityTimeframe map[string]any `json:"validity_timeframe"`
	ValidityDayOfWeek []int          `json:"validity_day_of_week"`
	ValidityHours     map[string]any `json:"validity_hours"`
	// PendingPoints is allowed on order.paid rules only.
	PendingPoints   map[string]any `json:"pending_points"`
	ExpirationRules map[string]any `json:"expiration_rules"`
	Metadata        map[string]any `json:"metadata"`
	// Nulls are the members an update sent as an explicit null: each
	// optional field clears; loyalty and active cannot be null.
	shape.Nulls
}

// maxRulesPerRequest bounds one create request.
const maxRulesPerRequest = 100

// tierEvents are the tier events a rule can fire on.
var tierEvents = map[string]bool{"customer.loyalty.tier.joined": true, "customer.loyalty.tier.left": true,
	"customer.loyalty.tier.upgraded": true, "customer.loyalty.tier.downgraded": true, "customer.loyalty.tier.prolonged": true}

// eventKind is the family of an event: order.paid, segment, tier or custom.
func eventKind(event string) string {
	switch {
	case event == "order.paid":
		return "order.paid"
	case event == "customer.segment.entered":
		return "segment"
	case tierEvents[event]:
		return "tier"
	}
	return "custom"
}

// CreateEarningRules adds earning rules to a program (all or none).
func CreateEarningRules(ctx context.Context, programIDOrName string, in []*EarningRuleInput) ([]*ent.CampaignEarningRule, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 || len(in) > maxRulesPerRequest {
		return nil, apperr.InvalidPayload("Payload must be an array of 1 to %d earning rules", maxRulesPerRequest)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*ent.CampaignEarningRule, 0, len(in))
	for i, r := range in {
		if r == nil {
			return nil, apperr.InvalidPayload("Property [%d] must be an object", i)
		}
		if err := checkRule(ctx, r, nil); err != nil {
			return nil, prefixed(i, err)
		}
		create := c.CampaignEarningRule.Create().SetCampaignID(cmp.ID).SetEvent(*r.Event).SetLoyalty(r.Loyalty).
			SetAutomationID(pulid.New("auto_", 24)).SetNillableActive(r.Active).
			SetNillableValidationRuleID(r.ValidationRuleID).SetNillableStartDate(r.StartDate).
			SetNillableExpirationDate(r.ExpirationDate).SetSource(source(r.Source, cmp.ID)).SetMetadata(orEmpty(r.Metadata))
		for _, set := range []struct {
			v   map[string]any
			set func(map[string]any) *ent.CampaignEarningRuleCreate
		}{{r.CustomEvent, create.SetCustomEvent}, {r.Segment, create.SetSegment}, {r.LoyaltyTier, create.SetLoyaltyTier},
			{r.PendingPoints, create.SetPendingPoints}, {r.ExpirationRules, create.SetExpirationRules},
			{r.ValidityTimeframe, create.SetValidityTimeframe}, {r.ValidityHours, create.SetValidityHours}} {
			if set.v != nil {
				set.set(set.v)
			}
		}
		if r.ValidityDayOfWeek != nil {
			create.SetValidityDayOfWeek(r.ValidityDayOfWeek)
		}
		rule, err := create.Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("creating earning rule: %w", err)
		}
		out = append(out, rule)
	}
	return out, nil
}

func EarningRule(ctx context.Context, programIDOrName, id string) (*ent.CampaignEarningRule, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.CampaignEarningRule.Query().Where(campaignearningrule.ID(id), campaignearningrule.CampaignID(cmp.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("earning_rule", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up earning rule: %w", err)
	}
	return r, nil
}

// EarningRuleListInput is the query of a program's earning rules.
type EarningRuleListInput struct {
	Limit *int `json:"limit"`
	Page  *int `json:"page"`
	// Order is created_at or updated_at, - for descending (default -created_at).
	Order *string `json:"order"`
}

// EarningRuleList is a page of earning rules and how many there are.
type EarningRuleList struct {
	Total int                        `json:"total"`
	Data  []*ent.CampaignEarningRule `json:"data"`
}

// EarningRules pages a program's earning rules.
func EarningRules(ctx context.Context, programIDOrName string, in *EarningRuleListInput) (*EarningRuleList, error) {
	if in == nil {
		in = &EarningRuleListInput{}
	}
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	n, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	order, err := timeOrder(in.Order, "-created_at")
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.CampaignEarningRule.Query().Where(campaignearningrule.CampaignID(cmp.ID))
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting earning rules: %w", err)
	}
	data, err := q.Order(order).Limit(n).Offset(offset).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing earning rules: %w", err)
	}
	return &EarningRuleList{Total: total, Data: data}, nil
}

// UpdateEarningRule changes what in gives of a rule (event and its
// companion fields stay).
func UpdateEarningRule(ctx context.Context, programIDOrName, id string, in EarningRuleInput) (*ent.CampaignEarningRule, error) {
	if err := in.RefuseNull("loyalty", "active"); err != nil {
		return nil, err
	}
	r, err := EarningRule(ctx, programIDOrName, id)
	if err != nil {
		return nil, err
	}
	if err := checkRule(ctx, &in, r); err != nil {
		return nil, err
	}
	upd := r.Update().SetNillableActive(in.Active).SetNillableValidationRuleID(in.ValidationRuleID).
		SetNillableStartDate(in.StartDate).SetNillableExpirationDate(in.ExpirationDate)
	if in.Loyalty != nil {
		upd.SetLoyalty(in.Loyalty)
	}
	if in.Source != nil {
		upd.SetSource(source(in.Source, r.CampaignID))
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	for _, set := range []struct {
		v   map[string]any
		set func(map[string]any) *ent.CampaignEarningRuleUpdateOne
	}{{in.PendingPoints, upd.SetPendingPoints}, {in.ExpirationRules, upd.SetExpirationRules},
		{in.ValidityTimeframe, upd.SetValidityTimeframe}, {in.ValidityHours, upd.SetValidityHours}} {
		if set.v != nil {
			set.set(set.v)
		}
	}
	if in.ValidityDayOfWeek != nil {
		upd.SetValidityDayOfWeek(in.ValidityDayOfWeek)
	}
	clearEarningRuleFields(upd, &in)
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating earning rule: %w", err)
	}
	return out, nil
}

// SetEarningRuleActive enables or disables a rule.
func SetEarningRuleActive(ctx context.Context, programIDOrName, id string, active bool) (*ent.CampaignEarningRule, error) {
	r, err := EarningRule(ctx, programIDOrName, id)
	if err != nil {
		return nil, err
	}
	out, err := r.Update().SetActive(active).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("changing earning rule state: %w", err)
	}
	return out, nil
}

// DeleteEarningRule removes a rule and returns its ID.
func DeleteEarningRule(ctx context.Context, programIDOrName, id string) (string, error) {
	r, err := EarningRule(ctx, programIDOrName, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if err := c.CampaignEarningRule.DeleteOne(r).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting earning rule: %w", err)
	}
	return r.ID, nil
}

// source is the rule's source object: the sent banner, on the campaign.
func source(in map[string]any, campaignID string) map[string]any {
	out := map[string]any{"object_id": campaignID, "object_type": "campaign"}
	if b, ok := in["banner"]; ok {
		out["banner"] = b
	}
	return out
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// prefixed names the array entry in an error's details.
func prefixed(i int, err error) error {
	if e, ok := apperr.As(err); ok {
		out := *e
		out.Details = strings.Replace(e.Details, "Property .", fmt.Sprintf("Property [%d].", i), 1)
		return &out
	}
	return err
}

// timeOrder is a list's ORDER BY: created_at or updated_at, - for
// descending (def when order is nil), ties broken by ID the same way.
func timeOrder(order *string, def string) (func(*sql.Selector), error) {
	o := def
	if order != nil {
		o = *order
	}
	switch o {
	case "created_at", "updated_at":
		return ent.Asc(o, "id"), nil
	case "-created_at", "-updated_at":
		return ent.Desc(o[1:], "id"), nil
	}
	return nil, apperr.InvalidQueryParams("Query parameter order must be created_at or updated_at, - for descending")
}
