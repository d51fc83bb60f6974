package fields

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// Sibling loading: a field resolved per object of a list (a connection's
// edges, a list payload's data) loads its value for every object of that
// list at the first call and answers the others from that one load. gqlgen
// resolves the objects of a list concurrently, so the load runs once under
// a sync.Once per list and field, in a store that lives for one operation
// (see NewHandler).

type siblingKey struct {
	list  *graphql.FieldContext
	field string
}

type siblingLoad struct {
	once sync.Once
	val  any
	err  error
}

type siblingStore struct {
	mu    sync.Mutex
	loads map[siblingKey]*siblingLoad
}

type siblingStoreKey struct{}

// WithSiblingStore gives an operation its store of sibling loads.
func WithSiblingStore(ctx context.Context) context.Context {
	return context.WithValue(ctx, siblingStoreKey{}, &siblingStore{})
}

// EnclosingList returns the field context of the nearest list above fc
// that an object on fc's path belongs to (its Result holds the list), or
// nil when there is none.
func EnclosingList(fc *graphql.FieldContext) *graphql.FieldContext {
	for ; fc != nil; fc = fc.Parent {
		if fc.Index != nil {
			return fc.Parent
		}
	}
	return nil
}

// LoadOnce runs load once per operation for the list scope (see
// EnclosingList) and field, and returns its result to every caller with
// the same scope; ok is false without a scope or outside an operation
// (the caller then loads for its own object).
func LoadOnce[T any](ctx context.Context, scope *graphql.FieldContext, field string, load func() (T, error)) (val T, ok bool, err error) {
	store, _ := ctx.Value(siblingStoreKey{}).(*siblingStore)
	if store == nil || scope == nil {
		return val, false, nil
	}
	key := siblingKey{list: scope, field: field}
	store.mu.Lock()
	if store.loads == nil {
		store.loads = map[siblingKey]*siblingLoad{}
	}
	l := store.loads[key]
	if l == nil {
		l = &siblingLoad{}
		store.loads[key] = l
	}
	store.mu.Unlock()
	l.once.Do(func() { l.val, l.err = load() })
	if l.err != nil {
		return val, true, l.err
	}
	val, _ = l.val.(T)
	return val, true, nil
}
