package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// InsertVouchers stores one voucher per code, made from tmpl, in the
// caller's transaction. Codes that already exist in the project are skipped
// (the unique index decides, so concurrent writers never collide), and so
// are codes a voucher in the trash bin still holds. The
// campaign's vouchers_count grows by the number inserted, in the same
// transaction, so it always agrees with the stored vouchers. It is the one
// write path for vouchers: single adds and bulk jobs both use it.
func InsertVouchers(ctx context.Context, projectID string, campaignID *string, tmpl *jsonfield.VoucherTemplate, codes []string) (int, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	dia := entdb.DialectFromContext(ctx)
	if dia == "" {
		return 0, fmt.Errorf("inserting vouchers: no SQL dialect in context")
	}
	if codes, err = withoutBinned(ctx, codes); err != nil || len(codes) == 0 { // voucher_bin.go
		return 0, err
	}
	if err := dropDeletedCategory(ctx, c, tmpl); err != nil { // voucher_categories.go
		return 0, err
	}
	shared, err := templateColumns(tmpl)
	if err != nil {
		return 0, err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	inserted := 0
	if dia == dialect.Postgres {
		// Insert in one global order (sorted codes): concurrent writers then
		// take their unique-index locks in the same order and cannot deadlock.
		codes = slices.Clone(codes)
		slices.Sort(codes)
		n, err := insertUnnest(ctx, c, projectID, campaignID, now, shared, codes)
		inserted += n
		if err != nil {
			return inserted, err
		}
	} else {
		n, err := insertSQLite(ctx, c, projectID, campaignID, now, shared, codes)
		inserted += n
		if err != nil {
			return inserted, err
		}
	}
	if campaignID != nil && inserted > 0 {
		if err := c.Campaign.Update().Where(campaign.ID(*campaignID)).AddVouchersCount(inserted).Exec(ctx); err != nil {
			return inserted, fmt.Errorf("counting campaign vouchers: %w", err)
		}
	}
	return inserted, nil
}

// insertUnnest writes all codes with one statement on PostgreSQL: the ids
// and codes travel as two arrays, the shared columns once, so a batch of
// thousands of rows costs a couple of dozen parameters.
func insertUnnest(ctx context.Context, c *ent.Client, projectID string, campaignID *string, now time.Time, shared []any, codes []string) (int, error) {
	ids := newVoucherIDs(len(codes))
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (%s, %s, %s, %s, %s, %s) SELECT u.id, $3::timestamptz, $4::varchar, u.code, $5::varchar",
		voucher.Table, voucher.FieldID, voucher.FieldCreatedAt, voucher.FieldProjectID, voucher.FieldCode,
		voucher.FieldCampaignID, strings.Join(sharedColumnNames, ", "))
	args := []any{pq.Array(ids), pq.Array(codes), now, projectID, campaignID}
	for i, v := range shared {
		if raw, ok := v.([]byte); ok {
			v = string(raw)
		}
		args = append(args, v)
		fmt.Fprintf(&b, ", $%d::%s", len(args), sharedColumnTypes[i])
	}
	fmt.Fprintf(&b, " FROM unnest($1::varchar[], $2::varchar[]) WITH ORDINALITY AS u(id, code, n) ORDER BY u.n ON CONFLICT (%s, %s) DO NOTHING",
		voucher.FieldProjectID, voucher.FieldCode)
	return execCount(ctx, c, b.String(), args)
}

// execCount runs an INSERT and returns the number of rows it wrote.
func execCount(ctx context.Context, c *ent.Client, query string, args []any) (int, error) {
	res, err := c.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("inserting vouchers: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("counting inserted vouchers: %w", err)
	}
	return int(n), nil
}

// sharedColumnTypes are the PostgreSQL types of sharedColumnNames.
var sharedColumnTypes = []string{
	"varchar", "varchar", "varchar", "jsonb", "jsonb",
	"jsonb", "timestamptz", "timestamptz", "jsonb",
	"jsonb", "jsonb", "boolean", "varchar",
	"jsonb", "boolean", "bigint", "bigint",
	"bigint", "bigint",
}

// sharedColumnNames are the columns every voucher of one template shares,
// in the order templateColumns returns their values.
var sharedColumnNames = []string{
	voucher.FieldType, voucher.FieldCategory, voucher.FieldCategoryID, voucher.FieldDiscount, voucher.FieldGift,
	voucher.FieldLoyaltyCard, voucher.FieldStartDate, voucher.FieldExpirationDate, voucher.FieldValidityTimeframe,
	voucher.FieldValidityDayOfWeek, voucher.FieldValidityHours, voucher.FieldActive, voucher.FieldAdditionalInfo,
	voucher.FieldMetadata, voucher.FieldIsReferralCode, voucher.FieldPublishCount, voucher.FieldRedemptionQuantity,
	voucher.FieldRedeemedQuantity, voucher.FieldRedeemedPoints,
}

// templateColumns encodes a template once per batch, the way ent encodes
// the same fields (JSON columns as JSON text, absent values as NULL).
func templateColumns(t *jsonfield.VoucherTemplate) ([]any, error) {
	metadata := t.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	jsonCols := []any{t.Discount, t.Gift, t.LoyaltyCard, t.ValidityTimeframe, t.ValidityDayOfWeek, t.ValidityHours, metadata}
	enc := make([]any, len(jsonCols))
	for i, v := range jsonCols {
		if isNil(v) {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encoding voucher template: %w", err)
		}
		enc[i] = b
	}
	return []any{
		string(t.Type), t.Category, t.CategoryID, enc[0], enc[1],
		enc[2], utcPtr(t.StartDate), utcPtr(t.ExpirationDate), enc[3],
		enc[4], enc[5], t.Active, t.AdditionalInfo,
		enc[6], t.IsReferralCode, 0, t.RedemptionQuantity,
		t.RedeemedQuantity, 0,
	}, nil
}

func isNil(v any) bool {
	switch x := v.(type) {
	case *jsonfield.Discount:
		return x == nil
	case *jsonfield.Gift:
		return x == nil
	case *jsonfield.LoyaltyCard:
		return x == nil
	case *jsonfield.ValidityTimeframe:
		return x == nil
	case *jsonfield.ValidityHours:
		return x == nil
	case []int:
		return x == nil
	}
	return v == nil
}
