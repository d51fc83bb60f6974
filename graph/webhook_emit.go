package graph

import (
	"github.com/promoengine/promoengine/graph/webhook"

	"github.com/promoengine/promoengine/graph/internal/store"

	"context"
	"fmt"
	"reflect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltymember"
)

// The events of the use cases. Each is called in the transaction of its
// change, near its end.

// emitPublication: publication.succeeded (ordered per publication) and
// voucher.published for each voucher handed out (ordered per voucher).
// (The single-statement publication writes the same events in SQL:
// webhook_snapshot.go.)
func emitPublication(ctx context.Context, pub *ent.Publication, cmp *ent.Campaign) error {
	events := []webhook.Event{{Name: webhook.EventPublicationSucceeded, ObjectType: "publication", ObjectID: pub.ID,
		Data: webhook.PublicationData(pub, cmp)}}
	for _, v := range pub.Edges.Vouchers {
		events = append(events, webhook.Event{Name: webhook.EventVoucherPublished, ObjectType: "voucher", ObjectID: v.ID,
			Data: webhook.VoucherPublishedData(v, pub, cmp)})
	}
	return webhook.EmitAll(ctx, events...)
}

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

// emitVoucher: a voucher event (voucher.created, .updated, .deleted, …).
func emitVoucher(ctx context.Context, name string, v *ent.Voucher) error {
	return webhook.Emit(ctx, name, "voucher", v.ID, map[string]any{"voucher": v, "campaign": v.Edges.Campaign})
}

// emitVoucherChange: voucher.enabled or voucher.disabled when the active
// state changed, voucher.updated when anything else was given.
func emitVoucherChange(ctx context.Context, before, after *ent.Voucher, in UpdateVoucherInput) error {
	var events []webhook.Event
	data := map[string]any{"voucher": after, "campaign": after.Edges.Campaign}
	if in.Active != nil && before.Active != after.Active {
		name := webhook.EventVoucherDisabled
		if after.Active {
			name = webhook.EventVoucherEnabled
		}
		events = append(events, webhook.Event{Name: name, ObjectType: "voucher", ObjectID: after.ID, Data: data})
	}
	in.Active = nil
	if !reflect.ValueOf(in).IsZero() {
		events = append(events, webhook.Event{Name: webhook.EventVoucherUpdated, ObjectType: "voucher", ObjectID: after.ID, Data: data})
	}
	return webhook.EmitAll(ctx, events...)
}

// emitCampaign: a campaign event (campaign.created, .updated, .deleted, …).
func emitCampaign(ctx context.Context, name string, cmp *ent.Campaign) error {
	return webhook.Emit(ctx, name, "campaign", cmp.ID, map[string]any{"campaign": cmp})
}

// emitGiftBalance: voucher.gift.balance_added when credits were added.
func emitGiftBalance(ctx context.Context, v *ent.Voucher, b *VoucherBalance) error {
	if b.Amount <= 0 {
		return nil
	}
	return webhook.Emit(ctx, webhook.EventVoucherGiftBalanceAdded, "voucher", v.ID, map[string]any{"voucher": v,
		"transaction": b.Transaction, "balance": map[string]any{"amount": b.Amount, "total": b.Total,
			"balance": b.Balance, "type": b.Type, "object": "balance"}})
}

// emitGenerationDone: campaign.vouchers.generation.completed (or .failed)
// when a generation job of the campaign ends.
func emitGenerationDone(ctx context.Context, jobID string, failure error) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	job, err := c.AsyncAction.Get(ctx, jobID)
	if err != nil {
		return fmt.Errorf("reading job: %w", err)
	}
	if job.Type != JobVouchersGeneration || job.CampaignID == nil {
		return nil
	}
	cmp, err := c.Campaign.Get(ctx, *job.CampaignID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading campaign: %w", err)
	}
	name := webhook.EventCampaignVouchersGenerationCompleted
	if failure != nil {
		name = webhook.EventCampaignVouchersGenerationFailed
	}
	return webhook.Emit(ctx, name, "campaign", cmp.ID, map[string]any{"campaign": cmp, "async_action": job})
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

// emitCampaignDeleted: campaign.deleted, written with the deletion of the
// campaign row (the last batch of its deletion job).
func emitCampaignDeleted(ctx context.Context, campaignID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cmp, err := c.Campaign.Get(ctx, campaignID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading campaign: %w", err)
	}
	return emitCampaign(ctx, webhook.EventCampaignDeleted, cmp)
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
