package loyaltyv1

import "github.com/promoengine/promoengine/ent"

// clearCardExpirationRules removes the expiration rules of the loyalty
// card template of program cmp (an update sent
// loyalty_card.expiration_rules as null and no other card member).
func clearCardExpirationRules(upd *ent.CampaignUpdateOne, cmp *ent.Campaign) {
	if cmp.Voucher == nil || cmp.Voucher.LoyaltyCard == nil {
		return
	}
	profile := *cmp.Voucher
	card := *profile.LoyaltyCard
	card.ExpirationRules = nil
	profile.LoyaltyCard = &card
	upd.SetVoucher(&profile)
}
