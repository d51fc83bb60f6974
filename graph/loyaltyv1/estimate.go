package loyaltyv1

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// EstimateInput is the body of POST /v1/loyalties/{campaignId}/qualifications:
// the customer (id or source_id of a stored one, or a new one's profile)
// and the order to estimate.
type EstimateInput struct {
	Customer *customer.CustomerInput `json:"customer"`
	Order    *EstimateOrderInput     `json:"order"`
}

// EstimateOrderInput is the order of a points estimate: its amount (else
// the sum of its items' amounts, or price × quantity), an order-level
// discount, and metadata.
type EstimateOrderInput struct {
	Amount         *int64               `json:"amount"`
	DiscountAmount *int64               `json:"discount_amount"`
	Items          []*EstimateItemInput `json:"items"`
	Metadata       map[string]any       `json:"metadata"`
}

// EstimateItemInput is one line of an estimated order.
type EstimateItemInput struct {
	Amount   *int64 `json:"amount"`
	Price    *int64 `json:"price"`
	Quantity *int64 `json:"quantity"`
}

// PointsEstimate is the answer of a points estimate.
type PointsEstimate struct {
	Campaign         EstimateCampaign `json:"campaign"`
	PointsEstimation int64            `json:"points_estimation"`
}

// EstimateCampaign names the program of an estimate.
type EstimateCampaign struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Object string `json:"object"`
}

// EstimatePoints is what the program's active order.paid rules would award
// the customer for the order (reference §3.7), with the tier the
// customer's card holds applied; nothing is written. A customer without a
// card gets an estimate only when the program has auto_join (else 400
// campaign_not_allow_auto_join); an inactive program or card is 400.
func EstimatePoints(ctx context.Context, programIDOrName string, in EstimateInput) (*PointsEstimate, error) {
	if in.Customer == nil {
		return nil, apperr.InvalidPayload("Property .customer must be object")
	}
	if in.Order == nil {
		return nil, apperr.InvalidPayload("Property .order must be object")
	}
	amount, err := in.Order.amount()
	if err != nil {
		return nil, err
	}
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	if !cmp.Active {
		return nil, apperr.New(http.StatusBadRequest, "campaign_not_active", "Campaign not active", "Campaign "+cmp.ID+" is not active")
	}
	cust, card, err := estimateHolder(ctx, cmp, in.Customer)
	if err != nil {
		return nil, err
	}
	rules, err := firingRules(ctx, campaignearningrule.Event("order.paid"), func(r *ent.CampaignEarningRule) bool { return r.CampaignID == cmp.ID })
	if err != nil {
		return nil, err
	}
	facts := earningFacts{customerMetadata: in.Customer.Metadata, orderAmount: &amount, orderMetadata: in.Order.Metadata}
	if facts.customerMetadata == nil && cust != nil {
		facts.customerMetadata = cust.Metadata
	}
	total := amount
	if in.Order.DiscountAmount != nil {
		total -= float64(*in.Order.DiscountAmount)
	}
	facts.orderTotal = &total
	if cust != nil {
		facts.customerID = cust.ID
	}
	for _, it := range in.Order.Items {
		if it == nil {
			continue
		}
		line := map[string]any{}
		for k, v := range map[string]*int64{"amount": it.Amount, "price": it.Price, "quantity": it.Quantity} {
			if v != nil {
				line[k] = float64(*v)
			}
		}
		facts.orderItems = append(facts.orderItems, orderRuleItems([]map[string]any{line})...)
		facts.orderLines = append(facts.orderLines, line)
	}
	out := &PointsEstimate{Campaign: EstimateCampaign{ID: cmp.ID, Name: cmp.Name, Object: "campaign"}}
	var gate ruleGate // earning_validation.go: a rule whose validation rule fails adds nothing
	for _, fr := range rules {
		if ok, err := gate.passes(ctx, fr.rule, facts); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		p := fr.formula.points(facts)
		if card != nil && p > 0 {
			if p, err = inTier(ctx, card, fr.rule.ID, p, map[string]any{}); err != nil {
				return nil, err
			}
		}
		out.PointsEstimation += max(p, 0)
	}
	return out, nil
}

// estimateHolder is the stored customer (nil for a new one) and their card
// of the program (nil when they have none and the program auto-joins).
func estimateHolder(ctx context.Context, cmp *ent.Campaign, in *customer.CustomerInput) (*ent.Customer, *ent.Voucher, error) {
	var cust *ent.Customer
	ref := in.ID
	if ref == nil {
		ref = in.SourceID
	}
	if ref != nil {
		found, err := customer.ByIDOrSourceID(ctx, *ref)
		if e, ok := apperr.As(err); err != nil && !(ok && e.Code == http.StatusNotFound) {
			return nil, nil, err
		}
		cust = found
	}
	var card *ent.Voucher
	if cust != nil {
		c, err := store.Client(ctx)
		if err != nil {
			return nil, nil, err
		}
		card, err = c.Voucher.Query().Where(voucher.CampaignID(cmp.ID), voucher.TypeEQ(jsonfield.VoucherTypeLoyaltyCard),
			voucher.HolderID(cust.ID)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, nil, fmt.Errorf("estimate: looking up card: %w", err)
		}
	}
	switch {
	case card == nil && !cmp.AutoJoin:
		return nil, nil, apperr.New(http.StatusBadRequest, "campaign_not_allow_auto_join", "Campaign does not allow auto join",
			"The customer has no card of campaign "+cmp.ID+" and the campaign does not add members automatically")
	case card != nil && !card.Active:
		return nil, nil, apperr.New(http.StatusBadRequest, "loyalty_card_not_active", "Loyalty card not active",
			"Loyalty card "+card.Code+" is not active")
	}
	return cust, card, nil
}

// amount is the order's amount before discounts.
func (o *EstimateOrderInput) amount() (float64, error) {
	if o.Amount != nil {
		if *o.Amount < 0 {
			return 0, apperr.InvalidPayload("Property .order.amount must be a non-negative integer")
		}
		return float64(*o.Amount), nil
	}
	var sum int64
	for i, it := range o.Items {
		if it == nil {
			continue
		}
		switch {
		case it.Amount != nil:
			sum += *it.Amount
		case it.Price != nil && it.Quantity != nil:
			sum += *it.Price * *it.Quantity
		}
		if sum < 0 {
			return 0, apperr.InvalidPayload("Property .order.items[%d] must not make the amount negative", i)
		}
	}
	return float64(sum), nil
}
