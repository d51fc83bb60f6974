// Package lifecycle is the one table of status moves of the loyalty
// resources. An ent hook (Hook) checks every status change against it, so
// no transport can move a resource along an edge the table does not list.
package lifecycle

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
)

// Resources with a status lifecycle.
const (
	EarningRule    = "earning rule"
	Incentive      = "incentive"
	Reward         = "reward"
	Program        = "program"
	CardDefinition = "card definition"
	TierStructure  = "tier structure"
	Member         = "member"
)

// transitions[resource][from] lists the statuses a resource may move to.
// Sources: the interface (earning rule ACTIVE → INACTIVE), the reference
// document B.7 (activate DRAFT|INACTIVE → ACTIVE, draft ACTIVE → DRAFT) and
// the same moves for the other resources' activate/deactivate/draft routes.
var transitions = map[string]map[string][]string{
	EarningRule:    {"DRAFT": {"ACTIVE", "DELETED"}, "ACTIVE": {"INACTIVE", "DRAFT", "DELETED"}, "INACTIVE": {"ACTIVE", "DELETED"}},
	Reward:         {"DRAFT": {"ACTIVE", "DELETED"}, "ACTIVE": {"INACTIVE", "DRAFT", "DELETED"}, "INACTIVE": {"ACTIVE", "DELETED"}},
	TierStructure:  {"DRAFT": {"ACTIVE"}, "ACTIVE": {"INACTIVE", "DRAFT"}, "INACTIVE": {"ACTIVE", "DRAFT"}},
	Program:        {"DRAFT": {"ACTIVE"}, "ACTIVE": {"INACTIVE"}, "INACTIVE": {"ACTIVE"}},
	Incentive:      {"DRAFT": {"ACTIVE", "DELETED"}, "ACTIVE": {"DRAFT", "DELETED"}},
	CardDefinition: {"DRAFT": {"ACTIVE"}, "ACTIVE": {"DRAFT"}},
	Member:         {"ACTIVE": {"INACTIVE"}, "INACTIVE": {"ACTIVE"}},
}

// Allowed reports whether resource may move from one status to another.
func Allowed(resource, from, to string) bool {
	return slices.Contains(transitions[resource][from], to)
}

// TransitionError is a refused status move.
type TransitionError struct {
	Resource, ID, From, To string
}

// Verb names the move the way the routes do (activate, deactivate, draft).
func (e *TransitionError) Verb() string {
	switch e.To {
	case "ACTIVE":
		return "activate"
	case "INACTIVE":
		return "deactivate"
	case "DRAFT":
		return "move to draft"
	case "DELETED":
		return "delete"
	}
	return "move to " + e.To
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("Cannot %s %s from current state: '%s'", e.Verb(), e.Resource, e.From)
}

// statusMutation is what the hook needs of a generated update mutation.
type statusMutation interface {
	ent.Mutation
	ID() (string, bool)
}

// Hook refuses status changes the table does not allow. It applies to
// UpdateOne (the only way the use cases change a status); bulk updates of
// status are refused outright, since they cannot be checked row by row.
func Hook(resource string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("status")
			if !ok || m.Op().Is(ent.OpCreate) {
				return next.Mutate(ctx, m)
			}
			if !m.Op().Is(ent.OpUpdateOne) {
				return nil, fmt.Errorf("lifecycle: %s status may only change one row at a time", resource)
			}
			old, err := m.OldField(ctx, "status")
			if err != nil {
				return nil, fmt.Errorf("lifecycle: reading current %s status: %w", resource, err)
			}
			from, to := fmt.Sprint(old), fmt.Sprint(v)
			id := ""
			if sm, ok := m.(statusMutation); ok {
				id, _ = sm.ID()
			}
			if !Allowed(resource, from, to) {
				return nil, &TransitionError{Resource: resource, ID: id, From: from, To: to}
			}
			// Update only while the status is still the one checked: of two
			// concurrent moves from one status, one wins and the other
			// fails as an invalid transition instead of both succeeding.
			w, ok := m.(interface{ WhereP(...func(*sql.Selector)) })
			if !ok {
				return nil, fmt.Errorf("lifecycle: %T cannot be conditioned on status", m)
			}
			w.WhereP(sql.FieldEQ("status", from))
			res, err := next.Mutate(ctx, m)
			if err != nil && strings.HasSuffix(err.Error(), " not found") {
				// ent's NotFoundError (the schema package cannot import
				// the generated one): the row left status `from` meanwhile.
				return nil, &TransitionError{Resource: resource, ID: id, From: from + " (changed concurrently)", To: to}
			}
			return res, err
		})
	}
}
