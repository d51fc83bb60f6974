package validationrule

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
)

// toInt converts a JSON-decoded or Go number holding an integral value.
func toInt(v any) (int64, bool) {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i, true
		}
		f, err := n.Float64()
		return floatToInt(f, err == nil)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int64(rv.Uint()), rv.Uint() <= math.MaxInt64
	case reflect.Float32, reflect.Float64:
		return floatToInt(rv.Float(), true)
	}
	return 0, false
}

func floatToInt(f float64, ok bool) (int64, bool) {
	if !ok || f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

// toFloat converts a JSON-decoded or Go number (not NaN or ±Inf).
func toFloat(v any) (float64, bool) {
	var f float64
	if n, ok := v.(json.Number); ok {
		var err error
		if f, err = n.Float64(); err != nil {
			return 0, false
		}
	} else {
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f = float64(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			f = float64(rv.Uint())
		case reflect.Float32, reflect.Float64:
			f = rv.Float()
		default:
			return 0, false
		}
	}
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// scalar normalizes a string, bool or number (to float64).
func scalar(v any) (any, bool) {
	switch x := v.(type) {
	case string, bool:
		return x, true
	}
	return toFloat(v)
}

// asList converts an operand list: nil, []any or any other slice/array.
func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case []any:
		return x, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// describe names a value's JSON type for error messages.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("boolean %t", x)
	case map[string]any:
		return "an object"
	}
	if _, ok := toFloat(v); ok {
		return fmt.Sprintf("number %v", v)
	}
	if _, ok := asList(v); ok {
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}
