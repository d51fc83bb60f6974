package schema

import (
	"context"
	"errors"
	"fmt"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// ErrNoViewer is returned when project-owned data is touched from a context
// that carries neither a viewer nor the system marker: tenancy fails closed.
var ErrNoViewer = errors.New("tenancy: no project in context")

// ProjectMixin makes an entity project-owned: a project_id column, stamped
// from the viewer on create, and a filter on every query, update and delete
// so one project never reads or changes another's rows. project_id never
// appears in GraphQL.
type ProjectMixin struct {
	mixin.Schema
	// IndexedElsewhere leaves out the project_id index because another
	// index of the entity starts with project_id and serves the same
	// filters; a second one would only cost every write.
	IndexedElsewhere bool
}

// Fields of the ProjectMixin.
func (ProjectMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("project_id").
			NotEmpty().
			Immutable().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the ProjectMixin.
func (m ProjectMixin) Indexes() []ent.Index {
	if m.IndexedElsewhere {
		return nil
	}
	return []ent.Index{index.Fields("project_id")}
}

// predicateQuery is implemented by every generated mutation and by wherer.
type predicateQuery interface {
	WhereP(...func(*sql.Selector))
}

// Interceptors of the ProjectMixin: every read is limited to the viewer's project.
func (ProjectMixin) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{
		ent.TraverseFunc(func(ctx context.Context, q ent.Query) error {
			return scopeToProject(ctx, wherer{q})
		}),
	}
}

// Hooks of the ProjectMixin: creates are stamped, updates and deletes scoped.
func (ProjectMixin) Hooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if m.Op().Is(ent.OpCreate) {
					if err := stampProject(ctx, m); err != nil {
						return nil, err
					}
				} else if err := scopeToProject(ctx, m); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

func scopeToProject(ctx context.Context, q any) error {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		if viewer.IsSystem(ctx) {
			return nil
		}
		return ErrNoViewer
	}
	pq, ok := q.(predicateQuery)
	if !ok {
		return fmt.Errorf("tenancy: unexpected query type %T", q)
	}
	pq.WhereP(sql.FieldEQ("project_id", v.ProjectID))
	return nil
}

func stampProject(ctx context.Context, m ent.Mutation) error {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		if _, set := m.Field("project_id"); set && viewer.IsSystem(ctx) {
			return nil
		}
		return ErrNoViewer
	}
	if pid, set := m.Field("project_id"); set && pid != v.ProjectID {
		return fmt.Errorf("tenancy: create for project %v from project %s", pid, v.ProjectID)
	}
	return m.SetField("project_id", v.ProjectID)
}
