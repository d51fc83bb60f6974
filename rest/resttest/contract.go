package resttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/promoengine/promoengine/rest/openapi"
)

// The harness checks every response a test receives through Do, DoAt,
// DoJSON and Form against the OpenAPI document the service serves
// (GET /openapi.json, built by rest/openapi): the route and the status must
// be documented and a JSON body must match its schema. A mismatch fails the
// test that made the request (t.Errorf naming route, status and the schema
// error). Set Env.SkipContract for a test that must see undocumented
// answers. Routes the document leaves out by rule (openapi.Undocumented:
// GraphQL, the playground) are not checked.
//
// The check is stricter than the document: an object that lists its
// properties may not carry others (additionalProperties is false during
// tests), so a field the service returns but the document does not name
// fails too. Objects without listed properties (metadata) stay open.

// contract is the loaded document, once per test binary.
var contract struct {
	once sync.Once
	doc  *openapi3.T
	err  error
}

// OpenAPI returns the service's OpenAPI document as the harness checks
// responses against it (loaded and validated by kin-openapi, strict about
// undocumented properties). It fails the test when the document does not
// load or validate.
func (e *Env) OpenAPI() *openapi3.T {
	e.T.Helper()
	doc, err := e.contractDoc()
	if err != nil {
		e.T.Fatalf("OpenAPI document: %v", err)
	}
	return doc
}

func (e *Env) contractDoc() (*openapi3.T, error) {
	contract.once.Do(func() {
		contract.doc, contract.err = loadContract(e.Server.URL + "/openapi.json")
	})
	return contract.doc, contract.err
}

// loadContract fetches, loads and validates the document, then closes the
// objects that list their properties.
func loadContract(url string) (*openapi3.T, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: %d %v", url, resp.StatusCode, err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	if err != nil {
		return nil, fmt.Errorf("loading: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("invalid document: %w", err)
	}
	closeObjects(doc)
	return doc, nil
}

// closeObjects sets additionalProperties: false on every object schema
// that lists properties and says nothing about others.
func closeObjects(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			no := false
			s.AdditionalProperties.Has = &no
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		walk(s.AdditionalProperties.Schema)
		for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf, s.AllOf} {
			for _, b := range list {
				walk(b)
			}
		}
	}
	for _, s := range doc.Components.Schemas {
		walk(s)
	}
	for _, r := range doc.Components.Responses {
		for _, m := range r.Value.Content {
			walk(m.Schema)
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				for _, m := range r.Value.Content {
					walk(m.Schema)
				}
			}
		}
	}
}

// checkContract fails the test when a response does not match the
// document (see the comment at the top).
func (e *Env) checkContract(method, requestURI string, status int, header http.Header, body []byte) {
	e.T.Helper()
	if e.SkipContract {
		return
	}
	doc, err := e.contractDoc()
	if err != nil {
		e.T.Errorf("OpenAPI document: %v", err)
		return
	}
	route := e.routes.match(method, requestURI)
	if err := CheckResponse(doc, method, route, status, header, body); err != nil {
		e.T.Errorf("response of %s %s (route %s) does not match the OpenAPI document: %v\nbody: %s",
			method, requestURI, route, err, truncate(body, 2000))
	}
	e.checkReference(method, requestURI, route, status, header, body)
}

var ginParams = regexp.MustCompile(`[:*]([A-Za-z0-9_]+)`)

// CheckResponse checks one response against doc. route is the gin route
// template that served it ("" when none did: then only an error body is
// checked, against the error object). A 2xx status must be documented for
// the operation; an error status may fall to the default response.
func CheckResponse(doc *openapi3.T, method, route string, status int, header http.Header, body []byte) error {
	if route == "" {
		return checkErrorObject(doc, status, header, body)
	}
	if _, skip := openapi.Undocumented(method, route); skip {
		return nil
	}
	path := ginParams.ReplaceAllString(route, "{$1}")
	item := doc.Paths.Value(path)
	var op *openapi3.Operation
	if item != nil {
		op = item.GetOperation(method)
	}
	if op == nil {
		return fmt.Errorf("%s %s is not documented", method, path)
	}
	if status < 400 && op.Responses.Status(status) == nil {
		return fmt.Errorf("status %d is not documented for %s %s", status, method, path)
	}
	req, err := http.NewRequest(method, "http://service/", nil)
	if err != nil {
		return fmt.Errorf("building the request to validate: %w", err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req,
			Route: &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}},
		Status:  status,
		Header:  header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// checkErrorObject checks a response no route served (404 and 405 of
// unknown paths and methods, CORS preflights): an error's JSON body must be
// the error object.
func checkErrorObject(doc *openapi3.T, status int, header http.Header, body []byte) error {
	if status < 400 || !strings.HasPrefix(header.Get("Content-Type"), "application/json") {
		return nil
	}
	ref := doc.Components.Schemas["Error"]
	if ref == nil {
		return errors.New("the document has no Error schema")
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("error body is not JSON: %w", err)
	}
	if err := ref.Value.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("error body is not the error object: %w", err)
	}
	return nil
}

func truncate(b []byte, n int) []byte {
	b = bytes.TrimSpace(b)
	if len(b) <= n {
		return b
	}
	return append(b[:n:n], "…"...)
}
