package campaign

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestInsertVouchersInBulk: a batch larger than one SQLite statement is
// stored whole, codes the project has already are skipped and not counted,
// the campaign's count grows by what was stored, and every voucher carries
// the template's fields as ent reads them back.
func TestInsertVouchersInBulk(t *testing.T) {
	db, ctx := graphtest.ProjectContext(t)
	var cmp *ent.Campaign
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		cmp, err = CreateCampaign(ctx, CreateCampaignInput{Name: "bulk"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	pct, qty, info := 15.0, 3, "more"
	start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	tmpl := &jsonfield.VoucherTemplate{
		Type: jsonfield.VoucherType("DISCOUNT_VOUCHER"), Discount: &jsonfield.Discount{Type: "PERCENT", PercentOff: &pct},
		RedemptionQuantity: &qty, StartDate: &start, ValidityDayOfWeek: []int{1, 3}, Active: true,
		AdditionalInfo: &info, Metadata: map[string]any{"k": "v"},
	}
	const total = 2*sqliteChunk + 37
	codes := make([]string, total)
	for i := range codes {
		codes[i] = fmt.Sprintf("BULK-%06d", i)
	}
	var first int
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		first, err = InsertVouchers(ctx, cmp.ProjectID, &cmp.ID, tmpl, codes[:5])
		return err
	}); err != nil || first != 5 {
		t.Fatalf("first insert: %d %v", first, err)
	}
	var n int
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		n, err = InsertVouchers(ctx, cmp.ProjectID, &cmp.ID, tmpl, codes)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n != total-5 {
		t.Errorf("inserted %d, want %d (5 codes existed)", n, total-5)
	}
	if got := db.Client.Campaign.GetX(ctx, cmp.ID).VouchersCount; got != total {
		t.Errorf("campaign counts %d vouchers, want %d", got, total)
	}
	if got := db.Client.Voucher.Query().Where(voucher.CampaignID(cmp.ID)).CountX(ctx); got != total {
		t.Errorf("%d vouchers stored, want %d", got, total)
	}
	v := db.Client.Voucher.Query().Where(voucher.Code(codes[total-1])).OnlyX(ctx)
	if !regexp.MustCompile(`^v_[0-9a-zA-Z]{32}$`).MatchString(v.ID) {
		t.Errorf("voucher id %q is not v_ and 32 alphanumerics", v.ID)
	}
	got := fmt.Sprint(v.Type, " ", *v.Discount.PercentOff, " ", *v.RedemptionQuantity, " ", v.StartDate.UTC(), " ",
		v.ValidityDayOfWeek, " ", v.Active, " ", *v.AdditionalInfo, " ", v.Metadata, " ", v.PublishCount, " ",
		v.RedeemedQuantity, " ", v.ExpirationDate == nil, " ", v.Gift == nil, " ", *v.CampaignID == cmp.ID)
	want := "DISCOUNT_VOUCHER 15 3 2030-01-02 03:04:05 +0000 UTC [1 3] true more map[k:v] 0 0 true true true"
	if got != want {
		t.Errorf("stored voucher:\n got %s\nwant %s", got, want)
	}
}

// TestNewVoucherIDs: IDs made in bulk look like pulid's voucher IDs and
// do not repeat.
func TestNewVoucherIDs(t *testing.T) {
	ids := newVoucherIDs(5000)
	seen := map[string]bool{}
	shape := regexp.MustCompile(`^v_[0-9a-zA-Z]{32}$`)
	for _, id := range ids {
		if !shape.MatchString(id) || seen[id] {
			t.Fatalf("id %q malformed or repeated", id)
		}
		seen[id] = true
	}
	if len(newVoucherIDs(0)) != 0 || len(newVoucherIDs(1)) != 1 {
		t.Error("wrong count for 0 or 1 ids")
	}
}
