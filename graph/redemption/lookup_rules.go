package redemption

// The rules and session locks of a guarded redemption, as its voucher
// look-up read them along (lookup.go: heldSQL, rulesSQL), so that the
// checks cost no round trip of their own.

import (
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// rulesRead reports whether the look-up read every voucher's rules along
// (the guarded redemption; lookedUpVoucher.rules).
func (e *evaluation) rulesRead() bool {
	for _, s := range e.states {
		if s.voucher == nil || s.read == nil {
			return false
		}
	}
	return len(e.states) > 0
}

// rulesFromLookup is loadRules from the rules the look-up read: each
// voucher's and its campaign's assignments in assignment order, with
// their rules, parsed as loadRules parses them.
func (e *evaluation) rulesFromLookup() error {
	for _, s := range e.states {
		if !s.hasRules || s.read.rules == nil {
			continue
		}
		var rows [][3]json.RawMessage
		if err := json.Unmarshal(s.read.rules, &rows); err != nil {
			return fmt.Errorf("decoding validation rules: %w", err)
		}
		for _, row := range rows {
			var ruleID string
			var rule [4]map[string]any // rules, error, applicable_to, bundle_rules
			if err := json.Unmarshal(row[0], &ruleID); err != nil {
				return fmt.Errorf("decoding validation rule: %w", err)
			}
			if string(row[2]) == "null" {
				continue // the rule is gone (loadRules finds no definition either)
			}
			var cols [4]json.RawMessage
			if err := json.Unmarshal(row[2], &cols); err != nil {
				return fmt.Errorf("decoding validation rule: %w", err)
			}
			for i := range cols {
				if err := json.Unmarshal(cols[i], &rule[i]); err != nil {
					return fmt.Errorf("decoding validation rule: %w", err)
				}
			}
			msg, _ := rule[1]["message"].(string)
			def, _ := rules.Parse(rule[0], msg, rule[2])
			def.Bundle, _ = rules.DecodeBundleRules(rule[3])
			s.rules = append(s.rules, def)
			s.ruleIDs = append(s.ruleIDs, ruleID)
		}
	}
	return nil
}

// heldSQL is what the unexpired session locks hold on the voucher, as
// "units credits points" (the one-statement redemption has no session of
// its own, so every lock is another session's); NULL for a voucher with
// nothing to run out of (heldByOthers reads nothing for it either). Its
// argument is now.
var heldSQL = fmt.Sprintf("CASE WHEN v.%s IS NULL AND v.%s = 'DISCOUNT_VOUCHER' THEN NULL ELSE "+
	"(SELECT count(*) || ' ' || COALESCE(sum(s.%s), 0) || ' ' || COALESCE(sum(s.%s), 0) "+
	"FROM %s s WHERE s.%s = v.%s AND s.%s = v.%s AND s.%s > ?) END",
	voucher.FieldRedemptionQuantity, voucher.FieldType,
	sessionlock.FieldCredits, sessionlock.FieldPoints, sessionlock.Table, sessionlock.FieldVoucherID, voucher.FieldID,
	sessionlock.FieldProjectID, voucher.FieldProjectID, sessionlock.FieldExpiresAt)

// rulesSQL is the voucher's and its campaign's rule assignments in the
// order loadRules reads them, each with its rule, as a JSON array of
// [rule_id, related_object_id, [rules, error, applicable_to, bundle_rules]]
// (the last NULL when the rule is gone); NULL when there are none, so it
// also stands for the look-up's hasRules. It is driven by the
// assignments' index, as hasRules's EXISTS is, and reads a rule by its
// key only for an assignment found.
var rulesSQL = fmt.Sprintf("(SELECT json_agg(json_build_array(a.%s, a.%s, "+
	"(SELECT json_build_array(r.%s, r.%s, r.%s, r.%s) FROM %s r WHERE r.%s = a.%s AND r.%s = a.%s)) ORDER BY a.%s, a.%s)::text "+
	"FROM %s a WHERE a.%s = v.%s AND a.%s IN (v.%s, v.%s))",
	validationruleassignment.FieldRuleID, validationruleassignment.FieldRelatedObjectID,
	validationrule.FieldRules, validationrule.FieldError, validationrule.FieldApplicableTo, validationrule.FieldBundleRules,
	validationrule.Table, validationrule.FieldID, validationruleassignment.FieldRuleID,
	validationrule.FieldProjectID, validationruleassignment.FieldProjectID,
	validationruleassignment.FieldCreatedAt, validationruleassignment.FieldID,
	validationruleassignment.Table, validationruleassignment.FieldProjectID, voucher.FieldProjectID,
	validationruleassignment.FieldRelatedObjectID, voucher.FieldID, voucher.FieldCampaignID)
