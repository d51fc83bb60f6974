package reward

import (
	"context"
	"fmt"
	"math"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/apperr"
	campaigns "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/catalog"
)

// checkedParameters are a reward's parameters as stored and shown, with
// the campaign or product they name.
type checkedParameters struct {
	document   map[string]any
	campaignID *string
	productID  *string
}

// checkParameters derives the reward type from the parameters (exactly one
// of campaign, coin, product), checks it against a sent or stored type and
// checks what the parameters name: the campaign and its balance, the
// coin's rate, the product and SKU.
func checkParameters(ctx context.Context, sent *string, stored string, p *RewardParametersInput) (string, *checkedParameters, error) {
	var typ string
	n := 0
	if p.Campaign != nil {
		typ, n = TypeCampaign, n+1
	}
	if p.Coin != nil {
		typ, n = TypeCoin, n+1
	}
	if p.Product != nil {
		typ, n = TypeMaterial, n+1
	}
	if n != 1 {
		return "", nil, apperr.InvalidPayload("Property 'parameters' must have exactly one of campaign, coin or product")
	}
	if sent != nil && *sent != typ {
		switch *sent {
		case TypeCampaign, TypeCoin, TypeMaterial:
			return "", nil, apperr.InvalidPayload("Property 'type' is %s but the parameters describe a %s reward", *sent, typ)
		default:
			return "", nil, apperr.InvalidPayload("Property 'type' must be one of CAMPAIGN, COIN, MATERIAL")
		}
	}
	if stored != "" && stored != typ {
		return "", nil, apperr.InvalidPayload("Property 'type' cannot be changed (the reward is %s)", stored)
	}
	var out *checkedParameters
	var err error
	switch typ {
	case TypeCampaign:
		out, err = campaignParameters(ctx, p.Campaign)
	case TypeCoin:
		out, err = coinParameters(p.Coin)
	default:
		out, err = productParameters(ctx, p.Product)
	}
	return typ, out, err
}

func campaignParameters(ctx context.Context, in *RewardCampaignInput) (*checkedParameters, error) {
	if in.ID == nil || *in.ID == "" {
		return nil, missingParam("parameters.campaign.id")
	}
	cmp, err := campaigns.ByIDOrName(ctx, *in.ID)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{"id": cmp.ID}
	switch cmp.CampaignType {
	case campaign.CampaignTypeDISCOUNT_COUPONS:
		if in.Balance != nil {
			return nil, apperr.InvalidPayload("Property 'parameters.campaign.balance' is not allowed for campaign type: DISCOUNT_COUPONS")
		}
	case campaign.CampaignTypeGIFT_VOUCHERS, campaign.CampaignTypeLOYALTY_PROGRAM:
		if in.Balance == nil || *in.Balance < 1 || *in.Balance > maxBalance {
			return nil, apperr.New(http.StatusBadRequest, "invalid_balance", "Invalid balance",
				fmt.Sprintf("Property 'parameters.campaign.balance' must be greater than zero (at most %d) for campaign type: %s", int64(maxBalance), cmp.CampaignType))
		}
		doc["balance"] = *in.Balance
	default:
		return nil, apperr.InvalidPayload("Campaign %s is a %s campaign: a reward issues from a DISCOUNT_COUPONS, GIFT_VOUCHERS or LOYALTY_PROGRAM campaign", cmp.ID, cmp.CampaignType)
	}
	doc["type"] = string(cmp.CampaignType)
	return &checkedParameters{document: map[string]any{"campaign": doc}, campaignID: &cmp.ID}, nil
}

func coinParameters(in *RewardCoinInput) (*checkedParameters, error) {
	if in.ExchangeRatio == nil {
		return nil, missingParam("parameters.coin.exchange_ratio")
	}
	r := *in.ExchangeRatio
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 || r > 1e9 {
		return nil, apperr.InvalidPayload("Property 'parameters.coin.exchange_ratio' must be a number greater than 0 (at most 1e9)")
	}
	points := int64(1)
	if in.PointsRatio != nil {
		if *in.PointsRatio < 1 || *in.PointsRatio > maxPoints {
			return nil, apperr.InvalidPayload("Property 'parameters.coin.points_ratio' must be an integer from 1 to %d", maxPoints)
		}
		points = *in.PointsRatio
	}
	return &checkedParameters{document: map[string]any{"coin": map[string]any{"exchange_ratio": r, "points_ratio": points}}}, nil
}

func productParameters(ctx context.Context, in *RewardProductInput) (*checkedParameters, error) {
	if in.ID == nil || *in.ID == "" {
		return nil, missingParam("parameters.product.id")
	}
	p, err := catalog.Product(ctx, *in.ID)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{"id": p.ID, "sku_id": nil}
	if in.SkuID != nil && *in.SkuID != "" {
		s, err := catalog.SkuOfProduct(ctx, p.ID, *in.SkuID)
		if err != nil {
			return nil, err
		}
		doc["sku_id"] = s.ID
	}
	return &checkedParameters{document: map[string]any{"product": doc}, productID: &p.ID}, nil
}

// campaignOf reads a stored CAMPAIGN reward's source: its id, kind and
// balance.
func campaignOf(r *ent.V1Reward) (id, kind string, balance int64) {
	doc, _ := r.Parameters["campaign"].(map[string]any)
	id, _ = doc["id"].(string)
	kind, _ = doc["type"].(string)
	balance = asInt64(doc["balance"])
	return id, kind, balance
}

// asInt64 reads a number of a stored JSON document (float64 once read back,
// int64 before).
func asInt64(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}
