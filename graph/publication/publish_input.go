package publication

import "github.com/promoengine/promoengine/graph/customer"

// PublishCampaignInput names the campaign to publish from (its name or ID)
// and how many vouchers (1-20; absent means one, in the single form).
type PublishCampaignInput struct {
	Name  string `json:"name"`
	Count *int   `json:"count"`
}

// PublishInput is the create-publication request: exactly one of Voucher
// (a code) or Campaign, for Customer.
type PublishInput struct {
	Voucher  *string                 `json:"voucher"`
	Campaign *PublishCampaignInput   `json:"campaign"`
	Customer *customer.CustomerInput `json:"customer"`
	SourceID *string                 `json:"source_id"`
	Metadata map[string]any          `json:"metadata"`
	Channel  *string                 `json:"channel"`
}
