package export

import (
	"bytes"
	stdsql "database/sql"
	"encoding/csv"
	"testing"
	"time"
)

// TestExportLineMatchesEncodingCSV: the export's own CSV appender writes
// the bytes encoding/csv writes for the same cells, whatever they hold.
func TestExportLineMatchesEncodingCSV(t *testing.T) {
	tricky := []string{"", "plain", " lead", "\tlead", "\u00a0nbsp", "trail ", `\.`, `\.x`, "a,b", `say "hi"`,
		`"`, "line\nbreak", "cr\rlf\r\n", "Grüße ✓", "bad \xff utf8", "nul\x00"}
	names := []string{"id", "type", "source_id", "reason", "balance", "amount", "created_at", "voucher_id",
		"campaign_id", "details", "related_transaction_id", "source"}
	at := time.Date(2026, 11, 23, 10, 11, 12, 345_000_000, time.FixedZone("x", 3600))
	for _, s := range tricky {
		tx := exportTx{ID: s, Type: "CREDITS_ADDITION", SourceID: stdsql.NullString{String: s, Valid: s != ""},
			Reason: stdsql.NullString{String: s, Valid: true}, Balance: -12, Amount: 1 << 40, CreatedAt: at,
			OwnerID: s, Details: []byte(`{"b": [1, "x,y"], "a": {"q": "\""}}`), Source: s}
		got, err := appendExportLine(appendCSVHeader(nil, names), exportFields(names), &tx)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		_ = w.Write(names)
		_ = w.Write([]string{s, "CREDITS_ADDITION", s, s, "-12", "1099511627776", "2026-11-23T09:11:12.345Z", s, "",
			`{"a":{"q":"\""},"b":[1,"x,y"]}`, "", s})
		w.Flush()
		if string(got) != want.String() {
			t.Errorf("cell %q:\n got %q\nwant %q", s, got, want.String())
		}
	}
}

// TestExportDetailsJSON: stored details are written as the API encodes
// them; an undecodable value is an error, not a silent cell.
func TestExportDetailsJSON(t *testing.T) {
	for raw, want := range map[string]string{`{}`: `{}`, `{"b": 1, "a": 2}`: `{"a":2,"b":1}`, ``: `null`, `null`: `null`} {
		if got, err := detailsJSON([]byte(raw)); err != nil || got != want {
			t.Errorf("detailsJSON(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	if _, err := detailsJSON([]byte(`{"a":`)); err == nil {
		t.Error("broken JSON gave no error")
	}
}
