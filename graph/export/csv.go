package export

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promoengine/promoengine/graph/internal/clock"
)

// exportField is a column of a transactions export (see
// TransactionExportFields).
type exportField int

const (
	exportFieldUnknown exportField = iota // an empty cell
	exportFieldID
	exportFieldType
	exportFieldSourceID
	exportFieldReason
	exportFieldBalance
	exportFieldAmount
	exportFieldCreatedAt
	exportFieldVoucherID
	exportFieldCampaignID
	exportFieldDetails
	exportFieldRelatedID
	exportFieldSource
)

var exportFieldsByName = map[string]exportField{
	"id": exportFieldID, "type": exportFieldType, "source_id": exportFieldSourceID, "reason": exportFieldReason,
	"balance": exportFieldBalance, "amount": exportFieldAmount, "created_at": exportFieldCreatedAt,
	"voucher_id": exportFieldVoucherID, "campaign_id": exportFieldCampaignID, "details": exportFieldDetails,
	"related_transaction_id": exportFieldRelatedID, "source": exportFieldSource,
}

// exportFields resolves an export's field names.
func exportFields(names []string) []exportField {
	out := make([]exportField, len(names))
	for i, n := range names {
		out[i] = exportFieldsByName[n]
	}
	return out
}

// appendCSVHeader appends the CSV line of the field names.
func appendCSVHeader(b []byte, names []string) []byte {
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, n)
	}
	return append(b, '\n')
}

// appendExportLine appends t's CSV line: the cells of fields, nulls
// empty, times in the API's format, details as JSON. The cells are
// appended straight from the row's values, quoted as encoding/csv's
// Writer quotes them, so the bytes are the ones it would write.
func appendExportLine(b []byte, fields []exportField, t *exportTx) ([]byte, error) {
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		switch f {
		case exportFieldID:
			b = appendCSVField(b, t.ID)
		case exportFieldType:
			b = appendCSVField(b, t.Type)
		case exportFieldSourceID:
			b = appendCSVField(b, t.SourceID.String)
		case exportFieldReason:
			b = appendCSVField(b, t.Reason.String)
		case exportFieldBalance: // digits never need quotes
			b = strconv.AppendInt(b, t.Balance, 10)
		case exportFieldAmount:
			b = strconv.AppendInt(b, t.Amount, 10)
		case exportFieldCreatedAt:
			b = t.CreatedAt.UTC().AppendFormat(b, clock.Layout)
		case exportFieldVoucherID:
			b = appendCSVField(b, t.OwnerID)
		case exportFieldCampaignID:
			b = appendCSVField(b, t.CampaignID.String)
		case exportFieldDetails:
			d, err := detailsJSON(t.Details)
			if err != nil {
				return b, fmt.Errorf("transaction %s: %w", t.ID, err)
			}
			b = appendCSVField(b, d)
		case exportFieldRelatedID:
			b = appendCSVField(b, t.RelatedID.String)
		case exportFieldSource:
			b = appendCSVField(b, t.Source)
		}
	}
	return append(b, '\n'), nil
}

// detailsJSON is a details column as the API writes it: the stored JSON
// object decoded and encoded again (keys sorted, no spaces), which is what
// PostgreSQL's jsonb text and SQLite's text both become.
func detailsJSON(raw []byte) (string, error) {
	if string(raw) == "{}" {
		return "{}", nil
	}
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return "", fmt.Errorf("decoding details: %w", err)
		}
	}
	out, err := json.Marshal(m)
	return string(out), err
}

// appendCSVField appends one cell the way encoding/csv's Writer (comma
// separator, "\n" line ends) writes it: quoted when it holds a comma, a
// quote, a line break or starts with a space, or is `\.`; quotes doubled.
func appendCSVField(b []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '"')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '"')
}

func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '"', ',':
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
