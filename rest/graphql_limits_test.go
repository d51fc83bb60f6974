package rest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// introspectionQuery is the query GraphiQL 3.x sends to load the schema:
// graphql-js getIntrospectionQuery with descriptions, specifiedByURL,
// isRepeatable, the schema description, input value deprecation and
// isOneOf, its TypeRef fragment nesting typeDepth ofType levels (7 in
// graphql-js 16, 9 in 17).
func introspectionQuery(typeDepth int) string {
	ofType := ""
	for range typeDepth {
		ofType = "ofType { kind name " + ofType + "}"
	}
	return `
    query IntrospectionQuery {
      __schema {
        description
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types {
          ...FullType
        }
        directives {
          name
          description
          isRepeatable
          locations
          args(includeDeprecated: true) {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      specifiedByURL
      isOneOf
      fields(includeDeprecated: true) {
        name
        description
        args(includeDeprecated: true) {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields(includeDeprecated: true) {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
      isDeprecated
      deprecationReason
    }

    fragment TypeRef on __Type {
      kind
      name
      ` + ofType + `
    }`
}

// graphQLAt posts query to /graphql of the server at base.
func graphQLAt(e *resttest.Env, base, query string, h resttest.Headers) (resttest.Response, resttest.GraphQLResponse) {
	e.T.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	resp := e.DoAt(base, http.MethodPost, "/graphql", body, h)
	return resp, decodeGraphQL(e.T, resp)
}

func decodeGraphQL(t testing.TB, resp resttest.Response) resttest.GraphQLResponse {
	t.Helper()
	var out resttest.GraphQLResponse
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatalf("GraphQL response is not JSON (%d): %.300s", resp.Status, resp.Body)
	}
	out.Status = resp.Status
	return out
}

// wantGraphQLError checks that resp is a GraphQL response of one error
// with status, code and key, and a request id.
func wantGraphQLError(t *testing.T, resp resttest.Response, status int, code any, key string) resttest.GraphQLResponse {
	t.Helper()
	g := decodeGraphQL(t, resp)
	if resp.Status != status || len(g.Errors) != 1 {
		t.Fatalf("want %d with one error, got %d: %.500s", status, resp.Status, resp.Body)
	}
	ext := g.Errors[0].Extensions
	if ext["code"] != code || ext["key"] != key || ext["request_id"] == "" || ext["request_id"] == nil || g.Errors[0].Message == "" {
		t.Errorf("want code %v key %q with a request id and a message, got %.500s", code, key, resp.Body)
	}
	return g
}

// TestGraphQLIntrospectionAliasBomb: 1,000 aliased __schema fields are
// refused by the cost limit before anything runs.
func TestGraphQLIntrospectionAliasBomb(t *testing.T) {
	e := resttest.New(t)
	var q strings.Builder
	q.WriteString("{")
	for i := range 1000 {
		fmt.Fprintf(&q, " a%d: __schema { types { name fields { name } } }", i)
	}
	q.WriteString(" }")
	resp, g := graphQLAt(e, e.Server.URL, q.String(), resttest.App(e.Project))
	wantGraphQLError(t, resp, http.StatusUnprocessableEntity, float64(422), "query_too_complex")
	if g.Data != nil || len(resp.Body) > 2048 {
		t.Errorf("refusal carries data or is large (%d bytes): %.300s", len(resp.Body), resp.Body)
	}
	if msg := g.Errors[0].Message; !strings.Contains(msg, "complexity 105000") || !strings.Contains(msg, "limit is 1000") {
		t.Errorf("message does not give cost and limit: %s", msg)
	}
	// One alias of __typename per field, a thousand and one of them: also
	// counted.
	q.Reset()
	q.WriteString("{")
	for i := range graph.MaxComplexity + 1 {
		fmt.Fprintf(&q, " t%d: __typename", i)
	}
	q.WriteString(" }")
	resp, _ = graphQLAt(e, e.Server.URL, q.String(), resttest.App(e.Project))
	wantGraphQLError(t, resp, http.StatusUnprocessableEntity, float64(422), "query_too_complex")
}

// TestGraphQLGraphiQLIntrospection: the introspection query GraphiQL sends
// passes both limits and answers the schema.
func TestGraphQLGraphiQLIntrospection(t *testing.T) {
	e := resttest.New(t)
	es := graph.NewSchema(graph.NewResolver())
	for _, typeDepth := range []int{7, 9} {
		query := introspectionQuery(typeDepth)
		doc, errs := gqlparser.LoadQuery(es.Schema(), query)
		if errs != nil {
			t.Fatalf("introspection query does not validate: %v", errs)
		}
		cost := graph.OperationCost(context.Background(), es, doc.Operations[0], nil)
		data, introspection := graph.OperationDepth(doc.Operations[0])
		t.Logf("typeDepth %d: cost %d, depth %d, introspection depth %d", typeDepth, cost, data, introspection)

		resp, g := graphQLAt(e, e.Server.URL, query, resttest.App(e.Project))
		if resp.Status != http.StatusOK || len(g.Errors) > 0 {
			t.Fatalf("typeDepth %d: %d %.500s", typeDepth, resp.Status, resp.Body)
		}
		schema, _ := g.Data["__schema"].(map[string]any)
		if types, _ := schema["types"].([]any); len(types) == 0 {
			t.Errorf("typeDepth %d: no types in %.300s", typeDepth, resp.Body)
		}
	}
}

func TestGraphQLDepthLimits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	// 15 levels of data: campaigns edges node vouchers edges node campaign …
	deep := "{ campaigns { edges { node { vouchers { edges { node { campaign { vouchers { edges { node { campaign { " +
		"vouchers { edges { node { id } } } } } } } } } } } } } } }"
	resp, _ := graphQLAt(e, e.Server.URL, deep, app)
	wantGraphQLError(t, resp, http.StatusUnprocessableEntity, float64(422), "query_too_deep")

	ofTypes := func(n int) string {
		return "{ __schema { types { " + strings.Repeat("ofType { ", n) + "name" + strings.Repeat(" }", n) + " } } }"
	}
	for _, n := range []int{30, 500} {
		resp, _ := graphQLAt(e, e.Server.URL, ofTypes(n), app)
		wantGraphQLError(t, resp, http.StatusUnprocessableEntity, float64(422), "query_too_deep")
	}
	// Past 1,000 nested selection sets the parser itself refuses.
	resp, g := graphQLAt(e, e.Server.URL, ofTypes(1000), app)
	if resp.Status < 400 || len(g.Errors) == 0 || g.Errors[0].Extensions["key"] == nil || g.Data != nil {
		t.Errorf("1,000 nested ofType: %d %.300s", resp.Status, resp.Body)
	}
}

// serveWithoutIntrospection starts another instance of the service on e's
// database with GraphQL introspection switched off.
func serveWithoutIntrospection(t *testing.T, e *resttest.Env) string {
	t.Helper()
	router, err := rest.NewRouter(rest.Options{
		Client: e.DB.Client, Dialect: e.DB.Dialect, Logger: slog.New(slog.DiscardHandler),
		Ready:                       func(ctx context.Context) error { return e.DB.SQL.PingContext(ctx) },
		DisableGraphQLIntrospection: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestGraphQLIntrospectionSwitch(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	base := serveWithoutIntrospection(t, e)
	for _, q := range []string{
		introspectionQuery(9),
		`{ __type(name: "Campaign") { name } }`,
		`query { ...S } fragment S on Query { __schema { queryType { name } } }`,
	} {
		resp, g := graphQLAt(e, base, q, app)
		wantGraphQLError(t, resp, http.StatusUnprocessableEntity, float64(400), "introspection_disabled")
		if g.Data != nil {
			t.Errorf("refused introspection answers data: %.300s", resp.Body)
		}
	}
	resp, g := graphQLAt(e, base, `{ __typename campaigns { totalCount } }`, app)
	if resp.Status != http.StatusOK || len(g.Errors) > 0 || g.Data["__typename"] != "Query" {
		t.Errorf("query on a server without introspection: %d %s", resp.Status, resp.Body)
	}
	// The default server answers introspection.
	if resp, g := graphQLAt(e, e.Server.URL, `{ __type(name: "Campaign") { name } }`, app); len(g.Errors) > 0 {
		t.Errorf("introspection on the default server: %s", resp.Body)
	}
}

// unsized hides a reader's length, so the request is sent chunked, without
// a Content-Length.
type unsized struct{ io.Reader }

func TestGraphQLBodyLimits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	// A valid request padded past 1 MiB: 413 before anything else.
	big := []byte(`{"query": "{ __typename }", "pad": "` + strings.Repeat("x", 2<<20) + `"}`)
	resp := e.Do(http.MethodPost, "/graphql", big, app)
	wantGraphQLError(t, resp, http.StatusRequestEntityTooLarge, float64(413), "payload_too_large")

	req, err := http.NewRequest(http.MethodPost, e.Server.URL+"/graphql", unsized{strings.NewReader(string(big))})
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range app {
		req.Header.Set(k, v)
	}
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(hres.Body)
	hres.Body.Close()
	wantGraphQLError(t, resttest.Response{Status: hres.StatusCode, Body: body}, http.StatusRequestEntityTooLarge,
		float64(413), "payload_too_large")

	// Garbage is refused without being echoed.
	garbage := []byte(strings.Repeat("not json at all ", 200<<10/16))
	resp = e.Do(http.MethodPost, "/graphql", garbage, app)
	wantGraphQLError(t, resp, http.StatusBadRequest, float64(400), "invalid_json")
	if len(resp.Body) >= 2048 {
		t.Errorf("%d bytes of garbage got %d bytes of answer", len(garbage), len(resp.Body))
	}
	truncated := []byte(`{"query": "` + strings.Repeat("{ a ", 50<<10))
	resp = e.Do(http.MethodPost, "/graphql", truncated, app)
	wantGraphQLError(t, resp, http.StatusBadRequest, float64(400), "invalid_json")
	if len(resp.Body) >= 2048 {
		t.Errorf("a truncated body got %d bytes of answer", len(resp.Body))
	}
	for _, shape := range []string{`[]`, `{"query": 5}`, `{"variables": "x"}`} {
		resp = e.Do(http.MethodPost, "/graphql", []byte(shape), app)
		wantGraphQLError(t, resp, http.StatusBadRequest, float64(400), "invalid_graphql_request")
	}
}

func TestGraphQLMethodsAndContentTypes(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	mutation := `mutation { createCampaign(input: {name: "by GET"}) { id } }`
	resp := e.Do(http.MethodGet, "/graphql?query="+url.QueryEscape(mutation), nil, app)
	wantGraphQLError(t, resp, http.StatusMethodNotAllowed, float64(405), "method_not_allowed")
	if !strings.Contains(resp.Header.Get("Allow"), "POST") {
		t.Errorf("Allow = %q", resp.Header.Get("Allow"))
	}
	if n := e.DB.Client.Campaign.Query().CountX(systemCtx()); n != 0 {
		t.Errorf("a mutation sent by GET ran: %d campaigns", n)
	}
	resp = e.Do(http.MethodGet, "/graphql?variables=%7Bnope&query="+url.QueryEscape(`{ __typename }`), nil, app)
	wantGraphQLError(t, resp, http.StatusBadRequest, float64(400), "invalid_graphql_request")
	// No transport of gqlgen takes an upgrade (websocket) request.
	resp = e.Do(http.MethodGet, "/graphql?query="+url.QueryEscape(`{ __typename }`), nil,
		resttest.Merge(app, resttest.Headers{"Upgrade": "websocket"}))
	wantGraphQLError(t, resp, http.StatusBadRequest, float64(400), "invalid_graphql_request")

	query, _ := json.Marshal(map[string]any{"query": "{ __typename }"})
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "nonsense/"} {
		resp = e.Do(http.MethodPost, "/graphql", query, resttest.Merge(app, resttest.Headers{"Content-Type": ct}))
		wantGraphQLError(t, resp, http.StatusUnsupportedMediaType, float64(415), "unsupported_media_type")
	}
	// multipart/form-data is the file upload transport: a body that is not
	// a multipart GraphQL request gets the error shape too.
	resp = e.Do(http.MethodPost, "/graphql", query, resttest.Merge(app, resttest.Headers{"Content-Type": "multipart/form-data; boundary=x"}))
	wantGraphQLError(t, resp, http.StatusUnprocessableEntity, float64(422), "invalid_graphql_request")
	for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
		resp = e.Do(method, "/graphql", query, app)
		wantGraphQLError(t, resp, http.StatusMethodNotAllowed, float64(405), "method_not_allowed")
	}
	resp = e.Do(http.MethodPost, "/graphql", query, resttest.Merge(app, resttest.Headers{"Content-Type": "application/json; charset=utf-8"}))
	if g := decodeGraphQL(t, resp); resp.Status != http.StatusOK || g.Data["__typename"] != "Query" {
		t.Errorf("JSON with a charset: %d %s", resp.Status, resp.Body)
	}
}

func TestHeaderLimit(t *testing.T) {
	e := resttest.New(t)
	big := resttest.Merge(resttest.App(e.Project), resttest.Headers{"X-Padding": strings.Repeat("x", 100<<10)})
	resp := e.Do(http.MethodGet, "/v1/campaigns/camp_x", nil, big)
	body := resp.JSON(t)
	if resp.Status != http.StatusRequestHeaderFieldsTooLarge || body["code"] != float64(431) ||
		body["key"] != "request_header_fields_too_large" || body["request_id"] == "" {
		t.Errorf("REST: %d %s", resp.Status, resp.Body)
	}
	query, _ := json.Marshal(map[string]any{"query": "{ __typename }"})
	resp = e.Do(http.MethodPost, "/graphql", query, big)
	wantGraphQLError(t, resp, http.StatusRequestHeaderFieldsTooLarge, float64(431), "request_header_fields_too_large")
	// Headers of an ordinary size pass.
	resp = e.Do(http.MethodPost, "/graphql", query, resttest.Merge(resttest.App(e.Project),
		resttest.Headers{"X-Padding": strings.Repeat("x", 8<<10)}))
	if resp.Status != http.StatusOK {
		t.Errorf("8 KiB header: %d %s", resp.Status, resp.Body)
	}
}

func TestGraphQLAutomaticPersistedQueries(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	apq := func(query string) (hash string, ext map[string]any) {
		sum := sha256.Sum256([]byte(query))
		hash = hex.EncodeToString(sum[:])
		return hash, map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}
	}
	post := func(body map[string]any) (resttest.Response, resttest.GraphQLResponse) {
		b, _ := json.Marshal(body)
		resp := e.Do(http.MethodPost, "/graphql", b, app)
		return resp, decodeGraphQL(t, resp)
	}
	get := func(params url.Values) (resttest.Response, resttest.GraphQLResponse) {
		resp := e.Do(http.MethodGet, "/graphql?"+params.Encode(), nil, app)
		return resp, decodeGraphQL(t, resp)
	}
	wantNotFound := func(resp resttest.Response, g resttest.GraphQLResponse) {
		t.Helper()
		// Apollo's protocol: the string code, which its clients look for.
		if len(g.Errors) != 1 || g.Errors[0].Message != "PersistedQueryNotFound" ||
			g.Errors[0].Extensions["code"] != "PERSISTED_QUERY_NOT_FOUND" ||
			g.Errors[0].Extensions["key"] != "persisted_query_not_found" || g.Errors[0].Extensions["request_id"] == "" {
			t.Errorf("unknown hash: %d %s", resp.Status, resp.Body)
		}
	}
	wantData := func(resp resttest.Response, g resttest.GraphQLResponse) {
		t.Helper()
		if resp.Status != http.StatusOK || len(g.Errors) > 0 || g.Data["campaigns"] == nil {
			t.Errorf("persisted query: %d %s", resp.Status, resp.Body)
		}
	}

	query := `query ByPOST { campaigns { totalCount } }`
	_, ext := apq(query)
	wantNotFound(post(map[string]any{"extensions": ext}))
	wantData(post(map[string]any{"query": query, "extensions": ext}))
	wantData(post(map[string]any{"extensions": ext}))
	// A query stored by POST runs from its hash by GET, as browsers send it.
	extJSON, _ := json.Marshal(ext)
	wantData(get(url.Values{"extensions": {string(extJSON)}}))

	query = `query ByGET { campaigns { totalCount } }`
	_, ext = apq(query)
	extJSON, _ = json.Marshal(ext)
	wantNotFound(get(url.Values{"extensions": {string(extJSON)}}))
	wantData(get(url.Values{"query": {query}, "extensions": {string(extJSON)}}))
	wantData(get(url.Values{"extensions": {string(extJSON)}}))

	// A hash that does not match the text is an ordinary keyed error.
	_, g := post(map[string]any{"query": `{ campaigns { totalCount } }`, "extensions": ext})
	if len(g.Errors) != 1 || g.Errors[0].Extensions["key"] != "invalid_graphql_request" {
		t.Errorf("mismatched hash: %+v", g.Errors)
	}
}
