package loyalty

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A v2 card's expiring points are its ACTIVE buckets with a last day in
// the shared bucket store (card_buckets.go). The documents name them
// lcpeb_…: the stored lopb_ id with the v2 prefix, so no id is stored
// twice (CardBucketID, storedBucketID).

// cardBucketPrefix is the v2 documents' prefix of a points bucket.
const cardBucketPrefix = "lcpeb_"

// CardBucketID is the v2 id of a stored bucket id.
func CardBucketID(stored string) string {
	return cardBucketPrefix + strings.TrimPrefix(stored, pulid.PrefixPointsBucket)
}

// storedBucketID is the stored id of a v2 bucket id, or of a stored id
// (GraphQL's PointsBucket.id); "" when it is neither.
func storedBucketID(id string) string {
	if strings.HasPrefix(id, pulid.PrefixPointsBucket) {
		return id
	}
	if !strings.HasPrefix(id, cardBucketPrefix) {
		return ""
	}
	return pulid.PrefixPointsBucket + strings.TrimPrefix(id, cardBucketPrefix)
}

// CardBucket is one expiring-points bucket of a member's card.
type CardBucket struct {
	Bucket *ent.PointsBucket
	Card   *ent.Card
	// CustomerID is the member's customer.
	CustomerID string
}

// CardBucketPage is a page of a card's expiring buckets.
type CardBucketPage struct {
	Data    []*CardBucket
	HasMore bool
}

// CardExpiringPoints pages the card's ACTIVE buckets that expire, by
// (expiration day, id): soonest first when p.Asc (the documents' default
// order expiration_date), latest first otherwise. p.After is a stored id
// of this card's list.
func CardExpiringPoints(ctx context.Context, programID, memberID, cardID string, p loyaltybase.PageInput) (*CardBucketPage, error) {
	limit, err := p.Size()
	if err != nil {
		return nil, err
	}
	c, crd, m, err := cardWithMember(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	expiring := []predicate.PointsBucket{pointsbucket.CardID(crd.ID), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE),
		pointsbucket.ExpiresAtNotNil()}
	q := c.PointsBucket.Query().Where(expiring...)
	cmp, from, dir := sql.GT, sql.GTE, sql.OrderAsc()
	if !p.Asc {
		cmp, from, dir = sql.LT, sql.LTE, sql.OrderDesc()
	}
	if p.After != nil {
		at, err := c.PointsBucket.Query().Where(expiring...).Where(pointsbucket.ID(*p.After)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.InvalidQueryParams("Query parameter cursor does not name a bucket of this list")
		}
		if err != nil {
			return nil, fmt.Errorf("reading cursor bucket: %w", err)
		}
		// The redundant bound in front starts the index walk at the cursor
		// (the OR alone is only a filter).
		q.Where(func(s *sql.Selector) {
			s.Where(sql.And(from(s.C(pointsbucket.FieldExpiresAt), *at.ExpiresAt),
				sql.Or(cmp(s.C(pointsbucket.FieldExpiresAt), *at.ExpiresAt),
					sql.And(sql.EQ(s.C(pointsbucket.FieldExpiresAt), *at.ExpiresAt), cmp(s.C(pointsbucket.FieldID), at.ID)))))
		})
	}
	rows, err := q.Order(pointsbucket.ByExpiresAt(dir), pointsbucket.ByID(dir)).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing card buckets: %w", err)
	}
	rows, more := loyaltybase.Trim(rows, limit)
	out := &CardBucketPage{Data: make([]*CardBucket, len(rows)), HasMore: more}
	for i, b := range rows {
		out.Data[i] = &CardBucket{Bucket: b, Card: crd, CustomerID: m.CustomerID}
	}
	return out, nil
}

// CardBucketExpiry is the answer of a manual expiry: the bucket as it is
// now and the POINTS_EXPIRED transaction (nil when the bucket was empty).
type CardBucketExpiry struct {
	Bucket      *CardBucket
	Transaction *ent.CardTransaction
}

// ExpireCardBucketNow expires one ACTIVE bucket of the card now (POST
// …/expiring-points/{bucketId}/expire), in the caller's transaction: the
// daily job's guarded move (expireCardBucket), so of two calls, or a call
// and the job, exactly one books; the other call is 400
// invalid_bucket_state. A bucket of another card is 404.
func ExpireCardBucketNow(ctx context.Context, programID, memberID, cardID, bucketID string) (*CardBucketExpiry, error) {
	c, crd, m, err := cardWithMember(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	b, err := c.PointsBucket.Query().Where(pointsbucket.ID(storedBucketID(bucketID)), pointsbucket.CardID(crd.ID)).Only(ctx)
	if err := loyaltybase.NotFound(err, "card_points_bucket", bucketID); err != nil {
		return nil, err
	}
	tx, ok, err := expireCardBucket(ctx, c, b)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.New(http.StatusBadRequest, "invalid_bucket_state", "Invalid bucket state",
			fmt.Sprintf("Only buckets in 'ACTIVE' status can be expired. Current status: '%s'.", b.Status))
	}
	if b, err = c.PointsBucket.Get(ctx, b.ID); err != nil {
		return nil, fmt.Errorf("reading bucket: %w", err)
	}
	if crd, err = c.Card.Get(ctx, crd.ID); err != nil {
		return nil, fmt.Errorf("reading card: %w", err)
	}
	return &CardBucketExpiry{Bucket: &CardBucket{Bucket: b, Card: crd, CustomerID: m.CustomerID}, Transaction: tx}, nil
}

// cardWithMember is MemberCard with its member and the request's client.
func cardWithMember(ctx context.Context, programID, memberID, cardID string) (*ent.Client, *ent.Card, *ent.LoyaltyMember, error) {
	crd, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	return c, crd, m, nil
}
