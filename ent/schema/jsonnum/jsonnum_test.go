package jsonnum

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		want bool
	}{
		{"0", true},
		{"-0", true},
		{"123456789012345678", true},
		{"9223372036854775807", true},
		{"-9223372036854775808", true},
		{"9223372036854775808", false}, // 2^63
		{"-9223372036854775809", false},
		{"18446744073709551616", false}, // 2^64
		{"1e400", false},
		{"-1e400", false},
		{"1E309", false},
		{"1.7976931348623157e308", true},
		{"-1.7976931348623157e308", true},
		{"1.7976931348623159e308", false},
		{"1e-400", true}, // underflows to 0
		{"1e2", true},
		{"9223372036854775808.0", true}, // a fraction: only finite is asked
		{"1" + zeros(400) + ".5", false},
		{"0." + zeros(400) + "1", true},
	} {
		if got := Valid(tc.lit); got != tc.want {
			t.Errorf("Valid(%.40s) = %v, want %v", tc.lit, got, tc.want)
		}
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		doc, path, lit string
	}{
		{`{"metadata":{"k":1e400}}`, "metadata.k", "1e400"},
		{`{"a":"1e400","metadata":{"k":-1e400}}`, "metadata.k", "-1e400"},
		{`{"order":{"items":[{"price":1},{"price":9223372036854775808}]}}`, "order.items[1].price", "9223372036854775808"},
		{`{"x":[1,2,[3,18446744073709551616]]}`, "x[2][1]", "18446744073709551616"},
		{`{"s":"a \"b\" 1e400","n":{"k\"ey":1e999}}`, `n.k"ey`, "1e999"},
		{`{"a":{"b":1},"c":[{"d":{}},{"e":1e400}]}`, "c[1].e", "1e400"},
		{`[{"amount":1e400}]`, "[0].amount", "1e400"},
		{`1e400`, "", "1e400"},
		{` { "k" : 1E+400 } `, "k", "1E+400"},
	} {
		err := Check([]byte(tc.doc))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Check(%s) = %v, want an *Error", tc.doc, err)
			continue
		}
		if e.Path != tc.path || e.Literal != tc.lit {
			t.Errorf("Check(%s) = path %q literal %q, want %q %q", tc.doc, e.Path, e.Literal, tc.path, tc.lit)
		}
	}
	for _, doc := range []string{
		`{}`, `{"metadata":{"k":1e300,"i":9223372036854775807,"f":1.5e-400,"s":"1e400"}}`,
		`{"a":[1,2,3],"b":"\\","c":-12.5e3}`, ``, `{"unterminated":"1e400`,
	} {
		if err := Check([]byte(doc)); err != nil {
			t.Errorf("Check(%s) = %v, want nil", doc, err)
		}
	}
}

func TestCheckMessageNamesTheField(t *testing.T) {
	err := Check([]byte(`{"metadata":{"k":1e400}}`))
	want := "property .metadata.k must be a finite number (at most ±1.7976931348623157e308), got 1e400"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestRepair(t *testing.T) {
	big := "1" + zeros(400) // how PostgreSQL's jsonb prints 1e400
	for _, tc := range []struct {
		doc, want string
		changed   bool
	}{
		{`{"k":1e400}`, `{"k":1.7976931348623157e308}`, true},
		{`{"b": 2, "a":[-1e400, 1E999 ,"1e400"], "z":9223372036854775808}`,
			`{"b": 2, "a":[-1.7976931348623157e308, 1.7976931348623157e308 ,"1e400"], "z":9223372036854775808}`, true},
		{`{"k":` + big + `,"m":-` + big + `.5}`, `{"k":1.7976931348623157e308,"m":-1.7976931348623157e308}`, true},
		{`{"k":1e300,"s":"x"}`, `{"k":1e300,"s":"x"}`, false},
	} {
		got, changed := Repair([]byte(tc.doc))
		if string(got) != tc.want || changed != tc.changed {
			t.Errorf("Repair(%.60s) = %s, %v; want %s, %v", tc.doc, got, changed, tc.want, tc.changed)
		}
		var v any
		if err := json.Unmarshal(got, &v); err != nil {
			t.Errorf("repaired %.60s does not decode: %v", tc.doc, err)
		}
	}
}

// FuzzCheck: Check and Repair never panic, and a repaired document that
// decodes holds no infinite number.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"metadata":{"k":1e400}}`, `[1,"2",{"a":-1e400}]`, `{"k\"":9223372036854775808}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkErr := Check(doc)
		fixed, _ := Repair(doc)
		if !json.Valid(doc) {
			return
		}
		// Valid JSON fails to decode only on a number out of float64's
		// range: Check must refuse exactly what would break a later read
		// (and may refuse more: integers past int64).
		var v any
		if err := json.Unmarshal(doc, &v); err != nil && checkErr == nil {
			t.Fatalf("Check accepted %q, which does not decode: %v", doc, err)
		}
		if err := json.Unmarshal(fixed, &v); err != nil {
			t.Fatalf("repaired %q does not decode: %v", fixed, err)
		}
	})
}

func TestIsLiteral(t *testing.T) {
	for _, s := range []string{"0", "-0", "12", "1.5", "-1.5e10", "1E+400", "0.0e-1"} {
		if !IsLiteral(s) {
			t.Errorf("IsLiteral(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "NaN", "Inf", "-Infinity", "0x10", " 1", "1 ", "1_000", "+1"} {
		if IsLiteral(s) {
			t.Errorf("IsLiteral(%q) = true", s)
		}
	}
}
