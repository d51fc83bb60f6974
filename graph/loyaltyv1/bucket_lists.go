package loyaltyv1

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// PendingPointsListInput is the query of a pending-points list: limit
// 1-100 (10), order id / -id (default) and the last entry of the previous
// page.
type PendingPointsListInput struct {
	Limit           *int    `json:"limit"`
	Order           *string `json:"order"`
	StartingAfterID *string `json:"starting_after_id"`
}

// PendingPointsList is a page of pending entries and whether more follow.
type PendingPointsList struct {
	Data    []*ent.PointsBucket `json:"data"`
	HasMore bool                `json:"has_more"`
}

// ProgramPendingPoints pages the entries still PENDING on a program's
// cards (GET /v1/loyalties/{campaignId}/pending-points).
func ProgramPendingPoints(ctx context.Context, programIDOrName string, in *PendingPointsListInput) (*PendingPointsList, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	return pagePending(ctx, pointsbucket.CampaignID(cmp.ID), in)
}

// MemberPendingPoints pages the entries still PENDING on a member's card
// (GET /v1/loyalties[/{campaignId}]/members/{memberId}/pending-points).
func MemberPendingPoints(ctx context.Context, programIDOrName *string, code string, in *PendingPointsListInput) (*PendingPointsList, error) {
	v, err := Member(ctx, programIDOrName, code)
	if err != nil {
		return nil, err
	}
	return pagePending(ctx, pointsbucket.VoucherID(v.ID), in)
}

func pagePending(ctx context.Context, which predicate.PointsBucket, in *PendingPointsListInput) (*PendingPointsList, error) {
	if in == nil {
		in = &PendingPointsListInput{}
	}
	n, _, err := page.Offset(in.Limit, nil)
	if err != nil {
		return nil, err
	}
	asc := false
	if in.Order != nil {
		switch *in.Order {
		case "id":
			asc = true
		case "-id":
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be id or -id")
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	// activates_at is set on every pending entry: the condition lets a
	// card's page come off the pending index (ent/schema/points_bucket.go).
	q := c.PointsBucket.Query().Where(which, pointsbucket.StatusEQ(pointsbucket.StatusPENDING), pointsbucket.ActivatesAtNotNil())
	by := ent.Desc(pointsbucket.FieldID)
	if asc {
		by = ent.Asc(pointsbucket.FieldID)
	}
	if after := in.StartingAfterID; after != nil {
		if asc {
			q.Where(pointsbucket.IDGT(*after))
		} else {
			q.Where(pointsbucket.IDLT(*after))
		}
	}
	data, err := q.Order(by).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing pending points: %w", err)
	}
	out := &PendingPointsList{Data: data, HasMore: len(data) > n}
	if out.HasMore {
		out.Data = data[:n]
	}
	return out, nil
}

// PointsExpirationListInput is the query of a member's points-expiration
// list: limit 1-100 (10) and page (1-based).
type PointsExpirationListInput struct {
	Limit *int `json:"limit"`
	Page  *int `json:"page"`
}

// PointsBucketList is a page of expiry buckets and how many there are.
type PointsBucketList struct {
	Data  []*ent.PointsBucket `json:"data"`
	Total int                 `json:"total"`
}

// MemberPointsExpiration pages a member's ACTIVE buckets, soonest expiry
// first (never-expiring ones last): GET
// /v1/loyalties/{campaignId}/members/{memberId}/points-expiration. Expired
// buckets are not listed; emptied ones are.
func MemberPointsExpiration(ctx context.Context, programIDOrName *string, code string, in *PointsExpirationListInput) (*PointsBucketList, error) {
	if in == nil {
		in = &PointsExpirationListInput{}
	}
	n, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	v, err := Member(ctx, programIDOrName, code)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.PointsBucket.Query().Where(pointsbucket.VoucherID(v.ID), pointsbucket.StatusEQ(pointsbucket.StatusACTIVE))
	// Capped like every v1 total (docs/architecture.md, "Counting").
	total, err := q.Clone().Where(page.CountInIndexOrder(false, pointsbucket.FieldExpiresAt, pointsbucket.FieldID)).
		CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting points buckets: %w", err)
	}
	data, err := q.Order(pointsbucket.ByExpiresAt(sql.OrderNullsLast()), pointsbucket.ByID()).Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing points buckets: %w", err)
	}
	return &PointsBucketList{Data: data, Total: total}, nil
}
