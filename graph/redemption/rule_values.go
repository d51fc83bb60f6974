package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// redemptionValues fills what the redemption rule names read of s
// (docs/promotions.md "Cart rules"): redemption.gift.amount — the credits
// a gift card gives (the credits asked for, else its balance up to the
// order amount); redemption.reward.pay_with_points.points_used — the
// points the request names in reward.points; publication.redeemable_by_
// linked_customer — the voucher is held by or published to the request's
// customer (read only when a rule asks). Tiers have none of them.
func (e *evaluation) redemptionValues(ctx context.Context, s *redeemableState, rc *validationrule.Context) error {
	rc.GiftAmount, rc.PointsUsed, rc.LinkedCustomer = 0, 0, false
	v := s.voucher
	if v == nil {
		return nil
	}
	if v.Type == jsonfield.VoucherTypeGift && v.Gift != nil {
		rc.GiftAmount = v.Gift.Balance
		if e.order != nil && (e.req.order != nil && (e.req.order.Amount != nil || len(e.req.order.Items) > 0)) {
			rc.GiftAmount = min(rc.GiftAmount, e.order.Amount)
		}
		if g := s.input.Gift; g != nil && g.Credits != nil {
			rc.GiftAmount = *g.Credits
		}
	}
	if r := s.input.Reward; r != nil && r.Points != nil {
		rc.PointsUsed = *r.Points
	}
	uses := false
	for _, d := range s.rules {
		uses = uses || d.Uses("publication.redeemable_by_linked_customer")
	}
	if !uses || e.customer == nil {
		return nil
	}
	if v.HolderID != nil && *v.HolderID == e.customer.ID {
		rc.LinkedCustomer = true
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	linked, err := c.Publication.Query().Where(publication.CustomerID(e.customer.ID),
		publication.HasVouchersWith(voucher.ID(v.ID))).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading the voucher's publications: %w", err)
	}
	rc.LinkedCustomer = linked
	return nil
}
