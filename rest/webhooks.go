package rest

import (
	"context"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest/campaigns"
	"github.com/promoengine/promoengine/rest/loyaltyv1"
	"github.com/promoengine/promoengine/rest/loyaltyv2"
	"github.com/promoengine/promoengine/rest/promotions"
	voucherarea "github.com/promoengine/promoengine/rest/vouchers"
)

// webhookRenderer renders the entities of webhook payloads exactly as the
// REST API answers them, with the handlers' public URL. They are rendered
// outside any request (one with no host), so without a PublicURL asset
// links are relative (/v1/assets/…), see voucherHandlers.baseURL.
func webhookRenderer(vouchers voucherHandlers) webhook.Renderer {
	redemptions := redemptionHandlers{vouchers: vouchers}
	publications := publicationHandlers{vouchers}
	return func(ctx context.Context, entity any) (any, bool) {
		c := &gin.Context{Request: (&http.Request{}).WithContext(ctx)}
		switch e := entity.(type) {
		case *ent.Voucher:
			return vouchers.voucherJSON(c, e), true
		case *ent.Campaign:
			return campaigns.JSON(e), true
		case *ent.Customer:
			return customerJSON(e), true
		case *ent.Publication:
			return publications.publicationJSON(c, e), true
		case *ent.Redemption:
			return redemptions.redemptionJSON(c, e), true
		case *ent.VoucherTransaction:
			return voucherarea.TransactionJSON(e), true
		case *ent.AsyncAction:
			return asyncActionJSON(e), true
		case *ent.Card:
			return loyaltyv2.CardJSON(e), true
		case *ent.CardTransaction:
			return loyaltyv2.CardTransactionJSON(e), true
		case *ent.LoyaltyMember:
			// The cards' summaries as the API shows them (read in the
			// event's transaction; left out if they cannot be read).
			sums, err := loyalty.CardSummaries(ctx, e.Edges.Cards)
			if err != nil {
				sums = nil
			}
			return loyaltyv2.MemberJSON(e, e.Edges.Cards, sums), true
		case *ent.PromotionTier:
			return promotions.TierJSON(e, nil), true
		case *ent.PromotionStack:
			return promotions.StackJSON(e), true
		case *ent.PointsBucket:
			if strings.HasPrefix(e.ID, pulid.PrefixPendingPoints) {
				return loyaltyv1.PendingPointsJSON(e), true
			}
			return loyaltyv1.PointsBucketJSON(e), true
		}
		return nil, false
	}
}
