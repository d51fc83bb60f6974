package access

import (
	"context"

	"github.com/promoengine/promoengine/graph/redemption"
)

// The stacking rules of a managed project (/management/v1).

func ManagementStackingRulesList(ctx context.Context, projectID string) ([]*redemption.StackingRules, error) {
	return inManagedProject(ctx, projectID, redemption.StackingRulesList)
}

func ManagementStackingRules(ctx context.Context, projectID, id string) (*redemption.StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*redemption.StackingRules, error) {
		return redemption.StackingRulesByID(ctx, id)
	})
}

func CreateManagementStackingRules(ctx context.Context, projectID string, in redemption.StackingRulesInput) (*redemption.StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*redemption.StackingRules, error) {
		return redemption.CreateStackingRules(ctx, in)
	})
}

func UpdateManagementStackingRules(ctx context.Context, projectID, id string, in redemption.StackingRulesInput) (*redemption.StackingRules, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*redemption.StackingRules, error) {
		return redemption.UpdateStackingRules(ctx, id, in)
	})
}

func DeleteManagementStackingRules(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) { return id, redemption.DeleteStackingRules(ctx, id) })
}
