package publication

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql/sqlgraph"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The common publication — vouchers from a campaign to a customer named by
// source_id, without profile fields or join_once — is, on PostgreSQL, one
// statement: a data-modifying CTE that finds the campaign, locks suitable
// vouchers (FOR UPDATE SKIP LOCKED), upserts the customer, marks the
// vouchers published, records the publication with its voucher links and
// returns every row the response shows. Outside a transaction that is one
// network round trip and one implicit transaction instead of ten.
//
// The statement writes only when it found every voucher asked for, and
// answers no rows otherwise; publish then runs the general path, which
// knows every rule and error (unknown campaign, join_once campaigns, codes
// generated for AUTO_UPDATE campaigns, too few vouchers, replayed
// source_ids, invalid input). It also writes the webhook events of the
// publication (customer.created for a new customer, publication.succeeded,
// voucher.published) to the outbox for the project's active webhooks
// subscribed to them, in the same statement, so the events commit with
// the change: each outbox row holds a snapshot of the rows as written,
// rendered in REST shapes when it is read (graph/webhook/snapshot.go). Raw SQL bypasses ent's hooks and validators,
// so only input the general path would accept as is comes here. The
// Publish tests run both paths (publish_statement_test.go and the REST
// suite on PostgreSQL).

// oneStatementColumns are the columns the statement returns, in order: the
// publication, its customer, one published voucher per row, its campaign.
// A new publication has no deleted vouchers: deleted_vouchers is not read.
var oneStatementColumns = [][]string{publishedColumns, customer.Columns, voucher.Columns, campaign.Columns}

// publishedColumns are the publication's columns but deleted_vouchers,
// which a publication gets only when one of its vouchers is deleted later.
var publishedColumns = slices.DeleteFunc(slices.Clone(publication.Columns), func(c string) bool {
	return c == publication.FieldDeletedVouchers
})

// summaryStatementColumns are the same with only the columns of the
// campaign that a REST answer shows of a published voucher: its name, and
// its category_id for the voucher's categories (campaign.CategoriesOfVoucher).
// The campaign's other 26 columns, most of them JSON, were a third of the
// row's decoding and ~6% of the server's CPU per publication.
var summaryStatementColumns = [][]string{publishedColumns, customer.Columns, voucher.Columns,
	{campaign.FieldID, campaign.FieldName, campaign.FieldCategoryID}}

// publishStatements holds the statement for each count (1 to
// MaxPublishCount): the count is written into it, so PostgreSQL's generic
// plan for the prepared statement knows how many rows to expect.
// summaryStatements are the same returning summaryStatementColumns.
var publishStatements, summaryStatements = func() (full, summary [MaxPublishCount + 1]string) {
	for n := 1; n <= MaxPublishCount; n++ {
		full[n] = publishStatementSQL(n, oneStatementColumns)
		summary[n] = publishStatementSQL(n, summaryStatementColumns)
	}
	return full, summary
}()

// PublishStatement is the SQL of the single-statement publication of count
// vouchers (1 to MaxPublishCount), for EXPLAIN and benchmarks
// (docs/bench/pubsql): with campaignSummary, the statement REST requests
// run (WithCampaignSummary); without, the one GraphQL's publish runs. Its
// parameters are listed in publishStatementSQL.
func PublishStatement(count int, campaignSummary bool) string {
	if campaignSummary {
		return summaryStatements[count]
	}
	return publishStatements[count]
}

type campaignSummaryKey struct{}

// WithCampaignSummary returns ctx saying that its caller shows only the
// id, name and category of a published voucher's campaign, as REST
// answers do: the single statement then returns only those columns of
// the campaign, and the vouchers' campaign edges hold only them. GraphQL,
// where a query may select any field of the campaign, never sets it. The
// general path reads the whole campaign either way.
func WithCampaignSummary(ctx context.Context) context.Context {
	return context.WithValue(ctx, campaignSummaryKey{}, true)
}

func campaignSummary(ctx context.Context) bool {
	on, _ := ctx.Value(campaignSummaryKey{}).(bool)
	return on
}

func publishStatementSQL(count int, columns [][]string) string {
	var sel []string
	for i, cte := range []string{"pub", "cust", "upd", "cmp"} {
		for _, col := range columns[i] {
			sel = append(sel, cte+"."+col)
		}
	}
	n := strconv.Itoa(count)
	suitable := `FROM vouchers v
	WHERE v.campaign_id = (SELECT id FROM cmp WHERE NOT join_once) AND v.publish_count = 0 AND v.active
	AND (v.start_date IS NULL OR v.start_date <= $3) AND (v.expiration_date IS NULL OR v.expiration_date > $3)`
	// $1 project, $2 campaign id or name, $3 now, $4 random voucher id to
	// start from, $5 new customer id, $6 customer source_id, $7 publication
	// id, $8 metadata, $9 channel, $10 source_id, $11 count form, $12 the
	// time part of the webhook event ids (pulid.Ordered).
	// The pick reads from $4 on and wraps around to the lowest IDs only if
	// it must (a CTE runs only as far as its reader needs).
	// The webhook events: hooks are the active webhooks subscribed to one
	// of them; snap, the rows as written (built only when there are such
	// hooks); outbox, one row per event and subscribed webhook.
	return `WITH cmp AS (
	SELECT * FROM campaigns WHERE project_id = $1 AND (id = $2 OR name = $2)
	ORDER BY id = $2 DESC LIMIT 1
), pick_from AS (
	SELECT v.id, 0 AS pass ` + suitable + ` AND v.id >= $4
	ORDER BY v.id LIMIT ` + n + ` FOR UPDATE OF v SKIP LOCKED
), pick_wrapped AS (
	SELECT v.id, 1 AS pass ` + suitable + ` AND v.id < $4
	ORDER BY v.id LIMIT ` + n + ` FOR UPDATE OF v SKIP LOCKED
), pick AS (
	(SELECT * FROM pick_from) UNION ALL (SELECT * FROM pick_wrapped) LIMIT ` + n + `
), picked AS (
	SELECT jsonb_agg(id ORDER BY pass, id) AS ids FROM pick HAVING count(*) = ` + n + `
), cust AS (
	INSERT INTO customers (id, project_id, created_at, source_id, metadata, system_metadata)
	SELECT $5, $1, $3, $6, '{}', '{}' FROM picked
	ON CONFLICT (project_id, source_id) DO UPDATE SET source_id = EXCLUDED.source_id
	RETURNING *, xmax = 0 AS inserted
), upd AS (
	UPDATE vouchers v SET publish_count = v.publish_count + 1, holder_id = cust.id, updated_at = $3
	FROM pick, cust WHERE v.id = pick.id
	RETURNING v.*
), pub AS (
	INSERT INTO publications (id, project_id, created_at, tracking_id, metadata, channel, source_id, result,
		campaign_id, count_form, voucher_ids, customer_id)
	SELECT $7, $1, $3, cust.source_id, $8, $9, $10, 'SUCCESS', cmp.id, $11, picked.ids, cust.id
	FROM cust, cmp, picked
	RETURNING *
), link AS (
	INSERT INTO publication_vouchers (publication_id, voucher_id) SELECT pub.id, upd.id FROM pub, upd
), hooks AS (
	SELECT id, events FROM webhooks WHERE project_id = $1 AND active
		AND events ?| array['` + webhook.EventCustomerCreated + `', '` + webhook.EventPublicationSucceeded + `', '` + webhook.EventVoucherPublished + `']
), snap AS (
	SELECT json_build_object('publication', row_to_json(pub), 'customer', row_to_json(cust), 'campaign', row_to_json(cmp),
		'vouchers', (SELECT json_agg(row_to_json(u) ORDER BY p.pass, u.id) FROM upd u JOIN pick p ON p.id = u.id)) AS rows,
		cust.inserted, cust.id AS customer_id, pub.id AS publication_id
	FROM pub, cust, cmp WHERE EXISTS (SELECT 1 FROM hooks)
), outbox AS (
	INSERT INTO webhook_events (id, project_id, created_at, webhook_id, type, object_type, object_id, data, state,
		attempts, next_attempt_at, retry_since)
	SELECT '` + webhook.WebhookEventPrefix + `' || $12 || substr(md5(random()::text || h.id || e.object_id), 1, 18), $1, $3, h.id,
		e.type, e.object_type, e.object_id, json_build_object('` + webhook.SnapshotKey + `', snap.rows, 'voucher_id', e.voucher_id)::text,
		'PENDING', 0, $3, $3
	FROM hooks h, snap, LATERAL (
		SELECT '` + webhook.EventCustomerCreated + `' AS type, 'customer' AS object_type, snap.customer_id AS object_id, NULL AS voucher_id WHERE snap.inserted
		UNION ALL SELECT '` + webhook.EventPublicationSucceeded + `', 'publication', snap.publication_id, NULL
		UNION ALL SELECT '` + webhook.EventVoucherPublished + `', 'voucher', u.id, u.id FROM upd u
	) e
	WHERE h.events ? e.type
)
SELECT ` + strings.Join(sel, ", ") + `
FROM pub, cust, upd JOIN pick ON pick.id = upd.id, cmp ORDER BY pick.pass, upd.id`
}

// inOneStatement reports whether the request is the common publication
// the single statement serves.
func inOneStatement(ctx context.Context, in PublishInput, joinOnce bool) bool {
	cust := in.Customer
	if entdb.DialectFromContext(ctx) != dialect.Postgres || in.Campaign == nil || joinOnce ||
		cust.ID != nil || cust.SourceID == nil || customerpkg.HasProfile(cust) || customerpkg.ValidateCustomer(cust) != nil {
		return false
	}
	// Inside a caller's transaction a failed statement would abort it, so
	// a source_id (whose repeat fails the unique index) takes the general path.
	return in.SourceID == nil || ent.TxFromContext(ctx) == nil
}

// PublishOneStatement is publishInOneStatement; tests replace it to run
// or observe either path.
var PublishOneStatement = PublishInOneStatement

// PublishInOneStatement runs the single statement. done is false when it
// wrote nothing and the general path must answer.
func PublishInOneStatement(ctx context.Context, in PublishInput, count int) (pub *ent.Publication, done bool, err error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, false, err
	}
	v, _ := viewer.FromContext(ctx)
	meta, err := json.Marshal(metadataOf(in))
	if err != nil {
		return nil, false, fmt.Errorf("encoding publication metadata: %w", err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	statement, columns := publishStatements[count], oneStatementColumns
	if campaignSummary(ctx) {
		statement, columns = summaryStatements[count], summaryStatementColumns
	}
	rows, err := c.QueryContext(ctx, statement,
		v.ProjectID, in.Campaign.Name, now, pulid.New(pulid.PrefixVoucher, 32),
		customer.DefaultID(), *in.Customer.SourceID,
		publication.DefaultID(), string(meta), channelOf(in), in.SourceID, in.Campaign.Count != nil, pulid.Ordered(0))
	if err != nil {
		if sqlgraph.IsUniqueConstraintError(err) {
			return nil, false, nil // a repeated source_id: the general path replays it
		}
		return nil, false, fmt.Errorf("publishing: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		p, cust, vch, cmp, err := scanPublishedRow(c, rows, columns)
		if err != nil {
			return nil, false, err
		}
		if pub == nil {
			pub = p
			pub.Edges.Customer = cust
		}
		vch.Edges.Campaign = cmp
		pub.Edges.Vouchers = append(pub.Edges.Vouchers, vch)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("reading publication: %w", err)
	}
	return pub, pub != nil, nil
}

// scanPublishedRow decodes one row of the statement, of columns, into
// entities.
func scanPublishedRow(c *ent.Client, rows interface{ Scan(...any) error }, columns [][]string) (*ent.Publication, *ent.Customer, *ent.Voucher, *ent.Campaign, error) {
	pub, pubValues, err := c.Publication.ScanTargets(columns[0])
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cust, custValues, err := c.Customer.ScanTargets(columns[1])
	if err != nil {
		return nil, nil, nil, nil, err
	}
	vch, vchValues, err := c.Voucher.ScanTargets(columns[2])
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cmp, cmpValues, err := c.Campaign.ScanTargets(columns[3])
	if err != nil {
		return nil, nil, nil, nil, err
	}
	targets := make([]any, 0, len(pubValues)+len(custValues)+len(vchValues)+len(cmpValues))
	targets = append(append(append(append(targets, pubValues...), custValues...), vchValues...), cmpValues...)
	if err := rows.Scan(targets...); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("scanning publication: %w", err)
	}
	if err := pub.AssignScanned(columns[0], pubValues); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("decoding publication: %w", err)
	}
	if err := cust.AssignScanned(columns[1], custValues); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("decoding publication: %w", err)
	}
	if err := vch.AssignScanned(columns[2], vchValues); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("decoding publication: %w", err)
	}
	if err := cmp.AssignScanned(columns[3], cmpValues); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("decoding publication: %w", err)
	}
	return pub, cust, vch, cmp, nil
}

// publishAdmitted runs the single statement once the admission in ctx
// lets it; the slot is given back however the statement ends.
func publishAdmitted(ctx context.Context, in PublishInput, count int) (*ent.Publication, bool, error) {
	release, err := store.Admit(ctx)
	if err != nil {
		return nil, false, err
	}
	defer release()
	return PublishOneStatement(ctx, in, count)
}
