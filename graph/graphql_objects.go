package graph

import (
	"context"
	"io"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// objectFields is an object's answer: its fields as collected and their
// values, written as gqlgen's FieldSet.MarshalGQL writes them. The
// generated executor returns it wherever gqlgen returns the object's
// *graphql.FieldSet (the rewrite is graph/internal/execrewrite, run by go
// generate). gqlgen's FieldSet.MarshalGQL makes a map of the aliases
// written, to skip a second field of the same alias, and copies every
// CollectedField onto the heap as it iterates: in the publications and
// customers benchmarks (docs/benchmarks.md) a fifth of all the bytes the
// server allocated. Here a repeated alias is found by looking back over
// the fields already written (a map only past objectFieldsScan of them).
type objectFields struct {
	*graphql.FieldSet
	fields []graphql.CollectedField
}

// objectFieldsScan is how many fields an object may have before a
// repeated alias is looked up in a map instead of by scanning back.
const objectFieldsScan = 32

// MarshalGQL implements graphql.Marshaler: the fields in order, each alias
// once (the first field of that alias), as gqlgen writes them.
func (o objectFields) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, "{")
	var written map[string]struct{}
	if len(o.fields) > objectFieldsScan {
		written = make(map[string]struct{}, len(o.fields))
	}
	first := true
	for i := range o.fields {
		alias := o.fields[i].Alias
		if aliasWritten(o.fields[:i], written, alias) {
			continue
		}
		if !first {
			_, _ = io.WriteString(w, ",")
		}
		first = false
		writeAlias(w, alias)
		_, _ = io.WriteString(w, ":")
		o.Values[i].MarshalGQL(w)
		if written != nil {
			written[alias] = struct{}{}
		}
	}
	_, _ = io.WriteString(w, "}")
}

// aliasWritten reports whether alias was written before: in written when
// the object is large, else among the fields before it (every one of them
// was written or repeats an alias that was).
func aliasWritten(before []graphql.CollectedField, written map[string]struct{}, alias string) bool {
	if written != nil {
		_, ok := written[alias]
		return ok
	}
	for i := range before {
		if before[i].Alias == alias {
			return true
		}
	}
	return false
}

// writeAlias writes alias as a JSON string. A GraphQL name needs no
// escaping; anything else goes through gqlgen's string marshaller.
func writeAlias(w io.Writer, alias string) {
	for i := 0; i < len(alias); i++ {
		if c := alias[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			graphql.MarshalString(alias).MarshalGQL(w)
			return
		}
	}
	_, _ = io.WriteString(w, `"`)
	_, _ = io.WriteString(w, alias)
	_, _ = io.WriteString(w, `"`)
}

// resolveStructField resolves a field whose value is a field of the
// object's Go struct — no resolver, method or directive — and is not an
// interface (so never a nil interface): what graphql.ResolveField does for
// it, without the work that such a field cannot need. The generated
// executor calls it in place of graphql.ResolveField for those fields
// (graph/internal/execrewrite), after building the field's context (fc,
// err) itself.
//
// gqlgen boxes the value into an interface, wraps the read in closures and
// runs it through the operation's field interceptors. The one interceptor
// the handler installs (explicitNulls) acts on root mutation fields only,
// which always have a resolver, so for these fields it passes the value
// through unchanged; the rest — the field's context in ctx, a panic
// becoming an error on the field when recoverFromPanic, the marshaller's
// null check — is gqlgen's. keepResult sets fc.Result, which the fields
// below an object or list value read; a scalar has none, and boxing its
// value (a string, a time) would cost an allocation per field: with both
// lists' pages most fields are scalars (docs/benchmarks.md).
func resolveStructField[T any](ctx context.Context, ec *executionContext, fc *graphql.FieldContext, err error,
	field graphql.CollectedField, v T, marshal func(*executionContext, context.Context, ast.SelectionSet, T) graphql.Marshaler,
	recoverFromPanic, keepResult bool) (ret graphql.Marshaler) {
	if err != nil {
		return graphql.Null
	}
	ctx = graphql.WithFieldContext(ctx, fc)
	if recoverFromPanic {
		defer func() {
			if r := recover(); r != nil {
				ec.OperationContext.Error(ctx, ec.OperationContext.Recover(ctx, r))
				ret = graphql.Null
			}
		}()
	}
	if keepResult {
		fc.Result = v
	}
	return marshal(ec, ctx, field.Selections, v)
}

// resolveTimeField resolves a Time! field read from the object's Go
// struct, which execrewrite marshals without a field context of its own
// like the other scalars whose marshaller never reads it (a String!, ID!,
// Int!, Boolean! is never null; a nullable scalar's marshaller discards its
// ctx): gqlgen's Time! reports the zero time as a null in a non-null field,
// an error at the field's path, so only then is the field's context made
// (fieldContext) and the value marshalled as resolveStructField does. A
// field context per scalar was a sixth of the bytes the publication and
// customer lists allocated (docs/benchmarks.md).
func resolveTimeField(ctx context.Context, ec *executionContext, field graphql.CollectedField, v time.Time,
	fieldContext func(*executionContext, context.Context, graphql.CollectedField) (*graphql.FieldContext, error),
	marshal func(*executionContext, context.Context, ast.SelectionSet, time.Time) graphql.Marshaler,
	recoverFromPanic bool) graphql.Marshaler {
	if !v.IsZero() {
		return marshal(ec, ctx, field.Selections, v) // never null: ctx unread
	}
	fc, err := fieldContext(ec, ctx, field)
	return resolveStructField(ctx, ec, fc, err, field, v, marshal, recoverFromPanic, false)
}
