package jsonnum

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Error is a number literal that breaks the rule, with the JSON path of
// the value it is ("metadata.k", "order.items[0].price").
type Error struct {
	// Path is the dotted path of the value; "" for a document that is the
	// number itself.
	Path string
	// Literal is the number as written (cut to 40 characters).
	Literal string
	// Offset is the byte offset of the literal in the document.
	Offset int
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("property .%s must be %s, got %s", e.Path, Reason(e.Literal), short(e.Literal))
}

// Reason says what the value must be.
func (e *Error) Reason() string { return Reason(e.Literal) }

// Short is the literal as shown in a message (cut to 40 characters).
func (e *Error) Short() string { return short(e.Literal) }

func short(lit string) string {
	if len(lit) > 40 {
		return lit[:37] + "..."
	}
	return lit
}

// Check returns an *Error for the first number literal of the JSON
// document doc that breaks the rule (see Valid), or nil. Only literals
// outside strings count. Check does not validate the JSON syntax: on text
// that is not JSON it never panics and returns nil or an *Error.
func Check(doc []byte) error {
	off, lit := next(doc, 0, Valid)
	if off < 0 {
		return nil
	}
	return &Error{Path: PathAt(doc, off), Literal: lit, Offset: off}
}

// Repair returns doc with every number literal that is not a finite
// float64 replaced by MaxFloat or MinFloat (by its sign), and whether it
// changed anything. Every other byte is kept as it was, key order
// included. doc itself is not modified.
func Repair(doc []byte) ([]byte, bool) {
	var out []byte
	last := 0
	for pos := 0; ; {
		off, lit := next(doc, pos, Finite)
		if off < 0 {
			break
		}
		if out == nil {
			out = make([]byte, 0, len(doc))
		}
		out = append(out, doc[last:off]...)
		if lit[0] == '-' {
			out = append(out, MinFloat...)
		} else {
			out = append(out, MaxFloat...)
		}
		last = off + len(lit)
		pos = last
	}
	if out == nil {
		return doc, false
	}
	return append(out, doc[last:]...), true
}

// next returns the offset and text of the first number literal at or
// after pos, outside strings, that ok refuses; -1 when there is none.
func next(doc []byte, pos int, ok func(string) bool) (int, string) {
	for i := pos; i < len(doc); i++ {
		c := doc[i]
		switch {
		case c == '"':
			i = skipString(doc, i)
		case c == '-' || (c >= '0' && c <= '9'):
			end := literalEnd(doc, i)
			lit := doc[i:end]
			// The fast path: short literals without exponent always keep
			// the rule, and need no allocation.
			if (len(lit) > shortLiteral || hasExponent(lit)) && !ok(string(lit)) {
				return i, string(lit)
			}
			i = end - 1
		}
	}
	return -1, ""
}

// skipString returns the offset of the quote that closes the string
// opened at doc[i] (len(doc) when it is not closed).
func skipString(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(doc)
}

// literalEnd returns the offset just after the number literal at doc[i].
func literalEnd(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch c := doc[i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		default:
			return i
		}
	}
	return i
}

func hasExponent(lit []byte) bool {
	for _, c := range lit {
		if c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// frame is one open object or array on the way to a value.
type frame struct {
	array bool
	key   string
	index int
}

// PathAt returns the dotted path of the value that starts at byte offset
// off of the JSON document doc: keys joined by dots, array indices in
// brackets ("order.items[0].price"). It is only computed for an error.
func PathAt(doc []byte, off int) string {
	var stack []frame
	expectKey := false
	for i := 0; i < len(doc) && i < off; i++ {
		switch c := doc[i]; c {
		case '{':
			stack = append(stack, frame{})
			expectKey = true
		case '[':
			stack = append(stack, frame{array: true})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectKey = false
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].array {
					stack[n-1].index++
				} else {
					expectKey = true
				}
			}
		case '"':
			end := skipString(doc, i)
			if expectKey && len(stack) > 0 {
				stack[len(stack)-1].key = unquote(doc[i:min(end+1, len(doc))])
				expectKey = false
			}
			i = end
		}
	}
	var b strings.Builder
	for _, f := range stack {
		if f.array {
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(f.key)
	}
	return b.String()
}

func unquote(s []byte) string {
	var out string
	if json.Unmarshal(s, &out) != nil {
		return strings.Trim(string(s), `"`)
	}
	return out
}
