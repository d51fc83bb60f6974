package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Importing existing codes into a campaign (REST POST
// /v1/campaigns/{campaignId}/import and …/importCSV; the usual way codes
// move over from another service). Each code becomes a voucher made from
// the campaign's voucher settings (discount, dates, rules), with what the
// row brings of its own: category, active, metadata, additional info,
// redemption quantity, a gift card's amount and what was spent of it, a
// loyalty card's points. Rows go in through InsertVouchers, the one write
// path that keeps the campaign's voucher count; a row that cannot be
// imported (a code that exists, a bad value) is reported in the job's
// result and the others are imported.

// Async action types of the imports into a campaign.
const (
	JobCampaignVouchersImport    = "CAMPAIGN.VOUCHERS_IMPORT"
	JobCampaignVouchersImportCSV = "CAMPAIGN.VOUCHERS_IMPORT_CSV"
)

// maxImportedValue bounds an imported gift amount (cents) or points.
const maxImportedValue = 10_000_000_000_000

// CampaignImportItem is one code of POST /v1/campaigns/{campaignId}/import.
type CampaignImportItem struct {
	Code           *string               `json:"code"`
	Category       *string               `json:"category"`
	Active         *bool                 `json:"active"`
	AdditionalInfo *string               `json:"additional_info"`
	Metadata       map[string]any        `json:"metadata"`
	Redemption     *jsonfield.Redemption `json:"redemption"`
	Gift           *CampaignImportGift   `json:"gift"`
	LoyaltyCard    *CampaignImportPoints `json:"loyalty_card"`
	// RedeemedQuantity is how often the code was redeemed before (CSV
	// column Redeemed Quantity).
	RedeemedQuantity *int `json:"redeemed_quantity,omitempty"`
}

// CampaignImportGift is an imported gift card's value: its amount and how
// much of it was spent already (the balance is the difference).
type CampaignImportGift struct {
	Amount         *int64 `json:"amount"`
	RedeemedAmount *int64 `json:"redeemed_amount,omitempty"`
}

// CampaignImportPoints is an imported loyalty card's points.
type CampaignImportPoints struct {
	Points *int64 `json:"points"`
}

// campaignImportParams is what an import job keeps besides its rows: the
// campaign the codes go to.
type campaignImportParams struct {
	CampaignID string                `json:"campaign_id"`
	Items      []*CampaignImportItem `json:"items,omitempty"`
}

// ImportToCampaign schedules a CAMPAIGN.VOUCHERS_IMPORT of items into the
// campaign (by id or name). The list is checked at once (every item has a
// code); what each code meets in the database is reported per code.
func ImportToCampaign(ctx context.Context, campaignIDOrName string, items []*CampaignImportItem) (*ent.AsyncAction, error) {
	if err := checkBulkSize(len(items)); err != nil {
		return nil, err
	}
	for i, it := range items {
		if it == nil || it.Code == nil || strings.TrimSpace(*it.Code) == "" {
			return nil, apperr.InvalidPayload("Property [%d].code is required: imported vouchers bring their codes", i)
		}
	}
	cmp, err := ByIDOrName(ctx, campaignIDOrName)
	if err != nil {
		return nil, err
	}
	return scheduleCampaignImport(ctx, JobCampaignVouchersImport, cmp, campaignImportParams{CampaignID: cmp.ID, Items: items}, len(items))
}

// scheduleCampaignImport stores an import job for cmp with n rows.
func scheduleCampaignImport(ctx context.Context, typ string, cmp *ent.Campaign, params campaignImportParams, n int) (*ent.AsyncAction, error) {
	return jobrun.Schedule(ctx, typ, &cmp.ID, params, n)
}

// importParams decodes an import job's parameters.
func importParams(job *ent.AsyncAction) (campaignImportParams, error) {
	var p campaignImportParams
	if job.Params == nil || json.Unmarshal(job.Params.Items, &p) != nil || p.CampaignID == "" {
		return p, fmt.Errorf("job %s: unreadable import parameters", job.ID)
	}
	return p, nil
}

// RunCampaignImport imports a CAMPAIGN.VOUCHERS_IMPORT job's items, one
// committed batch (the worker's BatchSize rows) at a time from where the
// last one stopped.
func RunCampaignImport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	p, err := importParams(job)
	if err != nil {
		return err
	}
	if len(p.Items) != job.Total {
		return fmt.Errorf("job %s: %d items for a total of %d", job.ID, len(p.Items), job.Total)
	}
	rows := make([]importRow, len(p.Items))
	for i, it := range p.Items {
		rows[i] = importRow{Line: i, CampaignImportItem: *it}
	}
	for done := job.Done; done < job.Total; {
		end := min(done+importBatchSize(w), job.Total)
		n, err := commitImportBatch(ctx, w, job, p.CampaignID, rows[done:end])
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// importBatchSize is the rows per committed batch: the worker's batch size,
// times sqliteBatchFactor on SQLite (one writer: fewer, larger
// transactions write less, as in the generation).
func importBatchSize(w *jobrun.Worker) int {
	if w.Dialect == dialect.SQLite {
		return w.BatchSize * sqliteBatchFactor
	}
	return w.BatchSize
}

// importRow is one row of an import: its item and where it was (the index
// of a JSON item, the line of a CSV row), and, when the row could not be
// read, why.
type importRow struct {
	CampaignImportItem
	Line    int
	Problem string
}

// commitImportBatch imports rows in one committed batch and returns how
// many rows it consumed (all of them).
func commitImportBatch(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction, campaignID string, rows []importRow) (int, error) {
	return w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
		failed, err := importBatch(ctx, job, campaignID, rows)
		if err != nil {
			return 0, err
		}
		return len(rows), recordFailures(ctx, job, failed)
	})
}

// importBatch inserts the batch's good rows, grouped by what they store
// besides their code, and returns the failure entries of the others.
func importBatch(ctx context.Context, job *ent.AsyncAction, campaignID string, rows []importRow) ([]any, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cmp, err := c.Campaign.Get(ctx, campaignID)
	if err != nil {
		return nil, fmt.Errorf("import: reading campaign: %w", err)
	}
	base, _, err := VoucherTemplate(cmp, &AddVouchersInput{})
	if err != nil {
		return nil, fmt.Errorf("import: campaign voucher settings: %w", err)
	}
	var failed []any
	fail := func(r importRow, reason string) {
		failed = append(failed, map[string]any{"line": r.Line, "code": strOr(r.Code), "reason": reason})
	}
	codes := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Problem == "" && r.Code != nil {
			codes = append(codes, *r.Code)
		}
	}
	existing, err := c.Voucher.Query().Where(voucher.CodeIn(codes...)).Select(voucher.FieldCode).Strings(ctx)
	if err != nil {
		return nil, fmt.Errorf("import: looking up codes: %w", err)
	}
	taken := make(map[string]bool, len(existing)+len(rows))
	for _, code := range existing {
		taken[code] = true
	}
	binned, err := bin.ReservedAmong(ctx, bin.TypeVoucher, codes)
	if err != nil {
		return nil, fmt.Errorf("import: looking up binned codes: %w", err)
	}
	groups := map[string]*importGroup{}
	var order []string
	categories := map[string]*ent.Category{}
	for _, r := range rows {
		if r.Problem != "" {
			fail(r, r.Problem)
			continue
		}
		code := strings.TrimSpace(strOr(r.Code))
		if taken[code] {
			fail(r, "Duplicate code: a voucher with this code exists")
			continue
		}
		if binned[code] {
			fail(r, "Duplicate code: a voucher with this code is in the trash bin")
			continue
		}
		tmpl, err := r.template(ctx, base, categories)
		if err != nil {
			if e, ok := apperr.As(err); ok {
				fail(r, firstNonEmpty(e.Details, e.Message))
				continue
			}
			return nil, err
		}
		taken[code] = true
		key, err := json.Marshal(tmpl)
		if err != nil {
			return nil, fmt.Errorf("import: encoding row: %w", err)
		}
		g, ok := groups[string(key)]
		if !ok {
			g = &importGroup{tmpl: tmpl}
			groups[string(key)] = g
			order = append(order, string(key))
		}
		g.codes = append(g.codes, code)
	}
	for _, k := range order {
		g := groups[k]
		n, err := InsertVouchers(ctx, job.ProjectID, &campaignID, g.tmpl, g.codes)
		if err != nil {
			return nil, err
		}
		if n < len(g.codes) { // created meanwhile by another request
			failed = append(failed, map[string]any{"code": nil,
				"reason": fmt.Sprintf("%d code(s) of this batch were created concurrently by another request", len(g.codes)-n)})
		}
	}
	return failed, nil
}

// importGroup is the rows of a batch that store the same fields.
type importGroup struct {
	tmpl  *jsonfield.VoucherTemplate
	codes []string
}
