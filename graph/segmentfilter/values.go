package segmentfilter

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Operands turns a condition's operand (a scalar or an array) into a list.
func Operands(arg any) []any {
	if a, ok := arg.([]any); ok {
		return a
	}
	if a, ok := arg.([]string); ok {
		out := make([]any, len(a))
		for i, s := range a {
			out[i] = s
		}
		return out
	}
	return []any{arg}
}

// Text is a value as the language compares it textually: strings as they
// are, null as "", numbers and anything else as JSON text.
func Text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	case json.Number:
		return t.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// asNumber reads a number from a JSON number, float, integer or numeric string.
func asNumber(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return f, err == nil && !math.IsNaN(f)
	}
	return 0, false
}

// equalValues compares numerically when both sides are numbers, else as text.
func equalValues(a, b any) bool {
	if x, ok := asNumber(a); ok {
		if y, ok := asNumber(b); ok {
			return x == y
		}
	}
	return Text(a) == Text(b)
}

// matchCondition evaluates one operator against a value (nil: unknown).
func matchCondition(op string, value any, operands []any) bool {
	has := value != nil && Text(value) != ""
	switch op {
	case "$has_value":
		return has
	case "$is_unknown":
		return !has
	case "$is", "$in":
		if !has {
			return false
		}
		return slices.ContainsFunc(operands, func(v any) bool { return equalValues(value, v) })
	case "$is_not", "$not_in":
		return !has || !slices.ContainsFunc(operands, func(v any) bool { return equalValues(value, v) })
	case "$contains", "$not_contain", "$starts_with", "$ends_with":
		s := strings.ToLower(Text(value))
		hit := has && slices.ContainsFunc(operands, func(v any) bool {
			w := strings.ToLower(Text(v))
			switch op {
			case "$starts_with":
				return strings.HasPrefix(s, w)
			case "$ends_with":
				return strings.HasSuffix(s, w)
			}
			return strings.Contains(s, w)
		})
		if op == "$not_contain" {
			return !hit
		}
		return hit
	case "$more_than", "$less_than", "$more_than_equal", "$less_than_equal":
		x, ok := asNumber(value)
		if !ok || len(operands) == 0 {
			return false
		}
		y, ok := asNumber(operands[0])
		if !ok {
			return false
		}
		switch op {
		case "$more_than":
			return x > y
		case "$less_than":
			return x < y
		case "$more_than_equal":
			return x >= y
		}
		return x <= y
	}
	return false
}
