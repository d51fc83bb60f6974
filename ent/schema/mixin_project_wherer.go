package schema

import (
	"fmt"
	"reflect"
	"sync"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
)

// wherer adapts a generated query to predicateQuery: it calls the query's
// Where(...predicate.X) with the selector function converted to the query's
// predicate type. The schema package must not import generated code (that
// would make the schema unloadable whenever generated code is stale), so it
// reaches the typed method by reflection.
type wherer struct{ q ent.Query }

// whereMethod is how a query type's Where is called: the method's index
// and the predicate type its variadic argument takes.
type whereMethod struct {
	index    int
	predType reflect.Type
}

// whereMethods caches whereMethod per query type. Looking a method up by
// name builds its func type (reflect.FuncOf) on every call: work done on
// every query, and, with two goroutines doing it at once, a report of the
// race detector inside reflect's own type cache (seen in CI: a job's query
// and a request's at once). whereMethodsMu makes the look-ups one at a
// time; each query type is looked up once.
var (
	whereMethods   sync.Map // reflect.Type → whereMethod
	whereMethodsMu sync.Mutex
)

// whereMethodOf returns how to call the Where of queries of type t.
func whereMethodOf(t reflect.Type) whereMethod {
	if m, ok := whereMethods.Load(t); ok {
		return m.(whereMethod)
	}
	whereMethodsMu.Lock()
	defer whereMethodsMu.Unlock()
	if m, ok := whereMethods.Load(t); ok {
		return m.(whereMethod)
	}
	method, ok := t.MethodByName("Where")
	// method.Type has the receiver as its first argument.
	if !ok || method.Type.NumIn() != 2 || !method.Type.IsVariadic() {
		panic(fmt.Sprintf("tenancy: query type %v has no Where(...predicate) method", t))
	}
	m := whereMethod{index: method.Index, predType: method.Type.In(1).Elem()}
	whereMethods.Store(t, m)
	return m
}

// WhereP implements predicateQuery.
func (w wherer) WhereP(ps ...func(*sql.Selector)) {
	v := reflect.ValueOf(w.q)
	m := whereMethodOf(v.Type())
	args := make([]reflect.Value, len(ps))
	for i, p := range ps {
		args[i] = reflect.ValueOf(p).Convert(m.predType)
	}
	v.Method(m.index).Call(args)
}
