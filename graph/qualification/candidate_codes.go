package qualification

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Every qualification with a customer or the ALL scenario reads candidate
// codes. Building that statement with ent's query builder (predicates,
// the campaign subquery, quoting) cost more server CPU than running it,
// so its text is built once per form and kept; each request only binds
// its values. Hand-written SQL bypasses ent's tenancy interceptor: the
// project filter is explicit, on the vouchers, their campaigns and the
// customer.

// codeCandidateForm identifies one form of the candidate codes' statement.
type codeCandidateForm struct {
	dialect string
	// held: the codes the customer holds (else the generic codes).
	held bool
	// holderByID: the customer is named by ID (else by source_id).
	holderByID bool
	// before: a cursor bounds the codes' creation time.
	before bool
}

// codeCandidateStatement is a form's text and, in placeholder order,
// which value each placeholder takes.
type codeCandidateStatement struct {
	text   string
	params []codeParam
}

// codeParam names the value a placeholder of the statement takes.
type codeParam string

const (
	paramProject codeParam = "project"
	paramHolder  codeParam = "holder"
	paramNow     codeParam = "now"
	paramBefore  codeParam = "before"
	paramType    codeParam = "type"
)

// codeCandidateStatements caches the statement per form (2 dialects × 6
// forms at most).
var codeCandidateStatements sync.Map // codeCandidateForm → codeCandidateStatement

// codeCandidateColumns are the columns a code candidate takes, in the
// statement's select order: the voucher's, then its campaign's (NULL
// without one).
var codeCandidateColumns = []string{voucher.FieldID, voucher.FieldCreatedAt, voucher.FieldCode, voucher.FieldType,
	voucher.FieldCampaignID, voucher.FieldCategoryID}

// codeCandidateSQL builds (once) the statement of a form: the usable
// codes — active, begun, unexpired, of no campaign or of an active,
// begun, unexpired one (a STANDALONE one for generic codes) — held by
// the customer or by nobody, newest first, at most MaxCandidates+1. The
// builder's arguments are the placeholders' names, so the text and the
// order of its values cannot disagree.
func codeCandidateSQL(form codeCandidateForm) (codeCandidateStatement, error) {
	if s, ok := codeCandidateStatements.Load(form); ok {
		return s.(codeCandidateStatement), nil
	}
	b := entsql.Dialect(form.dialect)
	vt, ct := b.Table(voucher.Table).As("v"), b.Table(campaign.Table).As("c")
	inDates := func(start, end string) *entsql.Predicate {
		return entsql.And(
			entsql.Or(entsql.IsNull(start), entsql.LTE(start, paramNow)),
			entsql.Or(entsql.IsNull(end), entsql.GT(end, paramNow)))
	}
	campaignUsable := entsql.And(entsql.ExprP(ct.C(campaign.FieldActive)),
		inDates(ct.C(campaign.FieldStartDate), ct.C(campaign.FieldExpirationDate)))
	var holder *entsql.Predicate
	switch {
	case !form.held:
		holder = entsql.IsNull(vt.C(voucher.FieldHolderID))
		campaignUsable = entsql.And(entsql.EQ(ct.C(campaign.FieldType), paramType), campaignUsable)
	case form.holderByID:
		holder = entsql.EQ(vt.C(voucher.FieldHolderID), paramHolder)
	default:
		cu := b.Table(customer.Table).As("cu")
		holder = entsql.In(vt.C(voucher.FieldHolderID), b.Select(cu.C(customer.FieldID)).From(cu).
			Where(entsql.And(entsql.EQ(cu.C(customer.FieldProjectID), paramProject),
				entsql.EQ(cu.C(customer.FieldSourceID), paramHolder))))
	}
	where := []*entsql.Predicate{
		entsql.EQ(vt.C(voucher.FieldProjectID), paramProject), holder,
		entsql.ExprP(vt.C(voucher.FieldActive)),
		inDates(vt.C(voucher.FieldStartDate), vt.C(voucher.FieldExpirationDate)),
		entsql.Or(entsql.IsNull(vt.C(voucher.FieldCampaignID)), campaignUsable),
	}
	if form.before {
		where = append(where, entsql.LT(vt.C(voucher.FieldCreatedAt), paramBefore))
	}
	sel := b.Select(vt.Columns(codeCandidateColumns...)...).
		AppendSelect(ct.C(campaign.FieldCampaignType), ct.C(campaign.FieldCategoryID)).
		From(vt).
		LeftJoin(ct).OnP(entsql.And(
		entsql.ColumnsEQ(ct.C(campaign.FieldID), vt.C(voucher.FieldCampaignID)),
		entsql.ColumnsEQ(ct.C(campaign.FieldProjectID), vt.C(voucher.FieldProjectID)))).
		Where(entsql.And(where...)).
		OrderBy(entsql.Desc(vt.C(voucher.FieldCreatedAt)), entsql.Desc(vt.C(voucher.FieldID))).
		Limit(MaxCandidates + 1)
	text, args := sel.Query()
	st := codeCandidateStatement{text: text, params: make([]codeParam, len(args))}
	for i, a := range args {
		p, ok := a.(codeParam)
		if !ok {
			return codeCandidateStatement{}, fmt.Errorf("candidate codes: argument %d of the statement is %T, not a placeholder", i, a)
		}
		st.params[i] = p
	}
	codeCandidateStatements.Store(form, st)
	return st, nil
}

// codeCandidates reads the usable codes the customer holds (holder not
// nil; by ID or by source_id) or held by nobody (holder nil), created
// before the cursor, newest first (at most MaxCandidates+1); holderRole
// is the filters' holder_role of each ("" for codes held by nobody).
func codeCandidates(ctx context.Context, holder *string, holderByID bool, holderRole string, now time.Time,
	before *time.Time,
) ([]candidate, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	vw, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, schema.ErrNoViewer
	}
	form := codeCandidateForm{dialect: store.Dialect(ctx), held: holder != nil, holderByID: holderByID, before: before != nil}
	st, err := codeCandidateSQL(form)
	if err != nil {
		return nil, err
	}
	values := map[codeParam]any{paramProject: vw.ProjectID, paramNow: now, paramType: campaign.TypeSTANDALONE.String()}
	if holder != nil {
		values[paramHolder] = *holder
	}
	if before != nil {
		values[paramBefore] = *before
	}
	args := make([]any, len(st.params))
	for i, p := range st.params {
		args[i] = values[p]
	}
	rows, err := c.QueryContext(ctx, st.text, args...)
	if err != nil {
		return nil, fmt.Errorf("reading candidate codes: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []candidate
	for rows.Next() {
		v, targets, err := c.Voucher.ScanTargets(codeCandidateColumns)
		if err != nil {
			return nil, err
		}
		var campaignType, campaignCategory sql.NullString
		if err := rows.Scan(append(targets, &campaignType, &campaignCategory)...); err != nil {
			return nil, fmt.Errorf("scanning a candidate code: %w", err)
		}
		if err := v.AssignScanned(codeCandidateColumns, targets); err != nil {
			return nil, fmt.Errorf("decoding a candidate code: %w", err)
		}
		f := fields{"resource_id": v.ID, "resource_type": "voucher", "code": v.Code, "voucher_type": string(v.Type),
			"campaign_id": deref(v.CampaignID), "category_id": deref(v.CategoryID), "holder_role": holderRole}
		if campaignType.Valid {
			f["campaign_type"] = campaignType.String
			if f["category_id"] == "" {
				f["category_id"] = campaignCategory.String
			}
		}
		out = append(out, candidate{object: "voucher", id: v.Code, createdAt: v.CreatedAt, fields: f})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading candidate codes: %w", err)
	}
	return out, nil
}
