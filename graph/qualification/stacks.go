package qualification

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/redemption"
)

// PROMOTION_STACKS: each stack of an active campaign (at most MaxStacks)
// is validated as the stacked validation does it — its tiers in order,
// each on the order left by the previous ones — and listed when valid,
// with its tiers under redeemables.

// qualifyStacks validates each candidate stack.
func (r *request) qualifyStacks(ctx context.Context, cands []candidate) ([]picked, error) {
	var picks []picked
	for _, c := range cands {
		object := "promotion_stack"
		res, err := redemption.ValidateStacked(ctx, redemption.StackedRedemptionInput{
			Redeemables: []*redemption.RedeemableInput{{Object: &object, ID: c.id}},
			Order:       r.in.Order, Customer: r.in.Customer, TrackingID: r.in.TrackingID, Metadata: r.in.Metadata,
			Options: &redemption.RedemptionOptionsInput{Expand: []string{"order"}}})
		if err != nil {
			return nil, err
		}
		if !res.Valid {
			continue
		}
		entry, discount, err := r.stackEntry(c, res)
		if err != nil {
			return nil, err
		}
		picks = append(picks, picked{cand: c, entry: entry, discount: discount})
	}
	return picks, nil
}

// stackEntry renders a valid stack: its order after all its tiers, and
// its tiers' entries as the validation shows them.
func (r *request) stackEntry(c candidate, res *redemption.ValidationResult) (map[string]any, int64, error) {
	var order map[string]any
	if err := roundTrip(res.Order, &order); err != nil {
		return nil, 0, err
	}
	tiers := []any{}
	for _, t := range res.Redeemables {
		var m map[string]any
		if err := roundTrip(t, &m); err != nil {
			return nil, 0, err
		}
		delete(m, "status")
		if !r.expand[ExpandRedeemable] {
			delete(m, "campaign_name")
		}
		tiers = append(tiers, m)
	}
	discount, _ := order["total_applied_discount_amount"].(float64)
	s := c.stack
	entry := map[string]any{"id": s.ID, "object": "promotion_stack", "created_at": clock.Format(s.CreatedAt),
		"result": map[string]any{}, "order": order, "applicable_to": emptyList(), "inapplicable_to": emptyList(),
		"metadata": map[string]any{}, "categories": []any{}, "redeemables": tiers}
	if r.expand[ExpandRedeemable] {
		entry["name"], entry["campaign_id"] = s.Name, s.CampaignID
	}
	return entry, int64(discount), nil
}

func emptyList() map[string]any {
	return map[string]any{"object": "list", "data_ref": "data", "data": []any{}, "total": 0}
}

// roundTrip renders v as its JSON and reads it back into dst.
func roundTrip(v, dst any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("rendering a stack's validation: %w", err)
	}
	return json.Unmarshal(b, dst)
}
