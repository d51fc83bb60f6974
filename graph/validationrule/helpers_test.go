package validationrule

import (
	"encoding/json"
	"fmt"
	"testing"
)

// decode unmarshals a JSON object the way the REST layer does.
func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return m
}

// mustParse parses rules JSON (and optional applicable_to JSON).
func mustParse(t *testing.T, rules, msg, applicableTo string) Definition {
	t.Helper()
	d, err := Parse(decode(t, rules), msg, decode(t, applicableTo))
	if err != nil {
		t.Fatalf("Parse(%s): %v", rules, err)
	}
	return d
}

// single builds the rules JSON for one rule "1".
func single(name, conditions string) string {
	return `{"1":{"name":"` + name + `","conditions":` + conditions + `,"rules":{}}}`
}

func amount(n int64) *int64 { return &n }

// vkey returns the violation key, or "" for nil.
func vkey(v *Violation) string {
	if v == nil {
		return ""
	}
	return v.Key
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
