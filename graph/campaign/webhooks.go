package campaign

import (
	"context"
	"fmt"
	"reflect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// emitCampaign: a campaign event (campaign.created, .updated, .deleted, …).
func emitCampaign(ctx context.Context, name string, cmp *ent.Campaign) error {
	return webhook.Emit(ctx, name, "campaign", cmp.ID, map[string]any{"campaign": cmp})
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

// emitGiftBalance: voucher.gift.balance_added when credits were added.
func emitGiftBalance(ctx context.Context, v *ent.Voucher, b *VoucherBalance) error {
	if b.Amount <= 0 {
		return nil
	}
	return webhook.Emit(ctx, webhook.EventVoucherGiftBalanceAdded, "voucher", v.ID, map[string]any{"voucher": v,
		"transaction": b.Transaction, "balance": map[string]any{"amount": b.Amount, "total": b.Total,
			"balance": b.Balance, "type": b.Type, "object": "balance"}})
}

// EmitGenerationDone: campaign.vouchers.generation.completed (or .failed)
// when a generation job of the campaign ends.
func EmitGenerationDone(ctx context.Context, jobID string, failure error) error {
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
