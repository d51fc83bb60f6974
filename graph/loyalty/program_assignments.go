package loyalty

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A program's card definitions, earning rules and tier structures
// (GET …/programs/{id}/<kind>, POST …/programs/{id}/<kind>/batch). A batch
// assigns and unassigns ids all or nothing, in the request's transaction:
// each side holds at most MaxBatch items, every id must name a resource of
// the project (404), an assigned id must not be assigned already and an
// unassigned one must be assigned (409); the first refusal writes nothing.

// MaxBatch bounds each side (assign, unassign) of a program batch (the
// documents' maxItems for rewards, applied to every batch).
const MaxBatch = 10

// idList is one of a program's id lists.
type idList struct {
	kind string
	get  func(*ent.LoyaltyProgram) []string
	set  func(*ent.LoyaltyProgramUpdateOne, []string) *ent.LoyaltyProgramUpdateOne
	// load returns the resource (404 when the project has none); its
	// activities record the assignment.
	load     func(ctx context.Context, id string) (any, error)
	activity loyaltybase.ActivityKind
}

var (
	programCardDefinitions = idList{"card_definition",
		func(p *ent.LoyaltyProgram) []string { return p.CardDefinitionIds },
		(*ent.LoyaltyProgramUpdateOne).SetCardDefinitionIds,
		func(ctx context.Context, id string) (any, error) { return loyaltybase.CardDefinition(ctx, id) }, loyaltybase.CardDefinitionActivities}
	programEarningRules = idList{"earning_rule",
		func(p *ent.LoyaltyProgram) []string { return p.EarningRuleIds },
		(*ent.LoyaltyProgramUpdateOne).SetEarningRuleIds,
		func(ctx context.Context, id string) (any, error) { return loyaltybase.EarningRule(ctx, id) }, loyaltybase.EarningRuleActivities}
	programTierStructures = idList{"tier_structure",
		func(p *ent.LoyaltyProgram) []string { return p.TierStructureIds },
		(*ent.LoyaltyProgramUpdateOne).SetTierStructureIds,
		func(ctx context.Context, id string) (any, error) { return loyaltybase.TierStructure(ctx, id) }, loyaltybase.TierStructureActivities}
)

// BatchProgramCardDefinitions assigns and unassigns a program's card definitions.
func BatchProgramCardDefinitions(ctx context.Context, programID string, in loyaltybase.AssignmentBatchInput) (*loyaltybase.AssignmentBatchResult, error) {
	return batchProgramIDs(ctx, programID, programCardDefinitions, in)
}

// BatchProgramEarningRules assigns and unassigns a program's earning rules.
func BatchProgramEarningRules(ctx context.Context, programID string, in loyaltybase.AssignmentBatchInput) (*loyaltybase.AssignmentBatchResult, error) {
	return batchProgramIDs(ctx, programID, programEarningRules, in)
}

// BatchProgramTierStructures assigns and unassigns a program's tier structures.
func BatchProgramTierStructures(ctx context.Context, programID string, in loyaltybase.AssignmentBatchInput) (*loyaltybase.AssignmentBatchResult, error) {
	return batchProgramIDs(ctx, programID, programTierStructures, in)
}

func batchProgramIDs(ctx context.Context, programID string, l idList, in loyaltybase.AssignmentBatchInput) (*loyaltybase.AssignmentBatchResult, error) {
	if err := CheckBatchSize(len(in.Assign), len(in.Unassign)); err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "program:"+programID); err != nil {
		return nil, err
	}
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, err
	}
	ids := slices.Clone(l.get(p))
	out := &loyaltybase.AssignmentBatchResult{}
	for i, ref := range in.Unassign {
		if ref == nil || ref.ID == "" {
			return nil, apperr.InvalidPayload("Property .unassign[%d].id is required", i)
		}
		at := slices.Index(ids, ref.ID)
		if at < 0 {
			return nil, Conflict(fmt.Sprintf("The %s %s is not assigned to program %s", l.kind, ref.ID, programID))
		}
		ids = slices.Delete(ids, at, at+1)
		out.Unassigned = append(out.Unassigned, ref.ID)
	}
	for i, ref := range in.Assign {
		if ref == nil || ref.ID == "" {
			return nil, apperr.InvalidPayload("Property .assign[%d].id is required", i)
		}
		if _, err := l.load(ctx, ref.ID); err != nil {
			return nil, err
		}
		if slices.Contains(ids, ref.ID) {
			return nil, Conflict(fmt.Sprintf("The %s %s is already assigned to program %s", l.kind, ref.ID, programID))
		}
		ids = append(ids, ref.ID)
		out.Assigned = append(out.Assigned, ref.ID)
	}
	if l.kind == "card_definition" && len(ids) > 10 {
		return nil, apperr.InvalidPayload("A program has at most 10 card definitions, the batch would leave %d", len(ids))
	}
	if err := l.set(p.Update(), ids).Exec(ctx); err != nil {
		return nil, fmt.Errorf("updating program %ss: %w", l.kind, err)
	}
	if p, err = loyaltybase.Program(ctx, programID); err != nil {
		return nil, err
	}
	for _, side := range []struct {
		verb string
		ids  []string
	}{{"unassigned", out.Unassigned}, {"assigned", out.Assigned}} {
		for _, id := range side.ids {
			if err := recordAssignment(ctx, l, id, side.verb); err != nil {
				return nil, err
			}
		}
	}
	return out, loyaltybase.RecordActivity(ctx, loyaltybase.ProgramActivities, programID, "updated", p)
}

// recordAssignment records vl.<kind>.assigned|unassigned on the resource
// (one that is gone, e.g. a deleted earning rule being unassigned, has
// nothing to record it on).
func recordAssignment(ctx context.Context, l idList, id, verb string) error {
	v, err := l.load(ctx, id)
	if e, ok := apperr.As(err); ok && e.Code == http.StatusNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	return loyaltybase.RecordActivity(ctx, l.activity, id, verb, v)
}

// CheckBatchSize refuses an empty batch or a side over MaxBatch.
func CheckBatchSize(assign, unassign int) error {
	if assign == 0 && unassign == 0 {
		return apperr.InvalidPayload("Payload must have at least one item in assign or unassign")
	}
	if assign > MaxBatch || unassign > MaxBatch {
		return apperr.InvalidPayload("Properties .assign and .unassign must have at most %d items each, got %d and %d",
			MaxBatch, assign, unassign)
	}
	return nil
}

// Conflict is a 409 of a batch item whose state does not allow the move.
func Conflict(details string) error {
	return apperr.New(409, "invalid_state", "Invalid state", details)
}

// ProgramCardDefinitions returns a program's card definitions in
// assignment order (at most 10).
func ProgramCardDefinitions(ctx context.Context, programID string) ([]*ent.CardDefinition, error) {
	p, c, err := programAndClient(ctx, programID)
	if err != nil {
		return nil, err
	}
	rows, err := c.CardDefinition.Query().Where(carddefinition.IDIn(p.CardDefinitionIds...)).All(ctx)
	return InOrder(rows, p.CardDefinitionIds, func(d *ent.CardDefinition) string { return d.ID }), err
}

// ProgramEarningRules returns a program's live earning rules in assignment
// order.
func ProgramEarningRules(ctx context.Context, programID string) ([]*ent.EarningRule, error) {
	p, c, err := programAndClient(ctx, programID)
	if err != nil {
		return nil, err
	}
	rows, err := c.EarningRule.Query().Where(liveEarningRulesOf(p)).All(ctx)
	return InOrder(rows, p.EarningRuleIds, func(r *ent.EarningRule) string { return r.ID }), err
}

// liveEarningRulesOf selects the program's earning rules that are not
// deleted.
func liveEarningRulesOf(p *ent.LoyaltyProgram) predicate.EarningRule {
	return earningrule.And(earningrule.IDIn(p.EarningRuleIds...), earningrule.StatusNEQ(earningrule.StatusDELETED))
}

// InOrder orders rows as ids lists them.
func InOrder[T any](rows []T, ids []string, id func(T) string) []T {
	slices.SortStableFunc(rows, func(a, b T) int { return slices.Index(ids, id(a)) - slices.Index(ids, id(b)) })
	return rows
}
