package rest_test

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// Fuzzing the decoding and validation of every request body (Go's native
// fuzzing). `go test` runs the seeds — the real service's documented
// request examples for every route we serve, and {} for the others — as
// ordinary tests; CI fuzzes each target for a short fixed time (.ci/run);
// by hand, for longer:
//
//	go test ./rest -run '^$' -fuzz '^FuzzRequestBodies$' -fuzztime 10m
//	go test ./rest -run '^$' -fuzz '^FuzzGraphQLInputs$' -fuzztime 10m
//
// Every input is sent to a running service; whatever it answers must be a
// success or the error object (sweepProblem: no 5xx, no SQL or Go text).
// An input that is accepted is stored, so after each one every list of the
// service and the created object are read back: what a request could
// store, a later read must be able to show.

// documentedExamples are the request examples of the real service's
// OpenAPI documents (../shared/reference/openapi, every requestBody
// example of every operation), as {method, path, body}; the routes we do
// not serve yet are skipped until we do.
//
//go:embed testdata/documented_request_examples.json
var documentedExamples []byte

// fuzzRoute is one route a fuzz input can be sent to.
type fuzzRoute struct {
	method, path string // path with its parameters filled in
	template     string
	headers      resttest.Headers
	graphQL      bool
}

// fuzzService is the service a fuzz target's inputs go to, with its
// fixtures; one per process (fuzzing workers are processes).
type fuzzService struct {
	e      *resttest.Env
	bodies []fuzzRoute // the routes that take a body
	reads  []fuzzRoute // the lists read back after an accepted input
	byTmpl map[string]fuzzRoute
}

var pathParam = regexp.MustCompile(`[:*][A-Za-z0-9_]+`)

// newFuzzService starts the service with the sweep's fixtures (a campaign,
// codes, a customer and a loyalty member, reachable by the identifiers the
// routes' parameters are filled with).
func newFuzzService(tb testing.TB) *fuzzService {
	e := resttest.NewWithOptions(tb, func(o *rest.Options) { o.RateLimit, o.ClientRateLimit = -1, -1 })
	e.SkipContract = true // sweepProblem checks every answer
	app := resttest.App(e.Project)
	mk := e.NewManagementKey()
	client := resttest.Client(e.Project, "https://shop.example")
	ls := newLoyaltySetup(tb, e)
	sweepFixtures(tb, e, app, mk)
	fill := func(tmpl string) string {
		return pathParam.ReplaceAllStringFunc(tmpl, func(p string) string {
			switch strings.ToLower(p[1:]) {
			case "projectid":
				return e.Project.ProjectID
			case "programid":
				return ls.Program
			case "memberid":
				return ls.Member
			case "cardid":
				return ls.Card
			}
			return "x"
		})
	}
	s := &fuzzService{e: e, byTmpl: map[string]fuzzRoute{}}
	for _, r := range e.Routes() {
		method, tmpl := r[0], r[1]
		h := credentialsFor(tmpl, app, mk, client, ls.H)
		route := fuzzRoute{method: method, path: fill(tmpl), template: tmpl, headers: h,
			graphQL: strings.HasSuffix(tmpl, "/graphql")}
		s.byTmpl[method+" "+tmpl] = route
		switch {
		case method == http.MethodGet && !strings.ContainsAny(tmpl, ":*") &&
			(strings.HasPrefix(tmpl, "/v1/") || strings.HasPrefix(tmpl, "/v2/")) && !strings.Contains(tmpl, "ping"):
			s.reads = append(s.reads, route)
		case fuzzesBody(method, tmpl):
			s.bodies = append(s.bodies, route)
		}
	}
	return s
}

// fuzzesBody says whether fuzz inputs go to a route: every route that
// takes a body, except those that would take the fixtures away from the
// inputs after them (deletions, the project's own settings and keys).
func fuzzesBody(method, tmpl string) bool {
	switch {
	case method != http.MethodPost && method != http.MethodPut && method != http.MethodPatch:
		return false
	case strings.Contains(tmpl, "permanent-deletion"), strings.Contains(tmpl, "/api-keys"),
		strings.Contains(tmpl, "/webhook-token"), strings.HasSuffix(tmpl, "/projects/:projectId"),
		strings.HasSuffix(tmpl, "/projects"), strings.Contains(tmpl, "/users"):
		return false
	}
	return true
}

// send sends body to route and fails t when the answer is neither a
// success nor the error object; an accepted input is read back.
func (s *fuzzService) send(t *testing.T, route fuzzRoute, body []byte) {
	// The env reports to the running input's t: the fuzz target's own f
	// must not be used inside it.
	f := s.e.T
	s.e.T = t
	defer func() { s.e.T = f }()
	resp := s.e.Do(route.method, route.path, body, route.headers)
	if problem := fuzzProblem(resp, route.graphQL); problem != "" {
		t.Fatalf("%s %s with body %q: %s: %d %.500s", route.method, route.path, body, problem, resp.Status, resp.Body)
	}
	if resp.Status/100 == 2 && !(route.graphQL && strings.Contains(string(resp.Body), `"errors"`)) {
		s.readBack(t, route, resp)
	}
}

// readBack reads every list of the service, and the object an accepted
// input created when its route has a by-id twin, failing t on any answer
// that is not a success or the error object.
func (s *fuzzService) readBack(t *testing.T, after fuzzRoute, resp resttest.Response) {
	reads := s.reads
	var created struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(resp.Body, &created) == nil && created.ID != "" && !after.graphQL {
		for tmpl, r := range s.byTmpl {
			if strings.HasPrefix(tmpl, "GET "+after.template+"/:") && strings.Count(tmpl, ":") == strings.Count(after.template, ":")+1 {
				r.path = after.path + "/" + created.ID
				reads = append(reads, r)
			}
		}
	}
	for _, r := range reads {
		got := s.e.Do(r.method, r.path, nil, r.headers)
		if got.Status >= 500 || (got.Status >= 400 && sweepProblem(got, false) != "") {
			t.Fatalf("after %s %s was accepted (%d %.300s), GET %s answers %d %.500s",
				after.method, after.path, resp.Status, resp.Body, r.path, got.Status, got.Body)
		}
	}
}

// fuzzProblem is sweepProblem, plus, for GraphQL (whose field errors come
// with HTTP 200), an error in the body whose code is not a 4xx.
func fuzzProblem(resp resttest.Response, graphQL bool) string {
	if problem := sweepProblem(resp, graphQL); problem != "" || !graphQL || resp.Status != http.StatusOK {
		return problem
	}
	var body struct {
		Errors []struct {
			Extensions struct {
				Code any `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		return "GraphQL answer that is not JSON"
	}
	for _, e := range body.Errors {
		code, _ := e.Extensions.Code.(float64)
		if code < 400 || code >= 500 {
			return "GraphQL field error whose code is not a 4xx"
		}
	}
	return ""
}

// documentedSeeds returns, per route of s.bodies, the documented request
// examples of that route.
func documentedSeeds(tb testing.TB, routes []fuzzRoute) map[int][][]byte {
	var examples []struct {
		Method string          `json:"method"`
		Path   string          `json:"path"`
		Body   json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(documentedExamples, &examples); err != nil {
		tb.Fatalf("documented examples: %v", err)
	}
	shape := func(method, path string) string {
		return method + " " + regexp.MustCompile(`\{[^}]*\}|[:*][A-Za-z0-9_]+`).ReplaceAllString(path, "*")
	}
	index := map[string]int{}
	for i, r := range routes {
		index[shape(r.method, r.template)] = i
	}
	seeds := map[int][][]byte{}
	for _, ex := range examples {
		if i, ok := index[shape(ex.Method, ex.Path)]; ok {
			seeds[i] = append(seeds[i], ex.Body)
		}
	}
	return seeds
}

// FuzzRequestBodies sends fuzzed bodies to every REST route that takes
// one (the route is the input's first part), seeded with the documented
// examples.
func FuzzRequestBodies(f *testing.F) {
	s := newFuzzService(f)
	seeds := documentedSeeds(f, s.bodies)
	documented := 0
	for i := range s.bodies {
		for _, b := range seeds[i] {
			f.Add(uint16(i), []byte(b))
			documented++
		}
		f.Add(uint16(i), []byte(`{}`))
	}
	if documented < 40 {
		f.Fatalf("only %d documented examples match a route: is the route matching broken?", documented)
	}
	f.Fuzz(func(t *testing.T, which uint16, body []byte) {
		s.send(t, s.bodies[int(which)%len(s.bodies)], body)
	})
}

// graphQLInputOperations are GraphQL mutations that take one input
// object; FuzzGraphQLInputs fuzzes that object, sent as a variable.
var graphQLInputOperations = []struct{ query, seed string }{
	{`mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { __typename id } }`,
		`{"name":"fz","vouchersCount":1,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percentOff":10}},"metadata":{"k":1.5,"n":[1,{"d":"x"}]}}`},
	{`mutation($input: CreateVoucherInput!) { createVoucher(input: $input) { __typename id } }`,
		`{"type":"GIFT_VOUCHER","gift":{"amount":1000},"metadata":{"k":9007199254740993}}`},
	{`mutation($input: CustomerInput!) { upsertCustomer(input: $input) { __typename id } }`,
		`{"sourceID":"fz","name":"Fuzz","email":"fz@example.com","metadata":{"age":30,"vip":true}}`},
	{`mutation($input: PublishInput!) { publish(input: $input) { __typename id } }`,
		`{"campaign":{"name":"x"},"customer":{"sourceID":"fz"},"metadata":{"k":-0.0}}`},
	{`mutation($input: SendEventInput!) { sendEvent(input: $input) { __typename id } }`,
		`{"event":"login","customer":{"sourceID":"fz"},"metadata":{"device":"ios","n":1e300}}`},
	{`mutation($input: StackedRedemptionInput!) { validateStacked(input: $input) { __typename } }`,
		`{"redeemables":[{"object":"voucher","id":"x"}],"order":{"amount":1000,"metadata":{"k":2}},"metadata":{"k":"v"}}`},
	{`mutation($input: StackedRedemptionInput!) { redeemStacked(input: $input) { __typename } }`,
		`{"redeemables":[{"object":"voucher","id":"g","gift":{"credits":100}}],"order":{"amount":500,"items":[{"quantity":1,"price":500}]},"metadata":{"k":1}}`},
	{`mutation($input: CategoryInput!) { createCategory(input: $input) { __typename id } }`,
		`{"name":"fz","hierarchy":2}`},
	{`mutation($input: ValidationRuleInput!) { createValidationRule(input: $input) { __typename id } }`,
		`{"name":"fz","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1]}},"logic":"1"}}`},
	{`mutation($input: CreateSegmentInput!) { createSegment(input: $input) { __typename id } }`,
		`{"name":"fz","type":"auto-update","filter":{"junction":"and","metadata.age":{"conditions":{"$more_than":[18]}}}}`},
}

// FuzzGraphQLInputs sends fuzzed input objects, as the variable of the
// GraphQL mutations that take one, to /graphql.
func FuzzGraphQLInputs(f *testing.F) {
	s := newFuzzService(f)
	graphQL, ok := s.byTmpl["POST /graphql"]
	if !ok {
		f.Fatal("no POST /graphql route")
	}
	for i, op := range graphQLInputOperations {
		f.Add(uint8(i), []byte(op.seed))
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Fuzz(func(t *testing.T, which uint8, input []byte) {
		op := graphQLInputOperations[int(which)%len(graphQLInputOperations)]
		query, _ := json.Marshal(op.query)
		body := `{"query":` + string(query) + `,"variables":{"input":` + string(input) + `}}`
		s.send(t, graphQL, []byte(body))
	})
}
