package loyaltyv2

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerCardBuckets adds a v2 card's expiring points (GET
// …/cards/{cardId}/expiring-points, POST …/{bucketId}/expire) and pending
// points (GET …/pending-points, POST …/{bucketId}/activate and /cancel:
// card_pending.go).
func registerCardBuckets(v2 *gin.RouterGroup) {
	card := "/programs/:programId/members/:memberId/cards/:cardId"
	v2.GET(card+"/expiring-points", keysetListBy("expiration_date", false, "lcrspeb_", "card-expiring-points",
		func(c *gin.Context, p loyaltybase.PageInput) ([]cardBucketBody, func(cardBucketBody) string, bool, error) {
			page, err := loyalty.CardExpiringPoints(c.Request.Context(), c.Param("programId"), c.Param("memberId"), c.Param("cardId"), p)
			if err != nil {
				return nil, nil, false, err
			}
			return mapAll(page.Data, cardBucketJSON), func(b cardBucketBody) string { return b.key }, page.HasMore, nil
		}))
	v2.POST(card+"/expiring-points/:bucketId/expire", httpkit.Write(httpkit.Bound(func(c *gin.Context, ctx context.Context) (*loyalty.CardBucketExpiry, error) {
		return loyalty.ExpireCardBucketNow(ctx, c.Param("programId"), c.Param("memberId"), c.Param("cardId"), c.Param("bucketId"))
	}), cardBucketExpiryJSON))
	registerCardPending(v2, card) // card_pending.go
}

// cardBucketBody is the documents' card_points_bucket.
type cardBucketBody struct {
	key              string
	ID               string             `json:"id"`
	CardID           string             `json:"card_id"`
	CustomerID       string             `json:"customer_id"`
	CardDefinitionID *string            `json:"card_definition_id"`
	ProgramID        string             `json:"program_id"`
	CardType         string             `json:"card_type"`
	MemberID         *string            `json:"member_id"`
	Points           map[string]any     `json:"points"`
	ExpirationDate   *string            `json:"expiration_date"`
	ExpirationType   string             `json:"expiration_type"`
	Status           string             `json:"status"`
	CreatedAt        httpkit.Timestamp  `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp `json:"updated_at"`
	Object           string             `json:"object"`
}

func cardBucketJSON(cb *loyalty.CardBucket) cardBucketBody {
	b, crd := cb.Bucket, cb.Card
	out := cardBucketBody{key: b.ID, ID: loyalty.CardBucketID(b.ID), CardID: crd.ID, CustomerID: cb.CustomerID,
		CardDefinitionID: crd.CardDefinitionID, ProgramID: crd.ProgramID, CardType: "INDIVIDUAL", MemberID: crd.MemberID,
		Points: map[string]any{"total": b.Points}, ExpirationType: "NO_EXPIRATION", Status: string(b.Status),
		CreatedAt: httpkit.Timestamp(b.CreatedAt), UpdatedAt: httpkit.OptionalTime(b.UpdatedAt), Object: "card_points_bucket"}
	if b.ExpiresAt != nil {
		d := b.ExpiresAt.Format(time.DateOnly)
		out.ExpirationDate = &d
		out.ExpirationType = "ROLLING_EXPIRATION" // buckets dated before the type was recorded
		if t, ok := b.Details["expiration_type"].(string); ok {
			out.ExpirationType = t
		}
	}
	return out
}

// cardBucketExpiryBody is the documents' CardPointsExpirationResult.
type cardBucketExpiryBody struct {
	Transaction *cardTransactionBody `json:"transaction"`
	Status      string               `json:"status"`
	Message     string               `json:"message"`
}

func cardBucketExpiryJSON(e *loyalty.CardBucketExpiry) cardBucketExpiryBody {
	if e.Transaction == nil {
		return cardBucketExpiryBody{Transaction: nil, Status: "NO_EXPIRATION", Message: "The bucket held no points; it is expired"}
	}
	tx := v2CardTransactionJSON(e.Transaction, e.Bucket)
	return cardBucketExpiryBody{Transaction: &tx, Status: "TRANSACTION_CREATED",
		Message: "Points expiration transaction created"}
}

// v2CardTransactionJSON is the documents' card_transaction of a move of
// one of the card's buckets (an expiry: POINTS_EXPIRED, the daily job's
// type too; a pending activation).
func v2CardTransactionJSON(t *ent.CardTransaction, cb *loyalty.CardBucket) cardTransactionBody {
	if t.Edges.Card == nil {
		t.Edges.Card = cb.Card
	}
	return CardTransactionJSON(t)
}
