package customer

import (
	"context"
	"encoding/json"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// customerActivitySource is one kind of record that shows as customer activities.
type customerActivitySource struct {
	name string
	// prefixes are the ID prefixes of its activities (starting_after_id).
	prefixes []string
	// campaignScoped sources have a campaign and honour the campaign filters.
	campaignScoped bool
	// types are the activity types it yields; a source whose rows yield
	// several types honours the type filter in its query.
	types []string
	// count counts the matching activities, exactly up to atMost (and
	// atMost when more match).
	count func(ctx context.Context, f activityFilter, atMost int) (int, error)
	// page reads at least the first n activities past f's cursor in list
	// order (all when fewer match); ListActivities merges and trims.
	page func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error)
	find func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error)
}

// customerActivitySources are the sources of cust's activities.
func customerActivitySources(cust *ent.Customer) []customerActivitySource {
	return []customerActivitySource{customerCreatedSource(cust), publicationSource(), redemptionSource(),
		customEventSource(), segmentEntrySource(), referralSource(), orderEventSource(), pointsMoveSource(), pendingAddedSource(), consentChangeSource(),
		tierChangeSource()}
}

// activityQuery is what a table source needs of an ent query Q over rows
// R, whose predicates P and order options O are SQL selector functions.
type activityQuery[Q any, P, O ~func(*sql.Selector), R any] interface {
	Where(...P) Q
	Order(...O) Q
	Limit(int) Q
	CountAtMost(context.Context, int) (int, error)
	All(context.Context) ([]R, error)
	Only(context.Context) (R, error)
}

// tableSource completes src (name, prefixes, campaignScoped) as a source
// of table rows: query selects the customer's rows (for a campaign-scoped
// source, honouring f's campaign filters), timeCol is their time and
// orders them with idCol, and activities turns rows into activities, in
// order (each at its row's time).
func tableSource[Q activityQuery[Q, P, O, R], P, O ~func(*sql.Selector), R any](src customerActivitySource,
	timeCol, idCol string, query func(c *ent.Client, f activityFilter) Q,
	activities func(ctx context.Context, rows []R) ([]*CustomerActivity, error)) customerActivitySource {
	rows := func(ctx context.Context, f activityFilter) (Q, error) {
		c, err := store.Client(ctx)
		if err != nil {
			var none Q
			return none, err
		}
		return query(c, f), nil
	}
	src.count = func(ctx context.Context, f activityFilter, atMost int) (int, error) {
		q, err := rows(ctx, f)
		if err != nil {
			return 0, err
		}
		// Ordered as the page is: PostgreSQL then counts off the source's
		// (customer, time, id) index instead of a sequential scan that
		// stops at the cap (page.CountInIndexOrder).
		return q.Where(P(f.window(timeCol)), P(f.order(timeCol, idCol))).CountAtMost(ctx, atMost)
	}
	src.page = func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
		q, err := rows(ctx, f)
		if err != nil {
			return nil, err
		}
		page, err := q.Where(P(f.window(timeCol)), P(f.after(timeCol, idCol))).
			Order(O(f.order(timeCol, idCol))).Limit(n).All(ctx)
		if err != nil || len(page) == 0 {
			return nil, err
		}
		return activities(ctx, page)
	}
	src.find = func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
		q, err := rows(ctx, f)
		if err != nil {
			return time.Time{}, false, err
		}
		row, err := q.Where(P(func(s *sql.Selector) { s.Where(sql.EQ(s.C(idCol), id)) })).Only(ctx)
		if ent.IsNotFound(err) {
			return time.Time{}, false, nil
		}
		if err != nil {
			return time.Time{}, false, err
		}
		acts, err := activities(ctx, []R{row})
		if err != nil {
			return time.Time{}, false, err
		}
		return acts[0].CreatedAt, true, nil
	}
	return src
}

// eachRow maps rows one at a time (sources whose rows hold all they show).
func eachRow[R any](activity func(R) *CustomerActivity) func(context.Context, []R) ([]*CustomerActivity, error) {
	return func(_ context.Context, rows []R) ([]*CustomerActivity, error) {
		out := make([]*CustomerActivity, len(rows))
		for i, r := range rows {
			out[i] = activity(r)
		}
		return out, nil
	}
}

// customerCreatedSource: customer.created, the customer's own row.
func customerCreatedSource(cust *ent.Customer) customerActivitySource {
	act := &CustomerActivity{ID: cust.ID, Type: "customer.created", CreatedAt: cust.CreatedAt,
		Data: map[string]any{"customer": map[string]any{"id": cust.ID, "source_id": cust.SourceID, "name": cust.Name,
			"email": cust.Email, "object": "customer"}}}
	inWindow := func(f activityFilter) bool {
		return (f.from == nil || !act.CreatedAt.Before(*f.from)) && (f.to == nil || !act.CreatedAt.After(*f.to))
	}
	return customerActivitySource{
		name: "customer", prefixes: []string{pulid.PrefixCustomer}, types: []string{act.Type},
		count: func(_ context.Context, f activityFilter, atMost int) (int, error) {
			if inWindow(f) && atMost > 0 {
				return 1, nil
			}
			return 0, nil
		},
		page: func(_ context.Context, f activityFilter, _ int) ([]*CustomerActivity, error) {
			if !inWindow(f) || !f.isAfter(act) {
				return nil, nil
			}
			return []*CustomerActivity{act}, nil
		},
		find: func(_ context.Context, _ activityFilter, id string) (time.Time, bool, error) {
			return act.CreatedAt, id == cust.ID, nil
		},
	}
}

// publicationSource: customer.publication.succeeded (failed publications
// are not stored), filtered by the campaign the request named.
func publicationSource() customerActivitySource {
	query := func(c *ent.Client, f activityFilter) *ent.PublicationQuery {
		q := c.Publication.Query().Where(publication.CustomerID(f.customerID)).
			WithVouchers(func(q *ent.VoucherQuery) { q.Select(voucher.FieldCode, voucher.FieldCampaignID) })
		if f.campaignScoped { // the campaign the request named, or the campaign of a code it gave
			q.Where(publication.Or(f.campaign(publication.FieldCampaignID), publishedCodeOf(f)))
		}
		switch succeeded, failed := f.wants(publicationSucceeded), f.wants(publicationFailed); {
		case succeeded && !failed:
			q.Where(publication.Result("SUCCESS"))
		case failed && !succeeded:
			q.Where(publication.ResultNEQ("SUCCESS"))
		}
		return q
	}
	return tableSource(customerActivitySource{name: "publication", prefixes: []string{pulid.PrefixPublish}, campaignScoped: true,
		types: []string{publicationSucceeded, publicationFailed}},
		publication.FieldCreatedAt, publication.FieldID, query, eachRow(func(p *ent.Publication) *CustomerActivity {
			codes := publishedCodes(p)
			return &CustomerActivity{ID: p.ID, Type: "customer.publication." + publicationOutcome(p.Result), CreatedAt: p.CreatedAt,
				Data: map[string]any{"publication": map[string]any{"id": p.ID, "channel": p.Channel, "source_id": p.SourceID,
					"tracking_id": p.TrackingID, "campaign_id": p.CampaignID, "metadata": shape.OrEmptyMap(p.Metadata),
					"vouchers": codes, "result": p.Result, "object": "publication"}}}
		}))
}

// publishedCodes are a publication's codes as its activity shows them;
// with a deleted code (deleted_vouchers, graph/campaign
// voucher_snapshots.go) in the publication's order, the deleted one as it
// was, one deleted before publications kept them by its id alone.
func publishedCodes(p *ent.Publication) []map[string]any {
	code := func(id, code string, campaignID *string) map[string]any {
		return map[string]any{"id": id, "code": code, "campaign_id": campaignID, "object": "voucher"}
	}
	if len(p.DeletedVouchers) == 0 {
		codes := make([]map[string]any, len(p.Edges.Vouchers))
		for j, v := range p.Edges.Vouchers {
			codes[j] = code(v.ID, v.Code, v.CampaignID)
		}
		return codes
	}
	live := make(map[string]*ent.Voucher, len(p.Edges.Vouchers))
	for _, v := range p.Edges.Vouchers {
		live[v.ID] = v
	}
	codes := make([]map[string]any, 0, len(p.VoucherIds))
	for _, id := range p.VoucherIds {
		var was struct {
			Code       string  `json:"code"`
			CampaignID *string `json:"campaign_id"`
		}
		if v, ok := live[id]; ok {
			codes = append(codes, code(id, v.Code, v.CampaignID))
		} else if err := json.Unmarshal([]byte(p.DeletedVouchers[id]), &was); err == nil && was.Code != "" {
			codes = append(codes, code(id, was.Code, was.CampaignID))
		} else {
			codes = append(codes, code(id, id, nil))
		}
	}
	return codes
}

// publishedCodeOf keeps the publications of a code of f's campaign, with a
// correlated EXISTS evaluated for each of the customer's publications read
// (PostgreSQL plans HasVouchersWith's IN (…) under an OR as a hashed
// subplan over every voucher of the campaign: a million-member program's
// cards read for each page of one member's activity).
func publishedCodeOf(f activityFilter) predicate.Publication {
	return func(s *sql.Selector) {
		links, codes := sql.Table(publication.VouchersTable), sql.Table(voucher.Table)
		code := sql.Select(codes.C(voucher.FieldID)).From(codes).
			Join(links).On(links.C(publication.VouchersPrimaryKey[1]), codes.C(voucher.FieldID)).
			Where(sql.ColumnsEQ(links.C(publication.VouchersPrimaryKey[0]), s.C(publication.FieldID)))
		f.campaign(voucher.FieldCampaignID)(code)
		// OFFSET keeps PostgreSQL from turning the EXISTS into a hashed
		// IN (…) over the campaign's vouchers when it expects many rows.
		s.Where(sql.Exists(code.Limit(1).Offset(0)))
	}
}

// The types of publication activities.
const (
	publicationSucceeded = "customer.publication.succeeded"
	publicationFailed    = "customer.publication.failed"
)

func publicationOutcome(result string) string {
	if result == "SUCCESS" {
		return "succeeded"
	}
	return "failed"
}
