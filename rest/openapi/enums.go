package openapi

import (
	"reflect"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
)

// EnumOf is a string that is one of the typed constants values (ent's enum
// types), so a renamed constant breaks the build rather than the document.
func EnumOf[T ~string](values ...T) *Schema {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return Enum(out...)
}

// enumOf registers the values of an enum type for FromGo and Input.
func enumOf[T ~string](values ...T) {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	enums[reflect.TypeFor[T]()] = out
}

// The ent enum types that request bodies decode into.
func init() {
	enumOf(campaignTypes...)
	enumOf(campaignKinds...)
	enumOf(validationruleassignment.RelatedObjectTypeVoucher, validationruleassignment.RelatedObjectTypeCampaign)
	enumOf(programStatuses...)
	enumOf(cardDefinitionStatuses...)
	enumOf(memberStatuses...)
	enumOf(rewardTypes...)
	enumOf(rewardStatuses...)
	enumOf(earningRuleStatuses...)
	enumOf(incentiveTypes...)
	enumOf(incentiveStatuses...)
}

var (
	campaignTypes = []campaign.CampaignType{campaign.CampaignTypeLOYALTY_PROGRAM, campaign.CampaignTypeGIFT_VOUCHERS,
		campaign.CampaignTypeDISCOUNT_COUPONS, campaign.CampaignTypePROMOTION, campaign.CampaignTypeREFERRAL_PROGRAM}
	campaignKinds    = []campaign.Type{campaign.TypeAUTO_UPDATE, campaign.TypeSTATIC, campaign.TypeSTANDALONE}
	creationStatuses = []campaign.CreationStatus{campaign.CreationStatusDONE, campaign.CreationStatusIN_PROGRESS,
		campaign.CreationStatusFAILED, campaign.CreationStatusDRAFT, campaign.CreationStatusMODIFYING}
)

var (
	programStatuses = []loyaltyprogram.Status{loyaltyprogram.StatusDRAFT, loyaltyprogram.StatusACTIVE,
		loyaltyprogram.StatusINACTIVE}
	cardDefinitionStatuses = []carddefinition.Status{carddefinition.StatusDRAFT, carddefinition.StatusACTIVE}
	memberStatuses         = []loyaltymember.Status{loyaltymember.StatusACTIVE, loyaltymember.StatusINACTIVE}
	rewardTypes            = []reward.Type{reward.TypeMATERIAL, reward.TypeDIGITAL}
	rewardStatuses         = []reward.Status{reward.StatusDRAFT, reward.StatusACTIVE, reward.StatusINACTIVE}
	earningRuleStatuses    = []earningrule.Status{earningrule.StatusDRAFT, earningrule.StatusACTIVE,
		earningrule.StatusINACTIVE, earningrule.StatusDELETED}
	incentiveTypes = []incentive.Type{incentive.TypePOINTS, incentive.TypePOINTS_PROPORTIONAL, incentive.TypeMATERIAL,
		incentive.TypeDIGITAL}
	incentiveStatuses = []incentive.Status{incentive.StatusDRAFT, incentive.StatusACTIVE, incentive.StatusDELETED}
)
