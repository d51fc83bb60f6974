package campaign

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// The CSV form of the import into a campaign (REST POST
// /v1/campaigns/{campaignId}/importCSV). The request streams the file into
// the database (graph/job/upload.go) while counting its rows, in the
// transaction that creates the job; the job streams it back, a batch at a
// time, and skips the rows of committed batches when it resumes. Neither
// holds more than a chunk of the file and a batch of rows, whatever its
// size. Columns (names as the reference writes them; case, spaces and
// underscores do not matter): Code (required), Category, Active,
// Additional Info, Redemption Limit, Redeemed Quantity, Gift Amount,
// Redeemed Amount, Loyalty Points, and the columns of a voucher export
// (import_export_columns.go); every other column is a metadata key (its
// values text).

// MaxImportRows bounds the rows of one CSV import.
const MaxImportRows = 2_000_000

// csvImportColumns maps the normalized names of the standard columns.
var csvImportColumns = map[string]bool{"code": true, "category": true, "active": true, "additional info": true,
	"redemption limit": true, "redeemed quantity": true, "gift amount": true, "redeemed amount": true, "loyalty points": true}

// normalizeColumn is a header's name compared with the standard ones.
func normalizeColumn(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(name, "_", " "))), " ")
}

// ImportToCampaignCSV schedules a CAMPAIGN.VOUCHERS_IMPORT_CSV of the CSV
// file read from file into the campaign (by id or name). It must run in a
// transaction: the file, its row count and the job commit together. A file
// without a Code column, without rows or with more than MaxImportRows is
// refused; bad rows are reported by the job.
func ImportToCampaignCSV(ctx context.Context, campaignIDOrName string, file io.Reader) (*ent.AsyncAction, error) {
	cmp, err := ByIDOrName(ctx, campaignIDOrName)
	if err != nil {
		return nil, err
	}
	job, err := scheduleCampaignImport(ctx, JobCampaignVouchersImportCSV, cmp, campaignImportParams{CampaignID: cmp.ID}, 0)
	if err != nil {
		return nil, err
	}
	return jobrun.StoreCSV(ctx, job, file, importHeader, MaxImportRows)
}

// importCSVReader reads an import's CSV (jobrun.CSVReader).
func importCSVReader(r io.Reader) *csv.Reader { return jobrun.CSVReader(r) }

// importHeader reads the header row: column names, normalized for the
// standard columns, kept as written for metadata keys.
func importHeader(r *csv.Reader) ([]string, error) {
	return jobrun.CSVColumns(r, importColumns(csvImportColumns), "code")
}

// RunCampaignImportCSV imports a CAMPAIGN.VOUCHERS_IMPORT_CSV job's file,
// one committed batch at a time, after the rows of the batches committed
// before (a resumed job reads the file again from its start).
func RunCampaignImportCSV(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	p, err := importParams(job)
	if err != nil {
		return err
	}
	return jobrun.StreamCSV(ctx, job, importHeader, importBatchSize(w),
		func(ctx context.Context, header []string, batch []jobrun.CSVRow) (int, error) {
			rows := make([]importRow, len(batch))
			for i, r := range batch {
				rows[i] = csvImportRow(header, r.Fields, r.Line)
				if r.Problem != "" {
					rows[i].Problem = r.Problem
				}
			}
			return commitImportBatch(ctx, w, job, p.CampaignID, rows)
		})
}

// csvImportRow reads one CSV row into an import row (Problem says why a
// row cannot be imported).
func csvImportRow(header, rec []string, line int) importRow {
	row := importRow{Line: line}
	if len(rec) != len(header) {
		row.Problem = fmt.Sprintf("The row has %d fields; the header has %d", len(rec), len(header))
	}
	var err error
	for i, col := range header {
		if i >= len(rec) {
			break
		}
		v := strings.TrimSpace(rec[i])
		switch {
		case col == "code":
			row.Code = &v
		case v == "":
		case col == "category":
			row.Category = &v
		case col == "additional info":
			row.AdditionalInfo = &v
		case col == "active":
			b, perr := strconv.ParseBool(v)
			if perr != nil {
				err = fmt.Errorf("Active must be true or false, got %q", v)
			}
			row.Active = &b
		case col == "redemption limit":
			q, perr := strconv.Atoi(v)
			if perr != nil {
				err = fmt.Errorf("Redemption Limit must be an integer, got %q", v)
			}
			row.Redemption = &jsonfield.Redemption{Quantity: &q}
		case col == "redeemed quantity":
			q, perr := strconv.Atoi(v)
			if perr != nil {
				err = fmt.Errorf("Redeemed Quantity must be an integer, got %q", v)
			}
			row.RedeemedQuantity = &q
		case col == "gift amount" || col == "redeemed amount":
			n, perr := strconv.ParseInt(v, 10, 64)
			if perr != nil {
				err = fmt.Errorf("%s must be an integer (cents), got %q", col, v)
			}
			if row.Gift == nil {
				row.Gift = &CampaignImportGift{}
			}
			if col == "gift amount" {
				row.Gift.Amount = &n
			} else {
				row.Gift.RedeemedAmount = &n
			}
		case col == "loyalty points":
			n, perr := strconv.ParseInt(v, 10, 64)
			if perr != nil {
				err = fmt.Errorf("Loyalty Points must be an integer, got %q", v)
			}
			row.LoyaltyCard = &CampaignImportPoints{Points: &n}
		case isMarkerColumn(col) && col != jobrun.MetadataJSONColumn:
			// an export's column: balances below, the rest ignored
		default:
			var merr error
			if row.Metadata, merr = jobrun.AddMetadataColumn(row.Metadata, col, v); merr != nil {
				err = merr
			}
		}
	}
	if berr := row.setExportBalances(header, rec); berr != nil && err == nil {
		err = berr
	}
	switch {
	case row.Problem != "":
	case err != nil:
		row.Problem = err.Error()
	case row.Code == nil || *row.Code == "":
		row.Problem = "The code is empty"
	}
	return row
}

// setExportBalances fills a gift card's amount and spent amount from an
// export's value and gift_balance, and a loyalty card's points from its
// loyalty_balance, where the row's own columns did not.
func (row *importRow) setExportBalances(header, rec []string) error {
	b, err := readExportBalances(header, rec)
	if err != nil {
		return err
	}
	if b.gift != nil && row.Gift == nil {
		if b.value == nil || *b.value < *b.gift {
			return fmt.Errorf("gift_balance needs a value (the gift card's amount) at least as large, got %d", *b.gift)
		}
		spent := *b.value - *b.gift
		row.Gift = &CampaignImportGift{Amount: b.value, RedeemedAmount: &spent}
	}
	if b.loyalty != nil && row.LoyaltyCard == nil {
		row.LoyaltyCard = &CampaignImportPoints{Points: b.loyalty}
	}
	return nil
}
