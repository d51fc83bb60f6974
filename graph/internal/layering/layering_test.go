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

// writePackage writes a package dir under root with one file importing
// the module's packages paths.
func writePackage(t *testing.T, root, dir string, paths ...string) {
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

// wantViolations checks the tree at root against layers and fails unless
// it finds exactly want ("importer -> imported", sorted).
func wantViolations(t *testing.T, root string, layers [][]string, prefixes []string, want ...string) {
	t.Helper()
	violations, err := Check(root, layers, prefixes...)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range violations {
		got = append(got, v.Importer+" -> "+v.Imported)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAWrongImportFails shows the check failing: in a copy of the layout
// with a domain that imports the resolvers, one above it, and the REST
// layer, and a package no layer names, each is reported — and the
// imports that go down are not.
func TestAWrongImportFails(t *testing.T) {
	root := t.TempDir()
	layers := [][]string{
		{"ent/..."},
		{"graph/internal/..."},
		{"graph/apperr"},
		{"graph/customer"},
		{"graph/redemption"},
		{"graph"},
		{"rest/..."},
	}
	writePackage(t, root, "ent")
	writePackage(t, root, "ent/schema", "ent")
	writePackage(t, root, "graph/internal/tx", "ent", "graph/internal/dialect")
	writePackage(t, root, "graph/internal/dialect")
	writePackage(t, root, "graph/apperr", "ent/schema")
	writePackage(t, root, "graph/customer", "graph/apperr", "graph/internal/tx", "graph", "graph/redemption", "rest")
	writePackage(t, root, "graph/redemption", "graph/customer")
	writePackage(t, root, "graph/stray")
	writePackage(t, root, "graph", "graph/redemption", "graph/customer")
	writePackage(t, root, "rest", "graph", "rest/openapi")
	writePackage(t, root, "rest/openapi")

	wantViolations(t, root, layers, []string{"graph", "ent", "rest"},
		"graph/customer -> graph",
		"graph/customer -> graph/redemption",
		"graph/customer -> rest",
		"graph/stray -> (no declared layer)",
	)
}

// TestAWrongRestImportFails shows the declared order of rest's packages
// (Layers itself, not a copy) refusing the imports that would undo the
// split of rest: the kit importing rest or an area, an area importing
// rest (categories), an area importing a peer (loyalty v2 the templates,
// the catalogue the segments) or one above it (the templates the
// management API), the router's package importing
// the test harness, and a package under rest that no layer names — while
// the imports that go down (an area using the kit, the management API
// showing the templates' shapes, rest mounting the areas, the harness and
// the binary serving rest) pass.
func TestAWrongRestImportFails(t *testing.T) {
	root := t.TempDir()
	writePackage(t, root, "graph")
	writePackage(t, root, "rest/openapi")
	writePackage(t, root, "rest/internal/httpkit", "graph", "rest", "rest/management")
	writePackage(t, root, "rest/management", "rest/internal/httpkit", "rest/templates", "graph", "rest")
	writePackage(t, root, "rest/templates", "rest/internal/httpkit", "rest/management")
	writePackage(t, root, "rest/loyaltyv2", "rest/internal/httpkit", "rest/templates")
	writePackage(t, root, "rest/catalog", "rest/internal/httpkit", "graph", "rest/segments")
	writePackage(t, root, "rest/segments", "rest/internal/httpkit", "graph")
	writePackage(t, root, "rest/categories", "rest/internal/httpkit", "rest")
	writePackage(t, root, "rest", "rest/internal/httpkit", "rest/management", "rest/templates", "rest/loyaltyv2", "rest/openapi", "rest/resttest",
		"rest/catalog", "rest/segments", "rest/categories")
	writePackage(t, root, "rest/resttest", "rest", "rest/openapi")
	writePackage(t, root, "rest/loyalty", "rest/internal/httpkit")
	writePackage(t, root, "cmd/promoengine", "rest", "graph")

	wantViolations(t, root, Layers, []string{"graph", "rest", "cmd"},
		"rest -> rest/resttest",
		"rest/catalog -> rest/segments",
		"rest/categories -> rest",
		"rest/internal/httpkit -> rest",
		"rest/internal/httpkit -> rest/management",
		"rest/loyalty -> (no declared layer)",
		"rest/loyaltyv2 -> rest/templates",
		"rest/management -> rest",
		"rest/templates -> rest/management",
	)
}
