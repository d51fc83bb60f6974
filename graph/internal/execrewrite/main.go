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
//     out.Dispatch, unless it is deferred (why: graph/graphql_fields.go).
//
// Each rewrite fails loudly when the executor no longer contains what it
// replaces (a gqlgen upgrade changed the code it targets: look again).
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
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
	out, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting the executor: %w", err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the executor: %w", err)
	}
	return nil
}
