package redemption

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestParseInsertReadsOnlyItsOwnForm: the combined statement takes an
// INSERT apart only when its VALUES are its arguments in order.
func TestParseInsertReadsOnlyItsOwnForm(t *testing.T) {
	for _, tc := range []struct {
		q    string
		args int
		ok   bool
	}{
		{`INSERT INTO "orders" ("id", "x") VALUES ($1, $2)`, 2, true},
		{`INSERT INTO "orders" ("id", "x") VALUES ($1, $2), ($3, $4)`, 4, true},
		{`INSERT INTO "orders" ("id", "x") VALUES ($1, $2) RETURNING "id"`, 2, true},
		{insertOrderSQL, len(orderColumns), true},
		{insertRedemptionsSQL[2], 2 * len(redemptionColumns), true},
		{`INSERT INTO "orders" ("id", "x") VALUES ($2, $1)`, 2, false},
		{`INSERT INTO "orders" ("id", "x") VALUES ($1, $2) ON CONFLICT DO NOTHING`, 2, false},
		{`INSERT INTO "orders" ("id", "x") VALUES ($1, now())`, 1, false},
		{`INSERT INTO "orders" ("id", "x") VALUES ($1, $2)`, 3, false},
	} {
		for range 2 { // parsed, then from the cache
			f, ok := parseInsert(tc.q, tc.args)
			if ok != tc.ok {
				t.Errorf("%s (%d args): %v, want %v", tc.q, tc.args, ok, tc.ok)
			}
			if ok && (f.table != "orders" && f.table != "redemptions") {
				t.Errorf("%s: table %q", tc.q, f.table)
			}
		}
	}
}

// TestArrayLiteral: values as elements of a PostgreSQL array literal.
func TestArrayLiteral(t *testing.T) {
	type kind string
	s := "a\"b\\c"
	at := time.Date(2026, 11, 28, 1, 2, 3, 456789000, time.UTC)
	got, ok := arrayLiteral([]any{nil, "x", &s, (*string)(nil), []byte(`{"k":"v"}`), int64(-5), 7, true, kind("K"), at, 1.5})
	want := `{NULL,"x","a\"b\\c",NULL,"{\"k\":\"v\"}",-5,7,t,"K","2026-11-28T01:02:03.456789Z",1.5}`
	if !ok || got != want {
		t.Errorf("got %s (%v)\nwant %s", got, ok, want)
	}
	if _, ok := arrayLiteral([]any{struct{}{}}); ok {
		t.Error("a struct has an array form")
	}
	// Documents and strings escaped in runs: the same as one byte at a time.
	local := time.Date(2026, 11, 28, 1, 2, 3, 0, time.FixedZone("X", 3600))
	raw := json.RawMessage(`{"a":"\"q\"","b":[1,"\\"]}`)
	got, ok = arrayLiteral([]any{raw, json.RawMessage(nil), `"`, `\\`, `x"`, `"x`, "", &local, (*time.Time)(nil)})
	want = `{"{\"a\":\"\\\"q\\\"\",\"b\":[1,\"\\\\\"]}",NULL,"\"","\\\\","x\"","\"x","",` +
		`"2026-11-28T01:02:03+01:00",NULL}`
	if !ok || got != want {
		t.Errorf("got %s (%v)\nwant %s", got, ok, want)
	}
	for _, s := range []string{"", `"`, `\`, `a"b\c"`, `""\\`, strings.Repeat(`{"k":"v\"w"}`, 50)} {
		var sb strings.Builder
		quoteElement(&sb, s)
		ref := `"`
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				ref += `\`
			}
			ref += string(s[i])
		}
		if ref += `"`; sb.String() != ref {
			t.Errorf("quoteElement(%q) = %s, want %s", s, sb.String(), ref)
		}
	}
}
