package resttest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Sending requests to the service: REST (raw, JSON, form-encoded), GraphQL,
// and waiting for a job.

// Response is a decoded HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as a JSON object.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object (%d): %s", r.Status, r.Body)
	}
	return m
}

// Headers are the credentials (and anything else) sent with a request.
type Headers map[string]string

// Do sends a request with a raw body (nil for none) and the given headers.
// A JSON content type is always sent, as the official SDKs do.
func (e *Env) Do(method, path string, body []byte, h Headers) Response {
	e.T.Helper()
	return e.DoAt(e.Server.URL, method, path, body, h)
}

// DoAt is Do against the server at base (see AnotherServer).
func (e *Env) DoAt(base, method, path string, body []byte, h Headers) Response {
	e.T.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	return e.send(base, method, path, rd, "application/json", h)
}

// Form sends form-encoded parameters (the OAuth endpoints' encoding).
func (e *Env) Form(path string, form url.Values, h Headers) Response {
	e.T.Helper()
	return e.send(e.Server.URL, http.MethodPost, path, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded", h)
}

// send makes a request with the content type and headers h (which may
// override it), reads the answer and checks it against the OpenAPI
// document (contract.go).
func (e *Env) send(base, method, path string, body io.Reader, contentType string, h Headers) Response {
	e.T.Helper()
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		e.T.Fatalf("building request: %v", err)
	}
	req.Header.Set("Content-Type", contentType)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.T.Fatalf("reading response: %v", err)
	}
	e.checkContract(method, path, resp.StatusCode, resp.Header, b)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Merge returns the union of header sets (later ones win).
func Merge(hs ...Headers) Headers {
	out := Headers{}
	for _, h := range hs {
		for k, v := range h {
			out[k] = v
		}
	}
	return out
}

// DoJSON sends v encoded as JSON.
func (e *Env) DoJSON(method, path string, v any, h Headers) Response {
	e.T.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		e.T.Fatalf("encoding body: %v", err)
	}
	return e.Do(method, path, b, h)
}

// GraphQLResponse is a decoded GraphQL response.
type GraphQLResponse struct {
	Status int
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// GraphQL posts a query with variables to /graphql.
func (e *Env) GraphQL(h Headers, query string, vars map[string]any) GraphQLResponse {
	e.T.Helper()
	resp := e.DoJSON(http.MethodPost, "/graphql", map[string]any{"query": query, "variables": vars}, h)
	var out GraphQLResponse
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		e.T.Fatalf("GraphQL response is not JSON (%d): %s", resp.Status, resp.Body)
	}
	out.Status = resp.Status
	return out
}

// WaitForJob polls GET /v1/async-actions/{id} until the job has ended and
// returns its final state.
func (e *Env) WaitForJob(h Headers, id string) map[string]any {
	e.T.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp := e.Do(http.MethodGet, "/v1/async-actions/"+id, nil, h)
		if resp.Status != http.StatusOK {
			e.T.Fatalf("GET async action %s: %d %s", id, resp.Status, resp.Body)
		}
		job := resp.JSON(e.T)
		if s := job["status"]; s == "DONE" || s == "FAILED" {
			return job
		}
		if time.Now().After(deadline) {
			e.T.Fatalf("job %s did not finish: %v", id, job)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
