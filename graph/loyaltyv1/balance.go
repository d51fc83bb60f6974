package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/points"
	"github.com/promoengine/promoengine/graph/webhook"
)

// BalanceInput is the body of POST …/members/{memberId}/balance: a signed
// number of points (negative subtracts) and how added points expire.
type BalanceInput struct {
	Points *int64 `json:"points"`
	// ExpirationType is PROGRAM_RULES (default), CUSTOM_DATE (with
	// ExpirationDate, YYYY-MM-DD, not in the past) or NON_EXPIRING.
	ExpirationType *string `json:"expiration_type"`
	ExpirationDate *string `json:"expiration_date"`
	Reason         *string `json:"reason"`
	SourceID       *string `json:"source_id"`
}

// maxReason bounds a transaction's reason.
const maxReason = 1000

// AdjustBalance adds or subtracts a member's points and records the move
// (POINTS_ADDITION / POINTS_REMOVAL). The card row is locked for the move
// (FOR UPDATE on PostgreSQL; SQLite runs one writer at a time), so
// concurrent moves serialise and the balance never goes negative:
// subtracting more than the balance is 400 invalid_amount and writes
// nothing.
func AdjustBalance(ctx context.Context, programIDOrName *string, code string, in BalanceInput) (*CardBalance, error) {
	if err := in.validate(time.Now().UTC()); err != nil {
		return nil, err
	}
	// Points added in the common case: one statement (credit_statement.go).
	if out, done, err := CreditInOneStatement(ctx, programIDOrName, code, in); err != nil || done {
		return out, err
	}
	var out *CardBalance
	err := store.WithinTx(store.WithReadMemo(ctx), func(ctx context.Context) error {
		v, err := Member(ctx, programIDOrName, code)
		if err != nil {
			return err
		}
		if err := requireHolder(v); err != nil {
			return err
		}
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		if err := prefetchForMove(ctx, c, v); err != nil {
			return err
		}
		var auto *ent.V1RewardAssignment // auto_redeem.go, read before the lock
		if *in.Points > 0 {
			if auto, err = autoRedeemAssignment(ctx, c, v.CampaignID); err != nil {
				return err
			}
		}
		locked, err := campaign.LockVoucher(ctx, c, v.ID)
		if err != nil {
			return err
		}
		typ := vouchertransaction.TypePOINTS_ADDITION
		if *in.Points < 0 {
			typ = vouchertransaction.TypePOINTS_REMOVAL
		}
		_, out, err = book(ctx, c, locked, move{typ: typ, points: *in.Points, sourceID: in.SourceID, reason: in.Reason, details: in.details(),
			expiry: in.expiry()})
		if err != nil || *in.Points < 0 {
			return err
		}
		return autoRedeem(ctx, c, locked, auto)
	})
	return out, err
}

// prefetchForMove reads, before the card is locked, what booking a move
// on it reads besides the card's own rows — the program, its tiers, the
// project's webhooks — into the transaction's memos (the caller's context
// has a read memo), so the card stays locked only for its own statements:
// on one busy card every statement under the lock is a statement every
// other request waits for.
func prefetchForMove(ctx context.Context, c *ent.Client, v *ent.Voucher) error {
	if v.CampaignID != nil {
		if _, err := points.Program(ctx, c, *v.CampaignID); err != nil {
			return fmt.Errorf("reading the card's program: %w", err)
		}
		if _, err := tierFor(ctx, *v.CampaignID, 0); err != nil {
			return err
		}
	}
	return webhook.Prefetch(ctx)
}

// details are the transaction's details the request names: how the points
// expire (book adds the balance).
func (in BalanceInput) details() map[string]any {
	details := map[string]any{}
	if in.ExpirationType != nil {
		details["expiration_type"] = *in.ExpirationType
	}
	if in.ExpirationDate != nil {
		details["expiration_date"] = *in.ExpirationDate
	}
	return details
}

// expiry is how added points expire: the program's rules (nil), never,
// or on the custom date.
func (in BalanceInput) expiry() *points.Expiry {
	if in.ExpirationType == nil {
		return nil
	}
	switch *in.ExpirationType {
	case "NON_EXPIRING":
		return &points.Expiry{Never: true}
	case "CUSTOM_DATE":
		if d, err := time.Parse(time.DateOnly, *in.ExpirationDate); err == nil {
			return &points.Expiry{On: &d}
		}
	}
	return nil
}

func (in BalanceInput) validate(now time.Time) error {
	if err := validPoints(in.Points); err != nil {
		return err
	}
	if in.Reason != nil && len([]rune(*in.Reason)) > maxReason {
		return apperr.InvalidPayload("Property .reason must be at most %d characters long", maxReason)
	}
	if in.ExpirationType != nil {
		switch *in.ExpirationType {
		case "PROGRAM_RULES", "NON_EXPIRING":
		case "CUSTOM_DATE":
			if in.ExpirationDate == nil {
				return apperr.InvalidPayload("Property .expiration_date is required when expiration_type is CUSTOM_DATE")
			}
		default:
			return apperr.InvalidPayload("Property .expiration_type must be one of PROGRAM_RULES, CUSTOM_DATE, NON_EXPIRING, got %q", *in.ExpirationType)
		}
	}
	if in.ExpirationDate != nil {
		d, err := time.Parse(time.DateOnly, *in.ExpirationDate)
		if err != nil {
			return apperr.InvalidPayload("Property .expiration_date cannot be recognized as a ISO-8601 compliant date")
		}
		if d.Before(now.Truncate(24 * time.Hour)) {
			return apperr.New(400, "invalid_expiration_date", "Invalid expiration date",
				"Property .expiration_date must not be in the past")
		}
	}
	return nil
}

// validPoints requires a non-zero whole number of points within the
// points bound, either sign.
func validPoints(p *int64) error {
	if p == nil {
		return apperr.InvalidPayload("Payload must have required property 'points'")
	}
	if *p == 0 || *p > loyalty.MaxPoints || *p < -loyalty.MaxPoints {
		return apperr.InvalidPayload("Property .points must be a non-zero integer between -%d and %d", int64(loyalty.MaxPoints), int64(loyalty.MaxPoints))
	}
	return nil
}
