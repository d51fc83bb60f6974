package access

import (
	"context"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// AppKeyCacheTTL is how long a server process trusts an application key it
// read: blocking, deleting or changing a key takes effect at once in the
// process that did it and within this time in every other process (the
// interface allows a minute).
const AppKeyCacheTTL = 5 * time.Second

// maxCachedAppKeys bounds the cache; it only ever holds keys that exist.
const maxCachedAppKeys = 10_000

// AppKeyCache keeps recently used application keys (their hashed tokens,
// status and allow-lists, never a token) so most requests authenticate
// without a database round trip. The comparison of the presented token
// with the stored hash still happens on every request.
type AppKeyCache struct {
	keys *store.TTLCache[*ent.AppKey]
	now  func() time.Time // the clock of the entries' ages; a test moves it
}

// NewAppKeyCache returns an empty cache whose entries live for ttl.
func NewAppKeyCache(ttl time.Duration) *AppKeyCache {
	return &AppKeyCache{keys: store.NewTTLCache[*ent.AppKey](ttl, maxCachedAppKeys), now: time.Now}
}

type appKeyCacheKey struct{}

// WithAppKeyCache returns ctx carrying cache, used by AuthenticateApp and
// invalidated by the key management use cases.
func WithAppKeyCache(ctx context.Context, cache *AppKeyCache) context.Context {
	return context.WithValue(ctx, appKeyCacheKey{}, cache)
}

// lookupAppKey reads an application key by ID, from the cache in ctx when
// it holds a fresh copy. ent's not-found error passes through.
func lookupAppKey(ctx context.Context, c *ent.Client, appID string) (*ent.AppKey, error) {
	cache, _ := ctx.Value(appKeyCacheKey{}).(*AppKeyCache)
	if cache == nil {
		return c.AppKey.Get(ctx, appID)
	}
	now := cache.now()
	if key, ok := cache.keys.Get(appID, now); ok {
		return key, nil
	}
	key, err := c.AppKey.Get(ctx, appID)
	if err != nil {
		return nil, err
	}
	cache.keys.Put(appID, key, now)
	return key, nil
}

// forgetAppKey drops appID from the cache in ctx now and again when the
// transaction in ctx commits.
func forgetAppKey(ctx context.Context, appID string) {
	if cache, _ := ctx.Value(appKeyCacheKey{}).(*AppKeyCache); cache != nil {
		cache.keys.ForgetAtCommit(ctx, appID)
	}
}
