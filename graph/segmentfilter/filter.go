package segmentfilter

import (
	"fmt"
	"slices"
	"strings"
)

// Customer is what a filter can see of a customer. Empty strings are
// unknown values.
type Customer struct {
	ID          string
	Name        string
	Email       string
	SourceID    string
	Phone       string
	Description string
	Birthday    string
	Metadata    map[string]any
	// EventCounts are the customer's custom-event counters by event name.
	EventCounts map[string]int
}

// Error is a filter that breaks the language; Message is the whole
// invalid_payload detail ("Property .filter.<key> …").
type Error struct {
	Key     string // the offending filter key ("junction", "metadata.tier", …)
	Message string
}

func (e *Error) Error() string { return e.Message }

func errorf(key, format string, args ...any) *Error {
	return &Error{Key: key, Message: fmt.Sprintf(format, args...)}
}

// customerFields are the profile fields a filter may test, in the order
// the error message lists them.
var customerFields = []string{"id", "name", "email", "source_id", "phone", "description", "birthday"}

// operators are the condition operators, in the order docs list them.
var operators = []string{"$is", "$is_not", "$in", "$not_in", "$contains", "$not_contain", "$starts_with",
	"$ends_with", "$has_value", "$is_unknown", "$more_than", "$less_than", "$more_than_equal", "$less_than_equal"}

// Filter is a validated segment filter.
type Filter struct {
	or      bool
	entries []entry
}

// entry is one field key of a filter and its conditions (all must hold).
type entry struct {
	key        string
	value      func(Customer) any // the tested value; nil result: unknown
	conditions []condition
}

type condition struct {
	op       string
	operands []any
}

// Parse validates a filter object and returns it ready to evaluate.
func Parse(f map[string]any) (*Filter, error) {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := &Filter{}
	for _, key := range keys {
		raw := f[key]
		if key == "junction" {
			j, _ := raw.(string)
			if j != "and" && j != "or" {
				return nil, errorf(key, "Property .filter.junction must be and or or")
			}
			out.or = j == "or"
			continue
		}
		value := fieldValue(key)
		if value == nil {
			return nil, errorf(key, "Property .filter.%s is not a supported filter: use events.<name>.count, metadata.<key> or one of %v", key, customerFields)
		}
		cond, err := conditionsOf(raw)
		if err != nil {
			return nil, errorf(key, "Property .filter.%s %s", key, err.Error())
		}
		e := entry{key: key, value: value}
		ops := make([]string, 0, len(cond))
		for op := range cond {
			ops = append(ops, op)
		}
		slices.Sort(ops)
		for _, op := range ops {
			if !slices.Contains(operators, op) {
				return nil, errorf(key, "Property .filter.%s.conditions.%s is not a supported operator", key, op)
			}
			e.conditions = append(e.conditions, condition{op: op, operands: Operands(cond[op])})
		}
		out.entries = append(out.entries, e)
	}
	return out, nil
}

// fieldValue returns the reader of a field key's value, or nil when the
// key is not a field of the language.
func fieldValue(key string) func(Customer) any {
	switch {
	case strings.HasPrefix(key, "events.") && strings.HasSuffix(key, ".count") && len(key) > len("events..count"):
		name := strings.TrimSuffix(strings.TrimPrefix(key, "events."), ".count")
		return func(c Customer) any { return float64(c.EventCounts[name]) }
	case strings.HasPrefix(key, "metadata.") && len(key) > len("metadata."):
		name := strings.TrimPrefix(key, "metadata.")
		return func(c Customer) any { return c.Metadata[name] }
	}
	var get func(Customer) string
	switch key {
	case "id":
		get = func(c Customer) string { return c.ID }
	case "name":
		get = func(c Customer) string { return c.Name }
	case "email":
		get = func(c Customer) string { return c.Email }
	case "source_id":
		get = func(c Customer) string { return c.SourceID }
	case "phone":
		get = func(c Customer) string { return c.Phone }
	case "description":
		get = func(c Customer) string { return c.Description }
	case "birthday":
		get = func(c Customer) string { return c.Birthday }
	default:
		return nil
	}
	return func(c Customer) any {
		if s := get(c); s != "" {
			return s
		}
		return nil
	}
}

// conditionsOf returns the conditions object of a filter entry.
func conditionsOf(raw any) (map[string]any, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object with conditions")
	}
	cond, ok := m["conditions"].(map[string]any)
	if !ok || len(cond) == 0 {
		return nil, fmt.Errorf("must have a non-empty conditions object")
	}
	return cond, nil
}

// Match reports whether the customer belongs to a segment with this filter.
func (f *Filter) Match(c Customer) bool {
	if len(f.entries) == 0 {
		return true // no field keys: everyone, whatever the junction
	}
	for _, e := range f.entries {
		ok := e.match(c)
		if f.or && ok {
			return true
		}
		if !f.or && !ok {
			return false
		}
	}
	return !f.or
}

func (e entry) match(c Customer) bool {
	value := e.value(c)
	for _, cond := range e.conditions {
		if !matchCondition(cond.op, value, cond.operands) {
			return false
		}
	}
	return true
}

// Match parses a stored filter and evaluates it for one customer; an
// invalid filter matches nobody.
func Match(f map[string]any, c Customer) bool {
	p, err := Parse(f)
	return err == nil && p.Match(c)
}
