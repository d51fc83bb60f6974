package export

import (
	"context"
	"fmt"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	entpublication "github.com/promoengine/promoengine/ent/publication"
	entvoucher "github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/clock"
	jobrun "github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/publication"
)

// Publication exports (POST /v1/exports with exported_object
// "publication"): a CSV of the project's publications, one line each, in
// keyset pages (keyset.go).

// JobExportPublications is the async action type of a publications export.
const JobExportPublications = "EXPORT.PUBLICATIONS"

// PublicationExportFields are the columns a publications export may have
// (plus metadata.<key>): the documented ones, and code (the documented
// default column's name) for voucher_code.
// DefaultPublicationExportFields are those of a request that names none.
var (
	PublicationExportFields = []string{"code", "voucher_code", "customer_id", "customer_source_id", "date", "channel",
		"campaign", "is_winner", "metadata"}
	DefaultPublicationExportFields = []string{"code", "customer_id", "date", "channel"}
)

// Publications schedules a CSV export of the project's publications.
func Publications(ctx context.Context, params map[string]any) (*ent.Export, error) {
	stored, err := checkExportParameters(params, PublicationExportFields, publicationFilters, publicationOrders, false)
	if err != nil {
		return nil, err
	}
	return scheduleExport(ctx, "publication", stored, JobExportPublications)
}

// RunPublicationsExport writes a publications export's CSV.
func RunPublicationsExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	return runKeysetExport(ctx, w, job, DefaultPublicationExportFields, func(ctx context.Context, ch *exportChunker, exp *ent.Export, names []string, desc bool, pageSize int) error {
		var preds []predicate.Publication
		if f, ok := exp.Parameters["filters"].(map[string]any); ok {
			sel, err := parseFilters(f, publicationFilters, job.ProjectID)
			if err != nil {
				return err
			}
			for _, p := range sel {
				preds = append(preds, predicate.Publication(p))
			}
		}
		sort := exportSort(exp.Parameters["order"], entpublication.Table, publicationOrders)
		return writeKeyset(ctx, ch, keysetTable[*publicationRow]{
			page: func(ctx context.Context, after func(*entsql.Selector), limit int) ([]*publicationRow, error) {
				q := w.Client.Publication.Query().Where(entpublication.ProjectID(job.ProjectID)).Where(preds...)
				if after != nil {
					q.Where(after)
				}
				rows, err := q.Order(keysetOrder[entpublication.OrderOption](sort, desc)...).Limit(limit).WithCustomer().
					WithVouchers(func(q *ent.VoucherQuery) {
						q.Select(entvoucher.FieldID, entvoucher.FieldCode, entvoucher.FieldCampaignID)
					}).All(ctx)
				if err != nil {
					return nil, fmt.Errorf("reading publications: %w", err)
				}
				return publicationRows(ctx, w.Client, job.ProjectID, rows, names)
			},
			key:  func(p *publicationRow) (time.Time, string) { return p.CreatedAt, p.ID },
			line: appendPublicationLine,
			sort: sort,
		}, names, desc, pageSize)
	})
}

// publicationRow is a publication with its codes (in the publication's
// order) and its campaign's name.
type publicationRow struct {
	*ent.Publication
	codes    string
	campaign string
}

// publicationRows pairs a page's publications with their codes and
// campaign names.
func publicationRows(ctx context.Context, c *ent.Client, projectID string, rows []*ent.Publication, names []string) ([]*publicationRow, error) {
	var ids []string
	for _, p := range rows {
		if id := publicationCampaign(p); id != nil {
			ids = append(ids, *id)
		}
	}
	campaigns, err := campaignNames(ctx, c, projectID, ids, names)
	if err != nil {
		return nil, err
	}
	out := make([]*publicationRow, len(rows))
	for i, p := range rows {
		var codes []string
		for _, v := range publication.ShownVouchers(p) { // a deleted code as it was
			codes = append(codes, v.Code)
		}
		out[i] = &publicationRow{Publication: p, codes: strings.Join(codes, ",")}
		if id := publicationCampaign(p); id != nil {
			out[i].campaign = campaigns[*id]
		}
	}
	return out, nil
}

// publicationCampaign is the campaign a publication drew from, else its
// (first) voucher's campaign.
func publicationCampaign(p *ent.Publication) *string {
	if p.CampaignID != nil {
		return p.CampaignID
	}
	for _, v := range publication.ShownVouchers(p) {
		if v.CampaignID != nil {
			return v.CampaignID
		}
	}
	return nil
}

// appendPublicationLine appends p's CSV line.
func appendPublicationLine(b []byte, names []string, p *publicationRow) []byte {
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		switch n {
		case "code", "voucher_code":
			b = appendCSVField(b, p.codes)
		case "customer_id":
			b = appendCSVField(b, p.CustomerID)
		case "customer_source_id":
			if cust := p.Edges.Customer; cust != nil {
				b = appendCSVField(b, textOf(cust.SourceID))
			}
		case "date":
			b = p.CreatedAt.UTC().AppendFormat(b, clock.Layout)
		case "channel":
			b = appendCSVField(b, p.Channel)
		case "campaign":
			b = appendCSVField(b, p.campaign)
		case "is_winner":
			// No contests here: never a winner column value.
		default:
			b = appendMetadataField(b, n, p.Metadata)
		}
	}
	return append(b, '\n')
}
