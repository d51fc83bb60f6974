package loyalty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/points"
)

// Pending points of v2 cards. A card definition with pending_points
// PERIOD_BASED makes earning rules' points wait: award records a PENDING
// entry in the shared bucket store (points.AddPending, keyed by card_id)
// instead of crediting the card; the entry joins the balance on its day
// (the daily job, ActivateCardPending) or by hand (activate), or is
// canceled. Each move is one guarded UPDATE PENDING→ACTIVATED/CANCELED, so
// of the job's workers and the routes exactly one books it. The documents
// name the entries lcppb_…: the stored lopp_ id with that prefix.

// cardPendingPrefix is the documents' prefix of a pending points bucket.
const cardPendingPrefix = "lcppb_"

// CardPendingID is the v2 id of a stored pending entry.
func CardPendingID(stored string) string {
	return cardPendingPrefix + strings.TrimPrefix(stored, pulid.PrefixPendingPoints)
}

// storedPendingID is the stored id of a v2 (or stored) pending entry id.
func storedPendingID(id string) string {
	if strings.HasPrefix(id, pulid.PrefixPendingPoints) {
		return id
	}
	return pulid.PrefixPendingPoints + strings.TrimPrefix(id, cardPendingPrefix)
}

// PendingPointsOf is a card definition's policy as the interface shows it
// (IMMEDIATE when none is stored).
func PendingPointsOf(d *ent.CardDefinition) jsonfield.PendingPoints {
	if d.PendingPoints == nil {
		return jsonfield.PendingPoints{Type: "IMMEDIATE"}
	}
	return *d.PendingPoints
}

// addCardPending records an award as a PENDING entry of the card.
func addCardPending(ctx context.Context, crd *ent.Card, pts int64, on time.Time, ruleID string, sourceID *string, exp *jsonfield.PointsExpiration) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	details := map[string]any{"earning_rule_id": ruleID, "type": pendingPolicyType(ctx, crd)}
	if sourceID != nil {
		details["source_id"] = *sourceID
	}
	if exp != nil {
		details["points_expiration"] = exp
	}
	_, err = points.AddPending(ctx, c, points.Pending{Card: cardBucketKey(crd), Points: pts, ActivatesOn: on, Details: details})
	return err
}

// CardPendingPoints pages a card's PENDING entries (404 for an unknown
// program, member or card).
func CardPendingPoints(ctx context.Context, programID, memberID, cardID string, p loyaltybase.PageInput) (*CardBucketPage, error) {
	limit, err := p.Size()
	if err != nil {
		return nil, err
	}
	c, crd, m, err := cardWithMember(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	// activates_at is set on every pending entry: the condition lets the
	// page come off the pending index (ent/schema/points_bucket.go).
	q := c.PointsBucket.Query().Where(pointsbucket.CardID(crd.ID), pointsbucket.StatusEQ(pointsbucket.StatusPENDING),
		pointsbucket.ActivatesAtNotNil())
	if p.After != nil {
		if p.Asc {
			q.Where(pointsbucket.IDGT(*p.After))
		} else {
			q.Where(pointsbucket.IDLT(*p.After))
		}
	}
	order := pointsbucket.ByID()
	if !p.Asc {
		order = pointsbucket.ByID(sql.OrderDesc())
	}
	rows, err := q.Order(order).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing pending points: %w", err)
	}
	rows, more := loyaltybase.Trim(rows, limit)
	out := &CardBucketPage{Data: make([]*CardBucket, len(rows)), HasMore: more}
	for i, b := range rows {
		out.Data[i] = &CardBucket{Bucket: b, Card: crd, CustomerID: m.CustomerID}
	}
	return out, nil
}

// PendingMove is the answer of an activation or cancellation: the card
// transaction an activation booked (nil for a cancellation).
type PendingMove struct {
	Card        *CardBucket
	Transaction *ent.CardTransaction
}

// MoveCardPending activates (activate true) or cancels a PENDING entry of
// the card by hand: 404 card_pending_points_bucket for an entry of
// another card, 400 invalid_pending_points_bucket_status when it is no
// longer PENDING (the job or another call came first).
func MoveCardPending(ctx context.Context, programID, memberID, cardID, bucketID string, activate bool) (*PendingMove, error) {
	c, crd, m, err := cardWithMember(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	b, err := c.PointsBucket.Query().Where(pointsbucket.ID(storedPendingID(bucketID)), pointsbucket.CardID(crd.ID)).Only(ctx)
	if err := loyaltybase.NotFound(err, "card_pending_points_bucket", bucketID); err != nil {
		return nil, err
	}
	if b.Status == pointsbucket.StatusPENDING && activate {
		tx, ok, err := activateCardPending(ctx, c, b)
		if err != nil || ok {
			return &PendingMove{Card: &CardBucket{Bucket: b, Card: crd, CustomerID: m.CustomerID}, Transaction: tx}, err
		}
	} else if b.Status == pointsbucket.StatusPENDING {
		ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusPENDING, pointsbucket.StatusCANCELED)
		if err != nil || ok {
			return &PendingMove{Card: &CardBucket{Bucket: b, Card: crd, CustomerID: m.CustomerID}}, err
		}
	}
	return nil, apperr.New(http.StatusBadRequest, "invalid_pending_points_bucket_status", "Invalid pending points bucket status",
		fmt.Sprintf("Only buckets in 'PENDING' status can be moved. Current status: '%s'.", b.Status))
}

// ActivateCardPending is the daily job's activation of a due v2 entry
// (loyaltyv1.RunDailyPoints): false when another worker moved it first.
// An EVENT_BASED entry's day is the end of its cancel period: it is
// canceled instead (card_pending_policies.go).
func ActivateCardPending(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (bool, error) {
	if b.Details["type"] == pendingEventBased {
		return points.Move(ctx, c, b.ID, pointsbucket.StatusPENDING, pointsbucket.StatusCANCELED)
	}
	_, ok, err := activateCardPending(ctx, c, b)
	return ok, err
}

// activateCardPending locks the card, moves the entry PENDING→ACTIVATED
// (one guarded UPDATE) and credits its points as earned by its rule.
func activateCardPending(ctx context.Context, c *ent.Client, b *ent.PointsBucket) (*ent.CardTransaction, bool, error) {
	q := c.Card.Query().Where(card.ID(*b.CardID))
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	if _, err := q.Only(ctx); err != nil {
		return nil, false, fmt.Errorf("locking card: %w", err)
	}
	ok, err := points.Move(ctx, c, b.ID, pointsbucket.StatusPENDING, pointsbucket.StatusACTIVATED)
	if err != nil || !ok {
		return nil, false, err
	}
	m := CardMove{Points: b.Points}
	reason := "Pending points activated"
	m.Reason = &reason
	if id, ok := b.Details["earning_rule_id"].(string); ok {
		m.earningRuleID = &id
	}
	if s, ok := b.Details["source_id"].(string); ok {
		m.SourceID = &s
	}
	if raw, ok := b.Details["points_expiration"]; ok {
		var exp jsonfield.PointsExpiration
		if j, err := json.Marshal(raw); err == nil && json.Unmarshal(j, &exp) == nil {
			m.expiration = &exp
		}
	}
	tx, err := BookCardPoints(ctx, *b.CardID, m)
	return tx, err == nil, err
}
