package access

import (
	"context"

	"github.com/promoengine/promoengine/graph/redemption/stacking"
)

// The stacking rules of a managed project (/management/v1).

func ManagementStackingRulesList(ctx context.Context, projectID string) ([]*stacking.StackingRules, error) {
	return inManagedProject(ctx, projectID, stacking.StackingRulesList)
}

func ManagementStackingRules(ctx context.Context, projectID, id string) (*stacking.StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*stacking.StackingRules, error) {
		return stacking.StackingRulesByID(ctx, id)
	})
}

func CreateManagementStackingRules(ctx context.Context, projectID string, in stacking.StackingRulesInput) (*stacking.StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*stacking.StackingRules, error) {
		return stacking.CreateStackingRules(ctx, in)
	})
}

func UpdateManagementStackingRules(ctx context.Context, projectID, id string, in stacking.StackingRulesInput) (*stacking.StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*stacking.StackingRules, error) {
		return stacking.UpdateStackingRules(ctx, id, in)
	})
}

func DeleteManagementStackingRules(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) { return id, stacking.DeleteStackingRules(ctx, id) })
}
