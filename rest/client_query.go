package rest

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/ent/schema/jsonnum"
	"github.com/promoengine/promoengine/graph/apperr"
)

// The client SDK sends GET /client/v1/validate's parameters as a query
// string in the `qs` library's bracket form: customer[source_id]=c1,
// item[0][product_id]=p1, order[metadata][channel]=web. nestedQuery turns
// such a query back into the JSON object it was made from.

// Bounds on a bracketed query.
const (
	maxQueryDepth = 5
	maxQueryIndex = 499
)

// numericQueryKeys are the properties that are numbers in the JSON
// request; a query string carries every value as text.
var numericQueryKeys = map[string]bool{
	"amount": true, "price": true, "quantity": true, "session_ttl": true, "ttl": true,
	"initial_amount": true, "discount_amount": true, "initial_quantity": true, "credits": true, "points": true,
}

// nestedQuery rebuilds the object a bracketed query encodes. Numeric
// properties (outside metadata) written as JSON number literals become
// numbers (one beyond jsonnum's range is a 400; "NaN" or "0x10" stay text
// and the decoding names the field); the last of repeated
// keys wins.
func nestedQuery(q url.Values) (map[string]any, error) {
	root := map[string]any{}
	for key, vals := range q {
		path, err := queryPath(key)
		if err != nil {
			return nil, err
		}
		if err := setPath(root, path, vals[len(vals)-1]); err != nil {
			return nil, err
		}
	}
	out, err := listify(root, false)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

// queryPath splits "a[b][0]" into a, b, 0.
func queryPath(key string) ([]string, error) {
	head, rest, _ := strings.Cut(key, "[")
	path := []string{head}
	if rest != "" {
		if !strings.HasSuffix(rest, "]") {
			return nil, badQuery("Query parameter %q is malformed", key)
		}
		path = append(path, strings.Split(strings.TrimSuffix(rest, "]"), "][")...)
	}
	if len(path) > maxQueryDepth {
		return nil, badQuery("Query parameter %q nests deeper than %d levels", key, maxQueryDepth)
	}
	for _, p := range path {
		if p == "" || strings.ContainsAny(p, "[]") {
			return nil, badQuery("Query parameter %q is malformed", key)
		}
	}
	return path, nil
}

func setPath(node map[string]any, path []string, value string) error {
	for i, p := range path {
		if i == len(path)-1 {
			if _, isObject := node[p].(map[string]any); isObject {
				return badQuery("Query parameter %q is both a value and an object", strings.Join(path, "."))
			}
			node[p] = value
			return nil
		}
		next, ok := node[p].(map[string]any)
		if !ok {
			if _, isValue := node[p]; isValue {
				return badQuery("Query parameter %q is both a value and an object", strings.Join(path, "."))
			}
			next = map[string]any{}
			node[p] = next
		}
		node = next
	}
	return nil
}

// listify turns objects whose keys are all indices into arrays (in index
// order) and numeric properties into numbers; inMetadata keeps metadata's
// values as sent.
func listify(v any, inMetadata bool) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	indices := make([]int, 0, len(m))
	for k, child := range m {
		conv, err := listify(child, inMetadata || k == "metadata")
		if err != nil {
			return nil, err
		}
		if s, isText := conv.(string); isText && !inMetadata && numericQueryKeys[k] {
			if jsonnum.IsLiteral(s) {
				if !jsonnum.Valid(s) {
					return nil, badQuery("Query parameter %s must be %s, got %.40s", k, jsonnum.Reason(s), s)
				}
				conv = json.Number(s)
			}
		}
		m[k] = conv
		if i, err := strconv.Atoi(k); err == nil && i >= 0 && i <= maxQueryIndex && strconv.Itoa(i) == k {
			indices = append(indices, i)
		}
	}
	if len(m) == 0 || len(indices) != len(m) {
		return m, nil
	}
	sort.Ints(indices)
	list := make([]any, len(indices))
	for j, i := range indices {
		list[j] = m[strconv.Itoa(i)]
	}
	return list, nil
}

func badQuery(format string, args ...any) error {
	return apperr.InvalidQueryParams(format, args...)
}
