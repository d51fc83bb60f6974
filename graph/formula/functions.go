package formula

import (
	"fmt"
	"math"
)

// call evaluates a function call; IF evaluates only the branch taken.
func call(n *node, env Env) (any, error) {
	if scope, ok := metadataFunctions[n.text]; ok {
		v, found := env.Metadata[scope][n.args[0].text]
		if !found || v == nil {
			return nil, fmt.Errorf("%w: %s(%q) is not set", ErrNoValue, n.text, n.args[0].text)
		}
		if s, isString := v.(string); isString {
			return s, nil
		}
		if x, ok := number(v); ok {
			return x, nil
		}
		return fmt.Sprint(v), nil
	}
	if n.text == "IF" {
		c, err := eval(n.args[0], env)
		if err != nil {
			return nil, err
		}
		if truth(c) {
			return eval(n.args[1], env)
		}
		return eval(n.args[2], env)
	}
	args, err := evalAll(n.args, env)
	if err != nil {
		return nil, err
	}
	switch n.text {
	case "AND", "OR":
		out := n.text == "AND"
		for _, a := range args {
			if n.text == "AND" {
				out = out && truth(a)
			} else {
				out = out || truth(a)
			}
		}
		return out, nil
	case "NOT":
		return !truth(args[0]), nil
	}
	nums := make([]float64, len(args))
	for i, a := range args {
		x, ok := number(a)
		if !ok {
			return nil, fmt.Errorf("%w: %s: %q is not a number", ErrNoValue, n.text, a)
		}
		nums[i] = x
	}
	switch n.text {
	case "MIN", "MAX":
		out := nums[0]
		for _, x := range nums[1:] {
			if (n.text == "MIN") == (x < out) {
				out = x
			}
		}
		return out, nil
	case "ABS":
		return math.Abs(nums[0]), nil
	}
	return round(n.text, nums)
}

// round is ROUND (half away from zero), ROUND_UP and ROUND_DOWN to an
// optional number of decimals (0 to 6).
func round(fn string, nums []float64) (any, error) {
	digits := 0.0
	if len(nums) > 1 {
		digits = nums[1]
	}
	if digits < 0 || digits > 6 || digits != math.Trunc(digits) {
		return nil, fmt.Errorf("%w: %s decimals must be 0 to 6", ErrNoValue, fn)
	}
	scale := math.Pow(10, digits)
	x := nums[0] * scale
	switch fn {
	case "ROUND_UP":
		x = math.Ceil(x)
	case "ROUND_DOWN":
		x = math.Floor(x)
	default:
		x = math.Round(x)
	}
	return x / scale, nil
}
