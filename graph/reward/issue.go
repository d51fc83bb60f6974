package reward

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	campaigns "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/graph/redemption"
)

// Issue is redemption.IssueReward (set in graph/wiring.go): inside the
// redemption's transaction it takes a unit of a MATERIAL reward's stock
// (a guarded update: of concurrent redemptions of the last unit exactly
// one gets it), publishes a coupon of a DISCOUNT_COUPONS campaign to the
// customer, adds credits to the customer's gift card or points to the
// customer's loyalty card of the reward's campaign (publishing one first
// when the customer holds none), and returns the reward object the
// redemption keeps and shows.
func Issue(ctx context.Context, in redemption.RewardIssue) (map[string]any, error) {
	r, err := Reward(ctx, in.RewardID)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"id": r.ID, "object": "reward", "name": r.Name, "type": r.Type,
		"parameters": r.Parameters, "assignment_id": in.AssignmentID,
		"created_at": clock.Format(r.CreatedAt), "updated_at": nil}
	if r.UpdatedAt != nil {
		out["updated_at"] = clock.Format(*r.UpdatedAt)
	}
	if in.CustomerID != nil {
		out["customer"] = map[string]any{"id": *in.CustomerID, "object": "customer"}
	}
	switch r.Type {
	case TypeMaterial:
		if err := takeStock(ctx, r); err != nil {
			return nil, err
		}
		p, err := catalog.Product(ctx, derefOr(r.ProductID))
		if err != nil {
			return nil, err
		}
		out["product"] = productDoc(p)
		return out, nil
	case TypeCampaign:
		v, err := issueFromCampaign(ctx, r, in)
		if err != nil {
			return nil, err
		}
		out["voucher"] = voucherDoc(v)
		return out, nil
	case TypeCoin:
		return out, nil // the points paid for the order's discount (graph/redemption/coin.go)
	}
	return nil, apperr.New(http.StatusBadRequest, "invalid_reward", "Invalid reward",
		fmt.Sprintf("Reward %s has an unknown type %s", r.ID, r.Type))
}

// takeStock counts one more unit of a MATERIAL reward out, when its stock
// (null: unlimited) has one left.
func takeStock(ctx context.Context, r *ent.V1Reward) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	n, err := c.V1Reward.Update().
		Where(v1reward.ID(r.ID), v1reward.Or(v1reward.StockIsNil(), v1reward.RedeemedLT(stockOf(r)))).
		AddRedeemed(1).Save(ctx)
	if err != nil {
		return fmt.Errorf("taking reward stock: %w", err)
	}
	if n == 0 {
		return outOfStock(r.ID)
	}
	return nil
}

// stockOf is the guard's bound: the stock, or anything when unlimited.
func stockOf(r *ent.V1Reward) int64 {
	if r.Stock == nil {
		return 1 << 62
	}
	return *r.Stock
}

func outOfStock(id string) *apperr.Error {
	return apperr.New(http.StatusBadRequest, "reward_out_of_stock", "Reward out of stock",
		fmt.Sprintf("Reward %s is out of stock", id))
}

// issueFromCampaign hands the customer what a CAMPAIGN reward promises.
func issueFromCampaign(ctx context.Context, r *ent.V1Reward, in redemption.RewardIssue) (*ent.Voucher, error) {
	if in.CustomerID == nil {
		return nil, apperr.New(http.StatusBadRequest, "invalid_customer", "Invalid customer",
			fmt.Sprintf("Loyalty card %s has no holder to issue reward %s to", in.Card.Code, r.ID))
	}
	campaignID, kind, balance := campaignOf(r)
	switch kind {
	case CampaignDiscountCoupons:
		return publishTo(ctx, campaignID, *in.CustomerID)
	case CampaignGiftVouchers, CampaignLoyaltyProgram:
		v, err := heldOrPublished(ctx, campaignID, *in.CustomerID)
		if err != nil {
			return nil, err
		}
		return topUp(ctx, v, kind, balance, "Reward "+in.RewardID, rewardTopUpDetails(in))
	}
	return nil, apperr.New(http.StatusBadRequest, "invalid_reward", "Invalid reward",
		fmt.Sprintf("Reward %s names no campaign to issue from", r.ID))
}

// publishTo publishes a code of the campaign to the customer and returns it.
func publishTo(ctx context.Context, campaignID, customerID string) (*ent.Voucher, error) {
	pub, err := publication.Publish(ctx, publication.PublishInput{
		Campaign: &publication.PublishCampaignInput{Name: campaignID},
		Customer: &customer.CustomerInput{ID: &customerID}}, false)
	if err != nil {
		return nil, err
	}
	if len(pub.VoucherIds) == 0 {
		return nil, fmt.Errorf("publication %s has no voucher", pub.ID)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	v, err := c.Voucher.Get(ctx, pub.VoucherIds[0])
	if err != nil {
		return nil, fmt.Errorf("reading published voucher: %w", err)
	}
	return v, nil
}

// heldOrPublished is the customer's card (gift or loyalty) of the
// campaign, published to them when they hold none.
func heldOrPublished(ctx context.Context, campaignID, customerID string) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	v, err := c.Voucher.Query().Where(voucher.CampaignID(campaignID), voucher.HolderID(customerID)).
		Order(ent.Asc(voucher.FieldCreatedAt), ent.Asc(voucher.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return publishTo(ctx, campaignID, customerID)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the customer's card: %w", err)
	}
	return v, nil
}

// topUp adds a reward's credits (gift card) or points (loyalty card) to v
// under its row lock, with a CREDITS_ADDITION or POINTS_ADDITION
// transaction of that reason and details.
func topUp(ctx context.Context, v *ent.Voucher, kind string, amount int64, reason string, details map[string]any) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if v, err = campaigns.LockVoucher(ctx, c, v.ID); err != nil {
		return nil, err
	}
	upd := c.Voucher.UpdateOne(v)
	var typ vouchertransaction.Type
	var balance int64
	if kind == CampaignGiftVouchers {
		g := jsonfield.Gift{}
		if v.Gift != nil {
			g = *v.Gift
		}
		g.Amount += amount
		g.Balance += amount
		upd.SetGift(&g)
		typ, balance = vouchertransaction.TypeCREDITS_ADDITION, g.Balance
	} else {
		l := jsonfield.LoyaltyCard{}
		if v.LoyaltyCard != nil {
			l = *v.LoyaltyCard
		}
		l.Points += amount
		l.Balance += amount
		upd.SetLoyaltyCard(&l)
		typ, balance = vouchertransaction.TypePOINTS_ADDITION, l.Balance
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("adding the reward to voucher %s: %w", v.Code, err)
	}
	if _, err := campaigns.RecordTransaction(ctx, c, out, typ, amount, balance, nil, &reason, details); err != nil {
		return nil, err
	}
	return out, nil
}

// rewardTopUpDetails are the transaction details of a reward's top-up: the
// redemption, the reward and the card that paid (none for a referrer's
// tier reward).
func rewardTopUpDetails(in redemption.RewardIssue) map[string]any {
	details := map[string]any{"redemption": map[string]any{"id": in.RedemptionID},
		"reward": map[string]any{"id": in.RewardID, "assignment_id": in.AssignmentID}}
	if in.Card != nil {
		details["source_voucher"] = map[string]any{"id": in.Card.ID, "code": in.Card.Code, "type": string(in.Card.Type),
			"created_at": in.Card.CreatedAt.UTC().Format(clock.Layout), "object": "voucher"}
	}
	return details
}

// voucherDoc is the issued voucher as the redemption's reward shows it.
func voucherDoc(v *ent.Voucher) map[string]any {
	out := map[string]any{"id": v.ID, "code": v.Code, "campaign_id": v.CampaignID, "type": string(v.Type),
		"holder_id": v.HolderID, "object": "voucher", "created_at": clock.Format(v.CreatedAt)}
	if v.Discount != nil {
		out["discount"] = v.Discount
	}
	if v.Gift != nil {
		out["gift"] = v.Gift
	}
	if v.LoyaltyCard != nil {
		out["loyalty_card"] = v.LoyaltyCard
	}
	return out
}

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
