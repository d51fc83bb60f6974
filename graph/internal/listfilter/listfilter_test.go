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
		{map[string]any{"junction": "or", "name": map[string]any{"conditions": map[string]any{"$is": "a"}},
			"created_at": map[string]any{"conditions": map[string]any{"$before": "2024-01-02T00:00:00Z"}}}, " OR "},
	} {
		p, err := Build(tc.filters, cols)
		if err != nil {
			t.Fatalf("%v: %v", tc.filters, err)
		}
		s := entsql.Select("*").From(entsql.Table("t"))
		p(s)
		if q, _ := s.Query(); !strings.Contains(q, tc.sql) {
			t.Errorf("%v: %s, want %q in it", tc.filters, q, tc.sql)
		}
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
