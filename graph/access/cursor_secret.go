package access

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cursorsecret"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// cursorSecretID is the one row of the cursor_secrets table.
const cursorSecretID = "v2-list-cursor"

// CursorSecret returns the key that signs v2 list cursors: a random key
// stored in the database on first use (insert-or-ignore, then read), so
// every server process sharing the database signs and checks alike. It is
// read per request (one primary-key lookup) rather than cached, so a
// process never holds a key another database does not know.
func CursorSecret(ctx context.Context) ([]byte, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	row, err := c.CursorSecret.Get(ctx, cursorSecretID)
	if err == nil {
		return decodeSecret(row.Secret)
	}
	if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("reading cursor secret: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("cursor secret: %w", err)
	}
	err = c.CursorSecret.Create().SetID(cursorSecretID).SetSecret(hex.EncodeToString(key)).
		OnConflictColumns(cursorsecret.FieldID).DoNothing().Exec(ctx)
	if err != nil && !ent.IsNotFound(err) && err.Error() != "sql: no rows in result set" {
		return nil, fmt.Errorf("storing cursor secret: %w", err)
	}
	row, err = c.CursorSecret.Get(ctx, cursorSecretID)
	if err != nil {
		return nil, fmt.Errorf("reading cursor secret: %w", err)
	}
	return decodeSecret(row.Secret)
}

func decodeSecret(s string) ([]byte, error) {
	key, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("cursor secret is not hex: %w", err)
	}
	return key, nil
}
