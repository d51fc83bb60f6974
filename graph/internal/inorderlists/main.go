// Command inorderlists rewrites gqlgen's generated executor so that the
// objects of a list are marshalled one after another in the request's
// goroutine (graph.marshalListInOrder) instead of one goroutine each
// (graphql.MarshalSliceConcurrently, which gqlgen offers no setting to
// avoid). It runs after gqlgen in `go generate` (graph/generate.go), so
// graph/generated.go stays exactly what the sources produce. Why: see
// graph/graphql_lists.go.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
)

const (
	concurrent = "graphql.MarshalSliceConcurrently("
	inOrder    = "marshalListInOrder("
)

func main() {
	if err := rewrite("generated.go"); err != nil {
		fmt.Fprintln(os.Stderr, "inorderlists:", err)
		os.Exit(1)
	}
}

func rewrite(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the executor: %w", err)
	}
	n := bytes.Count(src, []byte(concurrent))
	if n == 0 && !bytes.Contains(src, []byte(inOrder)) {
		// A gqlgen upgrade changed how lists are marshalled: look again.
		return fmt.Errorf("%s calls no %s: check graph/graphql_lists.go against this gqlgen", path, concurrent)
	}
	out, err := format.Source(bytes.ReplaceAll(src, []byte(concurrent), []byte(inOrder)))
	if err != nil {
		return fmt.Errorf("formatting the executor: %w", err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the executor: %w", err)
	}
	return nil
}
