package graph

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestVoucherPagesStayInTheProject: the v1 voucher list's pages after the
// first (read through page.DeferredOffset's hand-built sub-select) give
// every voucher of the project once, newest first, whatever another
// project holds — with and without a campaign filter.
func TestVoucherPagesStayInTheProject(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "mine", campaigntest.Codes("M", 23)...)
	var other access.ProjectCredentials
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		other, err = access.CreateProject(ctx, "other", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The other project's vouchers are newer: a sub-select without the
	// project filter would skip them as the page's first rows.
	otherCtx := viewer.NewContext(ctx, viewer.Viewer{ProjectID: other.ProjectID})
	campaigntest.WithCodes(t, otherCtx, "mine", campaigntest.Codes("O", 40)...)

	for _, campaign := range []*string{nil, ptr("mine")} {
		all, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: ptr(100), Campaign: campaign})
		if err != nil {
			t.Fatal(err)
		}
		if len(all.Data) != 23 {
			t.Fatalf("campaign %v: one page of 100 gave %d vouchers, want 23", campaign != nil, len(all.Data))
		}
		var paged []string
		for p := 1; p <= 4; p++ {
			page, err := campaignpkg.ListVouchers(ctx, &campaignpkg.VoucherListInput{Limit: ptr(7), Page: ptr(p), Campaign: campaign})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range page.Data {
				paged = append(paged, v.Code)
			}
		}
		if len(paged) != len(all.Data) {
			t.Fatalf("campaign %v: pages of 7 gave %d vouchers %v, want %d", campaign != nil, len(paged), paged, len(all.Data))
		}
		for i, v := range all.Data {
			if paged[i] != v.Code {
				t.Fatalf("campaign %v: pages of 7 gave %v, one page %v at %d", campaign != nil, paged, v.Code, i)
			}
		}
	}
}

// ptr is a pointer to v.
func ptr[T any](v T) *T { return &v }
