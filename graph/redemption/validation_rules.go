package redemption

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/catalog"
	pagepkg "github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/promotion"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// parseRuleInput checks a rule as REST or GraphQL sent it.
func parseRuleInput(in ValidationRuleInput) (rules.Definition, string, error) {
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" {
		return rules.Definition{}, "", apperr.InvalidPayload("Payload must have required property 'name'")
	}
	msg, _ := in.Error["message"].(string)
	def, err := rules.Parse(in.Rules, msg, in.ApplicableTo)
	if err == nil {
		def.Bundle, err = rules.DecodeBundleRules(in.BundleRules)
	}
	if err != nil {
		var re *rules.Error
		if errors.As(err, &re) {
			return def, "", apperr.InvalidPayload("Property .%s: %s", re.Property, re.Reason)
		}
		return def, "", apperr.InvalidPayload("Invalid validation rule: %v", err)
	}
	if err := checkBudgetFormulas(def); err != nil { // unit_budgets.go
		return def, "", err
	}
	return def, *in.Name, nil
}

// checkRuleTargets refuses (404) a rule naming a product, SKU or
// collection the catalogue does not hold.
func checkRuleTargets(ctx context.Context, def rules.Definition) error {
	products, skus, collections := def.Refs()
	return catalog.CheckTargets(ctx, products, skus, collections)
}

// CreateValidationRule stores a checked rule.
func CreateValidationRule(ctx context.Context, in ValidationRuleInput) (*ent.ValidationRule, error) {
	def, name, err := parseRuleInput(in)
	if err != nil {
		return nil, err
	}
	if err := checkRuleTargets(ctx, def); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	create := c.ValidationRule.Create().SetName(name).SetRules(shape.OrEmptyMap(in.Rules)).
		SetNillableType(in.Type).SetNillableContextType(in.ContextType)
	if in.Error != nil {
		create.SetError(in.Error)
	}
	if in.ApplicableTo != nil {
		create.SetApplicableTo(in.ApplicableTo)
	}
	if in.BundleRules != nil {
		create.SetBundleRules(in.BundleRules)
	}
	r, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating validation rule: %w", err)
	}
	return r, nil
}

// UpdateValidationRule changes a rule: a member left out keeps its value,
// one sent as null clears it (ValidationRuleInput.Nulls).
func UpdateValidationRule(ctx context.Context, id string, in ValidationRuleInput) (*ent.ValidationRule, error) {
	if err := in.RefuseNull("name", "type", "context_type"); err != nil {
		return nil, err
	}
	r, err := ValidationRuleByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name == nil {
		in.Name = &r.Name
	}
	if in.Rules == nil && !in.IsNull("rules") {
		in.Rules = r.Rules
	}
	if in.BundleRules == nil && !in.IsNull("bundle_rules") {
		in.BundleRules = r.BundleRules
	}
	def, _, err := parseRuleInput(in)
	if err != nil {
		return nil, err
	}
	if err := checkRuleTargets(ctx, def); err != nil {
		return nil, err
	}
	u := r.Update().SetName(*in.Name).SetRules(shape.OrEmptyMap(in.Rules)).SetNillableType(in.Type).
		SetNillableContextType(in.ContextType)
	if in.Error != nil {
		u.SetError(in.Error)
	}
	if in.ApplicableTo != nil {
		u.SetApplicableTo(in.ApplicableTo)
	}
	if in.IsNull("error") {
		u.ClearError()
	}
	if in.IsNull("applicable_to") {
		u.ClearApplicableTo()
	}
	if in.BundleRules != nil {
		u.SetBundleRules(in.BundleRules)
	}
	if in.IsNull("bundle_rules") {
		// The reference: a PUT with "bundle_rules": null deletes it and the
		// response shows an empty object.
		u.SetBundleRules(map[string]any{})
	}
	if r, err = u.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating validation rule: %w", err)
	}
	return r, nil
}

// DeleteValidationRule removes a rule and its assignments.
func DeleteValidationRule(ctx context.Context, id string) (string, error) {
	r, err := ValidationRuleByID(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.ValidationRuleAssignment.Delete().Where(validationruleassignment.RuleID(r.ID)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting rule assignments: %w", err)
	}
	if err := c.ValidationRule.DeleteOne(r).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting validation rule: %w", err)
	}
	return r.ID, nil
}

// ValidationRuleByID finds a rule of the caller's project.
func ValidationRuleByID(ctx context.Context, id string) (*ent.ValidationRule, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.ValidationRule.Query().Where(validationrule.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("validation_rules", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up validation rule: %w", err)
	}
	return r, nil
}

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

// ruleAssignments lists the assignments to the given objects.
func ruleAssignments(ctx context.Context, objectIDs ...string) ([]*ent.ValidationRuleAssignment, error) {
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

// loadRules reads the rules assigned to the request's vouchers and their
// campaigns in two queries and gives each redeemable its parsed rules.
func (e *evaluation) loadRules(ctx context.Context) error {
	var objects []string
	for _, s := range e.states {
		if s.hasRules {
			objects = append(objects, s.ruleObjects()...)
		}
	}
	if len(objects) == 0 {
		return nil
	}
	as, err := ruleAssignments(ctx, objects...)
	if err != nil || len(as) == 0 {
		return err
	}
	ids := make([]string, 0, len(as))
	for _, a := range as {
		ids = append(ids, a.RuleID)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	rs, err := c.ValidationRule.Query().Where(validationrule.IDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading validation rules: %w", err)
	}
	defs := map[string]rules.Definition{}
	for _, r := range rs {
		msg, _ := r.Error["message"].(string)
		// Stored rules were checked when written; one that no longer parses
		// keeps its (empty, failing) definition and blocks the voucher.
		def, _ := rules.Parse(r.Rules, msg, r.ApplicableTo)
		def.Bundle, _ = rules.DecodeBundleRules(r.BundleRules)
		defs[r.ID] = def
	}
	for _, s := range e.states {
		objects := s.ruleObjects()
		if len(objects) == 0 {
			continue
		}
		for _, a := range as {
			if slices.Contains(objects, a.RelatedObjectID) {
				if def, ok := defs[a.RuleID]; ok {
					s.rules = append(s.rules, def)
					s.ruleIDs = append(s.ruleIDs, a.RuleID)
				}
			}
		}
	}
	return nil
}

// VoucherRuleAssignments lists the assignments that apply to a voucher:
// its own and its campaign's.
func VoucherRuleAssignments(ctx context.Context, v *ent.Voucher) ([]*ent.ValidationRuleAssignment, error) {
	ids := []string{v.ID}
	if v.CampaignID != nil {
		ids = append(ids, *v.CampaignID)
	}
	return ruleAssignments(ctx, ids...)
}

// ValidationRuleList is a page of validation rules and the number of all.
type ValidationRuleList struct {
	Total int                   `json:"total"`
	Data  []*ent.ValidationRule `json:"data"`
}

// ListValidationRules pages the caller's rules, newest first.
func ListValidationRules(ctx context.Context, limit, page *int) (*ValidationRuleList, error) {
	n, offset, err := pagepkg.Offset(limit, page)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.ValidationRule.Query().Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting validation rules: %w", err)
	}
	data, err := c.ValidationRule.Query().Order(ent.Desc(validationrule.FieldCreatedAt), ent.Desc(validationrule.FieldID)).
		Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing validation rules: %w", err)
	}
	return &ValidationRuleList{Total: total, Data: data}, nil
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
