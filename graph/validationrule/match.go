package validationrule

import "strings"

// setOp applies a membership operator to "some value matched an operand".
func setOp(op string, match bool) bool {
	switch op {
	case "$is", "$in":
		return match
	case "$is_not", "$not_in":
		return !match
	}
	return false
}

// compare applies an ordering operator to sign(value - operand).
func compare(op string, c int) bool {
	switch op {
	case "$more_than":
		return c > 0
	case "$more_than_or_equal":
		return c >= 0
	case "$less_than":
		return c < 0
	case "$less_than_or_equal":
		return c <= 0
	}
	return false
}

func numeric(op string, xs []any, x int64) bool {
	switch op {
	case "$is", "$is_not":
		match := false
		for _, o := range xs {
			if n, ok := toInt(o); ok && n == x {
				match = true
			}
		}
		return setOp(op, match)
	}
	if len(xs) != 1 {
		return false
	}
	o, ok := toInt(xs[0])
	if !ok {
		return false
	}
	return compare(op, sign(x > o, x < o))
}

// sign turns "greater"/"less" into 1/-1 (0 when neither).
func sign(gt, lt bool) int {
	switch {
	case gt:
		return 1
	case lt:
		return -1
	}
	return 0
}

func anyIn(have []string, xs []any) bool {
	for _, o := range xs {
		for _, h := range have {
			if s, ok := o.(string); ok && s != "" && s == h {
				return true
			}
		}
	}
	return false
}

// itemMatches reports whether it matches one of the operands: an id
// string (the line's product or SKU id, or one of their aliases) or a Target.
func itemMatches(it Item, xs []any) bool {
	for _, o := range xs {
		switch t := o.(type) {
		case string:
			if t != "" && (Target{Object: ObjectProduct, ID: t}.Matches(it) || Target{Object: ObjectSKU, ID: t}.Matches(it)) {
				return true
			}
		case Target:
			if t.Matches(it) {
				return true
			}
		case map[string]any:
			id, _ := t["id"].(string)
			obj, _ := t["object"].(string)
			if (Target{Object: obj, ID: id}).Matches(it) {
				return true
			}
		}
	}
	return false
}

func metadata(op string, xs []any, md map[string]any, key string) bool {
	v, present := md[key]
	defined := present && v != nil
	switch op {
	case "$is_defined":
		return defined
	case "$is_not_defined":
		return !defined
	case "$is", "$in", "$is_not", "$not_in":
		match := false
		for _, o := range xs {
			match = match || (defined && equalScalar(v, o))
		}
		return setOp(op, match)
	case "$contains", "$starts_with", "$ends_with":
		s, ok := v.(string)
		for _, o := range xs {
			sub, isStr := o.(string)
			if ok && isStr && ((op == "$contains" && strings.Contains(s, sub)) ||
				(op == "$starts_with" && strings.HasPrefix(s, sub)) || (op == "$ends_with" && strings.HasSuffix(s, sub))) {
				return true
			}
		}
		return false
	}
	f, ok := toFloat(v)
	if !ok || len(xs) != 1 {
		return false
	}
	o, ok := toFloat(xs[0])
	return ok && compare(op, sign(f > o, f < o))
}

// equalScalar compares two strings, bools or numbers (of any numeric type).
func equalScalar(a, b any) bool {
	fa, okA := toFloat(a)
	fb, okB := toFloat(b)
	if okA || okB {
		return okA && okB && fa == fb
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return false
}
