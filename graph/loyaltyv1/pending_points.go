package loyaltyv1

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
	"github.com/promoengine/promoengine/graph/webhook"
)

// addPending records points an order.paid rule with a pending period
// earned on the locked card: a lopp_ entry that activates days later, and
// the card's pending_points grow; the balance does not change.
func addPending(ctx context.Context, c *ent.Client, card *ent.Voucher, rule *ent.CampaignEarningRule, n int64, days int, details map[string]any) error {
	k := points.VoucherCard(card)
	var orderID *string
	if o, ok := details["order"].(map[string]any); ok {
		if id, ok := o["id"].(string); ok {
			orderID = &id
		}
	}
	now := clock.At(ctx)
	b, err := points.AddPending(ctx, c, points.Pending{Card: k, OrderID: orderID, Points: n,
		ActivatesOn: now.AddDate(0, 0, days), Rules: rule.ExpirationRules, Details: details})
	if err != nil {
		return err
	}
	if err := adjustPendingCounter(ctx, c, card, n); err != nil {
		return err
	}
	return emitPending(ctx, "voucher.loyalty_card.pending_points.added", card, b)
}

// adjustPendingCounter moves the locked card's pending_points by delta.
func adjustPendingCounter(ctx context.Context, c *ent.Client, card *ent.Voucher, delta int64) error {
	if card.LoyaltyCard == nil {
		return nil
	}
	l := *card.LoyaltyCard
	p := delta
	if l.PendingPoints != nil {
		p += *l.PendingPoints
	}
	l.PendingPoints = &p
	if err := c.Voucher.UpdateOneID(card.ID).SetLoyaltyCard(&l).Exec(ctx); err != nil {
		return fmt.Errorf("updating card pending points: %w", err)
	}
	card.LoyaltyCard = &l
	return nil
}

// pendingEntry is the member's pending-points entry id, locked card first
// (404 voucher for an unknown code, 404 pending_points for an entry that
// is not the member's).
func pendingEntry(ctx context.Context, c *ent.Client, programIDOrName *string, code, id string) (*ent.Voucher, *ent.PointsBucket, error) {
	v, err := Member(ctx, programIDOrName, code)
	if err != nil {
		return nil, nil, err
	}
	locked, err := campaign.LockVoucher(ctx, c, v.ID)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.PointsBucket.Query().Where(pointsbucket.ID(id), pointsbucket.VoucherID(v.ID)).Only(ctx)
	if ent.IsNotFound(err) || err == nil && !strings.HasPrefix(b.ID, pulid.PrefixPendingPoints) {
		return nil, nil, apperr.NotFound("pending_points", id)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading pending points: %w", err)
	}
	return locked, b, nil
}

// withPendingEntry runs fn in one transaction on the member's pending
// entry id, its card locked (pendingEntry).
func withPendingEntry(ctx context.Context, programIDOrName *string, code, id string,
	fn func(ctx context.Context, c *ent.Client, card *ent.Voucher, b *ent.PointsBucket) error) error {
	return store.WithinTx(ctx, func(ctx context.Context) error {
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		card, b, err := pendingEntry(ctx, c, programIDOrName, code, id)
		if err != nil {
			return err
		}
		return fn(ctx, c, card, b)
	})
}

// invalidPendingState is 400 invalid_pending_points_state for an entry
// that is no longer PENDING.
func invalidPendingState(verb string, b *ent.PointsBucket) error {
	return apperr.New(http.StatusBadRequest, "invalid_pending_points_state", "Invalid pending points state",
		fmt.Sprintf("Only pending points in 'PENDING' status can be %s. Current status: '%s'.", verb, b.Status))
}

// ActivatePendingPoints moves a pending entry's points into the balance now
// (POST /v1/loyalties/members/{memberId}/pending-points/{id}/activate): a
// PENDING_POINTS_ACTIVATION transaction and a new expiry bucket dated from
// today. The state moves with one guarded UPDATE, so of two activations
// of one entry exactly one credits; the other is 400
// invalid_pending_points_state.
func ActivatePendingPoints(ctx context.Context, programIDOrName *string, code, id string) (*CardBalance, error) {
	var out *CardBalance
	err := withPendingEntry(ctx, programIDOrName, code, id, func(ctx context.Context, c *ent.Client, card *ent.Voucher, b *ent.PointsBucket) error {
		var err error
		out, err = activate(ctx, c, card, b, "MANUAL")
		return err
	})
	return out, err
}

// activate credits a PENDING entry b on its locked card.
func activate(ctx context.Context, c *ent.Client, card *ent.Voucher, b *ent.PointsBucket, operation string) (*CardBalance, error) {
	ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusPENDING, pointsbucket.StatusACTIVATED)
	if err != nil {
		return nil, err
	}
	if !ok {
		if b, err = c.PointsBucket.Get(ctx, b.ID); err != nil {
			return nil, fmt.Errorf("reading pending points: %w", err)
		}
		return nil, invalidPendingState("activated", b)
	}
	var exp *points.Expiry
	if b.ExpirationRules != nil {
		exp = &points.Expiry{Rules: b.ExpirationRules}
	}
	details := map[string]any{"pending_points": map[string]any{"id": b.ID, "points": b.Points, "order": b.Details["order"],
		"earning_rule": b.Details["earning_rule"]}}
	source := "" // API
	if operation == "AUTOMATIC" {
		source = "Automation"
	}
	_, bal, err := book(ctx, c, card, move{typ: vouchertransaction.TypePENDING_POINTS_ACTIVATION, points: b.Points,
		details: details, operation: operation, source: source, expiry: exp, pending: -b.Points})
	if err != nil {
		return nil, err
	}
	return bal, emitPending(ctx, "voucher.loyalty_card.pending_points.activated", card, b)
}

// CancelPendingPoints drops a pending entry (POST …/pending-points/{id}/cancel):
// its points never reach the balance.
func CancelPendingPoints(ctx context.Context, programIDOrName *string, code, id string) error {
	return withPendingEntry(ctx, programIDOrName, code, id, func(ctx context.Context, c *ent.Client, card *ent.Voucher, b *ent.PointsBucket) error {
		ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusPENDING, pointsbucket.StatusCANCELED)
		if err != nil {
			return err
		}
		if !ok {
			return invalidPendingState("canceled", b)
		}
		if err := adjustPendingCounter(ctx, c, card, -b.Points); err != nil {
			return err
		}
		return emitPending(ctx, "voucher.loyalty_card.pending_points.canceled", card, b)
	})
}

// PendingBalanceInput is the body of POST …/pending-points/{id}/balance.
type PendingBalanceInput struct {
	Points *int64 `json:"points"`
}

// PendingBalance is the answer of a pending entry's change: the signed
// change and the entry's points after it.
type PendingBalance struct {
	Points        int64         `json:"points"`
	Total         int64         `json:"total"`
	Object        string        `json:"object"`
	RelatedObject RelatedObject `json:"related_object"`
	OperationType string        `json:"operation_type"`
}

// AdjustPendingPoints adds to or subtracts from a pending entry (POST
// …/pending-points/{id}/balance); an entry that would reach zero or less
// is 400 invalid_amount and nothing changes.
func AdjustPendingPoints(ctx context.Context, programIDOrName *string, code, id string, in PendingBalanceInput) (*PendingBalance, error) {
	if err := validPoints(in.Points); err != nil {
		return nil, err
	}
	var out *PendingBalance
	err := withPendingEntry(ctx, programIDOrName, code, id, func(ctx context.Context, c *ent.Client, card *ent.Voucher, b *ent.PointsBucket) error {
		if b.Status != pointsbucket.StatusPENDING {
			return invalidPendingState("updated", b)
		}
		total := b.Points + *in.Points
		if total <= 0 {
			return apperr.New(http.StatusBadRequest, "invalid_amount", "Invalid amount", "Amount has to be a valid positive number")
		}
		n, err := c.PointsBucket.Update().Where(pointsbucket.ID(b.ID), pointsbucket.StatusEQ(pointsbucket.StatusPENDING)).
			SetPoints(total).Save(ctx)
		if err != nil {
			return fmt.Errorf("updating pending points: %w", err)
		}
		if n != 1 {
			return invalidPendingState("updated", b)
		}
		if err := adjustPendingCounter(ctx, c, card, *in.Points); err != nil {
			return err
		}
		b.Points = total
		out = &PendingBalance{Points: *in.Points, Total: total, Object: "balance",
			RelatedObject: RelatedObject{Type: "voucher", ID: card.ID}, OperationType: "MANUAL"}
		return emitPending(ctx, "voucher.loyalty_card.pending_points.updated", card, b)
	})
	return out, err
}

// emitPending writes a pending-points webhook event about the card.
func emitPending(ctx context.Context, name string, card *ent.Voucher, b *ent.PointsBucket) error {
	return webhook.Emit(ctx, name, "voucher", card.ID, map[string]any{"voucher": card, "pending_points": b})
}
