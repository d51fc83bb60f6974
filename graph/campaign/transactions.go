package campaign

import (
	"context"
	"fmt"
	"net/http"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
)

// BalanceInput adds (positive amount) or removes (negative) gift card
// credits: POST /v1/vouchers/{code}/balance.
type BalanceInput struct {
	Amount   *int64  `json:"amount"`
	SourceID *string `json:"source_id"`
	Reason   *string `json:"reason"`
}

// VoucherBalance is the outcome of a balance move.
type VoucherBalance struct {
	Amount      int64                   `json:"amount"`
	Total       int64                   `json:"total"`
	Balance     int64                   `json:"balance"`
	Type        string                  `json:"type"`
	VoucherID   string                  `json:"voucher_id"`
	Transaction *ent.VoucherTransaction `json:"-"`
}

// maxBalance bounds a gift card's balance.
const maxBalance = 1 << 53

// maxBalanceMove bounds one move (and keeps sums far from int64 overflow).
const maxBalanceMove = 1_000_000_000_000

// AdjustVoucherBalance moves a gift card's credits and records the move as
// a voucher transaction. The voucher row is locked (FOR UPDATE on
// PostgreSQL; SQLite runs one writer at a time), so concurrent moves
// serialise: the balance never goes negative and always equals the
// initial amount plus the sum of the transactions.
func AdjustVoucherBalance(ctx context.Context, codeOrID string, in BalanceInput) (*VoucherBalance, error) {
	if in.Amount == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'amount'")
	}
	if *in.Amount == 0 || *in.Amount > maxBalanceMove || *in.Amount < -maxBalanceMove {
		return nil, apperr.InvalidPayload("Property .amount must be a non-zero integer between -%d and %d", maxBalanceMove, maxBalanceMove)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	v, err := VoucherByCodeOrID(ctx, codeOrID)
	if err != nil {
		return nil, err
	}
	if v.Type != jsonfield.VoucherTypeGift {
		return nil, apperr.New(http.StatusBadRequest, "invalid_voucher", "Invalid voucher",
			fmt.Sprintf("Voucher %s is not a gift card: only gift card credits can be adjusted here", v.Code))
	}
	if v, err = LockVoucher(ctx, c, v.ID); err != nil {
		return nil, err
	}
	gift := jsonfield.Gift{}
	if v.Gift != nil {
		gift = *v.Gift
	}
	amount := *in.Amount
	if gift.Balance+amount < 0 {
		return nil, apperr.New(http.StatusBadRequest, "not_enough_balance", "Not enough balance",
			fmt.Sprintf("Cannot remove %d from voucher %s: its balance is %d", -amount, v.Code, gift.Balance))
	}
	if gift.Balance+amount > maxBalance {
		return nil, apperr.InvalidPayload("Property .amount would raise the balance of voucher %s above %d", v.Code, int64(maxBalance))
	}
	gift.Amount += amount
	gift.Balance += amount
	if err := c.Voucher.UpdateOne(v).SetGift(&gift).Exec(ctx); err != nil {
		return nil, fmt.Errorf("updating balance: %w", err)
	}
	typ := vouchertransaction.TypeCREDITS_ADDITION
	if amount < 0 {
		typ = vouchertransaction.TypeCREDITS_REMOVAL
	}
	tx, err := RecordTransaction(ctx, c, v, typ, amount, gift.Balance, in.SourceID, in.Reason, nil)
	if err != nil {
		return nil, err
	}
	out := &VoucherBalance{Amount: amount, Total: gift.Amount, Balance: gift.Balance, Type: "gift_voucher",
		VoucherID: v.ID, Transaction: tx}
	v.Gift = &gift
	return out, emitGiftBalance(ctx, v, out)
}

// LockVoucher re-reads a voucher holding its row lock until the transaction ends.
func LockVoucher(ctx context.Context, c *ent.Client, id string) (*ent.Voucher, error) {
	q := c.Voucher.Query().Where(voucher.ID(id))
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	v, err := q.Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("locking voucher: %w", err)
	}
	return v, nil
}

// RecordTransaction stores one voucher transaction: credits moves here,
// and points moves (POINTS_* types) of loyalty cards from the loyalty area.
func RecordTransaction(ctx context.Context, c *ent.Client, v *ent.Voucher, typ vouchertransaction.Type, amount, balance int64,
	sourceID, reason *string, details map[string]any) (*ent.VoucherTransaction, error) {
	if details == nil {
		details = map[string]any{}
	}
	tx, err := c.VoucherTransaction.Create().SetVoucherID(v.ID).SetNillableCampaignID(v.CampaignID).SetType(typ).
		SetAmount(amount).SetBalance(balance).SetNillableSourceID(sourceID).SetNillableReason(reason).
		SetDetails(details).SetSource(viewer.TransactionSourceOf(ctx)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("recording transaction: %w", err)
	}
	if v.Type == jsonfield.VoucherTypeLoyaltyCard {
		// Spent, refunded or issued points move the card's buckets too.
		if err := points.VoucherMoved(ctx, c, v, typ, amount, nil, clock.At(ctx)); err != nil {
			return nil, err
		}
	}
	return tx, nil
}

// VoucherTransactions lists a voucher's transactions as a Relay connection.
func VoucherTransactions(ctx context.Context, v *ent.Voucher, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.VoucherTransactionOrder, where *ent.VoucherTransactionWhereInput) (*ent.VoucherTransactionConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(v.ID)).Paginate(ctx, after, first, before, last,
		ent.WithVoucherTransactionOrder(orderBy), ent.WithVoucherTransactionFilter(where.Filter))
}
