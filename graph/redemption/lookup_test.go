package redemption

import (
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// TestLookUpMatchesIDsOnlyForTheirPrefix: the look-up matches the codes
// against voucher IDs only when one has a voucher ID's prefix, and a
// voucher is still found by its code, by its ID, and by a code that looks
// like an ID, alone or beside others.
func TestLookUpMatchesIDsOnlyForTheirPrefix(t *testing.T) {
	matchesIDs := func(q string) bool {
		return strings.Contains(q, `"v"."id" IN`) || strings.Contains(q, "`v`.`id` IN")
	}
	for _, d := range []string{dialect.Postgres, dialect.SQLite} {
		plain, err := lookupQuery(lookupQueryKey{dialect: d, codes: 2})
		if err != nil {
			t.Fatal(err)
		}
		both, err := lookupQuery(lookupQueryKey{dialect: d, codes: 2, byID: true})
		if err != nil {
			t.Fatal(err)
		}
		if matchesIDs(plain) || !matchesIDs(both) {
			t.Errorf("%s: codes only:\n%s\ncodes and IDs:\n%s", d, plain, both)
		}
	}
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "PLAIN", "OTHER", "v_LOOKALIKE")
	id := ent.FromContext(ctx).Voucher.Query().Where(voucher.Code("PLAIN")).OnlyX(ctx).ID
	for _, names := range [][]string{{"PLAIN"}, {id}, {"v_LOOKALIKE"}, {"OTHER", id}, {"OTHER", "v_LOOKALIKE"}} {
		res, err := RedeemStacked(ctx, redeemCodes(names...))
		if err != nil || res.Failure != nil || len(res.Redemptions) != len(names) {
			t.Fatalf("%v: err %v, result %+v", names, err, res)
		}
		for i, r := range res.Redemptions {
			want := names[i]
			if want == id {
				want = "PLAIN"
			}
			if *r.VoucherCode != want {
				t.Errorf("%v: redemption %d is of %s, want %s", names, i, *r.VoucherCode, want)
			}
		}
	}
	if _, err := RedeemVoucher(ctx, id, &VoucherRedemptionInput{}); err != nil {
		t.Errorf("the legacy redemption by ID: %v", err)
	}
}
