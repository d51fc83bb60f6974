package redemption

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// The combined statement's arguments: one PostgreSQL array literal per
// column (combine_sql.go), written here.

// errNoArrayForm: a value of a member's rows has no array form here.
var errNoArrayForm = errors.New("combining redemptions: a value with no array form")

// arrayLiteral is the PostgreSQL array literal of values (text forms as
// lib/pq sends them as arguments); false for a type it does not know.
func arrayLiteral(values []any) (string, bool) {
	var sb strings.Builder
	sb.Grow(literalSize(values))
	sb.WriteByte('{')
	for i, v := range values {
		if i > 0 {
			sb.WriteByte(',')
		}
		if !writeElement(&sb, v) {
			return "", false
		}
	}
	sb.WriteByte('}')
	return sb.String(), true
}

// arrayable reports whether writeElement knows v's type.
func arrayable(v any) bool {
	switch v.(type) {
	case nil, string, []byte, json.RawMessage, time.Time, int, int64, int32, float64, bool,
		*string, *int, *int64, *float64, *bool, *time.Time:
		return true
	}
	switch reflect.ValueOf(v).Kind() { // named types: ent's enums
	case reflect.String, reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Bool:
		return true
	}
	return false
}

// literalSize estimates the length of values' array literal: the text of
// its strings and documents and a few bytes for every other element.
func literalSize(values []any) int {
	n := 2
	for _, v := range values {
		switch x := v.(type) {
		case string:
			n += len(x) + 3
		case []byte:
			n += len(x) + 3
		case json.RawMessage:
			n += len(x) + 3
		case *string:
			if x != nil {
				n += len(*x) + 3
			}
		default:
			n += 24
		}
	}
	return n + n/8 // the documents' quotes are escaped
}

// quoteElement writes s as a quoted element of an array literal: a
// backslash before each double quote and backslash, the rest copied in
// runs (a JSON document is mostly runs between quotes).
func quoteElement(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			sb.WriteString(s[start:i])
			sb.WriteByte('\\')
			start = i
		}
	}
	sb.WriteString(s[start:])
	sb.WriteByte('"')
}

// bytesText is b as a string without a copy, for writing it: b must not
// change while the string is in use.
func bytesText(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// writeElement writes v as an element of an array literal.
func writeElement(sb *strings.Builder, v any) bool {
	quoted := func(s string) { quoteElement(sb, s) }
	switch x := v.(type) {
	case nil:
		sb.WriteString("NULL")
	case string:
		quoted(x)
	case []byte:
		if x == nil {
			sb.WriteString("NULL")
		} else {
			quoteElement(sb, bytesText(x))
		}
	case json.RawMessage:
		if x == nil {
			sb.WriteString("NULL")
		} else {
			quoteElement(sb, bytesText(x))
		}
	case time.Time:
		var buf [40]byte
		quoteElement(sb, bytesText(x.AppendFormat(buf[:0], time.RFC3339Nano)))
	case int:
		sb.WriteString(strconv.Itoa(x))
	case int64:
		sb.WriteString(strconv.FormatInt(x, 10))
	case int32:
		sb.WriteString(strconv.FormatInt(int64(x), 10))
	case float64:
		sb.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case bool:
		if x {
			sb.WriteString("t")
		} else {
			sb.WriteString("f")
		}
	case *string:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *int:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *int64:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *float64:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *bool:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *time.Time:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	default:
		switch r := reflect.ValueOf(v); r.Kind() { // named types: ent's enums
		case reflect.String:
			quoted(r.String())
		case reflect.Int, reflect.Int64, reflect.Int32:
			sb.WriteString(strconv.FormatInt(r.Int(), 10))
		case reflect.Float64:
			sb.WriteString(strconv.FormatFloat(r.Float(), 'g', -1, 64))
		case reflect.Bool:
			return writeElement(sb, r.Bool())
		default:
			return false
		}
	}
	return true
}
