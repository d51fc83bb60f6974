package redemption

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// redeemedVouchers counts a redemption of each voucher row that is still
// the version read (xmin; see statement.go), setting its gift or loyalty
// card when given and adding the loyalty points it redeemed. The
// arguments: the time ($1) and the project ($2), then per voucher its ID,
// the version read, the new gift and card (NULL: unchanged) and the
// points. The vouchers of a stacked request are one UPDATE, their rows
// locked in the order given (voucher ID order, the transactional path's:
// the VALUES list drives the join); a single voucher keeps the plain form.
var redeemedVouchers = &entdb.RowsUpdate{Text: func(n int) string {
	const set = `UPDATE vouchers SET updated_at = $1, redeemed_quantity = vouchers.redeemed_quantity + 1, `
	if n == 1 {
		return set + `gift = COALESCE($5::jsonb, gift), loyalty_card = COALESCE($6::jsonb, loyalty_card), ` +
			`redeemed_points = redeemed_points + $7 WHERE id = $3 AND xmin = $4::xid AND project_id = $2`
	}
	var sb strings.Builder
	sb.WriteString(set + `gift = COALESCE(r.gift, vouchers.gift), loyalty_card = COALESCE(r.card, vouchers.loyalty_card), ` +
		`redeemed_points = vouchers.redeemed_points + r.points FROM (VALUES `)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		p := 3 + 5*i
		fmt.Fprintf(&sb, "($%d::text, $%d::xid, $%d::jsonb, $%d::jsonb, $%d::bigint)", p, p+1, p+2, p+3, p+4)
	}
	sb.WriteString(`) AS r (id, version, gift, card, points) ` +
		`WHERE vouchers.id = r.id AND vouchers.xmin = r.version AND vouchers.project_id = $2`)
	return sb.String()
}}

// batchRedeemedVoucher records the voucher update of a guarded redemption
// in b: gift and card are the voucher's new gift and loyalty card (nil:
// unchanged), points the loyalty points it redeemed.
func batchRedeemedVoucher(ctx context.Context, b *entdb.WriteBatch, v *ent.Voucher, version string, now time.Time,
	gift *jsonfield.Gift, card *jsonfield.LoyaltyCard, points int64) error {
	p, _ := viewer.FromContext(ctx)
	var giftArg, cardArg any
	if gift != nil {
		doc, err := json.Marshal(gift)
		if err != nil {
			return fmt.Errorf("encoding the gift: %w", err)
		}
		giftArg = string(doc)
	}
	if card != nil {
		doc, err := json.Marshal(card)
		if err != nil {
			return fmt.Errorf("encoding the loyalty card: %w", err)
		}
		cardArg = string(doc)
	}
	return b.UpdateRows(redeemedVouchers, []any{now, p.ProjectID}, v.ID, version, giftArg, cardArg, points)
}

// insertSQL is an INSERT of rows rows of columns into table.
func insertSQL(table string, columns []string, rows int) string {
	var sb strings.Builder
	sb.WriteString(`INSERT INTO "` + table + `" ("` + strings.Join(columns, `", "`) + `") VALUES `)
	n := 0
	for r := 0; r < rows; r++ {
		if r > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("(")
		for c := range columns {
			if c > 0 {
				sb.WriteString(", ")
			}
			n++
			sb.WriteString("$" + strconv.Itoa(n))
		}
		sb.WriteString(")")
	}
	return sb.String()
}

// columnSet is the set of a hand-written statement's columns.
type columnSet map[string]struct{}

// newColumnSet is the set of columns.
func newColumnSet(columns []string) columnSet {
	set := make(columnSet, len(columns))
	for _, c := range columns {
		set[c] = struct{}{}
	}
	return set
}

// onlyColumns refuses a mutation that sets a field outside columns.
func onlyColumns(set []string, columns columnSet) error {
	for _, f := range set {
		if _, ok := columns[f]; !ok {
			return fmt.Errorf("%w (%s)", errUnbatchedColumn, f)
		}
	}
	return nil
}

// jsonArg is a JSON column's argument: the document as encoded, nil for
// a value that is not set.
func jsonArg(v any) (any, error) {
	switch d := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if d == nil {
			return nil, nil
		}
		return []byte(d), nil
	case map[string]any:
		if d == nil {
			return nil, nil
		}
		if len(d) == 0 { // as json.Marshal encodes it (metadata mostly)
			return []byte("{}"), nil
		}
	case []map[string]any:
		if d == nil {
			return nil, nil
		}
	}
	return json.Marshal(v)
}

// optional is a getter's value as a nullable column (nil when not set).
func optional[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}
