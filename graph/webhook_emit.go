package graph

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The events of the use cases. Each is called in the transaction of its
// change, near its end.

// emitRedemptions: name (redemption.succeeded, redemption.failed,
// redemption.rollback.succeeded) for each entry, ordered per voucher (or
// per entry when it has no voucher).
func emitRedemptions(ctx context.Context, name string, rs ...*ent.Redemption) error {
	events := make([]webhook.Event, 0, len(rs))
	for _, r := range rs {
		if r == nil {
			continue
		}
		objectType, objectID := "redemption", r.ID
		if r.VoucherID != nil {
			objectType, objectID = "voucher", *r.VoucherID
		}
		events = append(events, webhook.Event{Name: name, ObjectType: objectType, ObjectID: objectID,
			Load: func(ctx context.Context) (map[string]any, error) { return redemptionData(ctx, r) }})
	}
	return webhook.EmitAll(ctx, events...)
}

// redemptionData is the data of a redemption event: the redemption (or
// rollback), its voucher, customer and the voucher's campaign, read when
// the use case has not loaded them (a rollback locks the voucher alone).
func redemptionData(ctx context.Context, r *ent.Redemption) (map[string]any, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cust, v := r.Edges.Customer, r.Edges.Voucher
	if cust == nil && r.CustomerID != nil {
		if cust, err = c.Customer.Get(ctx, *r.CustomerID); err != nil && !ent.IsNotFound(err) {
			return nil, fmt.Errorf("reading customer: %w", err)
		}
	}
	data := map[string]any{"redemption": r, "customer": cust, "voucher": v}
	if v != nil {
		if v.Edges.Campaign == nil && v.CampaignID != nil {
			cmp, err := c.Campaign.Get(ctx, *v.CampaignID)
			if err != nil && !ent.IsNotFound(err) {
				return nil, fmt.Errorf("reading campaign: %w", err)
			}
			v.Edges.Campaign = cmp
		}
		data["campaign"] = v.Edges.Campaign
	}
	return data, nil
}

// emitRollback: redemption.rollback.succeeded for the rollback of each
// redemption reverted (the children of a stacked one).
func emitRollback(ctx context.Context, res *RollbackResult) error {
	rs := res.Rollbacks
	if len(rs) == 0 {
		rs = []*ent.Redemption{res.Rollback}
	}
	return emitRedemptions(ctx, webhook.EventRedemptionRollbackSucceeded, rs...)
}

// emitCardPoints: voucher.loyalty_card.points_added when points were added
// to a loyalty card (the points endpoint or an earning rule), ordered per
// card. data: the card after the move, the transaction, the card's member
// (with its cards) and customer (null for an unassigned card), and a
// balance object like the real service's (points added, new balance).
func emitCardPoints(ctx context.Context, crd *ent.Card, tx *ent.CardTransaction) error {
	if tx.Amount <= 0 {
		return nil
	}
	return webhook.EmitAll(ctx, webhook.Event{Name: webhook.EventVoucherLoyaltyCardPointsAdded, ObjectType: "card", ObjectID: crd.ID,
		Load: func(ctx context.Context) (map[string]any, error) {
			data := map[string]any{"card": crd, "transaction": tx, "member": nil, "customer": nil,
				"balance": map[string]any{"points": tx.Amount, "balance": tx.Balance, "type": "loyalty_card",
					"object": "balance", "related_object": map[string]any{"id": crd.ID, "type": "card"}}}
			if crd.MemberID == nil {
				return data, nil
			}
			c, err := store.Client(ctx)
			if err != nil {
				return nil, err
			}
			m, err := c.LoyaltyMember.Query().Where(loyaltymember.ID(*crd.MemberID)).
				WithCards().Only(ctx)
			if err != nil {
				return nil, fmt.Errorf("reading member: %w", err)
			}
			cust, err := c.Customer.Get(ctx, m.CustomerID)
			if err != nil && !ent.IsNotFound(err) {
				return nil, fmt.Errorf("reading customer: %w", err)
			}
			data["member"], data["customer"] = m, cust
			return data, nil
		}})
}
