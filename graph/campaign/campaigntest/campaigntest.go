// Package campaigntest sets up campaigns for the tests of the packages
// above graph/campaign.
package campaigntest

import (
	"context"
	"fmt"
	"testing"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// WithCodes creates a STATIC discount campaign (100 off) holding codes.
func WithCodes(t testing.TB, ctx context.Context, name string, codes ...string) *ent.Campaign {
	t.Helper()
	static := entcampaign.TypeSTATIC
	amount := 100.0
	var cmp *ent.Campaign
	err := store.InTx(ctx, func(ctx context.Context) (err error) {
		cmp, err = campaign.CreateCampaign(ctx, campaign.CreateCampaignInput{Name: name, Type: &static,
			Voucher: &jsonfield.VoucherProfile{Type: "DISCOUNT_VOUCHER",
				Discount: &jsonfield.Discount{Type: "AMOUNT", AmountOff: &amount}}})
		if err != nil {
			return err
		}
		for _, code := range codes {
			if _, err := campaign.AddVoucher(ctx, name, &campaign.AddVouchersInput{Code: &code}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("creating campaign %s: %v", name, err)
	}
	return cmp
}

// Codes returns n codes: prefix followed by 000, 001, …
func Codes(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%03d", prefix, i)
	}
	return out
}
