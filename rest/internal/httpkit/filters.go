package httpkit

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/graph/apperr"
)

// DeepFilters reads the filters deep object of a list's query
// (filters[name][conditions][$in][]=a; nil without one).
func DeepFilters(q url.Values) (map[string]any, error) {
	var filters map[string]any
	keys := make([]string, 0, len(q))
	for key := range q {
		if strings.HasPrefix(key, "filters[") {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		path, isArray, ok := bracketPath(strings.TrimPrefix(key, "filters"))
		if !ok || len(path) == 0 {
			return nil, apperr.InvalidQueryParams("Query parameter %s is not a valid filters key", key)
		}
		if filters == nil {
			filters = map[string]any{}
		}
		node := filters
		for _, p := range path[:len(path)-1] {
			next, exists := node[p]
			if !exists {
				m := map[string]any{}
				node[p], next = m, m
			}
			m, isMap := next.(map[string]any)
			if !isMap {
				return nil, apperr.InvalidQueryParams("Query parameter %s conflicts with another filters parameter", key)
			}
			node = m
		}
		leaf := path[len(path)-1]
		vals := q[key]
		var value any = vals[0]
		if isArray || len(vals) > 1 {
			arr := make([]any, len(vals))
			for i, v := range vals {
				arr[i] = v
			}
			if prev, ok := node[leaf].([]any); ok {
				arr = append(prev, arr...)
			}
			value = arr
		} else if _, exists := node[leaf]; exists {
			return nil, apperr.InvalidQueryParams("Query parameter %s conflicts with another filters parameter", key)
		}
		node[leaf] = value
	}
	return filters, nil
}

// bracketPath splits "[a][b][]" into [a b] and reports a trailing [] or [n] (an array).
func bracketPath(s string) (path []string, isArray, ok bool) {
	for s != "" {
		if s[0] != '[' {
			return nil, false, false
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return nil, false, false
		}
		part := s[1:end]
		s = s[end+1:]
		if _, err := strconv.Atoi(part); part == "" || err == nil {
			if s != "" {
				return nil, false, false
			}
			return path, true, true
		}
		path = append(path, part)
	}
	return path, false, true
}

// NotSupported refuses with a 400 a documented query parameter that the
// list does not read (docs/architecture.md, "Audit of every list's query
// parameters"), rather than answering the unfiltered list: each name is
// a parameter, matched alone or as a deep object (name[…]), so "filters"
// matches every filters[…] key.
func NotSupported(q url.Values, list string, names ...string) error {
	for key := range q {
		for _, name := range names {
			if key == name || strings.HasPrefix(key, name+"[") {
				return apperr.InvalidQueryParams("Query parameter %s is not supported by %s", key, list)
			}
		}
	}
	return nil
}
