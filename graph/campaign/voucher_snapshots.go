package campaign

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
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A publication is a record of a past event: it shows its vouchers as they
// were even after they are deleted (docs/publications.md, "Deleted
// vouchers"). deleteVouchers, before it removes the publication links,
// writes each published voucher's JSON — the ent entity with its
// campaign's name and category_id and the category the voucher shows, what
// rest renders a voucher inside a publication from — into its
// publications' deleted_vouchers, keyed by the voucher's id, as a string.
// A batch costs a read of its published vouchers (publish_count > 0, by
// primary key: a batch of codes never published stops there) with their
// campaigns (the campaigns' categories in one more read only when one has
// any), a read of their links, and one UPDATE per snapshotChunk
// publications.

// snapshotChunk bounds the publications one UPDATE writes.
const snapshotChunk = 500

// keepPublishedVouchers writes the snapshots of the published vouchers
// among ids into their publications (see above); it must run in the
// deleting transaction, before the links go.
func keepPublishedVouchers(ctx context.Context, c *ent.Client, ids []string) error {
	vs, err := WithJoinedVoucherCategories(c.Voucher.Query().Where(voucher.IDIn(ids...), voucher.PublishCountGT(0))).All(ctx)
	if err != nil || len(vs) == 0 {
		return store.WrapErr("reading the published vouchers", err)
	}
	if err := CampaignCategories(ctx, vs); err != nil {
		return err
	}
	snaps := make(map[string]string, len(vs))
	published := make([]any, len(vs))
	for i, v := range vs {
		snap, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("keeping voucher %s on its publications: %w", v.ID, err)
		}
		snaps[v.ID], published[i] = string(snap), v.ID
	}
	// The links, read once: publication_vouchers has no index on voucher_id
	// (the publication's hot path inserts into it), like the DELETE of the
	// links that follows.
	b := sql.Dialect(store.Dialect(ctx))
	t := b.Table(publication.VouchersTable)
	pubCol, voucherCol := publication.VouchersPrimaryKey[0], publication.VouchersPrimaryKey[1]
	query, args := b.Select(t.C(pubCol), t.C(voucherCol)).From(t).Where(sql.In(t.C(voucherCol), published...)).Query()
	rows, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("reading the published vouchers' publications: %w", err)
	}
	defer func() { _ = rows.Close() }()
	patches := map[string]map[string]string{} // publication id → voucher id → snapshot
	for rows.Next() {
		var pubID, voucherID string
		if err := rows.Scan(&pubID, &voucherID); err != nil {
			return fmt.Errorf("reading the published vouchers' publications: %w", err)
		}
		if patches[pubID] == nil {
			patches[pubID] = map[string]string{}
		}
		patches[pubID][voucherID] = snaps[voucherID]
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the published vouchers' publications: %w", err)
	}
	pubIDs := make([]string, 0, len(patches))
	for id := range patches {
		pubIDs = append(pubIDs, id)
	}
	slices.Sort(pubIDs)
	for chunk := range slices.Chunk(pubIDs, snapshotChunk) {
		doc := make(map[string]map[string]string, len(chunk))
		for _, id := range chunk {
			doc[id] = patches[id]
		}
		if err := writeSnapshots(ctx, c, doc); err != nil {
			return err
		}
	}
	return nil
}

// writeSnapshots merges each publication's snapshots (doc: publication id
// → voucher id → snapshot) into its deleted_vouchers in one statement. The
// merge happens in SQL, on the row as the UPDATE finds it, so concurrent
// deletions of other vouchers of the same publication keep theirs.
func writeSnapshots(ctx context.Context, c *ent.Client, doc map[string]map[string]string) error {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return schema.ErrNoViewer
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("keeping deleted vouchers on their publications: %w", err)
	}
	t, col, id, project := publication.Table, publication.FieldDeletedVouchers, publication.FieldID, publication.FieldProjectID
	query := fmt.Sprintf(`UPDATE %[1]s SET %[2]s = json_patch(COALESCE(%[2]s, '{}'), json_extract(?, '$."' || %[3]s || '"'))
WHERE %[3]s IN (SELECT key FROM json_each(?)) AND %[4]s = ?`, t, col, id, project)
	args := []any{string(raw), string(raw), v.ProjectID}
	if store.Dialect(ctx) == dialect.Postgres {
		query = fmt.Sprintf(`UPDATE %[1]s SET %[2]s = COALESCE(%[2]s, '{}'::jsonb) || ($1::jsonb -> %[3]s)
WHERE %[3]s IN (SELECT jsonb_object_keys($1::jsonb)) AND %[4]s = $2`, t, col, id, project)
		args = []any{string(raw), v.ProjectID}
	}
	if _, err := c.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("keeping deleted vouchers on their publications: %w", err)
	}
	return nil
}
