// Command execrewrite rewrites gqlgen's generated executor where gqlgen
// does per-object work it offers no setting to avoid. It runs after gqlgen
// in `go generate` (graph/generate.go), so graph/generated.go stays
// exactly what the sources produce. The rewrites:
//
//   - every graphql.MarshalSliceConcurrently call becomes
//     marshalListInOrder: the objects of a list are marshalled one after
//     another in the request's goroutine instead of one goroutine each
//     (why: graph/graphql_lists.go);
//   - every graphql.NewDeferredGroup(ctx) becomes
//     newDeferredGroupWithoutPath(ctx), and the group gets its response
//     path only when it has deferred fields (withDeferredPath): gqlgen
//     builds the path of every object it marshals, deferred fields or not
//     (why: graph/graphql_deferred.go);
//   - every out.ResolveConcurrently call (an object's fields with a
//     resolver) becomes resolveInOrder: the field resolves at once in the
//     request's goroutine instead of in a goroutine of its own at
//     out.Dispatch, unless it is deferred (why: graph/graphql_fields.go);
//   - every object's answer is returned as objectFields{out, fields}
//     instead of its *graphql.FieldSet, which marshals it without a map of
//     aliases and a heap copy of every field (why: graph/graphql_objects.go);
//   - every field whose value is a non-interface field of the object's Go
//     struct (no resolver, method or directive) resolves with
//     resolveStructField instead of graphql.ResolveField, with the field's
//     context made first and the marshaller passed as a method expression
//     (why: graph/graphql_objects.go);
//   - of those, a scalar whose marshaller needs no context of the field
//     (gqlgen's nullable scalars discard it; a non-null String, ID, Int or
//     Boolean is never null) is marshalled at once in its object's context,
//     without a field context, and a Time! through resolveTimeField, which
//     makes the field's context only for the zero time it reports as null
//     (why: graph/graphql_objects.go).
//
// Each rewrite fails loudly when the executor no longer contains what it
// replaces (a gqlgen upgrade changed the code it targets: look again).
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"regexp"
)

// replacement is one textual rewrite of the executor.
type replacement struct {
	from, to string
	// see names the hand-written file that explains the rewrite.
	see string
}

var replacements = []replacement{
	{"graphql.MarshalSliceConcurrently(", "marshalListInOrder(", "graph/graphql_lists.go"},
	{"graphql.NewDeferredGroup(ctx)", "newDeferredGroupWithoutPath(ctx)", "graph/graphql_deferred.go"},
	{"ec.ProcessDeferredGroup(deferred)", "ec.ProcessDeferredGroup(withDeferredPath(deferred))", "graph/graphql_deferred.go"},
	{"out.ResolveConcurrently(ec.OperationContext, &deferred, i,", "resolveInOrder(ctx, out, field, ec.OperationContext, &deferred, i,", "graph/graphql_fields.go"},
	{"ec.ProcessDeferredGroup(withDeferredPath(deferred))\n\t}\n\n\treturn out\n}",
		"ec.ProcessDeferredGroup(withDeferredPath(deferred))\n\t}\n\n\treturn objectFields{out, fields}\n}", "graph/graphql_objects.go"},
}

// structField is gqlgen's resolution of a field read from the object's Go
// struct: its field context, the read, no middleware (no directive), the
// marshaller, recoverFromPanic and nonNull.
var structField = regexp.MustCompile(`\treturn graphql\.ResolveField\(
\t\tctx,
\t\tec\.OperationContext,
\t\tfield,
\t\tfunc\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{
\t\t\treturn ec\.(fieldContext_\w+)\(ctx, field\)
\t\t\},
\t\tfunc\(ctx context\.Context\) \(any, error\) \{
\t\t\treturn (obj\.\w+), nil
\t\t\},
\t\tnil,
\t\tfunc\(ctx context\.Context, selections ast\.SelectionSet, v ([^)]*)\) graphql\.Marshaler \{
\t\t\treturn ec\.([^(\s]+)\(ctx, selections, v\)
\t\t\},
\t\t(true|false),
\t\t(?:true|false),
\t\)
`)

// rewriteStructFields rewrites every structField whose value is not an
// interface into a call of resolveStructField; keepResult is false when the
// field's context is a scalar's (graphql.NewScalarFieldContext), whose
// value no field below reads.
func rewriteStructFields(src []byte) ([]byte, int) {
	n := 0
	out := structField.ReplaceAllFunc(src, func(m []byte) []byte {
		g := structField.FindSubmatch(m)
		fc, value, typ, marshal, recoverFromPanic := string(g[1]), string(g[2]), string(g[3]), string(g[4]), string(g[5])
		if typ == "any" || typ == "interface{}" {
			return m
		}
		keepResult := !scalarContext(src, fc)
		n++
		if !keepResult {
			switch scalarMarshaller(src, marshal) {
			case marshalsWithoutContext:
				return fmt.Appendf(nil, "\treturn ec.%s(ctx, field.Selections, %s)\n", marshal, value)
			case marshalsTime:
				return fmt.Appendf(nil, "\treturn resolveTimeField(ctx, ec, field, %s, (*executionContext).%s, (*executionContext).%s, %s)\n",
					value, fc, marshal, recoverFromPanic)
			}
		}
		return fmt.Appendf(nil, "\tfc, err := ec.%s(ctx, field)\n\treturn resolveStructField(ctx, ec, fc, err, field, %s, (*executionContext).%s, %s, %t)\n",
			fc, value, marshal, recoverFromPanic, keepResult)
	})
	return out, n
}

// The scalar marshallers whose field needs no context of its own.
const (
	marshalsInContext      = iota // reads the field's context (or may)
	marshalsWithoutContext        // never reads its ctx
	marshalsTime                  // reads its ctx only to report a zero time as null
)

// neverNull is gqlgen's marshalling of a non-null built-in scalar whose
// value always has an answer (so the null report never runs), and
// timeOrNull its Time!, null for the zero time.
var (
	neverNull = regexp.MustCompile(`^\t_ = sel
\tres := graphql\.(MarshalString|MarshalID|MarshalInt|MarshalInt64|MarshalBoolean)\(v\)
\tif res == graphql\.Null \{
\t\tgraphql\.AddInvalidNullFromMarshaler\(ctx, "\w+!"\)
\t\}
\treturn res$`)
	timeOrNull = regexp.MustCompile(`^\t_ = sel
\tres := graphql\.MarshalTime\(v\)
\tif res == graphql\.Null \{
\t\tgraphql\.AddInvalidNullFromMarshaler\(ctx, "Time!"\)
\t\}
\treturn res$`)
)

// scalarMarshaller classifies the executor's marshaller name by its body:
// one that discards its ctx (gqlgen's nullable scalars: "_ = ctx") or a
// non-null built-in scalar that never answers null needs no field
// context, so a scalar field read from a struct is marshalled in its
// object's context; a Time! reports the zero time as null, which needs the
// field's context (resolveTimeField makes it then).
func scalarMarshaller(src []byte, name string) int {
	start := bytes.Index(src, []byte("func (ec *executionContext) "+name+"(ctx context.Context, sel ast.SelectionSet, v "))
	if start < 0 {
		return marshalsInContext
	}
	body := src[start:]
	end := bytes.Index(body, []byte("\n}\n"))
	if end < 0 {
		return marshalsInContext
	}
	body = body[bytes.IndexByte(body, '\n')+1 : end]
	switch {
	case bytes.Contains(body, []byte("\t_ = ctx\n")) && !bytes.Contains(body, []byte("ec.")) && !bytes.Contains(body, []byte("ctx)")) && !bytes.Contains(body, []byte("ctx,")):
		return marshalsWithoutContext
	case neverNull.Match(body):
		return marshalsWithoutContext
	case timeOrNull.Match(body):
		return marshalsTime
	}
	return marshalsInContext
}

// scalarContext reports whether the executor's method name builds a
// scalar's field context.
func scalarContext(src []byte, name string) bool {
	start := bytes.Index(src, []byte("func (ec *executionContext) "+name+"("))
	if start < 0 {
		return false
	}
	body := src[start:]
	if end := bytes.Index(body, []byte("\n}\n")); end >= 0 {
		body = body[:end]
	}
	return bytes.Contains(body, []byte("graphql.NewScalarFieldContext("))
}

func main() {
	if err := rewrite("generated.go"); err != nil {
		fmt.Fprintln(os.Stderr, "execrewrite:", err)
		os.Exit(1)
	}
}

func rewrite(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the executor: %w", err)
	}
	for _, r := range replacements {
		if !bytes.Contains(src, []byte(r.from)) && !bytes.Contains(src, []byte(r.to)) {
			return fmt.Errorf("%s contains no %s: check %s against this gqlgen", path, r.from, r.see)
		}
		src = bytes.ReplaceAll(src, []byte(r.from), []byte(r.to))
	}
	src, n := rewriteStructFields(src)
	if n == 0 && !bytes.Contains(src, []byte("return resolveStructField(")) {
		return fmt.Errorf("%s contains no field read from a struct: check graph/graphql_objects.go against this gqlgen", path)
	}
	out, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting the executor: %w", err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the executor: %w", err)
	}
	return nil
}
