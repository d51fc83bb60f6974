package publication

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// Publications and customers get IDs of the real service's shape that sort
// in the order they were created (what keeps SQLite's group commits small:
// ent/schema/publication.go), on either database.
func TestPublicationAndCustomerIDsFollowCreationOrder(t *testing.T) {
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "ids", campaigntest.Codes("ID-", 5)...)
	pubRE, custRE := regexp.MustCompile(`^pub_[0-9a-f]{32}$`), regexp.MustCompile(`^cust_[0-9a-f]{24}$`)
	var lastPub, lastCust string
	for i := range 5 {
		pub, err := Publish(ctx, fromCampaign("ids", fmt.Sprintf("shopper-%d", i), nil), false)
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
