package export

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/graph/apperr"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// JobExportPointsExpiration is the async action type of a program's
// points-expiration export.
const JobExportPointsExpiration = "EXPORT.POINTS_EXPIRATION"

// PointsExpirationFields are the columns of a points-expiration export,
// in their default order.
var PointsExpirationFields = []string{"id", "campaign_id", "voucher_id", "points", "status", "expires_at"}

// PointsExpiration schedules a CSV export of the expiry buckets of a
// program's cards, ACTIVE and EXPIRED (POST
// /v1/loyalties/{campaignId}/points-expiration/export), ordered by
// expires_at (default) or -expires_at. Buckets that never expire have no
// expiration to export and are left out.
func PointsExpiration(ctx context.Context, campaignID string, in *ExportParametersInput) (*ent.Export, error) {
	return pointsExpiration(ctx, campaignID, in, nil)
}

// pointsExpiration is PointsExpiration with the voucher_id filter of a
// generic export (nil: every card's buckets).
func pointsExpiration(ctx context.Context, campaignID string, in *ExportParametersInput, voucherID any) (*ent.Export, error) {
	if in == nil {
		in = &ExportParametersInput{}
	}
	params := map[string]any{}
	if in.Order != nil {
		if *in.Order != "expires_at" && *in.Order != "-expires_at" {
			return nil, apperr.InvalidPayload("Property .parameters.order must be expires_at or -expires_at, got %q", *in.Order)
		}
		params["order"] = *in.Order
	}
	if in.Fields != nil {
		if len(in.Fields) == 0 {
			return nil, apperr.InvalidPayload("Property .parameters.fields must not be empty")
		}
		for i, f := range in.Fields {
			if !slices.Contains(PointsExpirationFields, f) || slices.Index(in.Fields, f) != i {
				return nil, apperr.InvalidPayload("Property .parameters.fields[%d] must be one of %s, once, got %q", i,
					strings.Join(PointsExpirationFields, ", "), f)
			}
		}
		params["fields"] = in.Fields
	}
	filters := map[string]any{"campaign_id": map[string]any{"conditions": map[string]any{"$in": []string{campaignID}}}}
	if voucherID != nil {
		filters["voucher_id"] = voucherID
	}
	params["filters"] = filters
	return schedule(ctx, "points_expiration", &campaignID, params, JobExportPointsExpiration)
}

// RunPointsExpirationExport writes a points-expiration export's CSV in
// keyset pages of (expires_at, id), a chunk at a time like the other
// exports (a resumed job continues after its last committed chunk).
func RunPointsExpirationExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	exp, fields, ch, err := beginRun(ctx, w, job, PointsExpirationFields)
	if err != nil || ch == nil || exp.VoucherID == nil {
		return err
	}
	err = ch.writeBuckets(ctx, *exp.VoucherID, fields, exp.Parameters["order"] == "-expires_at", min(w.BatchSize, maxExportBatch))
	if werr := ch.wait(); err == nil {
		err = werr
	}
	return err
}

// writeBuckets streams the program's dated buckets after the committed
// position as CSV lines (the position's time is the bucket's expires_at).
func (ch *exportChunker) writeBuckets(ctx context.Context, campaignID string, names []string, desc bool, pageSize int) error {
	where, err := subjectWindow(ch.exp.Parameters, "voucher_id", textCol(pointsbucket.FieldVoucherID), ch.job.ProjectID)
	if err != nil {
		return err
	}
	if ch.seq == 0 {
		ch.buf = appendCSVHeader(ch.buf, names)
	}
	more, at, id := ch.rows > 0, ch.lastAt, ch.lastID
	dir := entsql.OrderAsc()
	if desc {
		dir = entsql.OrderDesc()
	}
	for {
		q := ch.w.Client.PointsBucket.Query().Where(pointsbucket.ProjectID(ch.job.ProjectID), pointsbucket.CampaignID(campaignID),
			pointsbucket.StatusIn(pointsbucket.StatusACTIVE, pointsbucket.StatusEXPIRED), pointsbucket.ExpiresAtNotNil())
		for _, p := range where {
			q.Where(p)
		}
		if more {
			at, id := at, id
			q.Where(func(s *entsql.Selector) {
				cols := []string{s.C(pointsbucket.FieldExpiresAt), s.C(pointsbucket.FieldID)}
				if desc {
					s.Where(entsql.CompositeLT(cols, at, id))
				} else {
					s.Where(entsql.CompositeGT(cols, at, id))
				}
			})
		}
		rows, err := q.Order(entsql.OrderByField(pointsbucket.FieldExpiresAt, dir).ToFunc(),
			entsql.OrderByField(pointsbucket.FieldID, dir).ToFunc()).Limit(pageSize).All(ctx)
		if err != nil {
			return fmt.Errorf("reading points buckets: %w", err)
		}
		for _, b := range rows {
			ch.buf = appendBucketLine(ch.buf, names, b)
			ch.pending++
			ch.posAt, ch.posID = *b.ExpiresAt, b.ID
			if len(ch.buf) >= ExportChunkSize || ch.pending >= ch.maxRows {
				if err := ch.commit(ctx, false); err != nil {
					return err
				}
			}
		}
		if len(rows) < pageSize {
			return ch.commit(ctx, true)
		}
		more, at, id = true, *rows[len(rows)-1].ExpiresAt, rows[len(rows)-1].ID
	}
}

// appendBucketLine appends b's CSV line (expires_at as YYYY-MM-DD).
func appendBucketLine(buf []byte, names []string, b *ent.PointsBucket) []byte {
	for i, n := range names {
		if i > 0 {
			buf = append(buf, ',')
		}
		switch n {
		case "id":
			buf = appendCSVField(buf, b.ID)
		case "campaign_id":
			if b.CampaignID != nil {
				buf = appendCSVField(buf, *b.CampaignID)
			}
		case "voucher_id":
			if b.VoucherID != nil {
				buf = appendCSVField(buf, *b.VoucherID)
			}
		case "points":
			buf = strconv.AppendInt(buf, b.Points, 10)
		case "status":
			buf = appendCSVField(buf, string(b.Status))
		case "expires_at":
			buf = b.ExpiresAt.UTC().AppendFormat(buf, time.DateOnly)
		}
	}
	return append(buf, '\n')
}
