package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCustomerPagesMakeTheWholeList: the pages of GET /v1/customers, in
// every order and with a filter, are the whole list cut in pages — page
// 2 on reads its rows from the page's first row on (page.DeferredKeyset,
// ordered by created_at) or by the page's IDs (the other orders) — and
// another project's customers never show.
func TestCustomerPagesMakeTheWholeList(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("other"))
	for i := range 7 {
		body := map[string]any{"source_id": fmt.Sprintf("c-%d", (i*3)%7), "name": []string{"Ann", "Bob"}[i%2]}
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", body, app), http.StatusOK)
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": fmt.Sprintf("o-%d", i)}, other), http.StatusOK)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "c-3", "name": "Bob"}, app), http.StatusOK) // updated
	ids := func(q string) ([]string, bool) {
		body := must(t, e.Do(http.MethodGet, "/v1/customers?"+q, nil, app), http.StatusOK)
		var out []string
		for _, c := range body["customers"].([]any) {
			out = append(out, c.(map[string]any)["id"].(string))
		}
		more, _ := body["has_more"].(bool)
		return out, more
	}
	for _, q := range []string{"", "order=created_at", "order=-created_at", "order=updated_at", "order=-source_id", "name=Bob", "name=Ann&order=created_at"} {
		all, _ := ids("limit=100&" + q)
		if len(all) == 0 {
			t.Fatalf("?%s: no customers", q)
		}
		for _, size := range []int{1, 2, 3} {
			var paged []string
			for p := 1; ; p++ {
				got, more := ids(fmt.Sprintf("limit=%d&page=%d&%s", size, p, q))
				paged = append(paged, got...)
				if !more {
					if p*size < len(all) || len(got) == 0 && p > 1 && len(all)%size != 0 {
						t.Errorf("?%s limit %d: page %d says no more", q, size, p)
					}
					break
				}
			}
			if !slices.Equal(paged, all) {
				t.Errorf("?%s: pages of %d give %v, the list %v", q, size, paged, all)
			}
		}
		if past, _ := ids("limit=5&page=9&" + q); len(past) != 0 {
			t.Errorf("?%s: past the end %v", q, past)
		}
	}
}
