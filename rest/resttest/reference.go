package resttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// The strict contract check (docs/openapi.md, "Strict check against the
// reference documents") validates every 2xx response a test receives
// against the real service's own OpenAPI documents, the copies in
// rest/testdata/reference-openapi (with their known defects patched, see
// referencepatch.go): the operation found by method and path must document
// the status, and a JSON body must match the response schema the way a
// strict client generated from those documents reads it — required members,
// types, enums, null only where nullable, no extra members where the
// document closes the object. Only what the documents say is checked: an
// object that does not close itself stays open.

// referenceDir is where the copies of the reference documents live:
// testdata/reference-openapi of the package under test when it has them
// (the rest package: go test runs in the package's directory), else
// rest/testdata/reference-openapi of the module the test runs in (the
// packages below rest, e.g. rest/management), found by walking up to
// go.mod, else found from this file's source path — which a build with
// -trimpath (CI) does not keep, hence the first two.
func referenceDir() string {
	const local = "testdata/reference-openapi"
	if st, err := os.Stat(local); err == nil && st.IsDir() {
		return local
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.Join(dir, "rest", local)
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "reference-openapi")
}

// supplementDocs are documents loaded after the others: an operation of
// theirs counts only where no other document has it. The August
// loyalties-v2-benefits.json adds what only it names (benefits,
// memberships, reports, order payments, …) to the June loyalties-v2.json,
// whose shapes (our seed contract's) win for the operations both have.
var supplementDocs = map[string]bool{"loyalties-v2-benefits.json": true}

// referenceOp is one operation of a reference document.
type referenceOp struct {
	doc    *openapi3.T
	file   string
	path   string // the document's path template, e.g. /v1/vouchers/{code}
	op     *openapi3.Operation
	strict bool // OpenAPI 3.1: validate with JSON Schema 2020-12
}

// referenceIndex maps "METHOD /normalized/path" to its operation.
type referenceIndex map[string]referenceOp

var reference struct {
	once  sync.Once
	index referenceIndex
	err   error
}

// pathParams matches a template parameter in either spelling.
var pathParams = regexp.MustCompile(`\{[^}]*\}|[:*][A-Za-z0-9_]+`)

// normalizePath makes templates comparable whatever their parameters are
// called: /v1/vouchers/:code and /v1/vouchers/{code} both become
// /v1/vouchers/{}.
func normalizePath(p string) string {
	return pathParams.ReplaceAllString(p, "{}")
}

// referenceDocs loads every reference document once per test binary.
func referenceDocs() (referenceIndex, error) {
	reference.once.Do(func() {
		reference.index, reference.err = loadReference(referenceDir())
	})
	return reference.index, reference.err
}

func loadReference(dir string) (referenceIndex, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no reference documents in %s: %v", dir, err)
	}
	sort.SliceStable(files, func(i, j int) bool {
		si, sj := supplementDocs[filepath.Base(files[i])], supplementDocs[filepath.Base(files[j])]
		if si != sj {
			return sj // supplements last
		}
		return files[i] < files[j]
	})
	index := referenceIndex{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(data)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", f, err)
		}
		name := filepath.Base(f)
		patchReference(name, doc)
		strict := strings.HasPrefix(doc.OpenAPI, "3.1")
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				key := method + " " + normalizePath(path)
				if _, dup := index[key]; dup {
					continue // the first document (by file name, supplements last) wins
				}
				index[key] = referenceOp{doc: doc, file: name, path: path, op: op, strict: strict}
			}
		}
	}
	return index, nil
}

// Violation is one way a response departs from the reference document.
type Violation struct {
	// Operation is "METHOD /reference/path", Status the answer's status.
	Operation string
	Status    int
	// Pointer is the JSON pointer of the offending value ("" for the
	// status or the whole body), Reason what is wrong there.
	Pointer string
	Reason  string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s %d %s: %s", v.Operation, v.Status, v.Pointer, v.Reason)
}

// CheckReference checks one 2xx response served by the gin route template
// route against the reference documents. It returns nil when no reference
// operation matches (our own routes), the status is not 2xx, or the body
// conforms.
func CheckReference(method, route string, status int, contentType string, body []byte) ([]Violation, error) {
	if route == "" || status < 200 || status > 299 {
		return nil, nil
	}
	index, err := referenceDocs()
	if err != nil {
		return nil, err
	}
	ref, ok := index[method+" "+normalizePath(route)]
	if !ok {
		return nil, nil
	}
	name := method + " " + ref.path
	resp := ref.op.Responses.Status(status)
	if resp == nil || resp.Value == nil {
		var documented []string
		for code := range ref.op.Responses.Map() {
			documented = append(documented, code)
		}
		sort.Strings(documented)
		return []Violation{{Operation: name, Status: status,
			Reason: "status not documented (documented: " + strings.Join(documented, ", ") + ")"}}, nil
	}
	media := resp.Value.Content.Get("application/json")
	if media == nil || media.Schema == nil || len(body) == 0 || !strings.HasPrefix(contentType, "application/json") {
		return nil, nil
	}
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return []Violation{{Operation: name, Status: status, Reason: "body is not JSON"}}, nil
	}
	opts := []openapi3.SchemaValidationOption{openapi3.MultiErrors(), openapi3.VisitAsResponse()}
	if ref.strict {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	err = media.Schema.Value.VisitJSON(value, opts...)
	if err == nil {
		return nil, nil
	}
	var out []Violation
	for _, e := range flattenSchemaErrors(err) {
		v := Violation{Operation: name, Status: status, Reason: e.Error()}
		var se *openapi3.SchemaError
		if errors.As(e, &se) {
			v.Pointer = "/" + strings.Join(se.JSONPointer(), "/")
			v.Reason = schemaReason(se)
		}
		out = append(out, v)
	}
	return out, nil
}

// flattenSchemaErrors lists the single errors of a (nested) MultiError.
func flattenSchemaErrors(err error) []error {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		var out []error
		for _, e := range me {
			out = append(out, flattenSchemaErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// schemaReason is a short reason for a schema error: the failing keyword
// and the validator's words, with the first nested cause of a oneOf/anyOf.
func schemaReason(se *openapi3.SchemaError) string {
	reason := se.SchemaField + ": " + se.Reason
	if se.Origin != nil {
		origin := se.Origin.Error()
		if len(origin) > 300 {
			origin = origin[:300] + "…"
		}
		reason += " (" + origin + ")"
	}
	return reason
}

// ReferenceExample returns the first example response body the reference
// document gives for method, path (either template spelling) and status,
// or nil when it gives none.
func ReferenceExample(method, path string, status int) ([]byte, error) {
	index, err := referenceDocs()
	if err != nil {
		return nil, err
	}
	ref, ok := index[method+" "+normalizePath(path)]
	if !ok {
		return nil, fmt.Errorf("no reference operation %s %s", method, path)
	}
	resp := ref.op.Responses.Status(status)
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("application/json") == nil {
		return nil, nil
	}
	media := resp.Value.Content.Get("application/json")
	if media.Example != nil {
		return json.Marshal(media.Example)
	}
	names := make([]string, 0, len(media.Examples))
	for name := range media.Examples {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if ex := media.Examples[name]; ex != nil && ex.Value != nil && ex.Value.Value != nil {
			return json.Marshal(ex.Value.Value)
		}
	}
	return nil, nil
}
