package redemption

import (
	"fmt"
	"strings"
	"sync"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/webhook"
)

// lookupQueryKey identifies one form of the look-up statement.
type lookupQueryKey struct {
	dialect string
	codes   int
	lock    bool
	// version: the statement reads the voucher rows' versions (xmin).
	version bool
	// customer: the statement joins the customer, by ID or by source_id.
	customer, customerByID bool
	// byID: the statement matches the codes against the vouchers' IDs too
	// (some code has a voucher ID's prefix; see lookupVouchers).
	byID bool
}

// lookupQueries caches the look-up statement's text per form: building it
// with ent's SQL builder cost a tenth of a validation's CPU. It holds at
// most 2 dialects × 3 lock or version modes × 3 customer forms × 2 ID
// forms × 30 code counts (the largest redeemables_limit).
var lookupQueries sync.Map // lookupQueryKey → string

// lookupQuery is the text of the look-up statement of that form; its
// arguments are the customer's ID or source_id (with a customer), the
// project ID, then the codes (twice when matched against IDs too).
func lookupQuery(key lookupQueryKey) (string, error) {
	if q, ok := lookupQueries.Load(key); ok {
		return q.(string), nil
	}
	d, n := key.dialect, key.codes
	vt, ct, cut := sql.Table(voucher.Table).As("v"), sql.Table(campaign.Table).As("c"), sql.Table(customer.Table).As("cu")
	ids := make([]any, n)
	for i := range ids {
		ids[i] = ""
	}
	hasRules := fmt.Sprintf("EXISTS (SELECT 1 FROM %s a WHERE a.%s = v.%s AND a.%s IN (v.%s, v.%s))",
		validationruleassignment.Table, validationruleassignment.FieldProjectID, voucher.FieldProjectID,
		validationruleassignment.FieldRelatedObjectID, voucher.FieldID, voucher.FieldCampaignID)
	webhooks := fmt.Sprintf("EXISTS (SELECT 1 FROM %s w WHERE w.%s = v.%s AND w.%s)",
		webhook.Table, webhook.FieldProjectID, voucher.FieldProjectID, webhook.FieldActive)
	if key.version {
		hasRules = "NULL" // rulesSQL tells (scanLookedUp)
	}
	sel := sql.Dialect(d).Select(vt.Columns(voucher.Columns...)...).
		AppendSelect(ct.Columns(campaignCheckColumns...)...).
		AppendSelectExpr(sql.Expr(hasRules), sql.Expr(webhooks)).
		From(vt).
		LeftJoin(ct).OnP(sql.And(
		sql.ColumnsEQ(ct.C(campaign.FieldID), vt.C(voucher.FieldCampaignID)),
		sql.ColumnsEQ(ct.C(campaign.FieldProjectID), vt.C(voucher.FieldProjectID))))
	if key.customer {
		// The customer's key is the statement's first argument: the join
		// comes before the WHERE clause.
		by := customer.FieldSourceID
		if key.customerByID {
			by = customer.FieldID
		}
		sel.AppendSelect(cut.Columns(customer.Columns...)...).
			LeftJoin(cut).OnP(sql.And(sql.EQ(cut.C(by), ""),
			sql.ColumnsEQ(cut.C(customer.FieldProjectID), vt.C(voucher.FieldProjectID))))
	}
	match := sql.In(vt.C(voucher.FieldCode), ids...)
	if key.byID {
		match = sql.Or(match, sql.In(vt.C(voucher.FieldID), ids...))
	}
	sel.Where(sql.And(sql.EQ(vt.C(voucher.FieldProjectID), ""), match)).OrderBy(vt.C(voucher.FieldID))
	if key.lock {
		sel.ForUpdate(sql.WithLockTables("v"))
	}
	if key.version {
		sel.AppendSelectExpr(sql.Expr("v.xmin::text"))
		if key.customer {
			sel.AppendSelectExpr(sql.Expr("cu.xmin::text"))
		}
		before, after, _ := strings.Cut(heldSQL, "?")
		sel.AppendSelectExpr(sql.ExprFunc(func(b *sql.Builder) { b.WriteString(before).Arg("").WriteString(after) }),
			sql.Expr(rulesSQL))
	}
	query, args := sel.Query()
	want := 1 + n
	if key.byID {
		want += n
	}
	if key.customer {
		want++
	}
	if key.version {
		want++
	}
	if len(args) != want {
		return "", fmt.Errorf("voucher look-up: the statement takes %d arguments for %d codes", len(args), n)
	}
	lookupQueries.Store(key, query)
	return query, nil
}
