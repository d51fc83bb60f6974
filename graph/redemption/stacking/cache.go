package stacking

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ProjectRulesCache keeps each project's stacking rules for AppKeyCacheTTL,
// so a validation or redemption does not read its project row: a change
// takes effect at once in the process that made it and within
// AppKeyCacheTTL in the others (docs/redemptions.md, "Stacking rules").
type ProjectRulesCache struct {
	rules *store.TTLCache[*jsonfield.StackingRules]
}

// maxCachedProjects bounds the cache; it only holds projects that exist.
const maxCachedProjects = 10_000

// NewProjectRulesCache returns an empty cache whose entries live for ttl.
func NewProjectRulesCache(ttl time.Duration) *ProjectRulesCache {
	return &ProjectRulesCache{rules: store.NewTTLCache[*jsonfield.StackingRules](ttl, maxCachedProjects)}
}

type projectRulesCacheKey struct{}

// WithProjectRulesCache returns ctx carrying cache, read by the redemption
// engine and invalidated by the stacking-rules use cases.
func WithProjectRulesCache(ctx context.Context, cache *ProjectRulesCache) context.Context {
	return context.WithValue(ctx, projectRulesCacheKey{}, cache)
}

// storedStackingRules are the viewer's project's own stacking rules (nil:
// the defaults apply), from the cache in ctx when it holds a fresh copy.
func storedStackingRules(ctx context.Context) (*jsonfield.StackingRules, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("stacking rules: no project in context")
	}
	cache, _ := ctx.Value(projectRulesCacheKey{}).(*ProjectRulesCache)
	now := time.Now()
	if cache != nil {
		if rules, ok := cache.rules.Get(v.ProjectID, now); ok {
			return rules, nil
		}
	}
	_, p, err := viewerProject(ctx, false)
	if err != nil {
		return nil, err
	}
	if cache != nil {
		cache.rules.Put(v.ProjectID, p.StackingRules, now)
	}
	return p.StackingRules, nil
}

// forgetProjectRules drops the project's rules from the cache in ctx now
// and when the transaction in ctx commits.
func forgetProjectRules(ctx context.Context, projectID string) {
	if cache, _ := ctx.Value(projectRulesCacheKey{}).(*ProjectRulesCache); cache != nil {
		cache.rules.ForgetAtCommit(ctx, projectID)
	}
}
