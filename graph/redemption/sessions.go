package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// lockSession holds the applicable vouchers of a valid validation for the
// request's session: one unit each, plus the gift credits or loyalty
// points it would spend. Sending an existing key overwrites that
// session's locks. Runs in the transaction that locked the voucher rows,
// so availability cannot change between the check and the lock.
func (e *evaluation) lockSession(ctx context.Context) (map[string]any, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ttl, err := sessionTTL(e.req.session)
	if err != nil {
		return nil, err
	}
	key := e.sessionKey
	if key == "" {
		key = newSessionKey()
	}
	if _, err := c.SessionLock.Delete().Where(sessionlock.Key(key)).Exec(ctx); err != nil {
		return nil, fmt.Errorf("replacing session locks: %w", err)
	}
	echoTTL, echoUnit := int64(7), "DAYS"
	if s := e.req.session; s.TTL != nil {
		echoTTL, echoUnit = *s.TTL, "MINUTES"
		if s.TTLUnit != nil {
			echoUnit = *s.TTLUnit
		}
	}
	for i, out := range e.outcomes {
		s := e.states[i]
		if out.Status != discount.StatusApplicable || s.voucher == nil {
			continue
		}
		// Expired locks of this voucher are dropped on the way.
		if _, err := c.SessionLock.Delete().Where(sessionlock.VoucherID(s.voucher.ID), sessionlock.ExpiresAtLTE(e.now)).Exec(ctx); err != nil {
			return nil, fmt.Errorf("dropping expired session locks: %w", err)
		}
		credits := int64(0)
		if s.voucher.Type == "GIFT_VOUCHER" {
			credits = out.Result.Total
		}
		if err := c.SessionLock.Create().SetKey(key).SetVoucherID(s.voucher.ID).SetCredits(credits).
			SetPoints(s.points).SetTTL(echoTTL).SetTTLUnit(echoUnit).SetExpiresAt(e.now.Add(ttl)).Exec(ctx); err != nil {
			return nil, fmt.Errorf("locking voucher for session: %w", err)
		}
		// A new version of the voucher row (same values): a guarded
		// redemption that read the row before this lock fails its guard
		// and counts the lock under the row lock (statement.go).
		if store.IsPostgres(ctx) {
			bump := c.Voucher.Update().Where(voucher.ID(s.voucher.ID))
			if s.voucher.UpdatedAt != nil {
				bump.SetUpdatedAt(*s.voucher.UpdatedAt)
			} else {
				bump.ClearUpdatedAt()
			}
			if err := bump.Exec(ctx); err != nil {
				return nil, fmt.Errorf("marking voucher locked: %w", err)
			}
		}
	}
	return map[string]any{"key": key, "type": "LOCK", "ttl": echoTTL, "ttl_unit": echoUnit}, nil
}

// ReleaseSession ends a session's lock on a voucher.
func ReleaseSession(ctx context.Context, code, key string) (bool, error) {
	v, err := campaign.VoucherByCodeOrID(ctx, code)
	if err != nil {
		return false, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return false, err
	}
	n, err := c.SessionLock.Delete().Where(sessionlock.VoucherID(v.ID), sessionlock.Key(key)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("releasing session lock: %w", err)
	}
	if n == 0 {
		return false, apperr.NotFound("session", key)
	}
	return true, nil
}
