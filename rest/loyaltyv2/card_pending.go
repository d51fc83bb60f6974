package loyaltyv2

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// A v2 card's pending points (graph/loyalty/card_pending.go): the list,
// and activating or canceling an entry by hand.
func registerCardPending(v2 *gin.RouterGroup, card string) {
	v2.GET(card+"/pending-points", keysetListBy("date", false, "lcrscppb_", "card-pending-points",
		func(c *gin.Context, p loyaltybase.PageInput) ([]cardPendingBody, func(cardPendingBody) string, bool, error) {
			page, err := loyalty.CardPendingPoints(c.Request.Context(), c.Param("programId"), c.Param("memberId"), c.Param("cardId"), p)
			if err != nil {
				return nil, nil, false, err
			}
			return mapAll(page.Data, cardPendingJSON), func(b cardPendingBody) string { return b.key }, page.HasMore, nil
		}))
	for _, verb := range []string{"activate", "cancel"} {
		activate := verb == "activate"
		v2.POST(card+"/pending-points/:bucketId/"+verb, httpkit.Write(httpkit.Bound(func(c *gin.Context, ctx context.Context) (*loyalty.PendingMove, error) {
			return loyalty.MoveCardPending(ctx, c.Param("programId"), c.Param("memberId"), c.Param("cardId"), c.Param("bucketId"), activate)
		}), pendingMoveJSON))
	}
}

// cardPendingBody is the documents' card_pending_points_bucket.
type cardPendingBody struct {
	key              string
	ID               string             `json:"id"`
	CardID           string             `json:"card_id"`
	CardDefinitionID *string            `json:"card_definition_id"`
	ProgramID        string             `json:"program_id"`
	CardType         string             `json:"card_type"`
	MemberID         *string            `json:"member_id"`
	Points           map[string]any     `json:"points"`
	Date             *string            `json:"date"`
	Type             string             `json:"type"`
	Status           string             `json:"status"`
	CreatedAt        httpkit.Timestamp  `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp `json:"updated_at"`
	Object           string             `json:"object"`
}

func cardPendingJSON(cb *loyalty.CardBucket) cardPendingBody {
	b, crd := cb.Bucket, cb.Card
	typ, _ := b.Details["type"].(string) // the policy it waits under (graph/loyalty/card_pending_policies.go)
	if typ == "" {
		typ = "PERIOD_BASED"
	}
	out := cardPendingBody{key: b.ID, ID: loyalty.CardPendingID(b.ID), CardID: crd.ID, CardDefinitionID: crd.CardDefinitionID,
		ProgramID: crd.ProgramID, CardType: "INDIVIDUAL", MemberID: crd.MemberID, Points: map[string]any{"total": b.Points},
		Type: typ, Status: string(b.Status), CreatedAt: httpkit.Timestamp(b.CreatedAt), UpdatedAt: httpkit.OptionalTime(b.UpdatedAt),
		Object: "card_pending_points_bucket"}
	if b.ActivatesAt != nil {
		d := b.ActivatesAt.Format(time.DateOnly)
		out.Date = &d
	}
	return out
}

// pendingMoveBody is the documents' activation / cancellation result.
type pendingMoveBody struct {
	Transaction *cardTransactionBody `json:"transaction"`
	Status      string               `json:"status"`
	Message     string               `json:"message"`
}

func pendingMoveJSON(m *loyalty.PendingMove) pendingMoveBody {
	if m.Transaction == nil {
		return pendingMoveBody{Status: "TRANSACTION_CREATED", Message: "Points cancellation transaction created"}
	}
	tx := v2CardTransactionJSON(m.Transaction, m.Card)
	return pendingMoveBody{Transaction: &tx, Status: "TRANSACTION_CREATED",
		Message: "Points activation transaction created"}
}
