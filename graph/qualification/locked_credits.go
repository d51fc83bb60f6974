package qualification

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// addLockedCredits shows, when the request names a session (session.key),
// the gift credits that session holds on each gift card of the page as
// result.gift.locked_credits (reference §5.1; 0 when it holds none). The
// locks of the page's cards are read in one query; expired ones do not
// count. Without a session key nothing is added.
func (r *request) addLockedCredits(ctx context.Context, picks []picked, now time.Time) error {
	s := r.in.Session
	if s == nil || s.Key == nil || *s.Key == "" {
		return nil
	}
	gifts := map[string]map[string]any{}
	var ids []string
	for _, p := range picks {
		if p.q == nil || p.q.Voucher == nil || p.q.Voucher.Type != jsonfield.VoucherTypeGift || p.cand.object == ObjectCampaign {
			continue
		}
		g, ok := p.q.Result["gift"].(map[string]any)
		if !ok {
			continue
		}
		g["locked_credits"] = int64(0)
		gifts[p.q.Voucher.ID] = g
		ids = append(ids, p.q.Voucher.ID)
	}
	if len(ids) == 0 {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	locks, err := c.SessionLock.Query().Where(sessionlock.Key(*s.Key), sessionlock.VoucherIDIn(ids...),
		sessionlock.ExpiresAtGT(now)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the session's locked credits: %w", err)
	}
	for _, l := range locks {
		g := gifts[l.VoucherID]
		g["locked_credits"] = g["locked_credits"].(int64) + l.Credits
	}
	return nil
}
