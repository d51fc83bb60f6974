package loyaltyv2

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerBenefitTransactions adds GET …/members/{memberId}/benefits/
// transactions: the member's benefit fulfilments (keyset pages, cursor
// lcrsbtx_).
func registerBenefitTransactions(v2 *gin.RouterGroup) {
	v2.GET("/programs/:programId/members/:memberId/benefits/transactions", keysetList("lcrsbtx_", "benefit-transactions",
		func(c *gin.Context, p loyaltybase.PageInput) ([]benefitTransactionBody, func(benefitTransactionBody) string, bool, error) {
			page, err := loyalty.MemberBenefitTransactions(c.Request.Context(), c.Param("programId"), c.Param("memberId"), p)
			if err != nil {
				return nil, nil, false, err
			}
			return mapAll(page.Data, benefitTransactionJSON), func(b benefitTransactionBody) string { return b.ID }, page.HasMore, nil
		}))
}

// benefitTransactionBody is the August document's benefit_transaction.
type benefitTransactionBody struct {
	ID            string             `json:"id"`
	BenefitID     string             `json:"benefit_id"`
	ProgramID     string             `json:"program_id"`
	MemberID      string             `json:"member_id"`
	EarningRuleID string             `json:"earning_rule_id"`
	Type          string             `json:"type"`
	Details       map[string]any     `json:"details"`
	Status        string             `json:"status"`
	CreatedAt     httpkit.Timestamp  `json:"created_at"`
	UpdatedAt     *httpkit.Timestamp `json:"updated_at"`
	Object        string             `json:"object"`
}

func benefitTransactionJSON(b *loyalty.BenefitTransaction) benefitTransactionBody {
	t := b.CardTransaction
	reason := ""
	if t.Reason != nil {
		reason = *t.Reason
	}
	return benefitTransactionBody{ID: t.ID, BenefitID: loyaltybase.BenefitID(b.BenefitID), ProgramID: b.ProgramID, MemberID: b.MemberID,
		EarningRuleID: *t.EarningRuleID, Type: "FULFILLMENT", Status: "APPROVED", CreatedAt: httpkit.Timestamp(t.CreatedAt),
		Details: map[string]any{"reason": reason, "rejection": nil, "metadata": map[string]any{},
			"result": map[string]any{"card_id": t.CardID, "card_transaction_id": t.ID, "points": t.Amount}},
		Object: "benefit_transaction"}
}
