package rest_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestPlaygroundKeepsKeysForTheSessionOnly checks the wiring that keeps the
// application keys out of localStorage: GraphiQL gets a sessionStorage-backed
// storage and persists headers there. .ci/browser-check checks the behaviour
// in a real browser.
func TestPlaygroundKeepsKeysForTheSessionOnly(t *testing.T) {
	e := resttest.New(t)
	page := e.Do(http.MethodGet, "/playground", nil, nil)
	if page.Status != http.StatusOK {
		t.Fatalf("GET /playground: %d", page.Status)
	}
	body := string(page.Body)
	for _, want := range []string{
		"window.sessionStorage.setItem(", // the storage GraphiQL gets
		"storage: sessionStore,",
		"shouldPersistHeaders: true,",          // persisted, in sessionStorage only
		`"X-App-Id": "&lt;application ID&gt;"`, // the visible hint on how to authenticate
		"GraphiQL.React.useSchemaContext",      // schema fetched again once keys are entered
		`<div id="key-panel">`,                 // the first screen asks for keys …
		"Nothing was sent to the server",       // … and sends nothing without them (no 401)
	} {
		if !strings.Contains(body, want) {
			t.Errorf("playground page lacks %q", want)
		}
	}
	if strings.Contains(body, "localStorage.setItem") {
		t.Error("playground page writes to localStorage")
	}
}

// TestPlaygroundLoadsNothingFromElsewhere checks that the page and its
// stylesheet (fonts included) reference nothing beyond the server.
func TestPlaygroundLoadsNothingFromElsewhere(t *testing.T) {
	e := resttest.New(t)
	page := string(e.Do(http.MethodGet, "/playground", nil, nil).Body)
	if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`).FindString(page); m != "" {
		t.Errorf("playground page refers to another host: %q", m)
	}
	for _, m := range regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "/playground/assets/") {
			t.Errorf("playground page loads %q, not an embedded asset", m[1])
		}
	}
	// (Go's client asks for gzip and decompresses the body itself.)
	css := e.Do(http.MethodGet, "/playground/assets/graphiql.min.css", nil, nil)
	if css.Status != http.StatusOK || len(css.Body) < 1000 {
		t.Fatalf("graphiql.min.css: %d, %d bytes", css.Status, len(css.Body))
	}
	for _, m := range regexp.MustCompile(`url\(\s*['"]?([^'")]*)`).FindAllStringSubmatch(string(css.Body), -1) {
		if !strings.HasPrefix(m[1], "data:") && !strings.HasPrefix(m[1], "#") {
			t.Errorf("graphiql.min.css loads %q", m[1])
		}
	}
	if strings.Contains(string(css.Body), "@import") {
		t.Error("graphiql.min.css imports another stylesheet")
	}
}
