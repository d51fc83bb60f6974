package loyaltyv2

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// cardTransactionBody is a v2 card transaction in the documents' shape
// (loyalties-v2.json, CardTransaction): the documents' type
// (loyalty.CardTransactionType), the card's program, member and
// definition, details {reason, metadata, points: {total}} and status
// APPROVED (a booked transaction), beside the ledger's amount, balance
// and source_id. The card comes from t.Edges.Card
// (loyalty.LoadTransactionCards); without it those ids are empty.
type cardTransactionBody struct {
	ID               string             `json:"id"`
	CardID           string             `json:"card_id"`
	ProgramID        string             `json:"program_id"`
	MemberID         string             `json:"member_id"`
	CardDefinitionID string             `json:"card_definition_id"`
	CardType         string             `json:"card_type"`
	Type             string             `json:"type"`
	Details          cardTxDetailsBody  `json:"details"`
	Status           string             `json:"status"`
	Amount           int64              `json:"amount"`
	Balance          int64              `json:"balance"`
	Reason           *string            `json:"reason"`
	SourceID         *string            `json:"source_id"`
	CreatedAt        httpkit.Timestamp  `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp `json:"updated_at"`
	Object           string             `json:"object"`
}

// cardTxDetailsBody is CardTransactionDetails.
type cardTxDetailsBody struct {
	Reason   *string        `json:"reason"`
	Metadata map[string]any `json:"metadata"`
	Points   cardTxPoints   `json:"points"`
}

// cardTxPoints is the details' points: total, the points moved (signed
// as the ledger's amount: negative for a removal).
type cardTxPoints struct {
	Total int64 `json:"total"`
}

func CardTransactionJSON(t *ent.CardTransaction) cardTransactionBody {
	out := cardTransactionBody{ID: t.ID, CardID: t.CardID, CardType: "INDIVIDUAL", Type: loyalty.CardTransactionType(t),
		Details: cardTxDetailsBody{Reason: t.Reason, Metadata: map[string]any{}, Points: cardTxPoints{Total: t.Amount}},
		Status:  "APPROVED", Amount: t.Amount, Balance: t.Balance, Reason: t.Reason, SourceID: t.SourceID,
		CreatedAt: httpkit.Timestamp(t.CreatedAt), Object: "card_transaction"}
	if crd := t.Edges.Card; crd != nil {
		out.ProgramID = crd.ProgramID
		if crd.MemberID != nil {
			out.MemberID = *crd.MemberID
		}
		if crd.CardDefinitionID != nil {
			out.CardDefinitionID = *crd.CardDefinitionID
		}
	}
	return out
}

// withTransactionCard loads the card of a purchase's transaction (for the
// ids CardTransactionJSON shows): withTransactionCard(ctx)(call(…)).
func withTransactionCard(ctx context.Context) func(*loyaltybase.RewardPurchaseResult, error) (*loyaltybase.RewardPurchaseResult, error) {
	return func(r *loyaltybase.RewardPurchaseResult, err error) (*loyaltybase.RewardPurchaseResult, error) {
		if err != nil || r == nil || r.Transaction == nil {
			return r, err
		}
		return r, loyalty.LoadTransactionCards(ctx, r.Transaction)
	}
}
