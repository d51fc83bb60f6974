package bin

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// relinkPublications links restored vouchers to their publications again:
// a deleted voucher's publications keep what it looked like in
// deleted_vouchers (graph/campaign voucher_snapshots.go); once the voucher
// is back, each publication that keeps it links to it again and drops its
// snapshot, so the publication shows the live voucher. The publications
// are found among those of the vouchers' holders that keep a deleted
// voucher (one read), the links written in one INSERT and the snapshots
// dropped in one UPDATE.
func relinkPublications(ctx context.Context, c *ent.Client, vs []*ent.Voucher) error {
	restored := map[string]bool{}
	var holders []string
	for _, v := range vs {
		if v.HolderID != nil && v.PublishCount > 0 {
			restored[v.ID] = true
			if !slices.Contains(holders, *v.HolderID) {
				holders = append(holders, *v.HolderID)
			}
		}
	}
	if len(holders) == 0 {
		return nil
	}
	pubs, err := c.Publication.Query().Where(publication.CustomerIDIn(holders...), publication.DeletedVouchersNotNil()).
		Select(publication.FieldID, publication.FieldDeletedVouchers).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the restored vouchers' publications: %w", err)
	}
	drop := map[string][]string{} // publication id → the restored vouchers it keeps
	b := sql.Dialect(store.Dialect(ctx))
	links := b.Insert(publication.VouchersTable).Columns(publication.VouchersPrimaryKey...)
	for _, p := range pubs {
		for id := range p.DeletedVouchers {
			if restored[id] {
				drop[p.ID] = append(drop[p.ID], id)
				links.Values(p.ID, id)
			}
		}
	}
	if len(drop) == 0 {
		return nil
	}
	query, args := links.Query()
	if _, err := c.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("linking the restored vouchers' publications: %w", err)
	}
	return dropSnapshots(ctx, c, drop)
}

// dropSnapshots removes the keys drop names (publication id → voucher
// ids) from the publications' deleted_vouchers, NULL when none is left,
// in one statement; the removal happens in SQL on the row as the UPDATE
// finds it, so a concurrent deletion's snapshots stay.
func dropSnapshots(ctx context.Context, c *ent.Client, drop map[string][]string) error {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return schema.ErrNoViewer
	}
	raw, err := json.Marshal(drop)
	if err != nil {
		return fmt.Errorf("dropping restored vouchers' snapshots: %w", err)
	}
	t, col, id, project := publication.Table, publication.FieldDeletedVouchers, publication.FieldID, publication.FieldProjectID
	query := fmt.Sprintf(`UPDATE %[1]s SET %[2]s = (SELECT NULLIF(json_group_object(d.key, d.value), '{}') FROM json_each(%[1]s.%[2]s) AS d
WHERE d.key NOT IN (SELECT value FROM json_each(?, '$."' || %[1]s.%[3]s || '"')))
WHERE %[3]s IN (SELECT key FROM json_each(?)) AND %[4]s = ?`, t, col, id, project)
	args := []any{string(raw), string(raw), v.ProjectID}
	if store.Dialect(ctx) == dialect.Postgres {
		query = fmt.Sprintf(`UPDATE %[1]s SET %[2]s = NULLIF(%[2]s - ARRAY(SELECT jsonb_array_elements_text($1::jsonb -> %[3]s)), '{}'::jsonb)
WHERE %[3]s IN (SELECT jsonb_object_keys($1::jsonb)) AND %[4]s = $2`, t, col, id, project)
		args = []any{string(raw), v.ProjectID}
	}
	if _, err := c.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("dropping restored vouchers' snapshots: %w", err)
	}
	return nil
}
