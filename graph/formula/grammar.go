package formula

import (
	"fmt"
	"slices"
	"strings"
)

// parser is a recursive-descent parser over the tokens, counting nodes
// and depth against the bounds.
type parser struct {
	toks  []token
	pos   int
	nodes int
}

func (p *parser) peek() (token, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return token{}, false
}

// word says whether the next token is the keyword w (any case).
func (p *parser) word(w string) bool {
	t, ok := p.peek()
	return ok && t.kind == "ident" && strings.EqualFold(t.text, w) && !p.callFollows()
}

// callFollows says whether the token after the next one is "(".
func (p *parser) callFollows() bool { return p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == "(" }

func (p *parser) newNode(n *node, depth int) (*node, error) {
	p.nodes++
	if p.nodes > MaxNodes {
		return nil, fmt.Errorf("%w: more than %d terms", ErrInvalid, MaxNodes)
	}
	if depth > MaxDepth {
		return nil, fmt.Errorf("%w: nested deeper than %d levels", ErrInvalid, MaxDepth)
	}
	return n, nil
}

// binary parses a left-associative level: operands by next, operators
// from ops (symbols or keywords).
func (p *parser) binary(depth int, next func(int) (*node, error), ops ...string) (*node, error) {
	left, err := next(depth)
	if err != nil {
		return nil, err
	}
	for {
		t, ok := p.peek()
		if !ok {
			return left, nil
		}
		op := ""
		for _, o := range ops {
			if (t.kind == o) || (t.kind == "ident" && strings.EqualFold(t.text, o) && !p.callFollows()) {
				op = strings.ToUpper(o)
			}
		}
		if op == "" {
			return left, nil
		}
		p.pos++
		right, err := next(depth)
		if err != nil {
			return nil, err
		}
		if left, err = p.newNode(&node{kind: "op", text: op, args: []*node{left, right}}, depth); err != nil {
			return nil, err
		}
	}
}

func (p *parser) expr(depth int) (*node, error) { return p.binary(depth, p.and, "OR") }
func (p *parser) and(depth int) (*node, error)  { return p.binary(depth, p.compare, "AND") }
func (p *parser) compare(depth int) (*node, error) {
	return p.binary(depth, p.sum, "=", "!=", "<>", "<", "<=", ">", ">=", "contains")
}
func (p *parser) sum(depth int) (*node, error)     { return p.binary(depth, p.product, "+", "-") }
func (p *parser) product(depth int) (*node, error) { return p.binary(depth, p.unary, "*", "/") }

func (p *parser) unary(depth int) (*node, error) {
	t, ok := p.peek()
	if ok && (t.kind == "-" || p.word("NOT")) {
		p.pos++
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		op := "NEG"
		if t.kind != "-" {
			op = "NOT"
		}
		return p.newNode(&node{kind: "op", text: op, args: []*node{x}}, depth)
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) (*node, error) {
	t, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("%w: unexpected end", ErrInvalid)
	}
	p.pos++
	switch t.kind {
	case "num":
		return p.newNode(&node{kind: "num", num: t.num}, depth)
	case "str":
		return p.newNode(&node{kind: "str", text: t.text}, depth)
	case "(":
		x, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return x, nil
	case "ident":
		name := strings.ToUpper(t.text)
		if p.pos < len(p.toks) && p.toks[p.pos].kind == "(" {
			return p.call(name, depth)
		}
		if !slices.Contains(Variables, name) {
			return nil, fmt.Errorf("%w: unknown variable %s (known: %s)", ErrInvalid, t.text, strings.Join(Variables, ", "))
		}
		return p.newNode(&node{kind: "var", text: name}, depth)
	}
	return nil, fmt.Errorf("%w: unexpected %q", ErrInvalid, t.text)
}

// call parses FUNCTION(args) after its name.
func (p *parser) call(name string, depth int) (*node, error) {
	bounds, ok := arity[name]
	if !ok {
		return nil, fmt.Errorf("%w: unknown function %s", ErrInvalid, name)
	}
	p.pos++ // "("
	n := &node{kind: "call", text: name}
	if t, ok := p.peek(); !ok || t.kind != ")" {
		for {
			a, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, a)
			if t, ok := p.peek(); !ok || t.kind != ";" {
				break
			}
			p.pos++
		}
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	if len(n.args) < bounds[0] || (bounds[1] >= 0 && len(n.args) > bounds[1]) {
		return nil, fmt.Errorf("%w: %s takes %s arguments, got %d", ErrInvalid, name, arityText(bounds), len(n.args))
	}
	if _, meta := metadataFunctions[name]; meta && n.args[0].kind != "str" {
		return nil, fmt.Errorf("%w: %s takes a \"key\" in double quotes", ErrInvalid, name)
	}
	return p.newNode(n, depth)
}

func (p *parser) expect(kind string) error {
	t, ok := p.peek()
	if !ok {
		return fmt.Errorf("%w: missing %q", ErrInvalid, kind)
	}
	if t.kind != kind {
		return fmt.Errorf("%w: expected %q, got %q", ErrInvalid, kind, t.text)
	}
	p.pos++
	return nil
}

func arityText(b [2]int) string {
	switch {
	case b[0] == b[1]:
		return fmt.Sprint(b[0])
	case b[1] < 0:
		return fmt.Sprintf("at least %d", b[0])
	}
	return fmt.Sprintf("%d to %d", b[0], b[1])
}
