package graph

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
)

// JobExportVoucherTransactions is the async action type of a voucher
// transactions export.
const JobExportVoucherTransactions = "EXPORT.VOUCHER_TRANSACTIONS"

// TransactionExportFields are the columns a voucher transactions export
// may have, in their default order.
var TransactionExportFields = []string{"id", "type", "source_id", "reason", "balance", "amount", "created_at",
	"voucher_id", "campaign_id", "details", "related_transaction_id", "source"}

// DefaultExportOrder is a transactions export's order when the request
// names none: newest first.
const DefaultExportOrder = "-created_at"

// ExportParametersInput are the parameters of an export request.
type ExportParametersInput struct {
	Order  *string  `json:"order"`
	Fields []string `json:"fields"`
}

// DownloadLinkLifetime is how long an export's download link works.
const DownloadLinkLifetime = time.Hour

// ExportDir is where export files are written: PROMO_EXPORT_DIR, else
// promoengine-exports in the system's temporary directory. Several server
// processes must share it (a shared volume).
func ExportDir() string {
	if d := os.Getenv("PROMO_EXPORT_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "promoengine-exports")
}

// exportVoucherTransactions schedules a CSV export of a voucher's
// transactions: an export row and its job, in the request's transaction.
func exportVoucherTransactions(ctx context.Context, codeOrID string, in *ExportParametersInput) (*ent.Export, error) {
	if in == nil {
		in = &ExportParametersInput{}
	}
	// The stored parameters always name the order and fields the export
	// uses, defaults included, so the response shows what the file holds.
	params := map[string]any{"order": DefaultExportOrder, "fields": slices.Clone(TransactionExportFields)}
	if in.Order != nil {
		switch *in.Order {
		case "created_at", "-created_at":
		default:
			return nil, apperr.InvalidPayload("Property .parameters.order must be created_at or -created_at, got %q", *in.Order)
		}
		params["order"] = *in.Order
	}
	if in.Fields != nil {
		if len(in.Fields) == 0 {
			return nil, apperr.InvalidPayload("Property .parameters.fields must not be empty")
		}
		seen := map[string]bool{}
		for i, f := range in.Fields {
			if !slices.Contains(TransactionExportFields, f) {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] must be one of %s, got %q", i,
					strings.Join(TransactionExportFields, ", "), f)
			}
			if seen[f] {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] repeats %q", i, f)
			}
			seen[f] = true
		}
		params["fields"] = in.Fields
	}
	subjectID, code, err := exportSubject(ctx, codeOrID)
	if err != nil {
		return nil, err
	}
	params["filters"] = map[string]any{"voucher_id": map[string]any{"conditions": map[string]any{"$in": []string{code}}}}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	exp, err := c.Export.Create().SetExportedObject("voucher_transactions").SetParameters(params).
		SetVoucherID(subjectID).SetDownloadSecret(pulid.Hex(32)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating export: %w", err)
	}
	err = c.AsyncAction.Create().SetType(JobExportVoucherTransactions).SetExportID(exp.ID).
		SetParams(&jsonfield.GenerationParams{}).SetTotal(0).SetNillableRequestID(requestIDPtr(ctx)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling export: %w", err)
	}
	return exp, nil
}

// exportByID finds one of the caller's exports.
func exportByID(ctx context.Context, id string) (*ent.Export, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	exp, err := c.Export.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("export", id)
	}
	return exp, err
}

// ExportDownloadPath is the path (with its signed, expiring token) that
// downloads a finished export without application keys; "" until DONE.
func ExportDownloadPath(exp *ent.Export, now time.Time) string {
	if exp.Status != export.StatusDONE {
		return ""
	}
	expires := strconv.FormatInt(now.Add(DownloadLinkLifetime).Unix(), 10)
	return "/v1/exports/" + url.PathEscape(exp.ID) + "/download?token=" + expires + "." + downloadSig(exp, expires)
}

func downloadSig(exp *ent.Export, expires string) string {
	m := hmac.New(sha256.New, []byte(exp.DownloadSecret))
	m.Write([]byte(exp.ID + "." + expires))
	return hex.EncodeToString(m.Sum(nil))
}

func exportDownloadPath(_ context.Context, exp *ent.Export) (*string, error) {
	p := ExportDownloadPath(exp, time.Now())
	if p == "" {
		return nil, nil
	}
	return &p, nil
}

// OpenExportFile opens a finished export's CSV for a download link; it
// reads across projects (the link is the credential), so an unknown export
// or a wrong or expired token are all one 404.
func OpenExportFile(ctx context.Context, c *ent.Client, dir, id, token string, now time.Time) (*os.File, *ent.Export, error) {
	notFound := apperr.NotFound("export", id)
	exp, err := c.Export.Get(viewer.NewSystemContext(ctx), id)
	if ent.IsNotFound(err) {
		return nil, nil, notFound
	}
	if err != nil {
		return nil, nil, err
	}
	expires, sig, ok := strings.Cut(token, ".")
	unix, perr := strconv.ParseInt(expires, 10, 64)
	if !ok || perr != nil || !hmac.Equal([]byte(sig), []byte(downloadSig(exp, expires))) ||
		now.Unix() > unix || exp.Status != export.StatusDONE || exp.File == nil {
		return nil, nil, notFound
	}
	f, err := os.Open(filepath.Join(dir, *exp.File))
	if err != nil {
		return nil, nil, fmt.Errorf("opening export file: %w", err)
	}
	return f, exp, nil
}

// maxExportBatch bounds the transactions read per query (the worker's
// BatchSize, if smaller, applies).
const maxExportBatch = 2000

// runExport writes an export's CSV: transactions are read in keyset pages
// of (created_at, id) and streamed to a temporary file, which is renamed
// into place when complete; the last step marks the export DONE. A job
// that is interrupted starts its file again.
func (w *Worker) runExport(ctx context.Context, job *ent.AsyncAction) error {
	if job.ExportID == nil {
		return fmt.Errorf("job %s names no export", job.ID)
	}
	c := w.Client
	exp, err := c.Export.Get(ctx, *job.ExportID)
	if err != nil {
		return fmt.Errorf("reading export: %w", err)
	}
	if _, err := w.commitBatch(ctx, job, func(ctx context.Context) (int, error) {
		return 0, ent.FromContext(ctx).Export.UpdateOne(exp).SetStatus(export.StatusIN_PROGRESS).Exec(ctx)
	}); err != nil {
		return err
	}
	dir := w.ExportDir
	if dir == "" {
		dir = ExportDir()
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("export directory: %w", err)
	}
	fields := TransactionExportFields
	if fs, ok := exp.Parameters["fields"].([]any); ok {
		fields = nil
		for _, f := range fs {
			fields = append(fields, fmt.Sprint(f))
		}
	}
	desc := exp.Parameters["order"] != "created_at"
	name := exp.ID + ".csv"
	tmp, err := os.CreateTemp(dir, exp.ID+"-*.part")
	if err != nil {
		return fmt.Errorf("creating export file: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	buf := bufio.NewWriterSize(tmp, 1<<16)
	cw := csv.NewWriter(buf)
	rows, err := writeTransactions(ctx, c, cw, exp, fields, desc, min(w.BatchSize, maxExportBatch), func() error {
		// Renew the lease now and then on long exports.
		_, err := w.commitBatch(ctx, job, func(context.Context) (int, error) { return 0, nil })
		return err
	})
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	if err == nil {
		err = buf.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	_, err = w.commitBatch(ctx, job, func(ctx context.Context) (int, error) {
		if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
			return 0, fmt.Errorf("storing export file: %w", err)
		}
		return rows, ent.FromContext(ctx).Export.UpdateOne(exp).SetStatus(export.StatusDONE).SetFile(name).SetRows(rows).Exec(ctx)
	})
	return err
}

// writeTransactions streams the export's voucher transactions as CSV rows
// (header first) and returns the number of data rows.
func writeTransactions(ctx context.Context, c *ent.Client, cw *csv.Writer, exp *ent.Export, fields []string, desc bool, batchSize int, renew func() error) (int, error) {
	if err := cw.Write(fields); err != nil {
		return 0, err
	}
	dir := entsql.OrderAsc()
	if desc {
		dir = entsql.OrderDesc()
	}
	// after bounds the next page by a row comparison on (created_at, id),
	// so the (owner, created_at, id) index bounds the scan (an OR of the
	// two cases would not).
	after := func(at time.Time, id string) func(*entsql.Selector) {
		return func(s *entsql.Selector) {
			cols := []string{s.C("created_at"), s.C("id")}
			if desc {
				s.Where(entsql.CompositeLT(cols, at, id))
			} else {
				s.Where(entsql.CompositeGT(cols, at, id))
			}
		}
	}
	page := voucherTransactionPage(c, *exp.VoucherID, dir, after)
	if strings.HasPrefix(*exp.VoucherID, pulid.PrefixCard) {
		page = cardTransactionPage(c, *exp.VoucherID, dir, after)
	}
	var lastAt time.Time
	var lastID string
	rows := 0
	lastRenew := time.Now()
	record := make([]string, len(fields))
	for {
		batch, err := page(ctx, rows > 0, lastAt, lastID, batchSize)
		if err != nil {
			return rows, fmt.Errorf("reading transactions: %w", err)
		}
		for _, t := range batch {
			for i, f := range fields {
				record[i] = t.field(f)
			}
			if err := cw.Write(record); err != nil {
				return rows, err
			}
		}
		rows += len(batch)
		if len(batch) < batchSize {
			return rows, nil
		}
		lastAt, lastID = batch[len(batch)-1].position()
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		if time.Since(lastRenew) > 5*time.Second {
			if err := renew(); err != nil {
				return rows, err
			}
			lastRenew = time.Now()
		}
	}
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

// failExport marks the export of a failed job as ERROR.
func failExport(ctx context.Context, c *ent.Client, job *ent.AsyncAction, failure error) error {
	if job.ExportID == nil {
		return nil
	}
	return c.Export.Update().Where(export.ID(*job.ExportID)).SetStatus(export.StatusERROR).
		SetFailureReason(failure.Error()).Exec(ctx)
}
