package entdb

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"math/rand/v2"
	"slices"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// A qualification keeps an in-memory snapshot of each project's active
// promotion tiers with their campaigns, rules and categories
// (graph/redemption/tiersnapshot). The snapshot is valid while the
// project's qualification_version is the one it was built at: every write
// that changes what it holds sets the version to a new random value in
// the write's own transaction (this hook, on every client Open makes), so
// a server process sees the change at its next qualification, whichever
// process wrote. A random value rather than a counter: a rolled-back
// write's value never comes back labelling other data.

// qualificationEntities are the entities a tier snapshot is made of.
var qualificationEntities = []string{ent.TypePromotionTier, ent.TypeCampaign, ent.TypeValidationRule,
	ent.TypeValidationRuleAssignment, ent.TypeCategory, ent.TypePromotionStack}

// countersOnly are fields whose changes a snapshot does not show: the
// tiers' redemption summaries, the campaigns' code counts and
// generation states, and the update time that comes with each.
var countersOnly = map[string]bool{
	"redeemed_count": true, "orders_amount": true, "orders_discount_amount": true,
	"vouchers_count": true, "vouchers_generation_status": true, "creation_status": true,
	"updated_at": true,
}

// execer runs a statement on a mutation's connection (its transaction's
// when it has one): every generated mutation has ExecContext.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
}

// qualificationVersionHook changes the project's qualification_version
// with each write of a qualificationEntities row that is not a counter
// update, just before it. d is the client's dialect.
func qualificationVersionHook(d string) ent.Hook {
	one, all := "UPDATE projects SET qualification_version = ? WHERE id = ?", "UPDATE projects SET qualification_version = ?"
	if d == dialect.Postgres {
		one, all = "UPDATE projects SET qualification_version = $1 WHERE id = $2", "UPDATE projects SET qualification_version = $1"
	}
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !slices.Contains(qualificationEntities, m.Type()) || countersOnlyMutation(m) {
				return next.Mutate(ctx, m)
			}
			// Before the write: on PostgreSQL the project row is then
			// locked before the transaction's tier, campaign or rule rows,
			// in the same order by every writer (no deadlock between two
			// transactions writing overlapping rows). A write that fails
			// after it rolls back with its transaction, or at worst costs
			// a snapshot rebuild.
			ex, ok := m.(execer)
			if !ok {
				return nil, fmt.Errorf("qualification version: %T cannot run statements", m)
			}
			version := rand.Int64()
			var err error
			if projectID, known := mutationProject(ctx, m); known {
				_, err = ex.ExecContext(ctx, one, version, projectID)
			} else {
				// A write without a project in its context (a system
				// job): every project's snapshots are dropped.
				_, err = ex.ExecContext(ctx, all, version)
			}
			if err != nil {
				return nil, fmt.Errorf("changing the qualification version: %w", err)
			}
			return next.Mutate(ctx, m)
		})
	}
}

// countersOnlyMutation: an update that sets or adds only countersOnly
// fields and clears none.
func countersOnlyMutation(m ent.Mutation) bool {
	if !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) || len(m.ClearedFields()) > 0 || len(m.ClearedEdges()) > 0 ||
		len(m.AddedEdges()) > 0 || len(m.RemovedEdges()) > 0 {
		return false
	}
	for _, f := range append(m.Fields(), m.AddedFields()...) {
		if !countersOnly[f] {
			return false
		}
	}
	return true
}

// mutationProject is the project a write touches: the viewer's, else the
// project_id it creates with, else (one row updated) the row's.
func mutationProject(ctx context.Context, m ent.Mutation) (string, bool) {
	if v, ok := viewer.FromContext(ctx); ok && v.ProjectID != "" {
		return v.ProjectID, true
	}
	if p, ok := m.Field("project_id"); ok {
		if s, ok := p.(string); ok {
			return s, true
		}
	}
	if m.Op().Is(ent.OpUpdateOne) {
		if p, err := m.OldField(ctx, "project_id"); err == nil {
			if s, ok := p.(string); ok {
				return s, true
			}
		}
	}
	return "", false
}
