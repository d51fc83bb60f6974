package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
)

// exportTx is one row of a transactions export, whatever it was read
// from: a voucher's transactions (gift credits) or a loyalty card's
// (points).
type exportTx struct {
	ID, Type         string
	SourceID, Reason *string
	Balance, Amount  int64
	CreatedAt        time.Time
	OwnerID          string // the voucher's or card's ID (the voucher_id column)
	CampaignID       *string
	Details          map[string]any
	RelatedID        *string
	Source           string
}

// exportRow is a row of the keyset-paged export.
type exportRow interface {
	field(f string) string
	position() (time.Time, string)
}

type voucherTxRow struct{ *ent.VoucherTransaction }

func (r voucherTxRow) field(f string) string         { return transactionField(r.VoucherTransaction, f) }
func (r voucherTxRow) position() (time.Time, string) { return r.CreatedAt, r.ID }

type cardTxRow struct {
	*ent.CardTransaction
	programID string
}

func (r cardTxRow) field(f string) string {
	return exportCell(f, exportTx{
		ID: r.ID, Type: string(r.Type), SourceID: r.SourceID, Reason: r.Reason, Balance: r.Balance,
		Amount: r.Amount, CreatedAt: r.CreatedAt, OwnerID: r.CardID, CampaignID: &r.programID,
		Details: map[string]any{}, Source: "API",
	})
}
func (r cardTxRow) position() (time.Time, string) { return r.CreatedAt, r.ID }

// pageFunc reads the next page of an export (after the given position
// when more is true).
type pageFunc func(ctx context.Context, more bool, at time.Time, id string, limit int) ([]exportRow, error)

func voucherTransactionPage(c *ent.Client, voucherID string, dir entsql.OrderTermOption, after func(time.Time, string) func(*entsql.Selector)) pageFunc {
	return func(ctx context.Context, more bool, at time.Time, id string, limit int) ([]exportRow, error) {
		q := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(voucherID)).
			Order(vouchertransaction.ByCreatedAt(dir), vouchertransaction.ByID(dir)).Limit(limit)
		if more {
			q.Where(after(at, id))
		}
		batch, err := q.All(ctx)
		rows := make([]exportRow, len(batch))
		for i, t := range batch {
			rows[i] = voucherTxRow{t}
		}
		return rows, err
	}
}

func cardTransactionPage(c *ent.Client, cardID string, dir entsql.OrderTermOption, after func(time.Time, string) func(*entsql.Selector)) pageFunc {
	var programID string
	return func(ctx context.Context, more bool, at time.Time, id string, limit int) ([]exportRow, error) {
		if programID == "" {
			crd, err := c.Card.Get(ctx, cardID)
			if err != nil {
				return nil, fmt.Errorf("reading card: %w", err)
			}
			programID = crd.ProgramID
		}
		q := c.CardTransaction.Query().Where(cardtransaction.CardID(cardID)).
			Order(cardtransaction.ByCreatedAt(dir), cardtransaction.ByID(dir)).Limit(limit)
		if more {
			q.Where(after(at, id))
		}
		batch, err := q.All(ctx)
		rows := make([]exportRow, len(batch))
		for i, t := range batch {
			rows[i] = cardTxRow{t, programID}
		}
		return rows, err
	}
}

// exportSubject resolves the path of an export: a voucher by code or ID,
// else a loyalty card by code or ID (its points transactions). It returns
// the owner's ID and the code the response's filter names.
func exportSubject(ctx context.Context, codeOrID string) (id, code string, err error) {
	v, err := voucherByCodeOrID(ctx, codeOrID)
	if err == nil {
		return v.ID, v.Code, nil
	}
	if e, ok := apperr.As(err); !ok || e.Code != 404 {
		return "", "", err
	}
	c, cerr := client(ctx)
	if cerr != nil {
		return "", "", cerr
	}
	crd, cerr := c.Card.Query().Where(card.Or(card.Code(codeOrID), card.ID(codeOrID))).First(ctx)
	if ent.IsNotFound(cerr) {
		return "", "", err // the voucher's 404
	}
	if cerr != nil {
		return "", "", fmt.Errorf("looking up card: %w", cerr)
	}
	code = crd.ID
	if crd.Code != nil {
		code = *crd.Code
	}
	return crd.ID, code, nil
}

// transactionField is one CSV cell: nulls are empty, times in the API's
// format, details as JSON.
func transactionField(t *ent.VoucherTransaction, f string) string {
	return exportCell(f, exportTx{
		ID: t.ID, Type: string(t.Type), SourceID: t.SourceID, Reason: t.Reason, Balance: t.Balance,
		Amount: t.Amount, CreatedAt: t.CreatedAt, OwnerID: t.VoucherID, CampaignID: t.CampaignID,
		Details: t.Details, RelatedID: t.RelatedTransactionID, Source: t.Source,
	})
}

// exportCell renders field f of a transaction row.
func exportCell(f string, t exportTx) string {
	opt := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	switch f {
	case "id":
		return t.ID
	case "type":
		return string(t.Type)
	case "source_id":
		return opt(t.SourceID)
	case "reason":
		return opt(t.Reason)
	case "balance":
		return strconv.FormatInt(t.Balance, 10)
	case "amount":
		return strconv.FormatInt(t.Amount, 10)
	case "created_at":
		return formatTime(t.CreatedAt)
	case "voucher_id":
		return t.OwnerID
	case "campaign_id":
		return opt(t.CampaignID)
	case "details":
		b, _ := json.Marshal(t.Details)
		return string(b)
	case "related_transaction_id":
		return opt(t.RelatedID)
	case "source":
		return t.Source
	}
	return ""
}
