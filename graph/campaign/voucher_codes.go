package campaign

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/vouchercode"
)

// The codes a campaign may issue: their shape, their generator and
// whether the code space leaves room for a request.

// validateCode accepts any printable text of 1 to maxCodeLen characters
// that is not a reserved path word of /v1/vouchers/ (vouchercode.Reserved).
func validateCode(code string) error {
	if code == "" || !utf8.ValidString(code) || utf8.RuneCountInString(code) > maxCodeLen {
		return apperr.InvalidPayload("Property .code must be 1 to %d characters of text", maxCodeLen)
	}
	if vouchercode.Reserved(code) {
		return apperr.InvalidPayload("Property .code %q is reserved: it names an operation under /v1/vouchers/ (reserved codes: %s)",
			code, strings.Join(vouchercode.ReservedPathWords, ", "))
	}
	for _, r := range code {
		if !unicode.IsPrint(r) {
			return apperr.InvalidPayload("Property .code must contain printable characters only (found %U)", r)
		}
	}
	return nil
}

// CodeGenerator returns the generator of codes shaped by cc.
func CodeGenerator(cc *jsonfield.CodeConfig) (*vouchercode.Generator, error) {
	gen, err := vouchercode.New(Deref(cc.Charset), Deref(cc.Pattern), Deref(cc.Prefix), Deref(cc.Postfix))
	if err != nil {
		return nil, apperr.New(http.StatusBadRequest, "invalid_code_config", "Invalid code config", err.Error())
	}
	return gen, nil
}

// checkCodeSpace fails up front when the configuration cannot produce count
// codes that do not exist yet in the project (remaining space, not total).
func checkCodeSpace(ctx context.Context, gen *vouchercode.Generator, count int) error {
	space := gen.Space()
	if space >= 1<<62 {
		return nil // astronomically larger than anything stored
	}
	existing, err := countMatchingCodes(ctx, gen)
	if err != nil {
		return err
	}
	remaining := int64(space) - int64(existing)
	if int64(count) > remaining {
		return apperr.New(http.StatusBadRequest, "invalid_code_config", "Invalid code config",
			fmt.Sprintf("The code configuration allows %d codes, %d of which already exist in the project: %d new codes cannot be generated (at most %d)",
				space, existing, count, max(remaining, 0)))
	}
	return nil
}

// countMatchingCodes counts the project's codes that the configuration could
// produce (case-sensitive: GLOB on SQLite, LIKE on PostgreSQL).
func countMatchingCodes(ctx context.Context, gen *vouchercode.Generator) (int, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	m := gen.Match()
	match := func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			b.Ident(s.C(voucher.FieldCode))
			if entdb.DialectFromContext(ctx) == dialect.Postgres {
				b.WriteString(" LIKE ").Arg(m.Like).WriteString(` ESCAPE '\'`)
			} else {
				b.WriteString(" GLOB ").Arg(m.Glob)
			}
		}))
	}
	n, err := c.Voucher.Query().Where(match).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting existing codes: %w", err)
	}
	return n, nil
}
