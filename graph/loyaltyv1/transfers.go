package loyaltyv1

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// TransferInput is one entry of the body of POST
// /v1/loyalties/{campaignId}/members/{memberId}/transfers: points to move
// from the card Code to the member's card.
type TransferInput struct {
	Code     string  `json:"code"`
	Points   *int64  `json:"points"`
	Reason   *string `json:"reason"`
	SourceID *string `json:"source_id"`
}

// maxTransfers bounds the entries of one transfer request.
const maxTransfers = 100

// TransferPoints moves points from other members' cards to this member's
// card in one transaction: each source gets POINTS_TRANSFER_OUT (related
// to the destination's POINTS_TRANSFER_IN). Every card involved is locked
// in ID order before anything is read, so opposite transfers running at
// once (A→B and B→A) wait for each other instead of deadlocking, and a
// source can never give more than its balance (400
// loyalty_card_points_exceeded; nothing is written).
func TransferPoints(ctx context.Context, programIDOrName, code string, in []*TransferInput) (*ent.Voucher, error) {
	if err := validateTransfers(code, in); err != nil {
		return nil, err
	}
	var out *ent.Voucher
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		dest, err := Member(ctx, &programIDOrName, code)
		if err != nil {
			return err
		}
		if err := requireHolder(dest); err != nil {
			return err
		}
		sources := map[string]*ent.Voucher{}
		for i, t := range in {
			src, err := Member(ctx, nil, t.Code)
			if err != nil {
				return err
			}
			if err := requireHolder(src); err != nil {
				return err
			}
			if src.ID == dest.ID {
				return apperr.InvalidPayload("Property [%d].code must name another card than the destination %s", i, code)
			}
			sources[t.Code] = src
		}
		locked, err := lockInOrder(ctx, dest, sources)
		if err != nil {
			return err
		}
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		d := locked[dest.ID]
		for _, t := range in {
			src := locked[sources[t.Code].ID]
			if src.LoyaltyCard == nil || src.LoyaltyCard.Balance < *t.Points {
				have := int64(0)
				if src.LoyaltyCard != nil {
					have = src.LoyaltyCard.Balance
				}
				return apperr.New(http.StatusBadRequest, "loyalty_card_points_exceeded", "Loyalty card points exceeded",
					fmt.Sprintf("Card %s has %d points; cannot transfer %d", src.Code, have, *t.Points))
			}
			inTx, _, err := book(ctx, c, d, move{typ: vouchertransaction.TypePOINTS_TRANSFER_IN, points: *t.Points,
				sourceID: t.SourceID, reason: t.Reason, details: map[string]any{"source_voucher": simpleCard(src)}})
			if err != nil {
				return err
			}
			if _, _, err := book(ctx, c, src, move{typ: vouchertransaction.TypePOINTS_TRANSFER_OUT, points: -*t.Points,
				sourceID: t.SourceID, reason: t.Reason, details: map[string]any{"destination_voucher": simpleCard(d)},
				relatedTransactionID: &inTx.ID}); err != nil {
				return err
			}
		}
		out, err = cardByID(ctx, dest.ID)
		return err
	})
	return out, err
}

func validateTransfers(code string, in []*TransferInput) error {
	if len(in) == 0 || len(in) > maxTransfers {
		return apperr.InvalidPayload("Payload must be an array of 1 to %d transfers", maxTransfers)
	}
	for i, t := range in {
		if t == nil {
			return apperr.InvalidPayload("Property [%d] must be an object", i)
		}
		if t.Code == "" {
			return apperr.InvalidPayload("Property [%d].code is required", i)
		}
		if t.Code == code {
			return apperr.InvalidPayload("Property [%d].code must name another card than the destination %s", i, code)
		}
		if t.Points == nil || *t.Points <= 0 || *t.Points > loyalty.MaxPoints {
			return apperr.InvalidPayload("Property [%d].points must be an integer from 1 to %d", i, int64(loyalty.MaxPoints))
		}
		if t.Reason != nil && len([]rune(*t.Reason)) > maxReason {
			return apperr.InvalidPayload("Property [%d].reason must be at most %d characters long", i, maxReason)
		}
	}
	return nil
}

// lockInOrder locks the destination and source cards in ID order (one
// fixed order for every transaction, so none waits in a cycle) and
// returns them as read under the lock.
func lockInOrder(ctx context.Context, dest *ent.Voucher, sources map[string]*ent.Voucher) (map[string]*ent.Voucher, error) {
	ids := []string{dest.ID}
	for _, s := range sources {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]*ent.Voucher{}
	for _, id := range ids {
		v, err := campaign.LockVoucher(ctx, c, id)
		if err != nil {
			return nil, err
		}
		out[id] = v
	}
	return out, nil
}

// simpleCard is the short card object transfer transactions name.
func simpleCard(v *ent.Voucher) map[string]any {
	out := map[string]any{"id": v.ID, "code": v.Code, "type": string(v.Type), "campaign_id": v.CampaignID,
		"holder_id": v.HolderID, "created_at": createdAt(v.CreatedAt), "object": "voucher"}
	if l := v.LoyaltyCard; l != nil {
		out["loyalty_card"] = map[string]any{"points": l.Points, "balance": l.Balance}
	}
	return out
}
