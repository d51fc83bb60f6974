package points

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ProgramRules are the expiration rules of a v1 program (its card
// template's loyalty_card.expiration_rules), nil when its points never
// expire or there is no program.
func ProgramRules(ctx context.Context, c *ent.Client, campaignID *string) (map[string]any, error) {
	if campaignID == nil {
		return nil, nil
	}
	cmp, err := Program(ctx, c, *campaignID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("points: reading program: %w", err)
	}
	if cmp.Voucher == nil || cmp.Voucher.LoyaltyCard == nil {
		return nil, nil
	}
	return cmp.Voucher.LoyaltyCard.ExpirationRules, nil
}

// VoucherCard is the bucket owner of a v1 loyalty card.
func VoucherCard(v *ent.Voucher) Card {
	id := v.ID
	return Card{VoucherID: &id, CampaignID: v.CampaignID, CustomerID: v.HolderID}
}

// VoucherMoved keeps a v1 card's buckets in step with a points transaction
// booked on it (the locked voucher v): a credit makes a bucket dated by
// exp (nil: the program's rules), a debit empties buckets; an expiration
// is the daily job's own business. Gift-card credit moves are ignored.
func VoucherMoved(ctx context.Context, c *ent.Client, v *ent.Voucher, typ vouchertransaction.Type, amount int64, exp *Expiry, now time.Time) error {
	switch typ {
	case vouchertransaction.TypePOINTS_EXPIRATION, vouchertransaction.TypeCREDITS_ADDITION, vouchertransaction.TypeCREDITS_REMOVAL,
		vouchertransaction.TypeCREDITS_REFUND, vouchertransaction.TypeCREDITS_REDEMPTION:
		return nil
	}
	k := VoucherCard(v)
	if amount < 0 {
		return Debit(ctx, c, k, -amount)
	}
	if exp == nil {
		rules, err := ProgramRules(ctx, c, v.CampaignID)
		if err != nil {
			return err
		}
		exp = &Expiry{Rules: rules}
	}
	_, err := Credit(ctx, c, k, amount, *exp, string(typ), now)
	return err
}

// Program reads a v1 program (its campaign), once per read memo
// (store.WithReadMemo): the points engine and the tier rules of one move
// read its settings more than once.
func Program(ctx context.Context, c *ent.Client, campaignID string) (*ent.Campaign, error) {
	return store.Remembered(ctx, "campaign:"+campaignID, func() (*ent.Campaign, error) {
		return c.Campaign.Get(ctx, campaignID)
	})
}
