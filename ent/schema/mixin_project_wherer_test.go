package schema

import (
	"sync"
	"testing"

	"entgo.io/ent/dialect/sql"
)

// Queries of two generated-like types: Where takes the type's own predicate.
type (
	lampPredicate func(*sql.Selector)
	deskPredicate func(*sql.Selector)
	lampQuery     struct{ preds []lampPredicate }
	deskQuery     struct{ preds []deskPredicate }
	noWhereQuery  struct{}
)

func (q *lampQuery) Where(ps ...lampPredicate) *lampQuery { q.preds = append(q.preds, ps...); return q }
func (q *deskQuery) Where(ps ...deskPredicate) *deskQuery { q.preds = append(q.preds, ps...); return q }

// TestWherePCallsTheQueryTypesWhere: the project's predicate reaches each
// query type's own Where, converted to its predicate type, from many
// goroutines at once (run under -race: the method look-up is shared).
func TestWherePCallsTheQueryTypesWhere(t *testing.T) {
	var wg sync.WaitGroup
	lamps := make([]*lampQuery, 16)
	desks := make([]*deskQuery, 16)
	for i := range lamps {
		lamps[i], desks[i] = &lampQuery{}, &deskQuery{}
		wg.Add(2)
		go func() { defer wg.Done(); wherer{lamps[i]}.WhereP(sql.FieldEQ("project_id", "p1")) }()
		go func() {
			defer wg.Done()
			wherer{desks[i]}.WhereP(sql.FieldEQ("project_id", "p2"), sql.FieldEQ("name", "oak"))
		}()
	}
	wg.Wait()
	for i := range lamps {
		if len(lamps[i].preds) != 1 || len(desks[i].preds) != 2 {
			t.Fatalf("query %d: lamp got %d predicates (want 1), desk %d (want 2)", i, len(lamps[i].preds), len(desks[i].preds))
		}
		s := sql.Select("*").From(sql.Table("lamps"))
		lamps[i].preds[0](s)
		if query, args := s.Query(); query != "SELECT * FROM `lamps` WHERE `lamps`.`project_id` = ?" || len(args) != 1 || args[0] != "p1" {
			t.Fatalf("lamp query %d = %q %v", i, query, args)
		}
	}
}

// TestWherePRefusesAQueryWithoutWhere: a type without Where(...predicate)
// is a programming error, reported by name rather than left unscoped.
func TestWherePRefusesAQueryWithoutWhere(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("WhereP on a query without Where did not panic: the query would go unscoped")
		}
	}()
	wherer{&noWhereQuery{}}.WhereP(sql.FieldEQ("project_id", "p1"))
}
