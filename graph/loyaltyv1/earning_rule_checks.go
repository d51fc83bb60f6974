package loyaltyv1

// Checks of an earning rule to create or update: its event and the
// object the event names.

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// checkRule checks a rule to create (current nil) or an update of current.
func checkRule(ctx context.Context, r *EarningRuleInput, current *ent.CampaignEarningRule) error {
	event := ""
	if current != nil {
		event = current.Event
	} else {
		if r.Event == nil || strings.TrimSpace(*r.Event) == "" {
			return apperr.InvalidPayload("Property .event is required")
		}
		event = *r.Event
		if err := checkEventTarget(ctx, event, r); err != nil {
			return err
		}
	}
	kind := eventKind(event)
	if r.Loyalty != nil || current == nil {
		f, err := parseFormula(r.Loyalty, kind)
		if err != nil {
			return err
		}
		if kind == "tier" && f.Type == "PROPORTIONAL" && f.CalculationType != "CUSTOMER_METADATA" {
			return apperr.InvalidPayload("Property .loyalty of a tier event rule must be FIXED or PROPORTIONAL CUSTOMER_METADATA")
		}
	}
	if r.PendingPoints != nil && kind != "order.paid" {
		return apperr.InvalidPayload("Property .pending_points is allowed only for order.paid rules")
	}
	if err := checkPointsPolicies(r.PendingPoints, r.ExpirationRules); err != nil {
		return err
	}
	if r.StartDate != nil && r.ExpirationDate != nil && !r.ExpirationDate.After(*r.StartDate) {
		return apperr.InvalidPayload("Property .expiration_date must be after .start_date")
	}
	for _, d := range r.ValidityDayOfWeek {
		if d < 0 || d > 6 {
			return apperr.InvalidPayload("Property .validity_day_of_week must hold days 0-6, got %d", d)
		}
	}
	if r.ValidationRuleID != nil {
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		ok, err := c.ValidationRule.Query().Where(validationrule.ID(*r.ValidationRuleID)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("looking up validation rule: %w", err)
		}
		if !ok {
			return apperr.NotFound("validation_rule", *r.ValidationRuleID)
		}
	}
	return nil
}

// checkEventTarget checks the companion field of the event: the segment,
// the custom event schema or the tier it names.
func checkEventTarget(ctx context.Context, event string, r *EarningRuleInput) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	switch eventKind(event) {
	case "segment":
		id, _ := r.Segment["id"].(string)
		if id == "" {
			return apperr.InvalidPayload("Property .segment.id is required for customer.segment.entered rules")
		}
		if ok, err := c.Segment.Query().Where(segment.ID(id)).Exist(ctx); err != nil {
			return fmt.Errorf("looking up segment: %w", err)
		} else if !ok {
			return apperr.NotFound("segment", id)
		}
	case "tier":
		id, _ := r.LoyaltyTier["id"].(string)
		if id == "" {
			return apperr.InvalidPayload("Property .loyalty_tier.id is required for tier event rules (an ltr_ id or __ANY__)")
		}
	case "custom":
		id, _ := r.CustomEvent["schema_id"].(string)
		if id == "" {
			return apperr.InvalidPayload("Property .custom_event.schema_id is required for custom event rules")
		}
		ok, err := c.MetadataSchema.Query().Where(metadataschema.ID(id), metadataschema.RelatedObject("event"),
			metadataschema.Name(event)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("looking up event schema: %w", err)
		}
		if !ok {
			return apperr.NotFound("metadata_schema", id)
		}
	}
	return nil
}
