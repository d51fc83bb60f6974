package campaign

import (
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// AddVouchersInput is the input of addVoucher/generateVouchers and the body
// of REST POST /v1/campaigns/{campaignId}/vouchers. Every field is optional;
// given ones override the campaign's voucher profile.
type AddVouchersInput struct {
	Code           *string               `json:"code"`
	CodeConfig     *jsonfield.CodeConfig `json:"code_config"`
	Category       *string               `json:"category"`
	Metadata       map[string]any        `json:"metadata"`
	Redemption     *jsonfield.Redemption `json:"redemption"`
	AdditionalInfo *string               `json:"additional_info"`
	StartDate      *time.Time            `json:"start_date"`
	ExpirationDate *time.Time            `json:"expiration_date"`
}
