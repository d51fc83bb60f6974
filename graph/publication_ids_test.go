package graph

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// Publications and customers get IDs of the real service's shape that sort
// in the order they were created (what keeps SQLite's group commits small:
// ent/schema/publication.go), on either database.
func TestPublicationAndCustomerIDsFollowCreationOrder(t *testing.T) {
	_, ctx := projectContext(t)
	err := InTx(ctx, func(ctx context.Context) error {
		_, err := createCampaign(ctx, CreateCampaignInput{Name: "ids", Voucher: &jsonfield.VoucherProfile{
			Type: "DISCOUNT_VOUCHER", Discount: &jsonfield.Discount{Type: "AMOUNT", AmountOff: ptr(100.0)}}})
		for i := 0; err == nil && i < 5; i++ {
			code := fmt.Sprintf("ID-%d", i)
			_, err = addVoucher(ctx, "ids", &AddVouchersInput{Code: &code})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	pubRE, custRE := regexp.MustCompile(`^pub_[0-9a-f]{32}$`), regexp.MustCompile(`^cust_[0-9a-f]{24}$`)
	var lastPub, lastCust string
	for i := range 5 {
		source := fmt.Sprintf("shopper-%d", i)
		pub, err := publish(ctx, PublishInput{Campaign: &PublishCampaignInput{Name: "ids"},
			Customer: &CustomerInput{SourceID: &source}}, false)
		if err != nil {
			t.Fatal(err)
		}
		cust := pub.Edges.Customer
		if !pubRE.MatchString(pub.ID) || !custRE.MatchString(cust.ID) {
			t.Fatalf("IDs %s and %s are not pub_ + 32 and cust_ + 24 hex characters", pub.ID, cust.ID)
		}
		if pub.ID <= lastPub || cust.ID <= lastCust {
			t.Errorf("publication %d: IDs %s, %s do not sort after %s, %s", i, pub.ID, cust.ID, lastPub, lastCust)
		}
		lastPub, lastCust = pub.ID, cust.ID
	}
}
