package validationrules

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// RuleAssignmentListInput are the parameters of the assignment lists
// (REST GET /v1/validation-rules-assignments and
// /v1/validation-rules/{id}/assignments).
type RuleAssignmentListInput struct {
	// Rule keeps the assignments of this rule (val_…) only.
	Rule *string `json:"rule"`
	// RelatedObjectID keeps the assignments to this voucher or campaign ID.
	RelatedObjectID *string `json:"related_object_id"`
	// Limit is the page size, 1-100 (default 10); Page counts from 1.
	Limit *int `json:"limit"`
	Page  *int `json:"page"`
	// Order is created_at or -created_at (the default, newest first).
	Order *string `json:"order"`
}

// RuleAssignmentList is a page of validation rule assignments and how many
// match.
type RuleAssignmentList struct {
	Total int                             `json:"total"`
	Data  []*ent.ValidationRuleAssignment `json:"data"`
}

// ListRuleAssignments pages the caller's validation rule assignments. A rule
// that does not exist has none (an empty page, as the real service answers,
// not a 404). A nil in lists the first page of every assignment.
func ListRuleAssignments(ctx context.Context, in *RuleAssignmentListInput) (*RuleAssignmentList, error) {
	if in == nil {
		in = &RuleAssignmentListInput{}
	}
	n, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	newestFirst := true
	if in.Order != nil {
		switch *in.Order {
		case "created_at":
			newestFirst = false
		case "-created_at":
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be created_at or -created_at, got %q", *in.Order)
		}
	}
	var where []predicate.ValidationRuleAssignment
	if in.Rule != nil {
		where = append(where, validationruleassignment.RuleID(*in.Rule))
	}
	if in.RelatedObjectID != nil {
		where = append(where, validationruleassignment.RelatedObjectID(*in.RelatedObjectID))
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.ValidationRuleAssignment.Query().Where(where...).CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting rule assignments: %w", err)
	}
	order := ent.Asc
	if newestFirst {
		order = ent.Desc
	}
	data, err := c.ValidationRuleAssignment.Query().Where(where...).
		Order(order(validationruleassignment.FieldCreatedAt), order(validationruleassignment.FieldID)).
		Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing rule assignments: %w", err)
	}
	return &RuleAssignmentList{Total: total, Data: data}, nil
}
