package tiersnapshot

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/internal/store"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// Building a project's tier snapshot (snapshot.go): the active tiers
// of active campaigns and what the evaluation reads of them, in a few
// queries of at most snapshotChunk ids each.

// buildTierSnapshot reads the project's active tiers of active campaigns
// (at most max; more makes a tooMany snapshot) with their campaigns, rule
// assignments, rules and categories, and whether an active code campaign
// exists.
func buildTierSnapshot(ctx context.Context, version int64, max int) (*TierSnapshot, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	tiers, err := c.PromotionTier.Query().
		Where(promotiontier.Active(true), promotiontier.HasCampaignWith(campaign.Active(true))).
		Order(ent.Desc(promotiontier.FieldCreatedAt), ent.Desc(promotiontier.FieldID)).
		Limit(max + 1).WithCampaign().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the active promotion tiers: %w", err)
	}
	if len(tiers) > max {
		return &TierSnapshot{version: version, tooMany: true}, nil
	}
	s := &TierSnapshot{version: version, tiers: make([]*SnapshotTier, len(tiers)),
		byID: make(map[string]*SnapshotTier, len(tiers))}
	var objects, categoryIDs []string
	seen := map[string]bool{}
	for i, t := range tiers {
		st := &SnapshotTier{Tier: t}
		s.tiers[i], s.byID[t.ID] = st, st
		objects = append(objects, t.ID)
		if !seen[t.CampaignID] {
			seen[t.CampaignID] = true
			objects = append(objects, t.CampaignID)
		}
		if id := TierCategoryID(t); id != "" && !seen[id] {
			seen[id] = true
			categoryIDs = append(categoryIDs, id)
		}
	}
	if err := s.loadRules(ctx, c, objects); err != nil {
		return nil, err
	}
	if s.codeCampaigns, err = c.Campaign.Query().Where(campaign.Active(true), CodeCampaignToPublish()).Exist(ctx); err != nil {
		return nil, fmt.Errorf("looking for code campaigns: %w", err)
	}
	cats, err := inChunks(categoryIDs, func(ids []string) ([]*ent.Category, error) {
		return c.Category.Query().Where(category.IDIn(ids...)).All(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the tiers' categories: %w", err)
	}
	byID := make(map[string]*ent.Category, len(cats))
	for _, cat := range cats {
		byID[cat.ID] = cat
	}
	for _, st := range s.tiers {
		st.Category = byID[TierCategoryID(st.Tier)]
	}
	return s, nil
}

// loadRules gives each tier its and its campaign's rules, in the order of
// their assignments (as loadRules does per request), each parsed once.
func (s *TierSnapshot) loadRules(ctx context.Context, c *ent.Client, objects []string) error {
	as, err := inChunks(objects, func(ids []string) ([]*ent.ValidationRuleAssignment, error) {
		return c.ValidationRuleAssignment.Query().Where(validationruleassignment.RelatedObjectIDIn(ids...)).All(ctx)
	})
	if err != nil {
		return fmt.Errorf("reading rule assignments: %w", err)
	}
	slices.SortFunc(as, func(a, b *ent.ValidationRuleAssignment) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	var ids []string
	byObject := map[string][]*ent.ValidationRuleAssignment{}
	for _, a := range as {
		ids = append(ids, a.RuleID)
		byObject[a.RelatedObjectID] = append(byObject[a.RelatedObjectID], a)
	}
	rs, err := inChunks(slices.Compact(slices.Sorted(slices.Values(ids))), func(ids []string) ([]*ent.ValidationRule, error) {
		return c.ValidationRule.Query().Where(validationrule.IDIn(ids...)).All(ctx)
	})
	if err != nil {
		return fmt.Errorf("reading validation rules: %w", err)
	}
	defs := make(map[string]rules.Definition, len(rs))
	for _, r := range rs {
		msg, _ := r.Error["message"].(string)
		def, _ := rules.Parse(r.Rules, msg, r.ApplicableTo) // as loadRules: a broken rule fails
		def.Bundle, _ = rules.DecodeBundleRules(r.BundleRules)
		defs[r.ID] = def.Compile() // checked by every qualification: its logic compiled once
	}
	for _, st := range s.tiers {
		// The tier's and its campaign's assignments, merged in order.
		own := append(slices.Clone(byObject[st.Tier.ID]), byObject[st.Tier.CampaignID]...)
		slices.SortStableFunc(own, func(a, b *ent.ValidationRuleAssignment) int {
			if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
		for _, a := range own {
			if def, ok := defs[a.RuleID]; ok {
				st.Rules = append(st.Rules, def)
				st.RuleIDs = append(st.RuleIDs, a.RuleID)
			}
		}
		st.Rules, st.RuleIDs = slices.Clip(st.Rules), slices.Clip(st.RuleIDs)
	}
	return nil
}

// snapshotChunk bounds the ids of one IN list of a build.
const snapshotChunk = 500

// inChunks runs read over ids, snapshotChunk at a time.
func inChunks[T any](ids []string, read func([]string) ([]T, error)) ([]T, error) {
	var out []T
	for len(ids) > 0 {
		n := min(len(ids), snapshotChunk)
		rows, err := read(ids[:n])
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
		ids = ids[n:]
	}
	return out, nil
}

// TierCategoryID is a tier's category: its own, else its campaign's (the
// campaign edge loaded; "" for none).
func TierCategoryID(t *ent.PromotionTier) string {
	switch {
	case t.CategoryID != nil:
		return *t.CategoryID
	case t.Edges.Campaign != nil && t.Edges.Campaign.CategoryID != nil:
		return *t.Edges.Campaign.CategoryID
	}
	return ""
}
