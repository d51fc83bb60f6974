package formula

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrNoValue is wrapped by evaluation errors: the formula cannot give a
// number for this request (missing metadata, division by zero, …); the
// caller falls back to the static value.
var ErrNoValue = errors.New("formula has no value")

// Env is what a formula reads: the numeric variables and the metadata of
// each scope ("customer", "order", "redemption").
type Env struct {
	Vars     map[string]float64
	Metadata map[string]map[string]any
}

// Number evaluates the formula to a finite number.
func (e *Expr) Number(env Env) (float64, error) {
	v, err := eval(e.root, env)
	if err != nil {
		return 0, err
	}
	n, ok := number(v)
	if !ok || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("%w: the result %v is not a number", ErrNoValue, v)
	}
	return n, nil
}

// number reads a value as a number (a string that reads as one too).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		n, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return n, err == nil
	case json.Number:
		n, err := x.Float64()
		return n, err == nil
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func truth(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	}
	return false
}

func eval(n *node, env Env) (any, error) {
	switch n.kind {
	case "num":
		return n.num, nil
	case "str":
		return n.text, nil
	case "var":
		v, ok := env.Vars[n.text]
		if !ok {
			return nil, fmt.Errorf("%w: %s is not known here", ErrNoValue, n.text)
		}
		return v, nil
	case "call":
		return call(n, env)
	}
	args, err := evalAll(n.args, env)
	if err != nil {
		return nil, err
	}
	return operate(n.text, args)
}

// evalAll evaluates operands or arguments in order.
func evalAll(nodes []*node, env Env) ([]any, error) {
	out := make([]any, len(nodes))
	for i, a := range nodes {
		v, err := eval(a, env)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// operate applies an operator to evaluated operands.
func operate(op string, args []any) (any, error) {
	switch op {
	case "NOT":
		return !truth(args[0]), nil
	case "AND":
		return truth(args[0]) && truth(args[1]), nil
	case "OR":
		return truth(args[0]) || truth(args[1]), nil
	case "CONTAINS":
		return strings.Contains(fmt.Sprint(args[0]), fmt.Sprint(args[1])), nil
	case "=", "!=", "<>":
		eq := equal(args[0], args[1])
		return eq == (op == "="), nil
	}
	nums := make([]float64, len(args))
	for i, a := range args {
		x, ok := number(a)
		if !ok {
			return nil, fmt.Errorf("%w: %q is not a number", ErrNoValue, a)
		}
		nums[i] = x
	}
	switch op {
	case "NEG":
		return -nums[0], nil
	case "+":
		return nums[0] + nums[1], nil
	case "-":
		return nums[0] - nums[1], nil
	case "*":
		return nums[0] * nums[1], nil
	case "/":
		if nums[1] == 0 {
			return nil, fmt.Errorf("%w: division by zero", ErrNoValue)
		}
		return nums[0] / nums[1], nil
	case "<":
		return nums[0] < nums[1], nil
	case "<=":
		return nums[0] <= nums[1], nil
	case ">":
		return nums[0] > nums[1], nil
	case ">=":
		return nums[0] >= nums[1], nil
	}
	return nil, fmt.Errorf("%w: unknown operator %s", ErrNoValue, op)
}

// equal compares as numbers when both read as numbers, else as text.
func equal(a, b any) bool {
	x, okA := number(a)
	y, okB := number(b)
	if okA && okB {
		return x == y
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}
