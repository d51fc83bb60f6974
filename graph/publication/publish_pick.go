package publication

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/vouchercode"
)

// pickFromCampaign selects n suitable vouchers of cmp at random: active,
// inside their date window, never published. On PostgreSQL the rows are
// locked FOR UPDATE SKIP LOCKED, so concurrent publications (in any number
// of server processes) pick different vouchers without waiting on each
// other. AUTO_UPDATE campaigns make new codes when too few are left.
func pickFromCampaign(ctx context.Context, cmp *ent.Campaign, n int) ([]*ent.Voucher, error) {
	found, err := suitableVouchers(ctx, cmp.ID, n)
	if err != nil {
		return nil, err
	}
	if missing := n - len(found); missing > 0 {
		if cmp.Type != campaign.TypeAUTO_UPDATE {
			return nil, apperr.New(http.StatusBadRequest, "no_voucher_suitable_for_publication",
				"Couldn't find any voucher suitable for publication",
				fmt.Sprintf("Campaign '%s' has %d suitable voucher(s), %d requested. Use auto-update campaigns if you want vouchers generated automatically.",
					cmp.Name, len(found), n))
		}
		fresh, err := generateForPublication(ctx, cmp, missing)
		if err != nil {
			return nil, err
		}
		found = append(found, fresh...)
	}
	return found, nil
}

// suitableVouchers reads up to n suitable vouchers starting from a random
// ID (IDs are random, so the start is a random voucher) and wrapping around.
func suitableVouchers(ctx context.Context, campaignID string, n int) ([]*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	from := pulid.New(pulid.PrefixVoucher, 32)
	query := func(idRange func(*sql.Selector), limit int) ([]*ent.Voucher, error) {
		q := c.Voucher.Query().
			Where(voucher.CampaignID(campaignID), unpublished, voucher.Active(true),
				voucher.Or(voucher.StartDateIsNil(), voucher.StartDateLTE(now)),
				voucher.Or(voucher.ExpirationDateIsNil(), voucher.ExpirationDateGT(now)),
				idRange).
			Order(voucher.ByID()).
			Limit(limit)
		if entdb.DialectFromContext(ctx) == dialect.Postgres {
			q = q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
		}
		return q.All(ctx)
	}
	found, err := query(sql.FieldGTE(voucher.FieldID, from), n)
	if err != nil {
		return nil, fmt.Errorf("selecting vouchers: %w", err)
	}
	if len(found) < n {
		more, err := query(sql.FieldLT(voucher.FieldID, from), n-len(found))
		if err != nil {
			return nil, fmt.Errorf("selecting vouchers: %w", err)
		}
		found = append(found, more...)
	}
	return found, nil
}

// unpublished selects vouchers never published, written as the literal
// predicate of the partial index voucher_unpublished_campaign_id_id: a
// prepared statement's generic plan can use that index only when the
// query says publish_count = 0 itself, not publish_count = $n.
func unpublished(s *sql.Selector) {
	s.Where(sql.ExprP(s.C(voucher.FieldPublishCount) + " = 0"))
}

// generateForPublication makes n new codes for an AUTO_UPDATE campaign.
func generateForPublication(ctx context.Context, cmp *ent.Campaign, n int) ([]*ent.Voucher, error) {
	tmpl, cc, err := campaignpkg.VoucherTemplate(cmp, &campaignpkg.AddVouchersInput{})
	if err != nil {
		return nil, err
	}
	gen, err := campaignpkg.CodeGenerator(cc)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	src := vouchercode.NewSource()
	var created []*ent.Voucher
	for attempt := 0; len(created) < n && attempt < 64; attempt++ {
		code := gen.Random(src)
		inserted, err := campaignpkg.InsertVouchers(ctx, cmp.ProjectID, &cmp.ID, tmpl, []string{code})
		if err != nil {
			return nil, err
		}
		if inserted == 0 {
			continue // collided with an existing code: draw again
		}
		v, err := c.Voucher.Query().Where(voucher.Code(code)).Only(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading new voucher: %w", err)
		}
		created = append(created, v)
	}
	if len(created) < n {
		return nil, apperr.New(http.StatusBadRequest, "no_voucher_suitable_for_publication",
			"Couldn't find any voucher suitable for publication", "Couldn't create new vouchers for publication")
	}
	return created, nil
}

// VoucherByCode finds the voucher asked for by code (404 naming it).
func VoucherByCode(ctx context.Context, code string) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	vch, err := campaignpkg.WithVoucherCategories(c.Voucher.Query().Where(voucher.Code(code))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("voucher", code)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up voucher: %w", err)
	}
	return vch, nil
}

// checkSuitable tells why a specific voucher cannot be published now.
func checkSuitable(v *ent.Voucher, now time.Time) error {
	switch {
	case v.PublishCount > 0:
		return alreadyPublished(v)
	case !v.Active:
		return apperr.New(http.StatusBadRequest, "voucher_disabled", "Voucher is disabled",
			fmt.Sprintf("Voucher '%s' is not active", v.Code))
	case v.StartDate != nil && v.StartDate.After(now):
		return apperr.New(http.StatusBadRequest, "voucher_not_active", "Voucher not active",
			fmt.Sprintf("Voucher '%s' is not active yet (starts %s)", v.Code, v.StartDate.UTC().Format(time.RFC3339)))
	case v.ExpirationDate != nil && !v.ExpirationDate.After(now):
		return apperr.New(http.StatusBadRequest, "voucher_expired", "Voucher expired",
			fmt.Sprintf("Voucher '%s' expired on %s", v.Code, v.ExpirationDate.UTC().Format(time.RFC3339)))
	}
	return nil
}

func alreadyPublished(v *ent.Voucher) error {
	return apperr.New(http.StatusBadRequest, "voucher_already_published", "Voucher already published",
		fmt.Sprintf("Voucher '%s' has already been published", v.ID))
}

// markPublished adds a publish entry to each voucher and makes the customer
// its holder. The update only touches vouchers still unpublished, so a
// voucher can never be handed out twice, whatever races with it. now is
// the vouchers' new updated_at.
func markPublished(ctx context.Context, ids []string, customerID string, now time.Time) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	n, err := c.Voucher.Update().
		Where(voucher.IDIn(ids...), voucher.PublishCount(0)).
		AddPublishCount(1).SetHolderID(customerID).SetUpdatedAt(now).
		Save(ctx)
	if err != nil {
		return fmt.Errorf("publishing vouchers: %w", err)
	}
	if n != len(ids) {
		if len(ids) == 1 {
			return alreadyPublished(&ent.Voucher{ID: ids[0]})
		}
		return apperr.New(http.StatusConflict, "publication_conflict", "Publication conflict",
			"Another request published one of the selected vouchers; retry the request")
	}
	return nil
}
