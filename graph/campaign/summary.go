package campaign

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CampaignSummary is REST GET /v1/campaigns/{campaignId}/summary: counts
// and sums over the campaign's stored redemptions, rollbacks, vouchers,
// publications, transactions and referrals, optionally between two dates.
// What we do not record is 0 (docs/campaigns.md says which fields are
// exact). Type-specific fields are nil where the campaign's type has none.
type CampaignSummary struct {
	Campaign                 *ent.Campaign   `json:"campaign"`
	Redemptions              int             `json:"redemptions"`
	RedemptionsSucceeded     int             `json:"redemptions_succeeded"`
	RedemptionsFailed        int             `json:"redemptions_failed"`
	Rollbacks                int             `json:"rollbacks"`
	RollbacksSucceeded       int             `json:"rollbacks_succeeded"`
	RollbacksFailed          int             `json:"rollbacks_failed"`
	Validations              int             `json:"validations"`
	ValidationsSucceeded     int             `json:"validations_succeeded"`
	ValidationsFailed        int             `json:"validations_failed"`
	OrdersAmount             int64           `json:"orders_amount"`
	OrdersRolledbackAmount   int64           `json:"orders_rolledback_amount"`
	VouchersCreated          *int            `json:"vouchers_created"`
	VouchersDeleted          *int            `json:"vouchers_deleted"`
	Publications             *int            `json:"publications"`
	PublicationsSucceeded    *int            `json:"publications_succeeded"`
	PublicationsFailed       *int            `json:"publications_failed"`
	DiscountedAmount         *int64          `json:"discounted_amount"`
	RolledbackDiscountAmount *int64          `json:"rolledback_discounted_amount"`
	Gift                     *GiftSummary    `json:"-"`
	Loyalty                  *LoyaltySummary `json:"-"`
	ReferredCustomers        *int            `json:"referred_customers"`
}

// GiftSummary is the gift card part of a campaign summary (smallest currency unit).
type GiftSummary struct {
	CreatedVouchersAmount int64 `json:"created_vouchers_amount"`
	AmountAdded           int64 `json:"amount_added"`
	AmountDeleted         int64 `json:"amount_deleted"`
	AmountRedeemed        int64 `json:"amount_redeemed"`
	AmountRolledback      int64 `json:"amount_rolledback"`
	AmountSubtracted      int64 `json:"amount_subtracted"`
}

// LoyaltySummary is the loyalty card part of a campaign summary (points).
type LoyaltySummary struct {
	CreatedVouchersPoints   int64 `json:"created_vouchers_points"`
	PointsDeleted           int64 `json:"points_deleted"`
	PointsSubtracted        int64 `json:"points_subtracted"`
	PointsAdded             int64 `json:"points_added"`
	PointsRewarded          int64 `json:"points_rewarded"`
	PointsRedeemed          int64 `json:"points_redeemed"`
	PointsRolledback        int64 `json:"points_rolledback"`
	PointsExpired           int64 `json:"points_expired"`
	PointsTransferredOut    int64 `json:"points_transferred_out"`
	PointsTransferredIn     int64 `json:"points_transferred_in"`
	PendingPointsAdded      int64 `json:"pending_points_added"`
	PendingPointsSubtracted int64 `json:"pending_points_subtracted"`
	PendingPointsActivated  int64 `json:"pending_points_activated"`
	PendingPointsCanceled   int64 `json:"pending_points_canceled"`
}

// summaryWindow is the [from, to) period of a summary: from the start of
// startDate to the end of endDate (both optional, dates in UTC).
type summaryWindow struct{ from, to *time.Time }

func newSummaryWindow(startDate, endDate *time.Time) (summaryWindow, error) {
	var w summaryWindow
	if startDate != nil {
		d := startDate.UTC().Truncate(24 * time.Hour)
		w.from = &d
	}
	if endDate != nil {
		d := endDate.UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
		w.to = &d
	}
	if w.from != nil && w.to != nil && !w.from.Before(*w.to) {
		return w, apperr.InvalidQueryParams("Query parameter end_date must not be before start_date")
	}
	return w, nil
}

// on limits a query to the window, by the column of its creation time.
func (w summaryWindow) on(column string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if w.from != nil {
			s.Where(sql.GTE(s.C(column), *w.from))
		}
		if w.to != nil {
			s.Where(sql.LT(s.C(column), *w.to))
		}
	}
}

// SummaryOf computes a campaign's summary between startDate and
// endDate (whole days, UTC; both optional).
func SummaryOf(ctx context.Context, idOrName string, startDate, endDate *time.Time) (*CampaignSummary, error) {
	win, err := newSummaryWindow(startDate, endDate)
	if err != nil {
		return nil, err
	}
	cmp, err := ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	s := &CampaignSummary{Campaign: cmp}
	if err := summarizeRedemptions(ctx, c, cmp.ID, win, s); err != nil {
		return nil, err
	}
	kind := cmp.CampaignType
	if kind != campaign.CampaignTypePROMOTION {
		if err := summarizeVouchers(ctx, c, cmp, win, s); err != nil {
			return nil, err
		}
	}
	switch kind {
	case campaign.CampaignTypeGIFT_VOUCHERS, campaign.CampaignTypeLOYALTY_PROGRAM:
		s.DiscountedAmount, s.RolledbackDiscountAmount = nil, nil
		if err := summarizeTransactions(ctx, c, cmp, win, s); err != nil {
			return nil, err
		}
	case campaign.CampaignTypeREFERRAL_PROGRAM:
		s.DiscountedAmount, s.RolledbackDiscountAmount = nil, nil
		n, err := c.ReferralConversion.Query().Where(referralconversion.CampaignID(cmp.ID), referralconversion.RolledBackAtIsNil()).
			Where(win.on(referralconversion.FieldCreatedAt)).Count(ctx)
		if err != nil {
			return nil, fmt.Errorf("counting referred customers: %w", err)
		}
		s.ReferredCustomers = &n
	}
	return s, nil
}

// summarizeRedemptions counts the campaign's redemption and rollback
// entries by result and sums their discounts and order amounts.
func summarizeRedemptions(ctx context.Context, c *ent.Client, campaignID string, win summaryWindow, s *CampaignSummary) error {
	var rows []struct {
		Object   string `json:"object"`
		Result   string `json:"result"`
		Count    int    `json:"count"`
		Discount int64  `json:"discount"`
		Orders   int64  `json:"orders"`
	}
	orderAmount := orderAmountSum(entdb.DialectFromContext(ctx))
	err := c.Redemption.Query().Where(redemption.CampaignID(campaignID)).Where(win.on(redemption.FieldCreatedAt)).
		GroupBy(redemption.FieldObject, redemption.FieldResult).
		Aggregate(ent.Count(), ent.As(ent.Sum(redemption.FieldAppliedDiscount), "discount"), ent.As(orderAmount, "orders")).
		Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("summing the campaign's redemptions: %w", err)
	}
	var discounted, rolledBack int64
	for _, r := range rows {
		switch {
		case r.Object == redemption.ObjectRedemption.String() && r.Result == redemption.ResultSUCCESS.String():
			s.RedemptionsSucceeded, discounted, s.OrdersAmount = r.Count, r.Discount, r.Orders
		case r.Object == redemption.ObjectRedemption.String():
			s.RedemptionsFailed = r.Count
		case r.Result == redemption.ResultSUCCESS.String():
			s.RollbacksSucceeded, rolledBack = r.Count, -r.Discount // rollbacks store the discount negated
		default:
			s.RollbacksFailed = r.Count
		}
	}
	s.Redemptions = s.RedemptionsSucceeded + s.RedemptionsFailed
	s.Rollbacks = s.RollbacksSucceeded + s.RollbacksFailed
	s.DiscountedAmount, s.RolledbackDiscountAmount = &discounted, &rolledBack
	var rolledOrders []struct {
		Orders int64 `json:"orders"`
	}
	err = c.Redemption.Query().Where(redemption.CampaignID(campaignID), redemption.ObjectEQ(redemption.ObjectRedemption),
		redemption.StatusEQ(redemption.StatusROLLED_BACK)).Where(win.on(redemption.FieldCreatedAt)).
		Aggregate(ent.As(orderAmount, "orders")).Scan(ctx, &rolledOrders)
	if err != nil {
		return fmt.Errorf("summing the campaign's rolled back orders: %w", err)
	}
	if len(rolledOrders) == 1 {
		s.OrdersRolledbackAmount = rolledOrders[0].Orders
	}
	return nil
}

// orderAmountSum sums the amount of the order each redemption stored (a
// JSON column: the expression depends on the database).
func orderAmountSum(dia string) ent.AggregateFunc {
	return func(s *sql.Selector) string {
		col := s.C(redemption.FieldOrder)
		if dia == dialect.Postgres {
			return fmt.Sprintf("COALESCE(SUM((%s->>'amount')::bigint), 0)", col)
		}
		return fmt.Sprintf("COALESCE(SUM(CAST(json_extract(%s, '$.amount') AS INTEGER)), 0)", col)
	}
}

// summarizeVouchers counts the campaign's vouchers made in the window and
// the publications of the campaign (by request or by the codes they gave).
func summarizeVouchers(ctx context.Context, c *ent.Client, cmp *ent.Campaign, win summaryWindow, s *CampaignSummary) error {
	created, err := c.Voucher.Query().Where(voucher.CampaignID(cmp.ID)).Where(win.on(voucher.FieldCreatedAt)).Count(ctx)
	if err != nil {
		return fmt.Errorf("counting the campaign's vouchers: %w", err)
	}
	pubs, err := c.Publication.Query().
		Where(publication.Or(publication.CampaignID(cmp.ID), publication.HasVouchersWith(voucher.CampaignID(cmp.ID)))).
		Where(win.on(publication.FieldCreatedAt)).Count(ctx)
	if err != nil {
		return fmt.Errorf("counting the campaign's publications: %w", err)
	}
	zero, failed := 0, 0
	s.VouchersCreated, s.VouchersDeleted = &created, &zero
	s.Publications, s.PublicationsSucceeded, s.PublicationsFailed = &pubs, &pubs, &failed
	return nil
}

// summarizeTransactions sums the campaign's gift credit or loyalty point
// movements by transaction type (absolute amounts).
func summarizeTransactions(ctx context.Context, c *ent.Client, cmp *ent.Campaign, win summaryWindow, s *CampaignSummary) error {
	var rows []struct {
		Type string `json:"type"`
		Sum  int64  `json:"sum"`
	}
	err := c.VoucherTransaction.Query().Where(vouchertransaction.CampaignID(cmp.ID)).
		Where(win.on(vouchertransaction.FieldCreatedAt)).
		GroupBy(vouchertransaction.FieldType).Aggregate(ent.Sum(vouchertransaction.FieldAmount)).Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("summing the campaign's transactions: %w", err)
	}
	sum := map[vouchertransaction.Type]int64{}
	for _, r := range rows {
		sum[vouchertransaction.Type(r.Type)] = abs64(r.Sum)
	}
	created := int64(0)
	if s.VouchersCreated != nil {
		created = int64(*s.VouchersCreated)
	}
	if cmp.CampaignType == campaign.CampaignTypeGIFT_VOUCHERS {
		s.Gift = &GiftSummary{
			AmountAdded: sum[vouchertransaction.TypeCREDITS_ADDITION], AmountSubtracted: sum[vouchertransaction.TypeCREDITS_REMOVAL],
			AmountRedeemed: sum[vouchertransaction.TypeCREDITS_REDEMPTION], AmountRolledback: sum[vouchertransaction.TypeCREDITS_REFUND],
		}
		if v := cmp.Voucher; v != nil && v.Gift != nil {
			s.Gift.CreatedVouchersAmount = created * v.Gift.Amount
		}
		return nil
	}
	s.Loyalty = &LoyaltySummary{
		PointsAdded: sum[vouchertransaction.TypePOINTS_ADDITION], PointsSubtracted: sum[vouchertransaction.TypePOINTS_REMOVAL],
		PointsRewarded: sum[vouchertransaction.TypePOINTS_ACCRUAL], PointsRedeemed: sum[vouchertransaction.TypePOINTS_REDEMPTION],
		PointsRolledback: sum[vouchertransaction.TypePOINTS_REFUND], PointsExpired: sum[vouchertransaction.TypePOINTS_EXPIRATION],
		PointsTransferredOut: sum[vouchertransaction.TypePOINTS_TRANSFER_OUT], PointsTransferredIn: sum[vouchertransaction.TypePOINTS_TRANSFER_IN],
	}
	if v := cmp.Voucher; v != nil && v.LoyaltyCard != nil {
		s.Loyalty.CreatedVouchersPoints = created * v.LoyaltyCard.Points
	}
	return nil
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
