package graph

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
)

// GraphQL answers, with data alone or with errors, carry their length
// (a Content-Length instead of a chunked body) and are whole JSON.
func TestGraphQLAnswersCarryTheirLength(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "sized", campaigntest.Codes("L", 3)...)
	for name, query := range map[string]string{
		"data":   `{ campaign(idOrName: "sized") { vouchers(first: 3) { edges { node { code } } } } }`,
		"errors": `{ nope }`,
	} {
		body, _ := json.Marshal(map[string]any{"query": query})
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body)).WithContext(ctx)
		req.Header.Set("Content-Type", "application/json")
		rw := httptest.NewRecorder()
		testHandler().ServeHTTP(rw, req)
		if got := rw.Header().Get("Content-Length"); got != strconv.Itoa(rw.Body.Len()) {
			t.Errorf("%s: Content-Length %q for a body of %d bytes", name, got, rw.Body.Len())
		}
		var out map[string]any
		if err := json.Unmarshal(rw.Body.Bytes(), &out); err != nil || out[name] == nil {
			t.Errorf("%s: answer %s", name, rw.Body)
		}
	}
}
