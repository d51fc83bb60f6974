package formula

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Bounds of one formula.
const (
	MaxLength = 1000
	MaxNodes  = 200
	MaxDepth  = 20
)

// ErrInvalid is wrapped by every parse error.
var ErrInvalid = errors.New("invalid formula")

// Variables are the numbers a formula may read (Env.Vars supplies them).
// ORDER_ITEM_PRICE (an order line's unit price) has a value only in an
// applicable_to entry's price_formula; elsewhere a formula reading it has
// no value (the static fallback applies).
var Variables = []string{"ORDER_AMOUNT", "ORDER_ITEMS_COUNT", "ORDER_ITEMS_QUANTITY", "ORDER_ITEM_PRICE"}

// metadataFunctions read a metadata value by key: the function's scope.
var metadataFunctions = map[string]string{"CUSTOMER_METADATA": "customer", "ORDER_METADATA": "order",
	"REDEMPTION_METADATA": "redemption"}

// arity is each function's least and most arguments (-1: no most).
var arity = map[string][2]int{"IF": {3, 3}, "MIN": {1, -1}, "MAX": {1, -1}, "ROUND": {1, 2}, "ROUND_UP": {1, 2},
	"ROUND_DOWN": {1, 2}, "ABS": {1, 1}, "AND": {1, -1}, "OR": {1, -1}, "NOT": {1, 1},
	"CUSTOMER_METADATA": {1, 1}, "ORDER_METADATA": {1, 1}, "REDEMPTION_METADATA": {1, 1}}

// Expr is a parsed formula.
type Expr struct {
	root *node
	src  string
}

// String is the formula as written.
func (e *Expr) String() string { return e.src }

// node is one node of the tree: a literal, a variable, a call, or an
// operator with its operands.
type node struct {
	kind string // "num", "str", "var", "call", "op"
	num  float64
	text string // string value, variable, function or operator
	args []*node
}

// Parse reads a formula (see the package doc for the language).
func Parse(src string) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalid)
	}
	if len(src) > MaxLength {
		return nil, fmt.Errorf("%w: longer than %d characters", ErrInvalid, MaxLength)
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	root, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("%w: unexpected %q", ErrInvalid, p.toks[p.pos].text)
	}
	return &Expr{root: root, src: src}, nil
}

// token is a lexed token: "num", "str", "ident", or punctuation/operator.
type token struct {
	kind, text string
	num        float64
}

func lex(src string) ([]token, error) {
	var out []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			n, err := strconv.ParseFloat(src[i:j], 64)
			if err != nil {
				return nil, fmt.Errorf("%w: bad number %q", ErrInvalid, src[i:j])
			}
			out, i = append(out, token{kind: "num", text: src[i:j], num: n}), j
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("%w: unterminated string", ErrInvalid)
			}
			out, i = append(out, token{kind: "str", text: src[i+1 : i+1+j]}), i+j+2
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			out, i = append(out, token{kind: "ident", text: src[i:j]}), j
		default:
			op := string(c)
			if i+1 < len(src) {
				if two := src[i : i+2]; two == "<=" || two == ">=" || two == "!=" || two == "<>" {
					op = two
				}
			}
			if !strings.Contains("+-*/()<>=;", op[:1]) {
				return nil, fmt.Errorf("%w: unexpected character %q", ErrInvalid, op)
			}
			out, i = append(out, token{kind: op, text: op}), i+len(op)
		}
	}
	return out, nil
}
