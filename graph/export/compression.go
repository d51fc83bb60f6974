package export

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
)

// PostgreSQL compresses an export chunk's text (512 KiB) when it stores
// it, with pglz unless told otherwise: storing the 313 chunks of a 1M-row
// export took 2.5 s with pglz and 1.4 s with lz4 (docs/benchmarks.md, issue
// 16), CPU the database takes from the export's own reads. lz4 compresses
// to about the same size. default_toast_compression is a setting of the session
// (here of the chunk's transaction only, SET LOCAL), so no column and no
// migration changes; a server built without lz4 keeps pglz.

// chunkLZ4Available reports whether the database can store chunks with
// lz4 (PostgreSQL 14 or later built with it).
func chunkLZ4Available(ctx context.Context, c *ent.Client, dia string) bool {
	if dia != dialect.Postgres {
		return false
	}
	rows, err := c.QueryContext(ctx,
		"SELECT count(*) FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)")
	if err != nil {
		return false
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if rows.Scan(&n) != nil {
			return false
		}
	}
	return rows.Err() == nil && n == 1
}

// compressChunksWithLZ4 makes the chunks the transaction of ctx stores
// compressed with lz4.
func compressChunksWithLZ4(ctx context.Context, c *ent.Client) error {
	if _, err := c.ExecContext(ctx, "SET LOCAL default_toast_compression = lz4"); err != nil {
		return fmt.Errorf("choosing chunk compression: %w", err)
	}
	return nil
}
