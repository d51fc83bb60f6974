package campaign

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// MaxVoucherRules is how many validation rules a voucher create may name
// (validation_rules); a campaign names at most one, as documented.
const MaxVoucherRules = 10

// AssignRules attaches validation rules of the caller's project (val_… IDs)
// to one voucher or campaign: the assignments its validations check. An
// unknown rule is a 404 and a rule already assigned to the object a 409;
// the caller's transaction keeps the object and its assignments together.
func AssignRules(ctx context.Context, objectType validationruleassignment.RelatedObjectType, objectID string,
	ruleIDs []string) ([]*ent.ValidationRuleAssignment, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*ent.ValidationRuleAssignment, 0, len(ruleIDs))
	for _, id := range ruleIDs {
		ok, err := c.ValidationRule.Query().Where(validationrule.ID(id)).Exist(ctx)
		if err != nil {
			return nil, fmt.Errorf("looking up validation rule: %w", err)
		}
		if !ok {
			return nil, apperr.NotFound("validation_rules", id)
		}
		a, err := c.ValidationRuleAssignment.Create().SetRuleID(id).SetRelatedObjectType(objectType).
			SetRelatedObjectID(objectID).Save(ctx)
		if ent.IsConstraintError(err) {
			return nil, apperr.Duplicate("validation_rules_assignment", fmt.Sprintf("Rule %s is already assigned to %s", id, objectID))
		}
		if err != nil {
			return nil, fmt.Errorf("assigning validation rule: %w", err)
		}
		out = append(out, a)
	}
	return out, nil
}

// checkRuleCount refuses a validation_rules array longer than max.
func checkRuleCount(ids []string, max int) error {
	if len(ids) > max {
		return apperr.InvalidPayload("Property .validation_rules must name at most %d validation rule(s), got %d", max, len(ids))
	}
	return nil
}
