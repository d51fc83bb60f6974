package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/lru"
)

// Automatic persisted queries (Apollo's protocol, gqlgen's
// extension.AutomaticPersistedQuery): a client sends only the query's
// SHA-256 hash, by POST or GET; on PersistedQueryNotFound it sends hash and
// text once, and the hash alone works from then on.
const (
	// apqEntries is how many query texts each process remembers. The cache
	// is per process: on another replica, or after eviction, the client
	// just sends the text again.
	apqEntries = 100
	// maxPersistedQueryBytes bounds the text of one remembered query, so
	// the cache holds at most apqEntries × 32 KiB whatever clients send.
	// Longer queries are still answered, just not remembered.
	maxPersistedQueryBytes = 32 << 10
)

// apqCache is an LRU of query texts that ignores texts longer than
// maxPersistedQueryBytes.
type apqCache struct{ *lru.LRU[string] }

func newAPQCache() graphql.Cache[string] { return apqCache{lru.New[string](apqEntries)} }

// Add implements graphql.Cache.
func (c apqCache) Add(ctx context.Context, hash, query string) {
	if len(query) <= maxPersistedQueryBytes {
		c.LRU.Add(ctx, hash, query)
	}
}
