package graph

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
)

// TestMultiOrderCursorsPageEveryRowOnce pages a campaign's vouchers —
// created in one insert, so they share their created_at — through
// multi-field orders (ent/keyset's row comparison and its OR with a
// leading bound), forwards with first/after and backwards with
// last/before: every voucher comes exactly once, in the order of the
// whole list read at once.
func TestMultiOrderCursorsPageEveryRowOnce(t *testing.T) {
	_, ctx := projectContext(t)
	codes := campaigntest.Codes("K", 23)
	campaigntest.WithCodes(t, ctx, "keyset", codes...)
	for _, order := range []string{
		`[{field: CREATED_AT, direction: DESC}]`,
		`[{field: CREATED_AT, direction: ASC}]`,
		`[{field: CREATED_AT, direction: DESC}, {field: CODE, direction: ASC}]`,
		`[{field: CODE, direction: DESC}, {field: CREATED_AT, direction: ASC}]`,
	} {
		t.Run(order, func(t *testing.T) {
			all := voucherPage(t, ctx, order, "first: 100")
			if got := slices.Sorted(slices.Values(all.codes)); !slices.Equal(got, codes) {
				t.Fatalf("the whole list: %v", all.codes)
			}
			var forward []string
			after := ""
			for {
				p := voucherPage(t, ctx, order, "first: 5"+after)
				forward = append(forward, p.codes...)
				if !p.hasNext {
					break
				}
				after = fmt.Sprintf(", after: %q", p.end)
			}
			if !slices.Equal(forward, all.codes) {
				t.Errorf("forward pages: %v, want %v", forward, all.codes)
			}
			var backward []string
			before := ""
			for {
				p := voucherPage(t, ctx, order, "last: 5"+before)
				backward = append(p.codes, backward...)
				if !p.hasPrevious {
					break
				}
				before = fmt.Sprintf(", before: %q", p.start)
			}
			if !slices.Equal(backward, all.codes) {
				t.Errorf("backward pages: %v, want %v", backward, all.codes)
			}
		})
	}
}

// keysetPage is one page of a vouchers connection.
type keysetPage struct {
	codes                []string
	start, end           string
	hasNext, hasPrevious bool
}

func voucherPage(t *testing.T, ctx context.Context, order, args string) keysetPage {
	t.Helper()
	data := gqlQuery(t, ctx, fmt.Sprintf(`{ campaign(idOrName: "keyset") { vouchers(%s, orderBy: %s) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { node { code } } } } }`, args, order))
	conn := data["campaign"].(map[string]any)["vouchers"].(map[string]any)
	info := conn["pageInfo"].(map[string]any)
	var p keysetPage
	p.hasNext, _ = info["hasNextPage"].(bool)
	p.hasPrevious, _ = info["hasPreviousPage"].(bool)
	p.start, _ = info["startCursor"].(string)
	p.end, _ = info["endCursor"].(string)
	for _, e := range conn["edges"].([]any) {
		p.codes = append(p.codes, e.(map[string]any)["node"].(map[string]any)["code"].(string))
	}
	return p
}
