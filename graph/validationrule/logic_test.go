package validationrule

import (
	"errors"
	"strings"
	"testing"
)

func fiveRules() map[string]Condition {
	m := map[string]Condition{}
	for _, k := range []string{"1", "2", "3", "4", "10"} {
		m[k] = Condition{Name: NameOrderAmount}
	}
	return m
}

func TestLogicErrors(t *testing.T) {
	tests := []struct{ expr, reason string }{
		{"1 and", "unexpected end of expression"},
		{"and 1", `unexpected "and" at position 1`},
		{"1 2", `unexpected "2" at position 3`},
		{"(1 and 2", `missing ")" for "(" at position 1`},
		{"(1 and 2 3)", `expected ")" at position 10, got "3"`},
		{"1)", `unexpected ")" at position 2`},
		{"()", `unexpected ")" at position 2`},
		{"1 && 2", `unexpected character '&' at position 3`},
		{"1 xor 2", `unknown word "xor" at position 3`},
		{"1 and é", `unexpected character 'é' at position 7`},
		{"5", `rule key "5" at position 1 is not defined`},
		{"01", `rule key "01" at position 1 is not defined`},
		{"not", "unexpected end"},
		{"1 or or 2", `unexpected "or" at position 6`},
		{strings.Repeat("(", 60) + "1" + strings.Repeat(")", 60), "nested more than 50 levels"},
		{strings.Repeat("not ", 60) + "1", "nested more than 50 levels"},
		{strings.Repeat("1 or ", 250) + "1", "longer than 1000 characters"},
	}
	for _, tt := range tests {
		_, err := compileLogic(tt.expr, fiveRules())
		var e *Error
		if !errors.As(err, &e) || e.Property != "rules.logic" || !strings.Contains(e.Reason, tt.reason) {
			t.Errorf("%q: got %v, want %q", tt.expr, err, tt.reason)
		}
	}
}

func TestLogicEval(t *testing.T) {
	tests := []struct {
		expr  string
		vals  string // values of rules 1,2,3,4 as T/F
		want  bool
		blame string // smallest deciding key when false
	}{
		{"(1) and (2)", "TTTT", true, ""},
		{"(1) and (2)", "TFTT", false, "2"},
		{"(1) and (2)", "FFTT", false, "1"},
		{"1 AND 2 And 3", "TTFT", false, "3"},
		{"1 or 2", "FTTT", true, ""},
		{"1 or 2", "FFTT", false, "1"},
		{"1 OR 2", "TFTT", true, ""},
		{"not 1", "TTTT", false, "1"},
		{"NOT 1", "FTTT", true, ""},
		{"not not 1", "TTTT", true, ""},
		{"not (1 and 2)", "TTTT", false, "1"},
		{"not (1 or 2)", "FTTT", false, "2"},
		// precedence: not > and > or
		{"1 or 2 and 3", "TFFT", true, ""},   // 1 or (2 and 3)
		{"1 or 2 and 3", "FTFT", false, "1"}, // false "or": both operands decide (1, and 3 via the "and")
		{"not 1 and 2", "FTTT", true, ""},    // (not 1) and 2
		{"not 1 and 2", "TFTT", false, "1"},  // both operands false
		{"not 1 or 2", "TFTT", false, "1"},
		{"(1 or 2) and 3", "FFTT", false, "1"},
		{"(1 or 2) and 3", "TFFT", false, "3"},
		{"3 and (1 or 2)", "FFTT", false, "1"},
		{"3 and (1 or 2)", "TTFT", false, "3"},
		{"1 and (2 or (3 and not 4))", "TFTF", true, ""},
		{"1 and (2 or (3 and not 4))", "TFTT", false, "2"},
		{"((1))", "FTTT", false, "1"},
		{"1and 2", "TTTT", true, ""},
		{"10 and 1", "TTTT", false, "10"}, // rule 10 is false below
		{"", "TTFT", false, "3"},          // empty logic: all joined by and
		{"", "TTTT", false, "10"},
	}
	for _, tt := range tests {
		n, err := compileLogic(tt.expr, fiveRules())
		if err != nil {
			t.Fatalf("%q: %v", tt.expr, err)
		}
		leaf := func(k string) bool {
			if k == "10" {
				return false
			}
			return tt.vals[k[0]-'1'] == 'T'
		}
		got, blame := n.eval(leaf)
		if got != tt.want || (!got && blame != tt.blame) {
			t.Errorf("%q with %s: got %v blame %q, want %v blame %q", tt.expr, tt.vals, got, blame, tt.want, tt.blame)
		}
	}
}

func TestLogicEmptyWithoutRules(t *testing.T) {
	n, err := compileLogic("  ", nil)
	if n != nil || err != nil {
		t.Errorf("got %v, %v", n, err)
	}
}
