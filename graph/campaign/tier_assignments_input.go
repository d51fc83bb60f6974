package campaign

import (
	"bytes"
	"encoding/json"

	"github.com/promoengine/promoengine/graph/apperr"
)

// TierAssignmentRef is one entry of validation_rule_assignments in a tier
// update: an assignment the tier keeps (its asgm_… id) or a rule it gets
// (rule_id); both may be sent when they agree.
type TierAssignmentRef struct {
	ID     *string `json:"id"`
	RuleID *string `json:"rule_id"`
}

// TierAssignments reads validation_rule_assignments of a tier update (the
// tier object's own list form, {data: [{id?, rule_id?}, …]}, or a bare
// array of such entries): sent says the key was in the body; a null
// value is sent with no entries (every assignment removed).
func (in *PromotionTierInput) TierAssignments() (refs []TierAssignmentRef, sent bool, err error) {
	raw := bytes.TrimSpace(in.ValidationRuleAssignments)
	if len(raw) == 0 {
		return nil, false, nil
	}
	if in.ValidationRules != nil || in.IsNull("validation_rules") {
		return nil, true, apperr.InvalidPayload("Send either .validation_rules or .validation_rule_assignments, not both")
	}
	if bytes.Equal(raw, []byte("null")) {
		return nil, true, nil
	}
	bad := apperr.InvalidPayload("Property .validation_rule_assignments must be null or a list {data: [{id?, rule_id?}]}")
	if raw[0] == '[' {
		if json.Unmarshal(raw, &refs) != nil {
			return nil, true, bad
		}
	} else {
		var list struct {
			Data *[]TierAssignmentRef `json:"data"`
		}
		if json.Unmarshal(raw, &list) != nil || list.Data == nil {
			return nil, true, bad
		}
		refs = *list.Data
	}
	if len(refs) > MaxTierRules {
		return nil, true, apperr.InvalidPayload("Property .validation_rule_assignments must list at most %d assignments", MaxTierRules)
	}
	for i, r := range refs {
		if (r.ID == nil || *r.ID == "") && (r.RuleID == nil || *r.RuleID == "") {
			return nil, true, apperr.InvalidPayload("Property .validation_rule_assignments.data[%d] must have an id or a rule_id", i)
		}
	}
	return refs, true, nil
}
