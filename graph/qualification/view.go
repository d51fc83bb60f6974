package qualification

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
)

// The entries of a qualification's page (reference §5.3 "Q").

// entries renders the page's picks; the rule assignments (expand
// validation_rules) are read for the page only, in one query.
func (r *request) entries(ctx context.Context, picks []picked) ([]map[string]any, error) {
	var assignments []*ent.ValidationRuleAssignment
	if r.expand[ExpandValidationRules] {
		var err error
		if assignments, err = pageAssignments(ctx, picks); err != nil {
			return nil, err
		}
	}
	out := make([]map[string]any, 0, len(picks))
	for _, p := range picks {
		if p.entry != nil {
			out = append(out, p.entry)
			continue
		}
		e := r.entry(p.cand, p.q)
		if r.expand[ExpandValidationRules] {
			e["validation_rules_assignments"] = assignmentList(p, assignments)
		}
		out = append(out, e)
	}
	return out, nil
}

// entry is one tier's, voucher's or campaign's entry, computed alone.
func (r *request) entry(c candidate, q *redemption.Qualified) map[string]any {
	e := map[string]any{"id": c.id, "object": c.object, "created_at": clock.Format(c.createdAt), "result": q.Result,
		"order": q.Order, "applicable_to": q.ApplicableTo, "inapplicable_to": q.InapplicableTo,
		"metadata": orEmpty(q.Metadata), "categories": q.Categories}
	if cmp := c.campaign; cmp != nil {
		// The campaign's own metadata and name (its categories were set by
		// qualifyEach); campaign_id and campaign_name are only for the
		// other objects (reference).
		e["metadata"] = orEmpty(cmp.Metadata)
		if r.expand[ExpandRedeemable] {
			e["name"] = cmp.Name
		}
		return e
	}
	if !r.expand[ExpandRedeemable] {
		return e
	}
	if id := c.values()["campaign_id"]; id != "" {
		e["campaign_id"] = id
	}
	if q.CampaignName != nil {
		e["campaign_name"] = *q.CampaignName
	}
	if t := q.Tier; t != nil {
		e["name"] = t.Name
		if t.Banner != nil {
			e["banner"] = *t.Banner
		}
	}
	return e
}

// pageAssignments reads the rule assignments of the page's redeemables
// and of their campaigns.
func pageAssignments(ctx context.Context, picks []picked) ([]*ent.ValidationRuleAssignment, error) {
	var ids []string
	for _, p := range picks {
		if p.q != nil {
			ids = append(ids, relatedIDs(p)...)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	as, err := c.ValidationRuleAssignment.Query().Where(validationruleassignment.RelatedObjectIDIn(ids...)).
		Order(ent.Asc(validationruleassignment.FieldCreatedAt), ent.Asc(validationruleassignment.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading rule assignments: %w", err)
	}
	return as, nil
}

// relatedIDs are the ids rules may be assigned to for a redeemable; a
// campaign entry shows its campaign's (not its representative code's).
func relatedIDs(p picked) []string {
	q := p.q
	switch {
	case p.cand.object == ObjectCampaign:
		return []string{p.cand.id}
	case q.Tier != nil:
		return []string{q.Tier.ID, q.Tier.CampaignID}
	case q.Voucher != nil && q.Voucher.CampaignID != nil:
		return []string{q.Voucher.ID, *q.Voucher.CampaignID}
	case q.Voucher != nil:
		return []string{q.Voucher.ID}
	}
	return nil
}

// assignmentList is an entry's validation_rules_assignments: each with
// validation_status VALID, or PARTIALLY_VALID with the rules the
// qualification left out (validation_omitted_rules).
func assignmentList(p picked, all []*ent.ValidationRuleAssignment) map[string]any {
	q, ids := p.q, relatedIDs(p)
	data := []any{}
	for _, a := range all {
		if !slices.Contains(ids, a.RelatedObjectID) {
			continue
		}
		item := map[string]any{"id": a.ID, "rule_id": a.RuleID, "related_object_id": a.RelatedObjectID,
			"related_object_type": string(a.RelatedObjectType), "created_at": clock.Format(a.CreatedAt),
			"object": "validation_rules_assignment", "validation_status": "VALID"}
		if i := slices.Index(q.RuleIDs, a.RuleID); i >= 0 && len(q.Omitted[i]) > 0 {
			item["validation_status"], item["validation_omitted_rules"] = "PARTIALLY_VALID", q.Omitted[i]
		}
		data = append(data, item)
	}
	return map[string]any{"object": "list", "data_ref": "data", "data": data, "total": len(data)}
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
