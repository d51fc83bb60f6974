package validationrule

import (
	"strings"
	"unicode/utf8"
)

// Limits that keep hostile logic expressions cheap.
const (
	maxLogicLen   = 1000
	maxLogicDepth = 50
)

// node is a compiled logic expression.
type node struct {
	op   byte // 'k' rule key, '!' not, '&' and, '|' or
	key  string
	kids []*node
}

type token struct {
	text string // a rule key, "and", "or", "not", "(" or ")"
	pos  int    // 1-based character position
}

const logicProp = "rules.logic"

// compileLogic parses expr against the defined rules. An empty expression
// joins every rule with "and"; with no rules it compiles to nil (always true).
func compileLogic(expr string, rules map[string]Condition) (*node, error) {
	if strings.TrimSpace(expr) == "" {
		keys := sortedKeys(rules)
		if len(keys) == 0 {
			return nil, nil
		}
		n := &node{op: '&'}
		for _, k := range keys {
			n.kids = append(n.kids, &node{op: 'k', key: k})
		}
		return n, nil
	}
	if len(expr) > maxLogicLen {
		return nil, errorf(logicProp, "expression is longer than %d characters", maxLogicLen)
	}
	toks, err := tokenize(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, rules: rules}
	n, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		t := p.toks[p.i]
		return nil, errorf(logicProp, "unexpected %q at position %d", t.text, t.pos)
	}
	return n, nil
}

func tokenize(s string) ([]token, error) {
	var toks []token
	// Positions are 1-based; byte offsets equal character offsets because any
	// non-ASCII character is rejected where it starts.
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '(' || c == ')':
			toks = append(toks, token{string(c), i + 1})
		case c >= '0' && c <= '9':
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			toks = append(toks, token{s[i:j], i + 1})
		case isLetter(c):
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			w := strings.ToLower(s[i:j])
			if w != "and" && w != "or" && w != "not" {
				return nil, errorf(logicProp, "unknown word %q at position %d (use rule keys, and, or, not, parentheses)", s[i:j], i+1)
			}
			toks = append(toks, token{w, i + 1})
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, errorf(logicProp, "unexpected character %q at position %d (use rule keys, and, or, not, parentheses)", r, i+1)
		}
		i = j
	}
	return toks, nil
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

type parser struct {
	toks  []token
	i     int
	depth int
	rules map[string]Condition
}

func (p *parser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

// parseOr: and-expr { "or" and-expr }
func (p *parser) parseOr() (*node, error) {
	return p.parseChain("or", '|', p.parseAnd)
}

// parseAnd: not-expr { "and" not-expr }
func (p *parser) parseAnd() (*node, error) {
	return p.parseChain("and", '&', p.parseNot)
}

func (p *parser) parseChain(word string, op byte, next func() (*node, error)) (*node, error) {
	first, err := next()
	if err != nil {
		return nil, err
	}
	if p.peek() != word {
		return first, nil
	}
	n := &node{op: op, kids: []*node{first}}
	for p.peek() == word {
		p.i++
		k, err := next()
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, k)
	}
	return n, nil
}

// parseNot: "not" not-expr | primary
func (p *parser) parseNot() (*node, error) {
	if p.peek() != "not" {
		return p.parsePrimary()
	}
	p.i++
	if err := p.enter(); err != nil {
		return nil, err
	}
	k, err := p.parseNot()
	p.depth--
	if err != nil {
		return nil, err
	}
	return &node{op: '!', kids: []*node{k}}, nil
}

// parsePrimary: rule-key | "(" or-expr ")"
func (p *parser) parsePrimary() (*node, error) {
	if p.i >= len(p.toks) {
		return nil, errorf(logicProp, "unexpected end of expression (expected a rule key, \"not\" or \"(\")")
	}
	t := p.toks[p.i]
	switch {
	case t.text == "(":
		p.i++
		if err := p.enter(); err != nil {
			return nil, err
		}
		n, err := p.parseOr()
		p.depth--
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.toks) {
			return nil, errorf(logicProp, "missing \")\" for \"(\" at position %d", t.pos)
		}
		if p.toks[p.i].text != ")" {
			return nil, errorf(logicProp, "expected \")\" at position %d, got %q", p.toks[p.i].pos, p.toks[p.i].text)
		}
		p.i++
		return n, nil
	case t.text[0] >= '0' && t.text[0] <= '9':
		if _, ok := p.rules[t.text]; !ok {
			return nil, errorf(logicProp, "rule key %q at position %d is not defined in rules", t.text, t.pos)
		}
		p.i++
		return &node{op: 'k', key: t.text}, nil
	}
	return nil, errorf(logicProp, "unexpected %q at position %d (expected a rule key, \"not\" or \"(\")", t.text, t.pos)
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxLogicDepth {
		return errorf(logicProp, "expression is nested more than %d levels deep", maxLogicDepth)
	}
	return nil
}

// eval evaluates n with leaf giving each rule's value. It also returns the
// smallest rule key that decided the result: among the operands of an
// and/or, those whose value equals the result (for a false "and", the false
// operands; for a true "or", the true ones; otherwise all of them).
func (n *node) eval(leaf func(string) bool) (bool, string) {
	switch n.op {
	case 'k':
		return leaf(n.key), n.key
	case '!':
		v, blame := n.kids[0].eval(leaf)
		return !v, blame
	}
	vals := make([]bool, len(n.kids))
	blames := make([]string, len(n.kids))
	isAnd := n.op == '&'
	result := isAnd // "and" is true unless an operand is false; "or" the reverse
	for i, k := range n.kids {
		vals[i], blames[i] = k.eval(leaf)
		if vals[i] != isAnd {
			result = !isAnd
		}
	}
	blame := ""
	for i, v := range vals {
		if v == result && (blame == "" || keyLess(blames[i], blame)) {
			blame = blames[i]
		}
	}
	return result, blame
}
