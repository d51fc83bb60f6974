package campaign

import (
	"fmt"
	"strconv"
	"strings"

	jobrun "github.com/promoengine/promoengine/graph/job"
)

// The CSV imports also read the columns of a voucher export — the
// documented export fields (exports.json, ExportVoucherFields), written as
// field names (`redemption_quantity`) or as titles (`Redemption Quantity`)
// — so a file exported from the real service or from GET /v1/exports here
// imports unchanged (docs/migrating.md):
//
//   - `redemption_quantity` is the Redemption Limit, `redemption_count` the
//     Redeemed Quantity;
//   - `gift_balance` with `value` gives a gift card's amount and spent amount
//     (value − balance), `loyalty_balance` a loyalty card's points;
//   - `metadata` is the voucher's metadata as one JSON object, and
//     `metadata.<key>` one key of it;
//   - the columns the importing service assigns or derives (ids, dates of
//     creation and update, the campaign, QR and bar codes, the holder, the
//     assigned rules, the discount's details) are read and ignored, not
//     stored as metadata keys; so are, in an import into a campaign, the
//     type, discount and dates, which its codes take from the campaign.

// Markers of header columns that are not a standard column or a metadata
// key (a header's names never start with NUL).
const (
	ignoredColumn     = "\x00ignored "
	giftBalanceColumn = "\x00gift balance"
	loyaltyBalanceCol = "\x00loyalty balance"
	exportValueColumn = "\x00value"
)

// exportColumnAliases maps export columns (normalized) to the import column
// that takes the same value.
var exportColumnAliases = map[string]string{"redemption quantity": "redemption limit",
	"redemption count": "redeemed quantity"}

// exportOnlyColumns are export columns no import takes.
var exportOnlyColumns = map[string]bool{"id": true, "object": true, "campaign": true, "campaign id": true,
	"created at": true, "updated at": true, "qr code": true, "bar code": true, "is referral code": true,
	"customer id": true, "customer source id": true, "holder id": true, "validation rules id": true,
	"formula": true, "discount amount limit": true, "discount effect": true, "discount unit type": true,
	"discount unit effect": true, "validity timeframe interval": true, "validity timeframe duration": true,
	"validity day of week": true,
	// A campaign's codes take these from the campaign (the standalone
	// import reads them as its own standard columns first).
	"voucher type": true, "discount type": true, "start date": true, "expiration date": true}

// importColumns names a header's column for an import whose standard
// columns are standard: a standard column (or an export column that is one)
// by its normalized name, an export column by its marker, `metadata.<key>`
// by its key, anything else as written (a metadata key).
func importColumns(standard map[string]bool) func(string) string {
	return func(col string) string {
		n := normalizeColumn(col)
		if a, ok := exportColumnAliases[n]; ok && standard[a] {
			return a
		}
		switch {
		case standard[n]:
			return n
		case n == "metadata":
			return jobrun.MetadataJSONColumn
		case n == "gift balance":
			return giftBalanceColumn
		case n == "loyalty balance":
			return loyaltyBalanceCol
		case n == "value":
			return exportValueColumn
		case exportOnlyColumns[n]:
			return ignoredColumn + n
		}
		if key, ok := strings.CutPrefix(col, "metadata."); ok && key != "" {
			return key
		}
		return col
	}
}

// isMarkerColumn reports whether col is one of the markers above (not a
// metadata key).
func isMarkerColumn(col string) bool { return strings.HasPrefix(col, "\x00") }

// exportBalances reads a row's export balances: value (a gift card's amount
// or a loyalty card's points), gift_balance and loyalty_balance, each nil
// when the row leaves it empty.
type exportBalances struct {
	value, gift, loyalty *int64
}

// readExportBalances reads the export balance columns of rec.
func readExportBalances(header, rec []string) (exportBalances, error) {
	var b exportBalances
	for i, col := range header {
		if i >= len(rec) {
			break
		}
		v := strings.TrimSpace(rec[i])
		var dst **int64
		switch col {
		case exportValueColumn:
			dst = &b.value
		case giftBalanceColumn:
			dst = &b.gift
		case loyaltyBalanceCol:
			dst = &b.loyalty
		default:
			continue
		}
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return b, fmt.Errorf("%s must be a non-negative integer, got %q", strings.TrimPrefix(col, "\x00"), v)
		}
		*dst = &n
	}
	return b, nil
}
