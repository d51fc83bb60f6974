package listfilter

import (
	"strings"
	"testing"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/graph/apperr"
)

func TestBuild(t *testing.T) {
	cols := map[string]Kind{"name": String, "created_at": Time}
	cond := func(field, op string, arg any) map[string]any {
		return map[string]any{field: map[string]any{"conditions": map[string]any{op: arg}}}
	}
	for _, tc := range []struct {
		filters map[string]any
		sql     string // a part of the query
	}{
		{nil, ""},
		{cond("name", "$is", "a"), "`name` = ?"},
		{cond("name", "$in", []any{"a", "b"}), "`name` IN (?, ?)"},
		{cond("name", "$starts_with", "a"), "`name` LIKE ?"},
		{cond("name", "$not_contain", "a"), "NOT (`t`.`name` LIKE ?)"},
		{cond("created_at", "$after", "2024-01-02"), "`created_at` > ?"},
		{cond("created_at", "$is_unknown", ""), "`created_at` IS NULL"},
		{cond("created_at", "$more_than", "10"), "`created_at` < ?"}, // more than 10 days ago
		{cond("created_at", "$less_than", 3), "`created_at` > ?"},
		{map[string]any{"junction": "or", "name": map[string]any{"conditions": map[string]any{"$is": "a"}},
			"created_at": map[string]any{"conditions": map[string]any{"$before": "2024-01-02T00:00:00Z"}}}, " OR "},
	} {
		p, err := Build(tc.filters, cols)
		wantInQuery(t, tc.filters, p, err, tc.sql)
	}
	for _, bad := range []map[string]any{
		{"junction": "xor"},
		{"nope": map[string]any{"conditions": map[string]any{"$is": "a"}}},
		{"name": "a"},
		{"name": map[string]any{"conditions": map[string]any{"$after": "a"}}},
		cond("created_at", "$after", "yesterday"),
		cond("created_at", "$contains", "2024-01-02"),
	} {
		_, err := Build(bad, cols)
		if e, ok := apperr.As(err); !ok || e.Key != "invalid_query_params" {
			t.Errorf("%v: %v, want invalid_query_params", bad, err)
		}
	}
}

// TestBuildFields: a nullable column counts NULL as no value (the
// negative operators keep it), a renamed column is filtered by its own
// name, and a field's own condition builds its predicate.
func TestBuildFields(t *testing.T) {
	fields := map[string]Field{
		"source_id": {Kind: NullableString},
		"name":      {Kind: String, Column: "title"},
		"custom": {Condition: func(op string, values []string) (func(*entsql.Selector), error) {
			if op != "$is" {
				return nil, apperr.InvalidQueryParams("no %s", op)
			}
			return entsql.FieldEQ("derived", strings.ToUpper(values[0])), nil
		}},
	}
	cond := func(field, op string, arg any) map[string]any {
		return map[string]any{field: map[string]any{"conditions": map[string]any{op: arg}}}
	}
	for _, tc := range []struct {
		filters map[string]any
		sql     string
	}{
		{cond("source_id", "$is_not", "a"), "`t`.`source_id` IS NULL OR `t`.`source_id` <> ?"},
		{cond("source_id", "$not_in", []any{"a", "b"}), "`t`.`source_id` IS NULL OR `t`.`source_id` NOT IN (?, ?)"},
		{cond("source_id", "$is_unknown", ""), "`t`.`source_id` IS NULL OR `t`.`source_id` = ?"},
		{cond("source_id", "$has_value", ""), "`t`.`source_id` IS NOT NULL AND `t`.`source_id` <> ?"},
		{cond("source_id", "$is", "a"), "WHERE `t`.`source_id` = ?"},
		{cond("name", "$is", "a"), "`t`.`title` = ?"},
		{cond("custom", "$is", "a"), "`t`.`derived` = ?"},
		{map[string]any{"junction": "OR", "name": map[string]any{"conditions": map[string]any{"$is": "a"}},
			"source_id": map[string]any{"conditions": map[string]any{"$is": "b"}}}, " OR "},
	} {
		p, err := BuildFields(tc.filters, fields)
		wantInQuery(t, tc.filters, p, err, tc.sql)
	}
	if _, err := BuildFields(cond("custom", "$in", []any{"a"}), fields); err == nil || !strings.Contains(err.Error(), "no $in") {
		t.Errorf("a field's own condition refusing $in: %v", err)
	}
}

// wantInQuery fails unless the predicate built from filters (without an
// error) puts sql in a query over the table t.
func wantInQuery(t *testing.T, filters map[string]any, p func(*entsql.Selector), err error, sql string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v: %v", filters, err)
	}
	s := entsql.Select("*").From(entsql.Table("t"))
	p(s)
	if q, _ := s.Query(); !strings.Contains(q, sql) {
		t.Errorf("%v: %s, want %q in it", filters, q, sql)
	}
}

// TestRelated: a filter on a related table's column looks the related
// rows up with the condition on that column and keeps the list's rows
// whose key is one of them (none found: none kept); $is_unknown and
// $has_value test the key without a lookup; an operator the column does
// not take is a 400, as Unsupported always is.
func TestRelated(t *testing.T) {
	var looked []string
	fields := map[string]Field{
		"campaign_name": {Condition: Related("campaign_name", "name", String, "campaign_id", func(where func(*entsql.Selector)) ([]string, error) {
			s := entsql.Select("id").From(entsql.Table("campaigns"))
			where(s)
			q, args := s.Query()
			looked = append(looked, q)
			if len(args) == 1 && args[0] == "big" {
				return []string{"c1", "c2"}, nil
			}
			return nil, nil
		})},
		"user_login": {Condition: Unsupported("user_login", "no users")},
	}
	cond := func(field, op string, arg any) map[string]any {
		return map[string]any{field: map[string]any{"conditions": map[string]any{op: arg}}}
	}
	for _, tc := range []struct {
		filters     map[string]any
		sql, lookup string
	}{
		{cond("campaign_name", "$is", "big"), "`t`.`campaign_id` IN (?, ?)", "`campaigns`.`name` = ?"},
		{cond("campaign_name", "$starts_with", "none"), "FALSE", "`campaigns`.`name` LIKE ?"},
		{cond("campaign_name", "$is_unknown", ""), "`t`.`campaign_id` IS NULL", ""},
		{cond("campaign_name", "$has_value", ""), "`t`.`campaign_id` IS NOT NULL", ""},
	} {
		looked = nil
		p, err := BuildFields(tc.filters, fields)
		wantInQuery(t, tc.filters, p, err, tc.sql)
		if (tc.lookup == "") != (len(looked) == 0) || (tc.lookup != "" && !strings.Contains(looked[0], tc.lookup)) {
			t.Errorf("%v looked up %q, want %q", tc.filters, looked, tc.lookup)
		}
	}
	for _, bad := range []map[string]any{cond("campaign_name", "$after", "2024-01-01"), cond("user_login", "$is", "a")} {
		_, err := BuildFields(bad, fields)
		if e, ok := apperr.As(err); !ok || e.Key != "invalid_query_params" {
			t.Errorf("%v: %v, want invalid_query_params", bad, err)
		}
	}
}

// TestValueSets: an enum column's set operators name the values kept as
// constants (a partial index on one of them then serves the filter), all
// or none of them as no condition or FALSE; its other operators, and a
// value that is not a plain word, stay arguments. A column whose value
// implies another condition adds it to the operators keeping only rows
// with a value, not to those keeping rows without one.
func TestValueSets(t *testing.T) {
	fields := map[string]Field{
		"result": {Kind: String, Values: []string{"SUCCESS", "FAILURE"}},
		"code":   {Kind: NullableString, ValueImplies: Literal("result", "FAILURE")},
	}
	cond := func(field, op string, arg any) map[string]any {
		return map[string]any{field: map[string]any{"conditions": map[string]any{op: arg}}}
	}
	for _, tc := range []struct {
		filters  map[string]any
		sql, not string
	}{
		{cond("result", "$is", "FAILURE"), "WHERE `t`.`result` = 'FAILURE'", "?"},
		{cond("result", "$is_not", "SUCCESS"), "WHERE `t`.`result` = 'FAILURE'", "?"},
		{cond("result", "$not_in", []any{"FAILURE", "x"}), "WHERE `t`.`result` = 'SUCCESS'", "?"},
		{cond("result", "$in", []any{"SUCCESS", "FAILURE"}), "SELECT * FROM `t`", "WHERE"},
		{cond("result", "$is", "failure"), "FALSE", "?"},
		{cond("result", "$starts_with", "FAIL"), "`t`.`result` LIKE ?", "'"},
		{cond("code", "$is", "x"), "`t`.`code` = ? AND `t`.`result` = 'FAILURE'", ""},
		{cond("code", "$has_value", ""), "AND `t`.`result` = 'FAILURE'", ""},
		{cond("code", "$is_unknown", ""), "`t`.`code` IS NULL", "FAILURE"},
		{cond("code", "$is_not", "x"), "`t`.`code` IS NULL OR", "FAILURE"},
	} {
		p, err := BuildFields(tc.filters, fields)
		wantInQuery(t, tc.filters, p, err, tc.sql)
		s := entsql.Select("*").From(entsql.Table("t"))
		p(s)
		if q, _ := s.Query(); tc.not != "" && strings.Contains(q, tc.not) {
			t.Errorf("%v: %s, want no %q in it", tc.filters, q, tc.not)
		}
	}
	s := entsql.Select("*").From(entsql.Table("t"))
	Literal("name", "it's")(s)
	if q, args := s.Query(); !strings.Contains(q, "`t`.`name` IN (?)") || len(args) != 1 {
		t.Errorf("a quoted value: %s %v, want an argument", q, args)
	}
}
