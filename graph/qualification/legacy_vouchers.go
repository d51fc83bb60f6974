package qualification

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
)

// QualifyVouchers serves POST /v1/vouchers/qualification: the generic
// codes — standalone ones and those of STANDALONE campaigns, not the
// codes of bulk campaigns (reference) — that are active and in date,
// held by nobody or by the customer, and pass their checks for the
// customer and the order; at most limit of them, in the requested order
// (default newest first). At most MaxCandidates codes are evaluated.
func QualifyVouchers(ctx context.Context, in LegacyInput) (*VoucherQualification, error) {
	r, err := in.check(VoucherOrders)
	if err != nil {
		return nil, err
	}
	vs, err := r.genericVouchers(ctx, clock.Now())
	if err != nil {
		return nil, err
	}
	codes := func(lo, hi int) ([]string, []int, error) {
		var out []string
		var idx []int
		for i := lo; i < hi; i++ {
			out, idx = append(out, vs[i].Code), append(idx, i)
		}
		return out, idx, nil
	}
	res := &VoucherQualification{ID: newQualificationID(), Data: []*ent.Voucher{}}
	out, err := r.evaluate(ctx, len(vs), codes, func(i int, q *redemption.Qualified) {
		res.Data = append(res.Data, vs[i])
		res.ApplicableTo, res.InapplicableTo = append(res.ApplicableTo, q.ApplicableTo), append(res.InapplicableTo, q.InapplicableTo)
	})
	if err != nil {
		return nil, err
	}
	res.CreatedAt, res.TrackingID, res.Total = clock.Now(), out.TrackingID, len(res.Data)
	return res, nil
}

// genericVouchers reads the candidate codes in the requested order (then
// by id), at most MaxCandidates, each with its campaign.
func (r *legacyRequest) genericVouchers(ctx context.Context, now time.Time) ([]*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	vs, err := c.Voucher.Query().Where(genericVoucher(now), r.holdable()).
		Order(r.order(voucherColumns), r.direction(voucher.FieldID)).Limit(MaxCandidates).
		WithCampaign().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the generic vouchers: %w", err)
	}
	return vs, nil
}

// holdable selects the codes held by nobody or by the request's customer.
func (r *legacyRequest) holdable() predicate.Voucher {
	cust := r.in.Customer
	if cust == nil || (cust.ID == nil && cust.SourceID == nil) {
		return voucher.HolderIDIsNil()
	}
	return voucher.Or(voucher.HolderIDIsNil(), heldBy(cust.ID, cust.SourceID))
}

var voucherColumns = map[string]string{"created_at": voucher.FieldCreatedAt, "updated_at": voucher.FieldUpdatedAt,
	"code": voucher.FieldCode}

// order is the ORDER BY term of the requested field; updated_at, null
// until a first update, counts as created_at then (the same order on
// both dialects, whose NULLs sort differently).
func (r *legacyRequest) order(columns map[string]string) func(*sql.Selector) {
	if r.field != "updated_at" {
		return r.direction(columns[r.field])
	}
	return func(s *sql.Selector) {
		dir := " ASC"
		if r.desc {
			dir = " DESC"
		}
		s.OrderExpr(sql.Expr("COALESCE(" + s.C("updated_at") + ", " + s.C("created_at") + ")" + dir))
	}
}

// direction orders by a column in the requested direction.
func (r *legacyRequest) direction(column string) func(*sql.Selector) {
	if r.desc {
		return ent.Desc(column)
	}
	return ent.Asc(column)
}
