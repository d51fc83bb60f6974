package programreward

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/programreward"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/ent/rewardpurchase"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Spending points on rewards (POST …/members/{memberId}/rewards/purchases,
// POST …/programs/{id}/rewards/purchases/{id}/refund). A purchase takes one
// unit of the assignment's stock with a guarded UPDATE (redeemed < stock)
// and debits the member's card through bookCardPoints, the locked move
// every v2 card booking uses (the balance never goes negative), then
// records the reward transaction, a card activity and one webhook event —
// all in the request's transaction, so a refusal writes nothing. The
// documents describe an asynchronous PENDING transaction (202); here it is
// processed before the answer (202, status APPROVED). A refund gives the
// points back and the unit back to the stock, once: the refund row's
// refund_of is unique.

// PurchaseReward spends the member's card points on a reward assigned to
// the program.
func PurchaseReward(ctx context.Context, programID, memberID string, in loyaltybase.PurchaseRewardInput) (*loyaltybase.RewardPurchaseResult, error) {
	if in.RewardID == nil || *in.RewardID == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'reward_id'")
	}
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, err
	}
	if p.Status != loyaltyprogram.StatusACTIVE {
		return nil, loyaltybase.Locked423("program_not_active", "Program not active", fmt.Sprintf("Program %s is %s", programID, p.Status))
	}
	if m.Status != loyaltymember.StatusACTIVE {
		return nil, loyaltybase.Locked423("member_not_active", "Member not active", fmt.Sprintf("Member %s is %s", memberID, m.Status))
	}
	rw, err := loyaltybase.RewardByID(ctx, *in.RewardID)
	if err != nil {
		return nil, err
	}
	if rw.Status != reward.StatusACTIVE {
		return nil, loyaltybase.Locked423("reward_not_active", "Reward not active", fmt.Sprintf("Reward %s is %s", rw.ID, rw.Status))
	}
	a, err := programReward(ctx, programID, rw.ID)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	crd, err := c.Card.Query().Where(card.MemberID(memberID), card.ProgramID(programID),
		card.CardDefinitionID(a.CardDefinitionID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, loyaltybase.Locked423("no_matching_card", "No matching card",
			fmt.Sprintf("Member %s has no card of card definition %s", memberID, a.CardDefinitionID))
	}
	if err != nil {
		return nil, fmt.Errorf("reading member card: %w", err)
	}
	// One unit of stock, taken only while redeemed < stock.
	n, err := c.ProgramReward.Update().Where(programreward.ID(a.ID), func(s *sql.Selector) {
		s.Where(sql.ColumnsLT(s.C(programreward.FieldRedeemed), s.C(programreward.FieldStock)))
	}).AddRedeemed(1).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("taking reward stock: %w", err)
	}
	if n == 0 {
		return nil, loyaltybase.Locked423("reward_out_of_stock", "Reward out of stock", fmt.Sprintf("Reward %s has no stock left in program %s", rw.ID, programID))
	}
	if err := loyalty.PurchaseWithinLimits(ctx, crd.ID, a.CardDefinitionID, a.Points); err != nil {
		return nil, err
	}
	reason := "Reward purchase"
	tx, err := loyalty.BookCardPoints(ctx, crd.ID, loyalty.CardMove{Typ: cardtransaction.TypePOINTS_SPENT_ON_REWARD, Points: -a.Points,
		Reason: &reason, SourceID: &rw.ID})
	if e, ok := apperr.As(err); ok && e.Key == "insufficient_points" {
		return nil, loyaltybase.Locked423("insufficient_points", "Not enough points", e.Details)
	}
	if err != nil {
		return nil, err
	}
	pur, err := c.RewardPurchase.Create().SetProgramID(programID).SetMemberID(memberID).SetCardID(crd.ID).
		SetRewardID(rw.ID).SetCardTransactionID(tx.ID).SetType("PURCHASE").SetPoints(a.Points).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("recording reward transaction: %w", err)
	}
	if err := loyalty.RecordCardActivity(ctx, crd.ID, "vl.card.reward_purchased", purchaseData(pur, tx), loyaltybase.NewGroupID()); err != nil {
		return nil, err
	}
	data := purchaseData(pur, tx)
	data["card_id"], data["member_id"] = crd.ID, memberID
	err = webhook.EmitAll(ctx, webhook.Event{Name: loyaltybase.EventCardTransaction, ObjectType: "card", ObjectID: crd.ID, Data: data})
	if err != nil {
		return nil, err
	}
	return &loyaltybase.RewardPurchaseResult{Status: "TRANSACTION_CREATED", Message: "Reward purchase transaction created",
		Purchase: pur, Transaction: tx}, nil
}

// RefundRewardPurchase gives a purchase's points back to its card and its
// unit back to the stock, once (409 for a refunded purchase or a refund).
func RefundRewardPurchase(ctx context.Context, programID, purchaseID string, in *loyaltybase.RefundRewardPurchaseInput) (*loyaltybase.RewardPurchaseResult, error) {
	if in != nil {
		for name, v := range map[string]*string{"refund": in.Refund, "stock": in.Stock} {
			if v != nil && *v != "DEFAULT" {
				return nil, apperr.InvalidPayload("Property .%s must be DEFAULT, got %q", name, *v)
			}
		}
	}
	if _, err := loyaltybase.Program(ctx, programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	pur, err := c.RewardPurchase.Query().Where(rewardpurchase.ID(purchaseID), rewardpurchase.ProgramID(programID)).Only(ctx)
	if err := loyaltybase.NotFound(err, "reward_transaction", purchaseID); err != nil {
		return nil, err
	}
	if pur.Type != "PURCHASE" {
		return nil, loyalty.Conflict(fmt.Sprintf("Reward transaction %s is a %s, not a PURCHASE", purchaseID, pur.Type))
	}
	// Exactly once: only the request that moves the purchase from APPROVED
	// to REFUNDED goes on (a concurrent one waits for the row and then
	// matches nothing); refund_of is unique as a second guard.
	n, err := c.RewardPurchase.Update().Where(rewardpurchase.ID(pur.ID), rewardpurchase.Status("APPROVED")).
		SetStatus("REFUNDED").Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("marking purchase refunded: %w", err)
	}
	if n == 0 {
		return nil, loyalty.Conflict(fmt.Sprintf("Reward transaction %s is already refunded", purchaseID))
	}
	if _, err := c.ProgramReward.Update().Where(programreward.ProgramID(programID), programreward.RewardID(pur.RewardID),
		programreward.RedeemedGT(0)).AddRedeemed(-1).Save(ctx); err != nil {
		return nil, fmt.Errorf("returning reward stock: %w", err)
	}
	reason := "Reward purchase refund"
	tx, err := loyalty.BookCardPoints(ctx, pur.CardID, loyalty.CardMove{Typ: cardtransaction.TypePOINTS_REFUNDED, Points: pur.Points,
		Reason: &reason, SourceID: &pur.ID})
	if err != nil {
		return nil, err
	}
	refund, err := c.RewardPurchase.Create().SetProgramID(programID).SetMemberID(pur.MemberID).SetCardID(pur.CardID).
		SetRewardID(pur.RewardID).SetCardTransactionID(tx.ID).SetType("REFUND").SetPoints(pur.Points).
		SetRefundOf(pur.ID).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, loyalty.Conflict(fmt.Sprintf("Reward transaction %s is already refunded", purchaseID))
	}
	if err != nil {
		return nil, fmt.Errorf("recording refund: %w", err)
	}
	if err := loyalty.RecordCardActivity(ctx, pur.CardID, "vl.card.reward_refunded", purchaseData(refund, tx), loyaltybase.NewGroupID()); err != nil {
		return nil, err
	}
	// The documents' answer: the REFUND reward transaction, APPROVED (its
	// points are back on the card already, not "shortly").
	return &loyaltybase.RewardPurchaseResult{Status: "APPROVED",
		Message: "Reward refund transaction created. Points returned to the member's card.", Purchase: refund, Transaction: tx}, nil
}

// RewardPurchases pages through a member's reward transactions.
func RewardPurchases(ctx context.Context, programID, memberID string, p loyaltybase.PageInput) (*loyaltybase.RewardPurchasePage, error) {
	rows, more, err := loyalty.MemberRows(ctx, programID, memberID, p, loyalty.MemberKeyset[*ent.RewardPurchase, predicate.RewardPurchase, rewardpurchase.OrderOption, *ent.RewardPurchaseQuery]{
		Query: func(c *ent.Client) *ent.RewardPurchaseQuery { return c.RewardPurchase.Query() },
		ByID:  rewardpurchase.ID, Scope: []predicate.RewardPurchase{rewardpurchase.MemberID(memberID)},
		CreatedAt: func(r *ent.RewardPurchase) time.Time { return r.CreatedAt }})
	if err != nil {
		return nil, err
	}
	return &loyaltybase.RewardPurchasePage{Data: rows, HasMore: more}, nil
}

// purchaseData is what a purchase's or refund's activity and event carry:
// the reward transaction and the card transaction, in their REST shapes'
// fields.
func purchaseData(p *ent.RewardPurchase, tx *ent.CardTransaction) map[string]any {
	return map[string]any{
		"reward_transaction": map[string]any{"id": p.ID, "reward_id": p.RewardID, "program_id": p.ProgramID,
			"member_id": p.MemberID, "card_id": p.CardID, "card_transaction_id": p.CardTransactionID, "type": p.Type,
			"status": p.Status, "points": p.Points, "refund_of": p.RefundOf, "object": "reward_transaction"},
		"transaction": map[string]any{"id": tx.ID, "card_id": tx.CardID, "type": string(tx.Type), "amount": tx.Amount,
			"balance": tx.Balance, "reason": tx.Reason, "source_id": tx.SourceID, "object": "card_transaction"},
	}
}
