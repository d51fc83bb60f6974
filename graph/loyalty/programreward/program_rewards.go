package programreward

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/programreward"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/benefit"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A program's rewards (…/programs/{id}/rewards[/batch], PUT
// …/rewards/{rewardId}): a reward's price in points on one card definition
// and its stock, per program. Batches are all or nothing (MaxBatch per
// side, program_assignments.go).

// BatchProgramRewards assigns (with costs and stock) and unassigns rewards.
func BatchProgramRewards(ctx context.Context, programID string, in loyaltybase.ProgramRewardsBatchInput) (*loyaltybase.ProgramRewardsBatchResult, error) {
	if err := loyalty.CheckBatchSize(len(in.Assign), len(in.Unassign)); err != nil {
		return nil, err
	}
	if _, err := loyaltybase.Program(ctx, programID); err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "program:"+programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := &loyaltybase.ProgramRewardsBatchResult{}
	for i, ref := range in.Unassign {
		if ref == nil || ref.ID == "" {
			return nil, apperr.InvalidPayload("Property .unassign[%d].id is required", i)
		}
		a, err := c.ProgramReward.Query().Where(programreward.ProgramID(programID), programreward.RewardID(ref.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, loyalty.Conflict(fmt.Sprintf("The reward %s is not assigned to program %s", ref.ID, programID))
		}
		if err != nil {
			return nil, fmt.Errorf("reading reward assignment: %w", err)
		}
		if err := c.ProgramReward.DeleteOne(a).Exec(ctx); err != nil {
			return nil, fmt.Errorf("unassigning reward: %w", err)
		}
		out.Unassigned = append(out.Unassigned, a)
		if r, err := loyaltybase.RewardByID(ctx, a.RewardID); err == nil { // a deleted reward has nothing to record it on
			if err := benefit.RecordRewardActivity(ctx, r, "vl.reward.unassigned"); err != nil {
				return nil, err
			}
		}
	}
	for i, item := range in.Assign {
		if item == nil || item.ID == nil || *item.ID == "" {
			return nil, apperr.InvalidPayload("Property .assign[%d].id is required", i)
		}
		cost, err := checkRewardCost(ctx, programID, loyaltybase.Pathf("assign[%d]", i), item, true)
		if err != nil {
			return nil, err
		}
		rw, err := loyaltybase.RewardByID(ctx, *item.ID)
		if err != nil {
			return nil, err
		}
		a, err := c.ProgramReward.Create().SetProgramID(programID).SetRewardID(*item.ID).SetPoints(cost.points).
			SetCardDefinitionID(cost.cardDefinitionID).SetStock(*item.Stock).SetCosts(cost.raw).Save(ctx)
		if ent.IsConstraintError(err) {
			return nil, loyalty.Conflict(fmt.Sprintf("The reward %s is already assigned to program %s", *item.ID, programID))
		}
		if err != nil {
			return nil, fmt.Errorf("assigning reward: %w", err)
		}
		out.Assigned = append(out.Assigned, a)
		if err := benefit.RecordRewardActivity(ctx, rw, "vl.reward.assigned"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// UpdateProgramReward replaces a reward assignment's costs and stock.
func UpdateProgramReward(ctx context.Context, programID, rewardID string, in loyaltybase.ProgramRewardInput) (*ent.ProgramReward, error) {
	if err := in.RefuseNull("costs", "stock"); err != nil {
		return nil, err
	}
	a, err := programReward(ctx, programID, rewardID)
	if err != nil {
		return nil, err
	}
	upd := a.Update()
	if in.Costs != nil {
		cost, err := checkRewardCost(ctx, programID, "", &in, false)
		if err != nil {
			return nil, err
		}
		upd.SetPoints(cost.points).SetCardDefinitionID(cost.cardDefinitionID).SetCosts(cost.raw)
	}
	if in.Stock != nil {
		if *in.Stock < 0 || *in.Stock > 2147483647 {
			return nil, apperr.InvalidPayload("Property .stock must be between 0 and 2147483647, got %d", *in.Stock)
		}
		upd.SetStock(*in.Stock)
	}
	return upd.Save(ctx)
}

// programReward returns the assignment of a reward to a program (404).
func programReward(ctx context.Context, programID, rewardID string) (*ent.ProgramReward, error) {
	if _, err := loyaltybase.Program(ctx, programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	a, err := c.ProgramReward.Query().Where(programreward.ProgramID(programID), programreward.RewardID(rewardID)).Only(ctx)
	if err := loyaltybase.NotFound(err, "program_reward", rewardID); err != nil {
		return nil, err
	}
	return a, nil
}

// rewardCost is a checked cost: the points on one card definition.
type rewardCost struct {
	points           int64
	cardDefinitionID string
	raw              []map[string]any
}

// checkRewardCost applies the documents' rules: costs has 1–10 items, each
// with exactly one spending {points 1–2^31-1, card_definition_id of one of
// the program's card definitions}; the first cost is the price.
func checkRewardCost(ctx context.Context, programID, path string, in *loyaltybase.ProgramRewardInput, create bool) (rewardCost, error) {
	if path != "" {
		path += "."
	}
	if len(in.Costs) < 1 || len(in.Costs) > 10 {
		return rewardCost{}, apperr.InvalidPayload("Property .%scosts must have 1 to 10 items", path)
	}
	if create && in.Stock == nil {
		return rewardCost{}, apperr.InvalidPayload("Property .%sstock is required", path)
	}
	if in.Stock != nil && (*in.Stock < 0 || *in.Stock > 2147483647) {
		return rewardCost{}, apperr.InvalidPayload("Property .%sstock must be between 0 and 2147483647, got %d", path, *in.Stock)
	}
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return rewardCost{}, err
	}
	var out rewardCost
	for i, cost := range in.Costs {
		if cost == nil || len(cost.Spending) != 1 || cost.Spending[0] == nil {
			return rewardCost{}, apperr.InvalidPayload("Property .%scosts[%d].spending must have exactly 1 item", path, i)
		}
		sp := cost.Spending[0]
		if sp.Points == nil || *sp.Points < 1 || *sp.Points > 2147483647 {
			return rewardCost{}, apperr.InvalidPayload("Property .%scosts[%d].spending[0].points must be an integer from 1 to 2147483647", path, i)
		}
		if sp.CardDefinitionID == nil || *sp.CardDefinitionID == "" {
			return rewardCost{}, apperr.InvalidPayload("Property .%scosts[%d].spending[0].card_definition_id is required", path, i)
		}
		if _, err := loyaltybase.CardDefinition(ctx, *sp.CardDefinitionID); err != nil {
			return rewardCost{}, err
		}
		if len(p.CardDefinitionIds) > 0 && !slices.Contains(p.CardDefinitionIds, *sp.CardDefinitionID) {
			return rewardCost{}, apperr.InvalidPayload("Property .%scosts[%d].spending[0].card_definition_id must be one of the program's card definitions", path, i)
		}
		raw := map[string]any{"spending": []map[string]any{{"points": *sp.Points, "card_definition_id": *sp.CardDefinitionID}}}
		if cost.Rules != nil {
			raw["rules"] = cost.Rules
		}
		out.raw = append(out.raw, raw)
		if i == 0 {
			out.points, out.cardDefinitionID = *sp.Points, *sp.CardDefinitionID
		}
	}
	return out, nil
}

// ProgramRewards pages through a program's reward assignments.
func ProgramRewards(ctx context.Context, programID string, p loyaltybase.PageInput) (*loyaltybase.ProgramRewardPage, error) {
	if _, err := loyaltybase.Program(ctx, programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rows, more, err := loyaltybase.KeysetPage(p, func(after string) (time.Time, error) {
		a, err := c.ProgramReward.Query().Where(programreward.ID(after), programreward.ProgramID(programID)).Only(ctx)
		if err != nil {
			return time.Time{}, err
		}
		return a.CreatedAt, nil
	}, func(keys []predicate.ProgramReward, order []programreward.OrderOption, n int) ([]*ent.ProgramReward, error) {
		return c.ProgramReward.Query().Where(programreward.ProgramID(programID)).Where(keys...).Order(order...).Limit(n).All(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &loyaltybase.ProgramRewardPage{Data: rows, HasMore: more}, nil
}
