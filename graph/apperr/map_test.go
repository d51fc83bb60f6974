package apperr

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lib/pq"
)

// TestDataExceptions: values PostgreSQL refuses to store are the caller's
// 400, worded without the database's message; other database errors stay
// unmapped (a logged 500).
func TestDataExceptions(t *testing.T) {
	for code, want := range map[pq.ErrorCode]string{
		"22021": "NUL",
		"22P05": "NUL",
		"22001": "longer than allowed",
		"22003": "cannot be stored",
	} {
		err := fmt.Errorf("publishing: %w", &pq.Error{Code: code, Message: `invalid byte sequence for encoding "UTF8": 0x00`})
		e, ok := From(err)
		if !ok || e.Code != http.StatusBadRequest || e.Key != "invalid_payload" || !strings.Contains(e.Details, want) ||
			strings.Contains(e.Details, "UTF8") {
			t.Errorf("%s: %+v (mapped %v)", code, e, ok)
		}
	}
	if e, ok := From(&pq.Error{Code: "XX000"}); ok {
		t.Errorf("internal error mapped to %+v", e)
	}
}
