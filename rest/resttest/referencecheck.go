package resttest

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
)

// referenceLogEnv names a file to which the harness appends every
// violation of the reference documents instead of failing the test (a
// survey of the deviations across a whole test run).
const referenceLogEnv = "PROMO_REFERENCE_LOG"

var referenceLog sync.Mutex

// checkReference runs the strict check (reference.go) on one response and
// fails the test on a violation the allow-list (referenceallow.go) does not
// keep.
func (e *Env) checkReference(method, requestURI, route string, status int, header http.Header, body []byte) {
	e.T.Helper()
	violations, err := CheckReference(method, route, status, header.Get("Content-Type"), body)
	if err != nil {
		e.T.Errorf("reference OpenAPI documents: %v", err)
		return
	}
	var kept []string
	for _, v := range violations {
		if allowedDeviation(v) {
			continue
		}
		kept = append(kept, v.String())
	}
	if len(kept) == 0 {
		return
	}
	if path := os.Getenv(referenceLogEnv); path != "" {
		appendReferenceLog(path, e.T.Name(), kept)
		return
	}
	e.T.Errorf("response of %s %s does not match the real service's OpenAPI document (rest/testdata/reference-openapi):\n  %s\nbody: %s",
		method, requestURI, strings.Join(kept, "\n  "), truncate(body, 2000))
}

func appendReferenceLog(path, test string, lines []string) {
	referenceLog.Lock()
	defer referenceLog.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	for _, l := range lines {
		fmt.Fprintf(f, "%s\t%s\n", test, l)
	}
}
