package campaign

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Standalone vouchers from a CSV file (REST POST /v1/vouchers/importCSV,
// GraphQL importVouchersCSV; docs/imports.md): the file is streamed into
// the job (graph/job/bulk_csv.go) and each row goes through the voucher
// use cases a single request uses — a new code through
// CreateStandaloneVoucher, a code that exists through UpdateVoucher (the
// reference: "upload the same codes to update them") — so it meets the
// same checks. A bad row is reported by its row number; the others are
// written.

// JobVouchersImportCSV is the async action type of a voucher CSV import.
const JobVouchersImportCSV = "VOUCHERS.IMPORT_CSV"

// MaxVoucherImportRows bounds the rows of one voucher CSV (the reference
// imports up to 100,000 codes at a time).
const MaxVoucherImportRows = 100_000

// voucherCSVColumns are the standard columns (normalized names); any
// other column is a metadata key (its values text).
var voucherCSVColumns = map[string]bool{"code": true, "voucher type": true, "value": true, "discount type": true,
	"category": true, "start date": true, "expiration date": true, "redemption limit": true,
	"redeemed quantity": true, "redeemed amount": true, "active": true, "additional info": true}

// ImportVouchersCSV schedules a VOUCHERS.IMPORT_CSV of the CSV file. It
// must run in a transaction (the file, its row count and the job commit
// together). A file without a Code column, without rows or over
// MaxVoucherImportRows is refused; bad rows are reported by the job.
func ImportVouchersCSV(ctx context.Context, file io.Reader) (*ent.AsyncAction, error) {
	job, err := scheduleBulk(ctx, JobVouchersImportCSV, struct{}{}, 0)
	if err != nil {
		return nil, err
	}
	return jobrun.StoreCSV(ctx, job, file, voucherCSVHeader, MaxVoucherImportRows)
}

// voucherCSVHeader reads the header: standard columns normalized (case,
// spaces and underscores do not matter), metadata keys as written.
func voucherCSVHeader(r *csv.Reader) ([]string, error) {
	return jobrun.CSVColumns(r, importColumns(voucherCSVColumns), "code")
}

// RunImportVouchersCSV imports the job's file a batch per transaction.
func RunImportVouchersCSV(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	return jobrun.RunCSVRows(ctx, w, job, voucherCSVHeader, "failed", importVoucherRow)
}

// importVoucherRow creates or updates one row's voucher.
func importVoucherRow(ctx context.Context, header []string, r jobrun.CSVRow) (jobrun.RowOutcome, error) {
	code := ""
	for i, col := range header {
		if col == "code" && i < len(r.Fields) {
			code = strings.TrimSpace(r.Fields[i])
		}
	}
	entry := func(reason string) map[string]any {
		return map[string]any{"code": code, "row": r.Row, "reason": reason}
	}
	if bad := jobrun.ReportCSVRow(header, r, entry); bad != nil {
		return *bad, nil
	}
	in, redeemed, err := voucherCSVRow(header, r.Fields)
	if err == nil && code == "" {
		err = fmt.Errorf("The code is empty")
	}
	if err != nil {
		return jobrun.Failure(entry(err.Error())), nil
	}
	existing, err := VoucherByCodeOrID(ctx, code)
	switch {
	case err == nil:
		_, err = UpdateVoucher(ctx, existing.ID, UpdateVoucherInput{Category: in.Category, StartDate: in.StartDate,
			ExpirationDate: in.ExpirationDate, Active: in.Active, AdditionalInfo: in.AdditionalInfo,
			Metadata: mergedMetadata(existing.Metadata, in.Metadata), Redemption: redemptionLimit(in.Redemption)})
	case isNotFound(err):
		var imported *jsonfield.Gift // creation resets a gift's balance: what was spent is set after
		if in.Gift != nil && in.Gift.SubtractedAmount > 0 {
			g := *in.Gift
			imported = &g
		}
		var v *ent.Voucher
		if v, err = CreateStandaloneVoucher(ctx, in); err == nil && (redeemed > 0 || imported != nil) {
			err = setImportedUsage(ctx, v, redeemed, imported)
		}
	}
	return jobrun.RowFailure(err, func(e *apperr.Error) map[string]any { return entry(firstNonEmpty(e.Details, e.Message)) })
}

// voucherCSVRow reads a row into a voucher input and its redeemed quantity.
func voucherCSVRow(header, rec []string) (in CreateVoucherInput, redeemed int, err error) {
	var value *float64
	var discountType string
	for i, col := range header {
		v := strings.TrimSpace(rec[i])
		if v == "" {
			continue
		}
		switch col {
		case "code":
			in.Code = &v
		case "voucher type":
			t := jsonfield.VoucherType(strings.ToUpper(v))
			in.Type = &t
		case "value":
			f, perr := strconv.ParseFloat(v, 64)
			if perr != nil {
				return in, 0, fmt.Errorf("Value must be a number, got %q", v)
			}
			value = &f
		case "discount type":
			discountType = strings.ToUpper(v)
		case "category":
			in.Category = &v
		case "additional info":
			in.AdditionalInfo = &v
		case "start date", "expiration date":
			t, perr := parseImportDate(v)
			if perr != nil {
				return in, 0, fmt.Errorf("%s must be an ISO 8601 date, got %q", col, v)
			}
			if col == "start date" {
				in.StartDate = &t
			} else {
				in.ExpirationDate = &t
			}
		case "active":
			b, perr := strconv.ParseBool(v)
			if perr != nil {
				return in, 0, fmt.Errorf("Active must be true or false, got %q", v)
			}
			in.Active = &b
		case "redemption limit":
			q, perr := strconv.Atoi(v)
			if perr != nil {
				return in, 0, fmt.Errorf("Redemption Limit must be an integer, got %q", v)
			}
			in.Redemption = &jsonfield.Redemption{Quantity: &q}
		case "redeemed quantity":
			if redeemed, err = strconv.Atoi(v); err != nil || redeemed < 0 {
				return in, 0, fmt.Errorf("Redeemed Quantity must be a non-negative integer, got %q", v)
			}
		case "redeemed amount":
			// A gift card's spent amount: kept in the balance below.
		default:
			if isMarkerColumn(col) && col != jobrun.MetadataJSONColumn {
				continue // an export's column: balances in voucherValue, the rest ignored
			}
			if in.Metadata, err = jobrun.AddMetadataColumn(in.Metadata, col, v); err != nil {
				return in, 0, err
			}
		}
	}
	if q := in.Redemption; q != nil && q.Quantity != nil && redeemed > *q.Quantity {
		return in, 0, fmt.Errorf("Redeemed Quantity must be at most the Redemption Limit, got %d", redeemed)
	}
	return in, redeemed, voucherValue(&in, value, discountType, header, rec)
}

// voucherValue sets the row's value by its voucher type: a discount of
// Discount Type (AMOUNT in cents, PERCENT, UNIT, FIXED in cents), a gift
// card's amount (cents, less its Redeemed Amount), a loyalty card's points.
func voucherValue(in *CreateVoucherInput, value *float64, discountType string, header, rec []string) error {
	typ := jsonfield.VoucherTypeDiscount
	if in.Type != nil {
		typ = *in.Type
	}
	spent := int64(0)
	for i, col := range header {
		if v := strings.TrimSpace(rec[i]); col == "redeemed amount" && v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return fmt.Errorf("Redeemed Amount must be a non-negative integer (cents), got %q", v)
			}
			spent = n
		}
	}
	balances, err := readExportBalances(header, rec)
	if err != nil {
		return err
	}
	if typ == jsonfield.VoucherTypeLoyaltyCard && balances.loyalty != nil {
		points := float64(*balances.loyalty) // an export's current balance wins over its value
		value = &points
	}
	if typ == jsonfield.VoucherTypeGift && balances.gift != nil && value != nil && !hasColumn(header, "redeemed amount") {
		if spent = int64(*value) - *balances.gift; spent < 0 {
			return fmt.Errorf("gift_balance must be at most the Value, got %d", *balances.gift)
		}
	}
	if value == nil {
		return nil
	}
	if *value < 0 || *value > maxImportedValue {
		return fmt.Errorf("Value must be 0 to %d, got %v", int64(maxImportedValue), *value)
	}
	switch typ {
	case jsonfield.VoucherTypeGift:
		if spent > int64(*value) {
			return fmt.Errorf("Redeemed Amount must be at most the Value, got %d", spent)
		}
		in.Gift = &jsonfield.Gift{Amount: int64(*value), SubtractedAmount: spent, Balance: int64(*value) - spent}
	case jsonfield.VoucherTypeLoyaltyCard:
		in.LoyaltyCard = &jsonfield.LoyaltyCard{Points: int64(*value), Balance: int64(*value)}
	default:
		d := &jsonfield.Discount{Type: jsonfield.DiscountType(discountType)}
		switch d.Type {
		case "", "AMOUNT":
			d.Type, d.AmountOff = "AMOUNT", value
		case "PERCENT":
			d.PercentOff = value
		case "UNIT":
			n := int64(*value)
			d.UnitOff = &n
		case "FIXED":
			d.FixedAmount = value
		default:
			return fmt.Errorf("Discount Type must be AMOUNT, PERCENT, UNIT or FIXED, got %q", discountType)
		}
		in.Discount = d
	}
	return nil
}

// importDateLayouts are the date forms the reference's CSV import reads.
var importDateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15", time.DateOnly}

// parseImportDate reads an ISO 8601 date in one of importDateLayouts (UTC
// when it names no zone).
func parseImportDate(v string) (time.Time, error) {
	for _, layout := range importDateLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date: %q", v)
}

// redemptionLimit is an update's form of a row's redemption limit.
func redemptionLimit(r *jsonfield.Redemption) *VoucherRedemptionLimitInput {
	if r == nil {
		return nil
	}
	return &VoucherRedemptionLimitInput{Quantity: r.Quantity}
}

// mergedMetadata is stored with the keys of update set (nil: no change).
func mergedMetadata(stored, update map[string]any) map[string]any {
	if update == nil {
		return nil
	}
	merged := make(map[string]any, len(stored)+len(update))
	for k, v := range stored {
		merged[k] = v
	}
	for k, v := range update {
		merged[k] = v
	}
	return merged
}

// setImportedUsage records what an imported code brought of its past: how
// often it was redeemed and, for a gift card, what was spent of it.
func setImportedUsage(ctx context.Context, v *ent.Voucher, redeemed int, gift *jsonfield.Gift) error {
	u := v.Update().SetRedeemedQuantity(redeemed)
	if gift != nil {
		u.SetGift(gift)
	}
	if err := u.Exec(ctx); err != nil {
		return fmt.Errorf("import: setting redeemed quantity and gift balance: %w", err)
	}
	return nil
}

// isNotFound reports whether err is the service's 404.
func isNotFound(err error) bool {
	e, ok := apperr.As(err)
	return ok && e.Key == "not_found"
}

// hasColumn reports whether header has the column col.
func hasColumn(header []string, col string) bool { return slices.Contains(header, col) }
