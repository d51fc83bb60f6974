package rollback

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/unitbudgetuse"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/webhook"
)

// What a rollback gives back of each part a redemption changed, beside
// the voucher (rollback.go) and the order (order.go).

// revertTier gives back a tier redemption's share of the tier's summary.
func (rb *rollbacker) revertTier(ctx context.Context, t *ent.Redemption) error {
	doc, err := redemption.DecodeOrderDocument(t.Order)
	if err != nil {
		return err
	}
	amount, _ := doc["amount"].(float64)
	// A deleted tier matches no row: there are no counters left to revert.
	if _, err := rb.c.PromotionTier.Update().Where(promotiontier.ID(t.RelatedObjectID)).AddRedeemedCount(-1).
		AddOrdersAmount(-int64(amount)).AddOrdersDiscountAmount(-t.AppliedDiscount).Save(ctx); err != nil {
		return fmt.Errorf("reverting promotion tier counters: %w", err)
	}
	return nil
}

// releaseBudgetUse gives the units redemption id used back (rollback).
func releaseBudgetUse(ctx context.Context, c *ent.Client, id string) error {
	if _, err := c.UnitBudgetUse.Delete().Where(unitbudgetuse.RedemptionID(id)).Exec(ctx); err != nil {
		return fmt.Errorf("releasing unit budget use: %w", err)
	}
	return nil
}

// returnRewardStock gives a rolled-back MATERIAL v1 reward's unit back.
func returnRewardStock(ctx context.Context, c *ent.Client, stored map[string]any) error {
	id, _ := stored["id"].(string)
	if typ, _ := stored["type"].(string); typ != "MATERIAL" || id == "" {
		return nil
	}
	if _, err := c.V1Reward.Update().Where(v1reward.ID(id), v1reward.RedeemedGT(0)).AddRedeemed(-1).Save(ctx); err != nil {
		return fmt.Errorf("returning reward stock: %w", err)
	}
	return nil
}

// emitRollback: redemption.rollback.succeeded for the rollback of each
// redemption reverted (the children of a stacked one).
func emitRollback(ctx context.Context, res *RollbackResult) error {
	rs := res.Rollbacks
	if len(rs) == 0 {
		rs = []*ent.Redemption{res.Rollback}
	}
	return redemption.EmitRedemptions(ctx, webhook.EventRedemptionRollbackSucceeded, rs...)
}
