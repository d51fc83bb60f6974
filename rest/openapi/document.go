// Package openapi builds the OpenAPI 3.1 document of the REST API that
// GET /openapi.json serves: every REST route of the router with its
// parameters, request and response schemas, the error object and the
// security schemes.
//
// The document is assembled in Go. Each resource area has one file with a
// function that adds its schemas (API.Schema) and operations (API.Add);
// areas lists those functions. To document a new route, add one API.Add
// call to its area's file (or a new area to areas). rest/openapi_test.go
// fails while a served route is missing here or a documented one is not
// served, and the REST test harness (rest/resttest) validates every
// response the tests receive against this document.
//
// The document is plain OpenAPI 3.1 (JSON Schema 2020-12: type arrays for
// null, no nullable keyword). It keeps to what kin-openapi v0.152.0 loads
// and validates: no $ref siblings other than description, no
// $defs/if/then/else, oneOf only where the branches exclude each other.
package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Options adapt the document to the router that serves it.
type Options struct {
	// Scopes returns the OAuth scopes, any one of which lets a bearer token
	// call method on route (a gin route template such as
	// /v1/vouchers/:code). nil: bearer requirements name no scope.
	Scopes func(method, route string) []string
}

// areas are the parts of the API, one file each. Each adds its schemas
// and operations; add a new area here.
var areas = []func(*API){
	probes, oauth,
	campaigns, campaignSummary, categories, products, promotions, vouchers, voucherLifecycle, voucherBulk, campaignImports, bulkImports, transactions, asyncActions, assets,
	publications, customers, customerActivities, events, segments, exports, exportsGeneric, orders, productCollections, customerRedeemables, trashBin, consents,
	validations, redemptions, validationRules, qualifications,
	client,
	loyaltyPrograms, loyaltyMembers, loyaltyCatalog, earningRules, loyaltyV2Gaps, loyaltyV1, loyaltyV1EarningRules, loyaltyV1Tiers, loyaltyV1Points,
	rewards, referrals,
	management, managementResources, apiKeys, webhooks,
	templates,
}

// API is the document under construction.
type API struct {
	opts      Options
	tag       string
	tags      []tag
	schemas   map[string]*Schema
	responses map[string]*response
	paths     map[string]map[string]*operation
	ids       map[string]string
	errs      []error
}

type tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Tag starts a group of operations (shown together by documentation
// tools): the operations added next, also by the areas that follow in
// areas, belong to it until the next Tag. A tag named again keeps its
// first description.
func (a *API) Tag(name, description string) {
	a.tag = name
	for _, t := range a.tags {
		if t.Name == name {
			return
		}
	}
	a.tags = append(a.tags, tag{Name: name, Description: description})
}

// Schema adds a named schema to the components and returns a reference to
// it.
func (a *API) Schema(name string, s *Schema) *Schema {
	if _, dup := a.schemas[name]; dup {
		a.errs = append(a.errs, fmt.Errorf("schema %s defined twice", name))
	}
	a.schemas[name] = s
	return Ref(name)
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// Add documents the operation route, "METHOD /path/{param}" (path
// parameters in OpenAPI's braces; gin's :param becomes {param}).
func (a *API) Add(route string, op Op) {
	method, path, ok := strings.Cut(route, " ")
	if !ok || !strings.HasPrefix(path, "/") {
		a.errs = append(a.errs, fmt.Errorf("route %q is not \"METHOD /path\"", route))
		return
	}
	o, err := op.build(a, method, path)
	if err != nil {
		a.errs = append(a.errs, fmt.Errorf("%s: %w", route, err))
		return
	}
	if prev, dup := a.ids[o.OperationID]; dup {
		a.errs = append(a.errs, fmt.Errorf("%s: operation id %s already used by %s", route, o.OperationID, prev))
	}
	a.ids[o.OperationID] = route
	if a.paths[path] == nil {
		a.paths[path] = map[string]*operation{}
	}
	m := strings.ToLower(method)
	if _, dup := a.paths[path][m]; dup {
		a.errs = append(a.errs, fmt.Errorf("%s documented twice", route))
	}
	a.paths[path][m] = o
}

// document is the top-level OpenAPI object.
type document struct {
	OpenAPI    string                           `json:"openapi"`
	Info       info                             `json:"info"`
	Servers    []server                         `json:"servers"`
	Tags       []tag                            `json:"tags"`
	Paths      map[string]map[string]*operation `json:"paths"`
	Components components                       `json:"components"`
}

type server struct {
	URL string `json:"url"`
}

type info struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

type components struct {
	Schemas         map[string]*Schema         `json:"schemas"`
	Responses       map[string]*response       `json:"responses"`
	Headers         map[string]*header         `json:"headers"`
	SecuritySchemes map[string]*securityScheme `json:"securitySchemes"`
}

// Build assembles the document and returns it as JSON.
func Build(opts Options) (doc []byte, err error) {
	defer func() {
		if p := recover(); p != nil { // a schema helper refused a Go type
			doc, err = nil, fmt.Errorf("building the OpenAPI document: %v", p)
		}
	}()
	a := &API{opts: opts, schemas: map[string]*Schema{},
		responses: map[string]*response{"Error": errorResponse("Error: the error object, its code the HTTP status.")},
		paths:     map[string]map[string]*operation{}, ids: map[string]string{}}
	commonSchemas(a)
	for _, area := range areas {
		area(a)
	}
	if err := a.checkRefs(); err != nil {
		a.errs = append(a.errs, err)
	}
	if len(a.errs) > 0 {
		return nil, fmt.Errorf("building the OpenAPI document: %w", errors.Join(a.errs...))
	}
	d := document{
		OpenAPI: "3.1.0",
		Info: info{Title: "promoengine", Version: "v2018-08-01", Description: "Promotion, voucher and loyalty " +
			"service with the real service's REST interface (server API /v1, loyalty /v2, client API " +
			"/client/v1, management /management/v1). Errors are the error object (Error) with the status as " +
			"code. The GraphQL endpoints (/graphql, /management/graphql) describe themselves by introspection."},
		Tags:    a.tags,
		Paths:   a.paths,
		Servers: []server{{URL: "/"}},
		Components: components{Schemas: a.schemas, Responses: a.responses,
			Headers: responseHeaders(), SecuritySchemes: securitySchemes()},
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encoding the OpenAPI document: %w", err)
	}
	return b, nil
}

// checkRefs reports references to schemas no area defined.
func (a *API) checkRefs() error {
	var missing []string
	var walk func(s *Schema)
	walk = func(s *Schema) {
		if s == nil {
			return
		}
		if name, ok := strings.CutPrefix(s.Ref, "#/components/schemas/"); ok {
			if _, defined := a.schemas[name]; !defined {
				missing = append(missing, name)
			}
		}
		for _, p := range s.Properties {
			walk(p)
		}
		for _, b := range append(append([]*Schema{s.Items, s.AdditionalProperties}, s.OneOf...), s.AnyOf...) {
			walk(b)
		}
	}
	for _, s := range a.schemas {
		walk(s)
	}
	for _, ops := range a.paths {
		for _, o := range ops {
			for _, s := range o.schemas() {
				walk(s)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("undefined schemas: %s", strings.Join(missing, ", "))
}

// Handler serves the document (GET /openapi.json, no credentials). It is
// built on the first request and its bytes kept; a document that cannot be
// built (a programming error the tests catch) answers 500.
func Handler(opts Options) http.Handler {
	build := sync.OnceValues(func() ([]byte, error) { return Build(opts) })
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		body, err := build()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			body, _ = json.Marshal(map[string]any{"code": http.StatusInternalServerError, "key": "internal_error",
				"message": "Internal error", "details": "The OpenAPI document could not be built",
				"request_id": w.Header().Get("X-Request-Id")})
		}
		_, _ = w.Write(body)
	})
}
