package campaign

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/segment"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
)

// Referral tiers (reference §7.3 step 4) are a referral program's referrer
// rewards: the real service sets them up in its dashboard (no public
// API), here they are part of the campaign's referral_program:
//
//	"referral_tiers": [{"id"?, "name"?, "conversions": {"type": "EACH"} |
//	  {"type": "AT_LEAST", "referees": N}, "rewards": [{"id": "rew_…"}]}]
//
// EACH rewards the referrer for every new referee; AT_LEAST once, when the
// referrer's N-th distinct referee converts. A tier may be restricted to a
// segment ("segment": {"id": "seg_…"}, reference §7.3 step 4): it then
// rewards only a referrer who is a member of that segment when its
// condition is met (the rewards go to the referrer, so the restriction is
// on the referrer; the referees still all count). graph/reward.RewardReferrer
// issues them.

// Referral tier condition types.
const (
	ReferralTierEach    = "EACH"
	ReferralTierAtLeast = "AT_LEAST"
	// MaxReferralTiers bounds a program's tiers, MaxReferralTierRewards a
	// tier's rewards.
	MaxReferralTiers       = 10
	MaxReferralTierRewards = 5
)

// checkReferralProgram checks a referral_program: conversion_event_type
// a string and its referral tiers well formed, naming existing v1 rewards
// of the project; tiers without an id get one (rtier_…). Every refusal is
// a 400 invalid_payload (404 for an unknown reward) naming the property.
func checkReferralProgram(ctx context.Context, rp map[string]any) error {
	if v, ok := rp["conversion_event_type"]; ok {
		if _, isString := v.(string); !isString {
			return apperr.InvalidPayload("Property .referral_program.conversion_event_type must be a string")
		}
	}
	if err := checkRefereeReward(ctx, rp); err != nil { // referee_reward.go
		return err
	}
	raw, ok := rp["referral_tiers"]
	if !ok || raw == nil {
		return nil
	}
	tiers, ok := raw.([]any)
	if !ok || len(tiers) > MaxReferralTiers {
		return apperr.InvalidPayload("Property .referral_program.referral_tiers must be an array of at most %d tiers", MaxReferralTiers)
	}
	for i, t := range tiers {
		tier, ok := t.(map[string]any)
		if !ok {
			return apperr.InvalidPayload("Property .referral_program.referral_tiers[%d] must be an object", i)
		}
		if err := checkReferralTier(ctx, fmt.Sprintf(".referral_program.referral_tiers[%d]", i), tier); err != nil {
			return err
		}
	}
	return nil
}

// checkReferralTier checks one tier (path names it in errors).
func checkReferralTier(ctx context.Context, path string, tier map[string]any) error {
	switch id := tier["id"].(type) {
	case nil:
		tier["id"] = "rtier_" + pulid.Hex(8)
	case string:
		if id == "" || len(id) > 100 {
			return apperr.InvalidPayload("Property %s.id must be 1-100 characters", path)
		}
	default:
		return apperr.InvalidPayload("Property %s.id must be a string", path)
	}
	cond, _ := tier["conversions"].(map[string]any)
	switch cond["type"] {
	case ReferralTierEach:
	case ReferralTierAtLeast:
		n, ok := points.WholeNumber(cond["referees"])
		if !ok || n < 1 || n > 1e6 {
			return apperr.InvalidPayload("Property %s.conversions.referees must be an integer from 1 to 1000000", path)
		}
	default:
		return apperr.InvalidPayload("Property %s.conversions.type must be one of EACH, AT_LEAST", path)
	}
	if err := checkReferralTierSegment(ctx, path, tier); err != nil {
		return err
	}
	rewards, ok := tier["rewards"].([]any)
	if !ok || len(rewards) == 0 || len(rewards) > MaxReferralTierRewards {
		return apperr.InvalidPayload("Property %s.rewards must name 1 to %d rewards", path, MaxReferralTierRewards)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	for j, r := range rewards {
		ref, _ := r.(map[string]any)
		id, _ := ref["id"].(string)
		if id == "" {
			return apperr.InvalidPayload("Property %s.rewards[%d].id is required", path, j)
		}
		rw, err := c.V1Reward.Query().Where(v1reward.ID(id)).Only(ctx)
		if err != nil {
			return apperr.NotFound("reward", id)
		}
		if rw.Type == "COIN" {
			return apperr.InvalidPayload("Property %s.rewards[%d]: a COIN reward pays for orders and cannot reward a referrer", path, j)
		}
	}
	return nil
}

// ReferralTier is a stored tier (checked when stored): its id, whether it
// rewards EACH conversion or the AT_LEAST count of referees, its reward
// ids and the tier as stored.
type ReferralTier struct {
	ID string
	// SegmentID restricts the tier to referrers in that segment ("": none).
	SegmentID string
	Each      bool
	AtLeast   int64
	Rewards   []string
	Document  map[string]any
}

// ReferralTiers are the stored referral_program's tiers.
func ReferralTiers(rp map[string]any) []ReferralTier {
	raw, _ := rp["referral_tiers"].([]any)
	out := make([]ReferralTier, 0, len(raw))
	for _, t := range raw {
		tier, _ := t.(map[string]any)
		if tier == nil {
			continue
		}
		rt := ReferralTier{Document: tier}
		rt.ID, _ = tier["id"].(string)
		if seg, _ := tier["segment"].(map[string]any); seg != nil {
			rt.SegmentID, _ = seg["id"].(string)
		}
		cond, _ := tier["conversions"].(map[string]any)
		rt.Each = cond["type"] == ReferralTierEach
		if n, ok := points.WholeNumber(cond["referees"]); ok {
			rt.AtLeast = int64(n)
		}
		rewards, _ := tier["rewards"].([]any)
		for _, r := range rewards {
			if ref, _ := r.(map[string]any); ref != nil {
				if id, _ := ref["id"].(string); id != "" {
					rt.Rewards = append(rt.Rewards, id)
				}
			}
		}
		out = append(out, rt)
	}
	return out
}

// checkReferralTierSegment checks a tier's optional segment: null or an
// object whose id names a segment of the project (404 otherwise).
func checkReferralTierSegment(ctx context.Context, path string, tier map[string]any) error {
	raw, ok := tier["segment"]
	if !ok || raw == nil {
		delete(tier, "segment")
		return nil
	}
	seg, ok := raw.(map[string]any)
	id, _ := seg["id"].(string)
	if !ok || id == "" {
		return apperr.InvalidPayload("Property %s.segment must be an object with the segment's id", path)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	found, err := c.Segment.Query().Where(segment.ID(id)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading segment: %w", err)
	}
	if !found {
		return apperr.NotFound("segment", id)
	}
	tier["segment"] = map[string]any{"id": id}
	return nil
}
