package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
)

// TestPageInfoWithoutCounting: a connection's pageInfo comes from the
// page's extra row, never from a count; totalCount is counted only when
// selected — for a campaign's vouchers from the campaign's counter (no
// statement counts vouchers), elsewhere with a capped count.
func TestPageInfoWithoutCounting(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "paged", campaigntest.Codes("P", 3)...)
	ctx, rec := recordSQL(t, ctx)
	rec.take()
	counts := func(stmts []string) (n int) {
		for _, s := range stmts {
			if strings.Contains(strings.ToUpper(s), "COUNT(") {
				n++
			}
		}
		return n
	}

	for _, c := range []struct {
		first    int
		selected string
		more     bool
	}{
		{2, "edges { node { code } }", true},
		{3, "edges { node { code } }", false},
		{2, "", true}, // pageInfo alone
		{3, "", false},
	} {
		q := fmt.Sprintf(`{ campaign(idOrName: "paged") { vouchers(first: %d) { pageInfo { hasNextPage endCursor } %s } } }`, c.first, c.selected)
		conn := gqlQuery(t, ctx, q)["campaign"].(map[string]any)["vouchers"].(map[string]any)
		info := conn["pageInfo"].(map[string]any)
		if info["hasNextPage"] != c.more || info["endCursor"] == nil {
			t.Errorf("first %d %q: pageInfo %v, want hasNextPage %v and a cursor", c.first, c.selected, info, c.more)
		}
		if stmts := rec.take(); counts(stmts) > 0 {
			t.Errorf("first %d %q: pageInfo counted: %q", c.first, c.selected, stmts)
		}
	}

	conn := gqlQuery(t, ctx, `{ campaign(idOrName: "paged") { vouchers(first: 1) { totalCount } } }`)["campaign"].(map[string]any)["vouchers"].(map[string]any)
	if conn["totalCount"] != float64(3) {
		t.Errorf("campaign totalCount %v, want 3", conn["totalCount"])
	}
	if stmts := rec.take(); counts(stmts) > 0 {
		t.Errorf("the campaign's totalCount counted rows instead of reading vouchers_count: %q", stmts)
	}

	conn = gqlQuery(t, ctx, `{ vouchers(first: 1) { totalCount pageInfo { hasNextPage } } }`)["vouchers"].(map[string]any)
	if conn["totalCount"] != float64(3) || conn["pageInfo"].(map[string]any)["hasNextPage"] != true {
		t.Errorf("vouchers: %v, want totalCount 3 and a next page", conn)
	}
	stmts := rec.take()
	if counts(stmts) != 1 || !strings.Contains(strings.Join(stmts, "\n"), "LIMIT 10001") {
		t.Errorf("vouchers' totalCount: want one count capped at 10,000, got %q", stmts)
	}
}

// TestNestedTotalCountIsCappedPerParent: the totalCount of a connection
// below each row of a page (every customer's redemptions) is counted in
// one statement for the page that reads at most 10,001 rows per parent
// (a UNION ALL of capped branches), not a GROUP BY over all of them.
func TestNestedTotalCountIsCappedPerParent(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "nested", campaigntest.Codes("Q", 12)...)
	publishedCustomers(t, ctx, "nested", "nest", 3)
	ctx, rec := recordSQL(t, ctx)
	rec.take()
	data := gqlQuery(t, ctx, `{ customers(first: 10) { edges { node { sourceID redemptions(first: 1) { totalCount edges { node { id } } } } } } }`)
	edges := data["customers"].(map[string]any)["edges"].([]any)
	if len(edges) != 3 {
		t.Fatalf("%d customers, want 3", len(edges))
	}
	for _, e := range edges {
		node := e.(map[string]any)["node"].(map[string]any)
		if got := node["redemptions"].(map[string]any)["totalCount"]; got != float64(1) {
			t.Errorf("%v: redemptions totalCount %v, want 1", node["sourceID"], got)
		}
	}
	var counting []string
	for _, s := range rec.take() {
		if strings.Contains(strings.ToUpper(s), "COUNT(") {
			counting = append(counting, s)
		}
	}
	if len(counting) != 1 || !strings.Contains(counting[0], "LIMIT 10001") || !strings.Contains(counting[0], "UNION ALL") {
		t.Errorf("want one count of capped branches per page, got %q", counting)
	}
}
