package jsonnum

import (
	"math"
	"strconv"
)

// MaxFloat and MinFloat are the literals Repair writes in place of a
// number beyond float64's range: the largest finite float64 and its
// negative.
const (
	MaxFloat = "1.7976931348623157e308"
	MinFloat = "-1.7976931348623157e308"
)

// shortLiteral is the longest literal without exponent that needs no
// parsing: 18 digits (with a sign, a point or both) always fit int64 and
// are always a finite float64.
const shortLiteral = 18

// Valid reports whether the number literal lit keeps the rule: without
// fraction or exponent it fits int64, otherwise it is a finite float64.
// lit must be a JSON (or GraphQL) number literal; anything else is not
// valid.
func Valid(lit string) bool {
	integer, exponent := shape(lit)
	if len(lit) <= shortLiteral && !exponent {
		return true
	}
	if integer {
		_, err := strconv.ParseInt(lit, 10, 64)
		return err == nil
	}
	return Finite(lit)
}

// Finite reports whether lit parses to a finite float64 (a value that
// underflows to zero is finite).
func Finite(lit string) bool {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return false
		}
	}
	return !math.IsInf(f, 0) && !math.IsNaN(f)
}

// Reason says why lit breaks the rule, for an error message.
func Reason(lit string) string {
	if integer, _ := shape(lit); integer {
		return "an integer between -9223372036854775808 and 9223372036854775807"
	}
	return "a finite number (at most ±1.7976931348623157e308)"
}

// shape reports whether lit is an integer literal (no fraction, no
// exponent) and whether it carries an exponent.
func shape(lit string) (integer, exponent bool) {
	integer = true
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '.':
			integer = false
		case 'e', 'E':
			return false, true
		}
	}
	return integer, false
}

// IsLiteral reports whether s is exactly one JSON number literal
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), whatever its range:
// for numbers that arrive as text (query strings) before Valid is asked.
func IsLiteral(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
