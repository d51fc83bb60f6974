package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The events of the use cases. Each is called in the transaction of its
// change, near its end.

// EmitRedemptions: name (redemption.succeeded, redemption.failed,
// redemption.rollback.succeeded) for each entry, ordered per voucher (or
// per entry when it has no voucher).
func EmitRedemptions(ctx context.Context, name string, rs ...*ent.Redemption) error {
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
	if r.RelatedObjectType == "promotion_tier" { // docs/promotions.md
		t, err := promotion.OfRedemption(ctx, r)
		if err != nil {
			return nil, err
		}
		data["promotion_tier"] = t
		if t != nil {
			data["campaign"] = t.Edges.Campaign
		}
	}
	return data, nil
}
