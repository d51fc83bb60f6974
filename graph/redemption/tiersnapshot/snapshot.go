package tiersnapshot

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// A qualification checks up to a thousand promotion tiers; reading each
// one's row, campaign, rule assignments, rules and category per request
// cost most of its time (docs/benchmarks.md "Qualifications"). A server
// process therefore keeps, per project, a snapshot of the active tiers of
// active campaigns with everything the evaluation reads of them, the
// rules parsed once. The snapshot holds while the project's
// qualification_version (one indexed read per qualification) is the one
// it was built at: every write to tiers, campaigns, rules, assignments or
// categories changes that version in its own transaction (ent/entdb
// qualification_version.go), so an edit made through any server process
// is seen by the next qualification of every other. Dates are not part of
// the snapshot: tiers and campaigns are filtered against the request's
// time. Memory is bounded (TierSnapshotLimits); a project with more
// active tiers than a snapshot may hold is served by SQL, as before.

// TierSnapshotLimits bound the memory of TierSnapshots.
type TierSnapshotLimits struct {
	// Projects is how many projects' snapshots are kept (least recently
	// used dropped first).
	Projects int
	// Tiers is the most active tiers one snapshot holds; a project with
	// more is served by SQL.
	Tiers int
	// TotalTiers bounds the tiers of all snapshots together.
	TotalTiers int
}

// DefaultTierSnapshotLimits: 10,000 active tiers per project (the
// qualification benchmark's largest size), 200,000 in all.
var DefaultTierSnapshotLimits = TierSnapshotLimits{Projects: 256, Tiers: 10_000, TotalTiers: 200_000}

// TierSnapshots is a process's snapshots of its projects' active tiers.
type TierSnapshots struct {
	limits TierSnapshotLimits
	mu     sync.Mutex
	lru    *list.List // of *snapshotEntry, most recently used first
	byID   map[string]*list.Element
	total  int // tiers held
	builds int64
}

// snapshotEntry is one project's snapshot and its build lock.
type snapshotEntry struct {
	projectID string
	snap      *TierSnapshot // nil until built
	build     chan struct{} // one build at a time per project
}

// TierSnapshot is a project's active tiers at one qualification_version.
type TierSnapshot struct {
	version int64
	// tooMany: the project has more active tiers than a snapshot holds
	// (nothing else is kept; the request uses SQL).
	tooMany bool
	// codeCampaigns: the project has an active campaign whose codes are
	// meant to be published (CodeCampaignToPublish; dates not checked).
	codeCampaigns bool
	// tiers are newest first (created_at, then id, descending).
	tiers []*SnapshotTier
	byID  map[string]*SnapshotTier
}

// SnapshotTier is a tier as the evaluation reads it.
type SnapshotTier struct {
	Tier *ent.PromotionTier // with its campaign edge; shared, read only
	// Rules are the tier's and its campaign's rules in assignment order,
	// RuleIDs their ids; Category is the tier's category (TierCategoryID).
	Rules    []rules.Definition
	RuleIDs  []string
	Category *ent.Category
}

// NewTierSnapshots returns an empty cache bounded by limits.
func NewTierSnapshots(limits TierSnapshotLimits) *TierSnapshots {
	return &TierSnapshots{limits: limits, lru: list.New(), byID: map[string]*list.Element{}}
}

// Builds is how many snapshots were built (tests).
func (c *TierSnapshots) Builds() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.builds
}

type tierSnapshotsKey struct{}

// WithTierSnapshots returns ctx carrying the cache qualifications use.
func WithTierSnapshots(ctx context.Context, c *TierSnapshots) context.Context {
	return context.WithValue(ctx, tierSnapshotsKey{}, c)
}

// CurrentTierSnapshot is the viewer's project's snapshot at its current
// qualification_version, built when missing or stale; nil (use SQL) when
// ctx carries no cache or the project has too many active tiers.
func CurrentTierSnapshot(ctx context.Context) (*TierSnapshot, error) {
	c, _ := ctx.Value(tierSnapshotsKey{}).(*TierSnapshots)
	v, ok := viewer.FromContext(ctx)
	if c == nil || !ok {
		return nil, nil
	}
	version, err := qualificationVersion(ctx, v.ProjectID)
	if err != nil {
		return nil, err
	}
	e := c.entry(v.ProjectID)
	if s := c.fresh(e, version); s != nil {
		return s.usable(), nil
	}
	select {
	case e.build <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-e.build }()
	if s := c.fresh(e, version); s != nil { // built while this one waited
		return s.usable(), nil
	}
	s, err := buildTierSnapshot(ctx, version, c.limits.Tiers)
	if err != nil {
		return nil, err
	}
	c.store(e, s)
	return s.usable(), nil
}

func (s *TierSnapshot) usable() *TierSnapshot {
	if s.tooMany {
		return nil
	}
	return s
}

// qualificationVersion reads the project's qualification_version.
func qualificationVersion(ctx context.Context, projectID string) (int64, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	var rows []struct {
		V int64 `json:"qualification_version"`
	}
	if err := c.Project.Query().Where(project.ID(projectID)).Select(project.FieldQualificationVersion).
		Scan(viewer.NewSystemContext(ctx), &rows); err != nil {
		return 0, fmt.Errorf("reading the qualification version: %w", err)
	}
	if len(rows) == 0 {
		return 0, fmt.Errorf("reading the qualification version: project %s not found", projectID)
	}
	return rows[0].V, nil
}

// entry is the project's entry, made when missing, marked recently used.
func (c *TierSnapshots) entry(projectID string) *snapshotEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[projectID]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*snapshotEntry)
	}
	e := &snapshotEntry{projectID: projectID, build: make(chan struct{}, 1)}
	c.byID[projectID] = c.lru.PushFront(e)
	c.evict()
	return e
}

// fresh is the entry's snapshot when it was built at version.
func (c *TierSnapshots) fresh(e *snapshotEntry, version int64) *TierSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.snap != nil && e.snap.version == version {
		return e.snap
	}
	return nil
}

// store keeps s as the entry's snapshot (when the entry is still cached).
func (c *TierSnapshots) store(e *snapshotEntry, s *TierSnapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.builds++
	if el, ok := c.byID[e.projectID]; !ok || el.Value != e {
		return
	}
	if e.snap != nil {
		c.total -= len(e.snap.tiers)
	}
	e.snap = s
	c.total += len(s.tiers)
	c.evict()
}

// evict drops least recently used entries beyond the limits (holding mu).
func (c *TierSnapshots) evict() {
	for c.lru.Len() > 1 && (c.lru.Len() > c.limits.Projects || c.total > c.limits.TotalTiers) {
		e := c.lru.Remove(c.lru.Back()).(*snapshotEntry)
		delete(c.byID, e.projectID)
		if e.snap != nil {
			c.total -= len(e.snap.tiers)
		}
	}
}

// Available are the snapshot's tiers a qualification may list at now:
// active (the snapshot holds no other), begun and not expired, of an
// active, begun and unexpired campaign, created before the cursor
// (before: nil for none); at most limit, newest first.
func (s *TierSnapshot) Available(now time.Time, before *time.Time, limit int) []*SnapshotTier {
	out := make([]*SnapshotTier, 0, min(limit, len(s.tiers)))
	for _, t := range s.tiers {
		if len(out) == limit {
			break
		}
		tier, cmp := t.Tier, t.Tier.Edges.Campaign
		if before != nil && !tier.CreatedAt.Before(*before) {
			continue
		}
		if !inDates(tier.StartDate, tier.ExpirationDate, now) || cmp == nil || !inDates(cmp.StartDate, cmp.ExpirationDate, now) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// MayHaveCodeCampaigns reports whether the project may have a campaign
// listed as a campaign entry (graph/qualification campaigns.go): false when,
// at the snapshot's version, no active campaign is of the kinds
// CodeCampaignToPublish selects, so that a qualification need not look
// for them. Campaign writes change the version like tier writes.
func (s *TierSnapshot) MayHaveCodeCampaigns() bool { return s == nil || s.codeCampaigns }

// CodeCampaignToPublish selects the campaigns whose codes are meant to be
// published — DISCOUNT_COUPONS, GIFT_VOUCHERS and REFERRAL_PROGRAM, not
// STANDALONE ones (their generic codes are listed as vouchers) — whatever
// their state and dates.
func CodeCampaignToPublish() predicate.Campaign {
	return campaign.And(campaign.TypeNEQ(campaign.TypeSTANDALONE),
		campaign.CampaignTypeIn(campaign.CampaignTypeDISCOUNT_COUPONS, campaign.CampaignTypeGIFT_VOUCHERS,
			campaign.CampaignTypeREFERRAL_PROGRAM))
}

// inDates: begun (start at or before now) and not expired (after now).
func inDates(start, expiration *time.Time, now time.Time) bool {
	return (start == nil || !start.After(now)) && (expiration == nil || expiration.After(now))
}

// Tier is the snapshot's tier of id (nil: not in it).
func (s *TierSnapshot) Tier(id string) *SnapshotTier {
	if s == nil {
		return nil
	}
	return s.byID[id]
}
