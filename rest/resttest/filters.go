package resttest

import "net/url"

// FilterQuery is the query of one list filter condition,
// filters[field][conditions][op]=value for each value (one empty value
// when none is given), encoded.
func FilterQuery(field, op string, values ...string) string {
	q := url.Values{}
	key := "filters[" + field + "][conditions][" + op + "]"
	for _, v := range values {
		q.Add(key, v)
	}
	if len(values) == 0 {
		q.Set(key, "")
	}
	return q.Encode()
}
