package validationrules

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/graph/formula"
	pagepkg "github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
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
	if err := checkBudgetFormulas(def); err != nil {
		return def, "", err
	}
	return def, *in.Name, nil
}

// checkBudgetFormulas refuses (400) a rule whose budget formula does not
// parse, naming the property.
func checkBudgetFormulas(def rules.Definition) error {
	for prop, src := range def.Formulas() {
		if _, err := formula.Parse(src); err != nil {
			return apperr.InvalidPayload("Property .%s: %v", prop, err)
		}
	}
	return nil
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
	total, err := c.ValidationRule.Query().CountAtMost(ctx, ent.TotalCountCap)
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
