package tier

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/structuretier"
	"github.com/promoengine/promoengine/ent/tierstructure"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Tier structures (/v2/loyalties/tier-structures): a ladder of tiers over
// one card definition's points. Lifecycle DRAFT → ACTIVE ⇄ INACTIVE, back
// to DRAFT (ent/schema/lifecycle); every change records an activity.

// tierStructureTypes are the documented structure types.
var tierStructureTypes = []string{"POINT_BALANCE", "POINT_EARNED"}

// CreateTierStructure validates and stores a tier structure (DRAFT unless
// status ACTIVE is given).
func CreateTierStructure(ctx context.Context, in loyaltybase.CreateTierStructureInput) (*ent.TierStructure, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	if in.Type == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'type'")
	}
	if !slices.Contains(tierStructureTypes, *in.Type) {
		return nil, apperr.InvalidPayload("Property .type must be one of POINT_BALANCE, POINT_EARNED, got %q", *in.Type)
	}
	if in.CardDefinitionID == nil || *in.CardDefinitionID == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'card_definition_id'")
	}
	status := "DRAFT"
	if in.Status != nil {
		if *in.Status != "DRAFT" && *in.Status != "ACTIVE" {
			return nil, apperr.InvalidPayload("Property .status must be DRAFT or ACTIVE, got %q", *in.Status)
		}
		status = *in.Status
	}
	if *in.Type == "POINT_EARNED" && in.PointEarned == nil {
		return nil, apperr.InvalidPayload("Property .point_earned is required when type is POINT_EARNED")
	}
	if *in.Type == "POINT_BALANCE" && in.PointEarned != nil {
		return nil, apperr.InvalidPayload("Property .point_earned is allowed only when type is POINT_EARNED")
	}
	if err := validateStructureSettings(in.PointEarned, in.Expiration, in.Downgrade); err != nil {
		return nil, err
	}
	if _, err := loyaltybase.CardDefinition(ctx, *in.CardDefinitionID); err != nil {
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
	t, err := c.TierStructure.Create().SetName(*in.Name).SetType(*in.Type).SetCardDefinitionID(*in.CardDefinitionID).
		SetStatus(status).SetPointEarned(in.PointEarned).SetExpiration(in.Expiration).SetDowngrade(in.Downgrade).
		SetMetadata(md).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing tier structure: %w", err)
	}
	return t, loyaltybase.RecordActivity(ctx, loyaltybase.TierStructureActivities, t.ID, "created", t)
}

// validateStructureSettings checks the enums of point_earned, expiration
// and downgrade (the documents' request schemas).
func validateStructureSettings(pointEarned, expiration, downgrade map[string]any) error {
	if pointEarned != nil {
		if err := oneOf("point_earned.type", pointEarned["type"], "IMMEDIATELY", "NEXT_TRACKING_PERIOD"); err != nil {
			return err
		}
		period, _ := pointEarned["period"].(map[string]any)
		if period == nil {
			return apperr.InvalidPayload("Property .point_earned must have required property 'period'")
		}
		if err := oneOf("point_earned.period.unit", period["unit"], "HOUR", "DAY", "WEEK", "MONTH", "YEAR"); err != nil {
			return err
		}
		if v, ok := loyalty.JSONNumber(period["value"]); !ok || v < 1 || v != float64(int64(v)) {
			return apperr.InvalidPayload("Property .point_earned.period.value must be an integer of at least 1")
		}
		// At most 100 years (a tracking window is a time.Duration).
		v, _ := loyalty.JSONNumber(period["value"])
		if days := map[any]float64{"HOUR": 1.0 / 24, "DAY": 1, "WEEK": 7, "MONTH": 30, "YEAR": 365}[period["unit"]]; v*days > 36500 {
			return apperr.InvalidPayload("Property .point_earned.period must be at most 100 years")
		}
	}
	if expiration != nil {
		if err := oneOf("expiration.type", expiration["type"], "NO_EXPIRATION", "SLIDING_EXPIRATION", "ROLLING_EXPIRATION", "CALENDAR_EXPIRATION"); err != nil {
			return err
		}
	}
	if downgrade != nil && downgrade["type"] != nil {
		if err := oneOf("downgrade.type", downgrade["type"], "MULTI_LEVEL", "SINGLE_LEVEL", "NO_DOWNGRADE"); err != nil {
			return err
		}
	}
	return nil
}

// oneOf refuses a value that is not one of the allowed strings.
func oneOf(path string, v any, allowed ...string) error {
	s, ok := v.(string)
	if !ok || !slices.Contains(allowed, s) {
		return apperr.InvalidPayload("Property .%s must be one of %v, got %v", path, allowed, v)
	}
	return nil
}

// UpdateTierStructure replaces the given fields.
func UpdateTierStructure(ctx context.Context, id string, in loyaltybase.UpdateTierStructureInput) (*ent.TierStructure, error) {
	if err := in.RefuseNull("name", "point_earned"); err != nil {
		return nil, err
	}
	t, err := loyaltybase.TierStructure(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := loyaltybase.RequiredName(in.Name); err != nil {
			return nil, err
		}
	}
	if in.PointEarned != nil && t.Type != "POINT_EARNED" {
		return nil, apperr.InvalidPayload("Property .point_earned is allowed only when type is POINT_EARNED")
	}
	if err := validateStructureSettings(in.PointEarned, in.Expiration, in.Downgrade); err != nil {
		return nil, err
	}
	upd := t.Update().SetNillableName(in.Name)
	if in.PointEarned != nil {
		upd.SetPointEarned(in.PointEarned)
	}
	if in.Expiration != nil {
		upd.SetExpiration(in.Expiration)
	}
	if in.Downgrade != nil {
		upd.SetDowngrade(in.Downgrade)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	clearTierStructureFields(upd, &in)
	if t, err = upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating tier structure: %w", err)
	}
	return t, loyaltybase.RecordActivity(ctx, loyaltybase.TierStructureActivities, t.ID, "updated", t)
}

// ActivateTierStructure makes a structure active (DRAFT or INACTIVE).
func ActivateTierStructure(ctx context.Context, id string) (*ent.TierStructure, error) {
	return setTierStructureStatus(ctx, id, "ACTIVE", "activated")
}

// DeactivateTierStructure makes an active structure inactive.
func DeactivateTierStructure(ctx context.Context, id string) (*ent.TierStructure, error) {
	return setTierStructureStatus(ctx, id, "INACTIVE", "deactivated")
}

// DraftTierStructure moves a structure back to draft.
func DraftTierStructure(ctx context.Context, id string) (*ent.TierStructure, error) {
	return setTierStructureStatus(ctx, id, "DRAFT", "drafted")
}

func setTierStructureStatus(ctx context.Context, id, to, verb string) (*ent.TierStructure, error) {
	t, err := loyaltybase.TierStructure(ctx, id)
	if err != nil {
		return nil, err
	}
	if t, err = t.Update().SetStatus(to).Save(ctx); err != nil {
		return nil, err
	}
	return t, loyaltybase.RecordActivity(ctx, loyaltybase.TierStructureActivities, t.ID, verb, t)
}

// DeleteTierStructure removes a structure no program has assigned, with its
// tiers.
func DeleteTierStructure(ctx context.Context, id string) (*ent.TierStructure, error) {
	t, err := loyaltybase.TierStructure(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	n, err := c.LoyaltyProgram.Query().Where(loyalty.ContainsID("tier_structure_ids", id)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking tier structure use: %w", err)
	}
	if n > 0 {
		return nil, loyalty.InUse("tier_structure", id, "a program")
	}
	if _, err := c.StructureTier.Delete().Where(structuretier.TierStructureID(id)).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting tiers: %w", err)
	}
	if err := c.TierStructure.DeleteOneID(id).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting tier structure: %w", err)
	}
	t.Status = "DELETED"
	return t, loyaltybase.RecordActivity(ctx, loyaltybase.TierStructureActivities, id, "deleted", t)
}

// TierStructures pages through the project's tier structures.
func TierStructures(ctx context.Context, p loyaltybase.PageInput) (*loyaltybase.TierStructurePage, error) {
	return tierStructurePage(ctx, p)
}

// tierStructurePage reads a page of structures matching where.
func tierStructurePage(ctx context.Context, p loyaltybase.PageInput, where ...predicate.TierStructure) (*loyaltybase.TierStructurePage, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rows, more, err := loyaltybase.KeysetPage(p, func(after string) (time.Time, error) {
		t, err := c.TierStructure.Get(ctx, after)
		if err != nil {
			return time.Time{}, err
		}
		return t.CreatedAt, nil
	}, func(keys []predicate.TierStructure, order []tierstructure.OrderOption, n int) ([]*ent.TierStructure, error) {
		return c.TierStructure.Query().Where(where...).Where(keys...).Order(order...).Limit(n).All(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &loyaltybase.TierStructurePage{Data: rows, HasMore: more}, nil
}

// ProgramTierStructures pages through a program's tier structures.
func ProgramTierStructures(ctx context.Context, programID string, page loyaltybase.PageInput) (*loyaltybase.TierStructurePage, error) {
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, err
	}
	return tierStructurePage(ctx, page, tierstructure.IDIn(p.TierStructureIds...))
}

// clearTierStructureFields clears what an update of a tier structure sent
// as null.
func clearTierStructureFields(upd *ent.TierStructureUpdateOne, in *loyaltybase.UpdateTierStructureInput) {
	clears := map[string]func() *ent.TierStructureUpdateOne{
		"expiration": upd.ClearExpiration, "downgrade": upd.ClearDowngrade,
	}
	for name, clear := range clears {
		if in.IsNull(name) {
			clear()
		}
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
}
