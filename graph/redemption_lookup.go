package graph

import (
	"context"
	"fmt"
	"sync"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/webhook"
)

// campaignCheckColumns are the campaign columns the checks and responses
// use (its voucher template and settings are large JSON columns).
var campaignCheckColumns = []string{campaign.FieldID, campaign.FieldName, campaign.FieldActive, campaign.FieldStartDate,
	campaign.FieldExpirationDate, campaign.FieldValidityTimeframe, campaign.FieldValidityDayOfWeek, campaign.FieldValidityHours}

// lookedUpVoucher is a voucher named by a request, with its campaign and
// whether any validation rule is assigned to it or its campaign.
type lookedUpVoucher struct {
	voucher  *ent.Voucher
	hasRules bool
	// webhooks: the project has an active webhook.
	webhooks bool
}

// lookupVouchers finds the vouchers with the given codes or IDs in the
// caller's project, their campaigns, whether rules are assigned to them
// and whether the project has an active webhook, in one statement (it runs on every validation and redemption).
// lock adds FOR UPDATE of the voucher rows, taken in ID order (PostgreSQL
// only; SQLite runs one writer at a time). Hand-written SQL bypasses ent's
// tenancy interceptor, so the project filter is explicit here, on every
// table.
func lookupVouchers(ctx context.Context, codes []string, lock bool) ([]lookedUpVoucher, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	vw, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, schema.ErrNoViewer
	}
	d := entdb.DialectFromContext(ctx)
	if d == "" {
		d = dialect.SQLite
	}
	args := make([]any, 0, 1+2*len(codes))
	args = append(args, vw.ProjectID)
	for range 2 { // the codes are matched against code and against id
		for _, code := range codes {
			args = append(args, code)
		}
	}
	query, err := lookupQuery(d, len(codes), lock && d == dialect.Postgres)
	if err != nil {
		return nil, err
	}
	rows, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("looking up vouchers: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []lookedUpVoucher
	for rows.Next() {
		found, err := scanLookedUp(c, rows)
		if err != nil {
			return nil, err
		}
		out = append(out, found)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading vouchers: %w", err)
	}
	return out, nil
}

// lookupQueryKey identifies one form of the look-up statement.
type lookupQueryKey struct {
	dialect string
	codes   int
	lock    bool
}

// lookupQueries caches the look-up statement's text per form: building it
// with ent's SQL builder cost a tenth of a validation's CPU. It holds at
// most 2 dialects × 2 lock modes × 30 code counts (the largest
// redeemables_limit).
var lookupQueries sync.Map // lookupQueryKey → string

// lookupQuery is the text of the look-up statement for n codes; its
// arguments are the project ID, then the n codes twice.
func lookupQuery(d string, n int, lock bool) (string, error) {
	key := lookupQueryKey{dialect: d, codes: n, lock: lock}
	if q, ok := lookupQueries.Load(key); ok {
		return q.(string), nil
	}
	vt, ct := sql.Table(voucher.Table).As("v"), sql.Table(campaign.Table).As("c")
	ids := make([]any, n)
	for i := range ids {
		ids[i] = ""
	}
	hasRules := fmt.Sprintf("EXISTS (SELECT 1 FROM %s a WHERE a.%s = v.%s AND a.%s IN (v.%s, v.%s))",
		validationruleassignment.Table, validationruleassignment.FieldProjectID, voucher.FieldProjectID,
		validationruleassignment.FieldRelatedObjectID, voucher.FieldID, voucher.FieldCampaignID)
	webhooks := fmt.Sprintf("EXISTS (SELECT 1 FROM %s w WHERE w.%s = v.%s AND w.%s)",
		webhook.Table, webhook.FieldProjectID, voucher.FieldProjectID, webhook.FieldActive)
	sel := sql.Dialect(d).Select(vt.Columns(voucher.Columns...)...).
		AppendSelect(ct.Columns(campaignCheckColumns...)...).
		AppendSelectExpr(sql.Expr(hasRules), sql.Expr(webhooks)).
		From(vt).
		LeftJoin(ct).OnP(sql.And(
		sql.ColumnsEQ(ct.C(campaign.FieldID), vt.C(voucher.FieldCampaignID)),
		sql.ColumnsEQ(ct.C(campaign.FieldProjectID), vt.C(voucher.FieldProjectID)))).
		Where(sql.And(sql.EQ(vt.C(voucher.FieldProjectID), ""),
			sql.Or(sql.In(vt.C(voucher.FieldCode), ids...), sql.In(vt.C(voucher.FieldID), ids...)))).
		OrderBy(vt.C(voucher.FieldID))
	if lock {
		sel.ForUpdate(sql.WithLockTables("v"))
	}
	query, args := sel.Query()
	if len(args) != 1+2*n {
		return "", fmt.Errorf("voucher look-up: the statement takes %d arguments for %d codes", len(args), n)
	}
	lookupQueries.Store(key, query)
	return query, nil
}

// scanLookedUp decodes one row with ent's own column decoding.
func scanLookedUp(c *ent.Client, rows interface{ Scan(...any) error }) (lookedUpVoucher, error) {
	v, vValues, err := c.Voucher.ScanTargets(voucher.Columns)
	if err != nil {
		return lookedUpVoucher{}, err
	}
	cmp, cValues, err := c.Campaign.ScanTargets(campaignCheckColumns)
	if err != nil {
		return lookedUpVoucher{}, err
	}
	var campaignID sql.NullString
	cValues[0] = &campaignID // a voucher without a campaign joins NULLs
	var hasRules, webhooks sql.NullBool
	targets := append(append(append([]any{}, vValues...), cValues...), &hasRules, &webhooks)
	if err := rows.Scan(targets...); err != nil {
		return lookedUpVoucher{}, fmt.Errorf("scanning voucher: %w", err)
	}
	if err := v.AssignScanned(voucher.Columns, vValues); err != nil {
		return lookedUpVoucher{}, fmt.Errorf("decoding voucher: %w", err)
	}
	if campaignID.Valid {
		cmp.ID = campaignID.String
		if err := cmp.AssignScanned(campaignCheckColumns[1:], cValues[1:]); err != nil {
			return lookedUpVoucher{}, fmt.Errorf("decoding campaign: %w", err)
		}
		v.Edges.Campaign = cmp
	}
	return lookedUpVoucher{voucher: v, hasRules: hasRules.Valid && hasRules.Bool, webhooks: webhooks.Valid && webhooks.Bool}, nil
}
