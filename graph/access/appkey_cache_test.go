package access

import (
	"context"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestAppKeyCache: a change made elsewhere (another server process) is
// seen once the entry expires; a change made through this process's use
// cases is seen at once, even by a lookup that raced with the change.
func TestAppKeyCache(t *testing.T) {
	db, ctx := graphtest.ProjectContext(t)
	cache := NewAppKeyCache(100 * time.Millisecond)
	// The entries age by this clock, not by the (loaded) machine's.
	now := time.Now()
	cache.now = func() time.Time { return now }
	ctx = WithAppKeyCache(ctx, cache)
	var key AppKeyWithToken
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		key, err = CreateAppKey(ctx, AppKeyInput{Name: graphtest.Ptr("shop")})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	auth := func() error {
		_, err := AuthenticateApp(ctx, db.Client, key.Key.ID, key.Token, "127.0.0.1")
		return err
	}
	if err := auth(); err != nil {
		t.Fatalf("new key: %v", err)
	}

	// Blocked behind the cache's back: trusted until the entry expires.
	sys := viewer.NewSystemContext(context.Background())
	db.Client.AppKey.UpdateOneID(key.Key.ID).SetStatus(appkey.StatusBLOCKED).ExecX(sys)
	if err := auth(); err != nil {
		t.Fatalf("cached key refused before it expired: %v", err)
	}
	now = now.Add(150 * time.Millisecond)
	if err := auth(); err == nil {
		t.Fatal("blocked key accepted after its cache entry expired")
	}

	// Unblocked through the use case: accepted at once. A lookup between
	// the change and its commit re-reads the old row, and the commit still
	// drops it.
	if err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := SetAppKeyStatus(ctx, key.Key.ID, false); err != nil {
			return err
		}
		if err := auth(); err == nil {
			t.Error("the uncommitted unblock was visible outside its transaction")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := auth(); err != nil {
		t.Fatalf("unblocked key refused: %v", err)
	}
}
