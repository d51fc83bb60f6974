package layering

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheTreeFollowsTheDeclaredOrder checks the module's own packages:
// graph and everything below it, ent, rest and cmd.
func TestTheTreeFollowsTheDeclaredOrder(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	violations, err := Check(root, Layers, "graph", "ent", "rest", "cmd")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Errorf("against the declared order (graph/internal/layering, docs/architecture.md): %s", v)
	}
}

// TestAWrongImportFails shows the check failing: in a copy of the layout
// with a domain that imports the resolvers, one above it, and the REST
// layer, and a package no layer names, each is reported — and the
// imports that go down are not.
func TestAWrongImportFails(t *testing.T) {
	root := t.TempDir()
	write := func(dir, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "x.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	imports := func(pkg string, paths ...string) string {
		src := "package " + filepath.Base(pkg) + "\n\nimport (\n"
		for _, p := range paths {
			src += "\t_ \"" + Module + "/" + p + "\"\n"
		}
		return src + ")\n"
	}
	layers := [][]string{
		{"ent/..."},
		{"graph/internal/..."},
		{"graph/apperr"},
		{"graph/customer"},
		{"graph/redemption"},
		{"graph"},
		{"rest/..."},
	}
	write("ent", "package ent\n")
	write("ent/schema", imports("ent/schema", "ent"))
	write("graph/internal/tx", imports("graph/internal/tx", "ent", "graph/internal/dialect"))
	write("graph/internal/dialect", "package dialect\n")
	write("graph/apperr", imports("graph/apperr", "ent/schema"))
	write("graph/customer", imports("graph/customer", "graph/apperr", "graph/internal/tx", "graph", "graph/redemption", "rest"))
	write("graph/redemption", imports("graph/redemption", "graph/customer"))
	write("graph/stray", "package stray\n")
	write("graph", imports("graph", "graph/redemption", "graph/customer"))
	write("rest", imports("rest", "graph", "rest/openapi"))
	write("rest/openapi", "package openapi\n")

	violations, err := Check(root, layers, "graph", "ent", "rest")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range violations {
		got = append(got, v.Importer+" -> "+v.Imported)
	}
	want := []string{
		"graph/customer -> graph",
		"graph/customer -> graph/redemption",
		"graph/customer -> rest",
		"graph/stray -> (no declared layer)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAWrongRestImportFails shows the declared order of rest's packages
// (Layers itself, not a copy) refusing the imports that would undo the
// split of rest: the kit importing rest or an area, an area importing
// rest, the router's package importing the test harness, and a package
// under rest that no layer names — while the imports that go down (an
// area using the kit, rest mounting an area, the harness and the binary
// serving rest) pass.
func TestAWrongRestImportFails(t *testing.T) {
	root := t.TempDir()
	write := func(dir string, paths ...string) {
		t.Helper()
		src := "package " + filepath.Base(dir) + "\n\nimport (\n"
		for _, p := range paths {
			src += "\t_ \"" + Module + "/" + p + "\"\n"
		}
		src += ")\n"
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "x.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("graph")
	write("rest/openapi")
	write("rest/internal/httpkit", "graph", "rest", "rest/management")
	write("rest/management", "rest/internal/httpkit", "graph", "rest")
	write("rest", "rest/internal/httpkit", "rest/management", "rest/openapi", "rest/resttest")
	write("rest/resttest", "rest", "rest/openapi")
	write("rest/loyalty", "rest/internal/httpkit")
	write("cmd/promoengine", "rest", "graph")

	violations, err := Check(root, Layers, "graph", "rest", "cmd")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range violations {
		got = append(got, v.Importer+" -> "+v.Imported)
	}
	want := []string{
		"rest -> rest/resttest",
		"rest/internal/httpkit -> rest",
		"rest/internal/httpkit -> rest/management",
		"rest/loyalty -> (no declared layer)",
		"rest/management -> rest",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
