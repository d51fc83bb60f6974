package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"entgo.io/ent/dialect"

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
// publications' deleted_vouchers, keyed by the voucher's id. A batch of
// deleted vouchers costs two reads (the published ones with their
// campaigns and publications; the campaigns' categories only when one has
// any) and one UPDATE per snapshotChunk publications; vouchers never
// published cost the first read only.

// snapshotChunk bounds the publications one UPDATE writes.
const snapshotChunk = 500

// keepPublishedVouchers writes the snapshots of the published vouchers
// among ids into their publications (see above); it must run in the
// deleting transaction, before the links go.
func keepPublishedVouchers(ctx context.Context, c *ent.Client, ids []string) error {
	vs, err := WithJoinedVoucherCategories(c.Voucher.Query().Where(voucher.IDIn(ids...), voucher.HasPublications())).
		WithPublications(func(q *ent.PublicationQuery) { q.Select(publication.FieldID) }).All(ctx)
	if err != nil || len(vs) == 0 {
		return store.WrapErr("reading the published vouchers", err)
	}
	if err := CampaignCategories(ctx, vs); err != nil {
		return err
	}
	patches := map[string]map[string]string{} // publication id → voucher id → snapshot
	for _, v := range vs {
		pubs := v.Edges.Publications
		v.Edges.Publications = nil
		snap, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("keeping voucher %s on its publications: %w", v.ID, err)
		}
		for _, p := range pubs {
			if patches[p.ID] == nil {
				patches[p.ID] = map[string]string{}
			}
			patches[p.ID][v.ID] = string(snap)
		}
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
