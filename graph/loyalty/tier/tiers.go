package tier

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/structuretier"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Tiers of a tier structure (…/tier-structures/{id}/tiers). A POINTS tier
// covers [min_value, max_value] (open above without max_value); the
// ranges of one structure never overlap (400 invalid_payload naming the
// other tier). Writes to one structure's tiers run one at a time
// (store.LockKey), so two concurrent creates cannot both pass the check.

// CreateTier adds a tier to a structure.
func CreateTier(ctx context.Context, structureID string, in loyaltybase.TierInput) (*ent.StructureTier, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	if in.QualificationRules == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'qualification_rules'")
	}
	q, err := checkQualification(ctx, in.QualificationRules)
	if err != nil {
		return nil, err
	}
	down, err := tierDowngrade(in.Downgrade, "INHERIT")
	if err != nil {
		return nil, err
	}
	if err := lockStructure(ctx, structureID); err != nil {
		return nil, err
	}
	if err := checkOverlap(ctx, structureID, "", q); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	md := in.Metadata
	if md == nil {
		md = map[string]any{}
	}
	t, err := c.StructureTier.Create().SetTierStructureID(structureID).SetName(*in.Name).
		SetQualificationType(q.typ).SetNillableMinPoints(q.min).SetNillableMaxPoints(q.max).
		SetNillableSegmentID(q.segment).SetDowngradeType(down).SetMetadata(md).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing tier: %w", err)
	}
	return t, nil
}

// UpdateTier replaces the given fields of a tier; a new range is checked
// against the structure's other tiers.
func UpdateTier(ctx context.Context, structureID, tierID string, in loyaltybase.TierInput) (*ent.StructureTier, error) {
	if err := in.RefuseNull("name", "qualification_rules"); err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := loyaltybase.RequiredName(in.Name); err != nil {
			return nil, err
		}
	}
	if err := lockStructure(ctx, structureID); err != nil {
		return nil, err
	}
	t, err := tierOf(ctx, structureID, tierID)
	if err != nil {
		return nil, err
	}
	upd := t.Update().SetNillableName(in.Name)
	if in.QualificationRules != nil {
		q, err := checkQualification(ctx, in.QualificationRules)
		if err != nil {
			return nil, err
		}
		if err := checkOverlap(ctx, structureID, tierID, q); err != nil {
			return nil, err
		}
		upd.SetQualificationType(q.typ).ClearMinPoints().ClearMaxPoints().ClearSegmentID().
			SetNillableMinPoints(q.min).SetNillableMaxPoints(q.max).SetNillableSegmentID(q.segment)
	}
	if in.Downgrade != nil {
		down, err := tierDowngrade(in.Downgrade, t.DowngradeType)
		if err != nil {
			return nil, err
		}
		upd.SetDowngradeType(down)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if t, err = upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating tier: %w", err)
	}
	return t, nil
}

// DeleteTier removes a tier of a structure.
func DeleteTier(ctx context.Context, structureID, tierID string) (*ent.StructureTier, error) {
	t, err := tierOf(ctx, structureID, tierID)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.StructureTier.DeleteOneID(t.ID).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting tier: %w", err)
	}
	return t, nil
}

// Tiers pages through a structure's tiers.
func Tiers(ctx context.Context, structureID string, p loyaltybase.PageInput) (*loyaltybase.TierPage, error) {
	if _, err := loyaltybase.TierStructure(ctx, structureID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rows, more, err := loyaltybase.KeysetPage(p, func(after string) (time.Time, error) {
		t, err := tierOf(ctx, structureID, after)
		if err != nil {
			return time.Time{}, &ent.NotFoundError{}
		}
		return t.CreatedAt, nil
	}, func(keys []predicate.StructureTier, order []structuretier.OrderOption, n int) ([]*ent.StructureTier, error) {
		return c.StructureTier.Query().Where(structuretier.TierStructureID(structureID)).Where(keys...).
			Order(order...).Limit(n).All(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &loyaltybase.TierPage{Data: rows, HasMore: more}, nil
}

// tierOf returns the tier of a structure (404 for either missing).
func tierOf(ctx context.Context, structureID, tierID string) (*ent.StructureTier, error) {
	if _, err := loyaltybase.TierStructure(ctx, structureID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.StructureTier.Query().Where(structuretier.ID(tierID), structuretier.TierStructureID(structureID)).Only(ctx)
	if err := loyaltybase.NotFound(err, "tier", tierID); err != nil {
		return nil, err
	}
	return t, nil
}

// lockStructure checks the structure exists and serialises its tier writes.
func lockStructure(ctx context.Context, structureID string) error {
	if _, err := loyaltybase.TierStructure(ctx, structureID); err != nil {
		return err
	}
	return store.LockKey(ctx, "tier-structure:"+structureID)
}

// qualification is a checked qualification rule.
type qualification struct {
	typ      string
	min, max *int64
	segment  *string
}

// checkQualification applies the documents' rules: POINTS needs min_value
// (max_value optional, ≥ min_value, both ≥ 0); SEGMENT needs a segment of
// the project and no values.
func checkQualification(ctx context.Context, q *loyaltybase.TierQualificationInput) (qualification, error) {
	if q.Type == nil {
		return qualification{}, apperr.InvalidPayload("Property .qualification_rules must have required property 'type'")
	}
	switch *q.Type {
	case "POINTS":
		if q.Segment != nil {
			return qualification{}, apperr.InvalidPayload("Property .qualification_rules.segment is allowed only when type is SEGMENT")
		}
		if q.MinValue == nil {
			return qualification{}, apperr.InvalidPayload("Property .qualification_rules.min_value is required when type is POINTS")
		}
		if *q.MinValue < 0 || *q.MinValue > loyalty.MaxPoints {
			return qualification{}, apperr.InvalidPayload("Property .qualification_rules.min_value must be between 0 and %d", int64(loyalty.MaxPoints))
		}
		if q.MaxValue != nil && (*q.MaxValue < *q.MinValue || *q.MaxValue > loyalty.MaxPoints) {
			return qualification{}, apperr.InvalidPayload("Property .qualification_rules.max_value must be between min_value (%d) and %d", *q.MinValue, int64(loyalty.MaxPoints))
		}
		return qualification{typ: "POINTS", min: q.MinValue, max: q.MaxValue}, nil
	case "SEGMENT":
		if q.MinValue != nil || q.MaxValue != nil {
			return qualification{}, apperr.InvalidPayload("Properties .qualification_rules.min_value and max_value are not allowed when type is SEGMENT")
		}
		if q.Segment == nil || q.Segment.ID == "" {
			return qualification{}, apperr.InvalidPayload("Property .qualification_rules.segment is required when type is SEGMENT")
		}
		if _, err := customer.SegmentOf(ctx, q.Segment.ID, false); err != nil {
			return qualification{}, err
		}
		id := q.Segment.ID
		return qualification{typ: "SEGMENT", segment: &id}, nil
	}
	return qualification{}, apperr.InvalidPayload("Property .qualification_rules.type must be POINTS or SEGMENT, got %q", *q.Type)
}

// checkOverlap refuses a POINTS range that overlaps another tier's range of
// the structure (the tier being updated, except, left out).
func checkOverlap(ctx context.Context, structureID, except string, q qualification) error {
	if q.typ != "POINTS" {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	others, err := c.StructureTier.Query().Where(structuretier.TierStructureID(structureID),
		structuretier.QualificationType("POINTS"), structuretier.IDNEQ(except)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading tiers: %w", err)
	}
	lo, hi := *q.min, upper(q.max)
	for _, o := range others {
		if o.MinPoints == nil {
			continue
		}
		if lo <= upper(o.MaxPoints) && *o.MinPoints <= hi {
			return apperr.InvalidPayload("Points range %d–%s overlaps tier %s (%d–%s)", lo, bound(q.max), o.ID,
				*o.MinPoints, bound(o.MaxPoints))
		}
	}
	return nil
}

// upper is a range's upper bound (open ranges end at the largest int).
func upper(max *int64) int64 {
	if max == nil {
		return math.MaxInt64
	}
	return *max
}

func bound(max *int64) string {
	if max == nil {
		return "∞"
	}
	return fmt.Sprint(*max)
}

// tierDowngrade checks a tier's downgrade type (default def).
func tierDowngrade(in *loyaltybase.TierDowngradeInput, def string) (string, error) {
	if in == nil {
		return def, nil
	}
	if in.Type == nil || (*in.Type != "INHERIT" && *in.Type != "NO_DOWNGRADE") {
		return "", apperr.InvalidPayload("Property .downgrade.type must be INHERIT or NO_DOWNGRADE")
	}
	return *in.Type, nil
}
