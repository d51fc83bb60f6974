package graph

import (
	"context"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardactivity"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/customevent"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/loyaltytier"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/productcollection"
	"github.com/promoengine/promoengine/ent/promotionstack"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/ent/rewardactivity"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// tableByPrefix maps an ID prefix to the table of its entity, so node(id:)
// resolves with one query.
var tableByPrefix = map[string]string{
	pulid.PrefixCampaign:   campaign.Table,
	pulid.PrefixVoucher:    voucher.Table,
	pulid.PrefixAsync:      asyncaction.Table,
	pulid.PrefixCustomer:   customer.Table,
	pulid.PrefixPublish:    publication.Table,
	pulid.PrefixMetaSchema: metadataschema.Table,
	pulid.PrefixEvent:      customevent.Table,
	pulid.PrefixSegment:    segment.Table,
	pulid.PrefixExport:     export.Table,
	pulid.PrefixVoucherTx:  vouchertransaction.Table,

	pulid.PrefixRedemption:       redemption.Table,
	pulid.PrefixRedemptionFailed: redemption.Table,
	pulid.PrefixRollback:         redemption.Table,
	pulid.PrefixRollbackFailed:   redemption.Table,
	pulid.PrefixOrder:            order.Table,
	pulid.PrefixValidationRule:   validationrule.Table,
	pulid.PrefixRuleAssignment:   validationruleassignment.Table,
	pulid.PrefixCategory:         category.Table,
	pulid.PrefixProduct:          product.Table,
	pulid.PrefixSku:              sku.Table,
	pulid.PrefixCollection:       productcollection.Table,
	pulid.PrefixPromotionTier:    promotiontier.Table,
	pulid.PrefixPromotionStack:   promotionstack.Table,

	pulid.PrefixCampaignEarningRule: campaignearningrule.Table,
	pulid.PrefixLoyaltyTier:         loyaltytier.Table,
	pulid.PrefixPointsBucket:        pointsbucket.Table,
	pulid.PrefixPendingPoints:       pointsbucket.Table,

	pulid.PrefixProgram:        loyaltyprogram.Table,
	pulid.PrefixCardDefinition: carddefinition.Table,
	pulid.PrefixMember:         loyaltymember.Table,
	pulid.PrefixCard:           card.Table,
	pulid.PrefixCardActivity:   cardactivity.Table,
	pulid.PrefixCardTx:         cardtransaction.Table,
	pulid.PrefixReward:         reward.Table,
	pulid.PrefixRewardActivity: rewardactivity.Table,
	pulid.PrefixEarningRule:    earningrule.Table,
	pulid.PrefixIncentive:      incentive.Table,
}

// nodeType tells ent which table an ID belongs to, from its prefix.
func nodeType(_ context.Context, id string) (string, error) {
	if i := strings.IndexByte(id, '_'); i > 0 {
		if table, ok := tableByPrefix[id[:i+1]]; ok {
			return table, nil
		}
	}
	return "", apperr.NotFound("node", id)
}

// node resolves any entity by its prefixed ID within the caller's project.
func node(ctx context.Context, id string) (ent.Noder, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	n, err := c.Noder(ctx, id, ent.WithNodeType(nodeType))
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("node", id)
	}
	return n, err
}

// nodes resolves several IDs; unknown ones come back as null entries.
func nodes(ctx context.Context, ids []string) ([]ent.Noder, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return c.Noders(ctx, ids, ent.WithNodeType(nodeType))
}
