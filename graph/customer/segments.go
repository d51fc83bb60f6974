package customer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/segmentfilter"
)

// Segments: create, read and delete. Listing is in segment_lists.go,
// membership (filling and re-evaluation) in segment_membership.go, and the
// filter language itself in graph/segmentfilter.

// Segment types.
const (
	SegmentStatic     = "static"
	SegmentAutoUpdate = "auto-update"
)

// CreateSegmentInput creates a segment (POST /v1/segments).
type CreateSegmentInput struct {
	Name string `json:"name"`
	// Type is "static" (Customers) or "auto-update" (Filter).
	Type      string         `json:"type"`
	Filter    map[string]any `json:"filter"`
	Customers []string       `json:"customers"`
}

// maxStaticCustomers bounds the customers listed when creating a static segment.
const maxStaticCustomers = 1000

// CreateSegment stores a segment and its first members: the listed
// Customers of a static segment, the matching customers of an auto-update one.
func CreateSegment(ctx context.Context, in CreateSegmentInput) (*ent.Segment, error) {
	if in.Name == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if len(in.Name) > 300 {
		return nil, apperr.InvalidPayload("Property .name must be 1 to 300 characters")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	switch in.Type {
	case SegmentStatic:
		return createStaticSegment(ctx, c, in, now)
	case SegmentAutoUpdate:
		if len(in.Customers) > 0 {
			return nil, apperr.InvalidPayload("Property .customers is only allowed for a static segment")
		}
		if in.Filter == nil {
			return nil, apperr.InvalidPayload("Payload must have required property 'filter' for an auto-update segment")
		}
		filter, err := parseSegmentFilter(in.Filter)
		if err != nil {
			return nil, err
		}
		seg, err := c.Segment.Create().SetName(in.Name).SetType(SegmentAutoUpdate).SetFilter(in.Filter).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("creating segment: %w", err)
		}
		if err := fillSegment(ctx, c, seg, filter, now); err != nil {
			return nil, err
		}
		return seg, nil
	}
	return nil, apperr.InvalidPayload("Property .type must be one of static, auto-update")
}

// createStaticSegment stores a static segment with the listed customers
// (IDs or source IDs; an unknown one is not found).
func createStaticSegment(ctx context.Context, c *ent.Client, in CreateSegmentInput, now time.Time) (*ent.Segment, error) {
	if in.Filter != nil {
		return nil, apperr.InvalidPayload("Property .filter is not allowed for a static segment")
	}
	if len(in.Customers) > maxStaticCustomers {
		return nil, apperr.InvalidPayload("Property .customers may list at most %d customers", maxStaticCustomers)
	}
	ids := map[string]bool{}
	for i, idOrSource := range in.Customers {
		if idOrSource == "" {
			return nil, apperr.InvalidPayload("Property .customers[%d] must not be empty", i)
		}
		cust, err := ByIDOrSourceID(ctx, idOrSource)
		if err != nil {
			return nil, err
		}
		ids[cust.ID] = true
	}
	seg, err := c.Segment.Create().SetName(in.Name).SetType(SegmentStatic).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating segment: %w", err)
	}
	bulk := make([]*ent.SegmentMemberCreate, 0, len(ids))
	for id := range ids {
		bulk = append(bulk, c.SegmentMember.Create().SetSegmentID(seg.ID).SetCustomerID(id).SetEnteredAt(now))
	}
	if err := c.SegmentMember.CreateBulk(bulk...).Exec(ctx); err != nil {
		return nil, fmt.Errorf("adding segment members: %w", err)
	}
	return seg, nil
}

// parseSegmentFilter validates an auto-update segment's filter; a filter
// that breaks the language is invalid_payload with the language's message.
func parseSegmentFilter(f map[string]any) (*segmentfilter.Filter, error) {
	filter, err := segmentfilter.Parse(f)
	var fe *segmentfilter.Error
	if errors.As(err, &fe) {
		return nil, apperr.InvalidPayload("%s", fe.Message)
	}
	return filter, err
}

// SegmentByID finds one of the caller's segments.
func SegmentByID(ctx context.Context, id string) (*ent.Segment, error) {
	return SegmentOf(ctx, id, false)
}

// SegmentOf is the viewer's segment id, its row locked when lock is set
// (PostgreSQL: a delete and an earning rule naming the segment serialise).
func SegmentOf(ctx context.Context, id string, lock bool) (*ent.Segment, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Segment.Query().Where(segment.ID(id))
	if lock && entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	seg, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("segment", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up segment: %w", err)
	}
	return seg, nil
}

// SegmentCustomerIDs are the segment's members (at most 1000, oldest first).
func SegmentCustomerIDs(ctx context.Context, seg *ent.Segment) ([]string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return c.SegmentMember.Query().Where(segmentmember.SegmentID(seg.ID)).
		Order(ent.Asc(segmentmember.FieldEnteredAt), ent.Asc(segmentmember.FieldCustomerID)).Limit(1000).
		Select(segmentmember.FieldCustomerID).Strings(ctx)
}

// DeleteSegment removes a segment and its membership.
func DeleteSegment(ctx context.Context, id string) (string, error) {
	seg, err := SegmentOf(ctx, id, true)
	if err != nil {
		return "", err
	}
	if err := RefuseIfTriggerOf(ctx, seg.ID, "segment", "Segment", "segment", "id"); err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.SegmentMember.Delete().Where(segmentmember.SegmentID(seg.ID)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting segment members: %w", err)
	}
	if err := c.Segment.DeleteOne(seg).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting segment: %w", err)
	}
	return seg.ID, nil
}
