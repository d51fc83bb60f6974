package validationrules

// Assigning validation rules to vouchers, campaigns and other objects,
// and reading the assignments that apply.

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/promotion"
)

// AssignValidationRule attaches a rule to one voucher or one campaign.
func AssignValidationRule(ctx context.Context, ruleID string, in RuleAssignmentInput) (*ent.ValidationRuleAssignment, error) {
	r, err := ValidationRuleByID(ctx, ruleID)
	if err != nil {
		return nil, err
	}
	if err := in.normalize(); err != nil {
		return nil, err
	}
	typ, objID := validationruleassignment.RelatedObjectTypeVoucher, ""
	if in.PromotionTier != nil {
		t, err := promotion.Tier(ctx, *in.PromotionTier)
		if err != nil {
			return nil, err
		}
		typ, objID = validationruleassignment.RelatedObjectTypePromotionTier, t.ID
	} else if in.Voucher != nil {
		v, err := campaign.VoucherByCodeOrID(ctx, *in.Voucher)
		if err != nil {
			return nil, err
		}
		objID = v.ID
	} else {
		cmp, err := campaign.ByIDOrName(ctx, *in.Campaign)
		if err != nil {
			return nil, err
		}
		typ, objID = validationruleassignment.RelatedObjectTypeCampaign, cmp.ID
	}
	as, err := campaign.AssignRules(ctx, typ, objID, []string{r.ID})
	if err != nil {
		return nil, err
	}
	return as[0], nil
}

// UnassignValidationRule removes one assignment of a rule.
func UnassignValidationRule(ctx context.Context, ruleID, assignmentID string) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	n, err := c.ValidationRuleAssignment.Delete().Where(validationruleassignment.ID(assignmentID),
		validationruleassignment.RuleID(ruleID)).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("deleting rule assignment: %w", err)
	}
	if n == 0 {
		return "", apperr.NotFound("validation_rules_assignment", assignmentID)
	}
	return assignmentID, nil
}

// RuleAssignments lists the assignments to the given objects.
func RuleAssignments(ctx context.Context, objectIDs ...string) ([]*ent.ValidationRuleAssignment, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	as, err := c.ValidationRuleAssignment.Query().Where(validationruleassignment.RelatedObjectIDIn(objectIDs...)).
		Order(ent.Asc(validationruleassignment.FieldCreatedAt), ent.Asc(validationruleassignment.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading rule assignments: %w", err)
	}
	return as, nil
}

// VoucherRuleAssignments lists the assignments that apply to a voucher:
// its own and its campaign's.
func VoucherRuleAssignments(ctx context.Context, v *ent.Voucher) ([]*ent.ValidationRuleAssignment, error) {
	ids := []string{v.ID}
	if v.CampaignID != nil {
		ids = append(ids, *v.CampaignID)
	}
	return RuleAssignments(ctx, ids...)
}

// normalize turns the reference's {related_object_type, related_object_id}
// into the named field and demands exactly one object.
func (in *RuleAssignmentInput) normalize() error {
	if in.RelatedObjectType != nil || in.RelatedObjectID != nil {
		if in.RelatedObjectType == nil || in.RelatedObjectID == nil {
			return apperr.InvalidPayload("Properties 'related_object_type' and 'related_object_id' go together")
		}
		id := *in.RelatedObjectID
		switch *in.RelatedObjectType {
		case "voucher":
			in.Voucher = &id
		case "campaign":
			in.Campaign = &id
		case "promotion_tier":
			in.PromotionTier = &id
		default:
			return apperr.InvalidPayload("Property .related_object_type must be one of voucher, campaign, promotion_tier")
		}
	}
	n := 0
	for _, p := range []*string{in.Voucher, in.Campaign, in.PromotionTier} {
		if p != nil {
			n++
		}
	}
	if n != 1 {
		return apperr.InvalidPayload("Payload must have exactly one of the properties 'voucher', 'campaign' or 'promotion_tier' (or related_object_type and related_object_id)")
	}
	return nil
}
