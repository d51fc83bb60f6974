package benefit

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/programreward"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Reward activity types.
const (
	rewardCreated     = "vl.reward.created"
	rewardUpdated     = "vl.reward.updated"
	rewardActivated   = "vl.reward.activated"
	rewardDeactivated = "vl.reward.deactivated"
	rewardDrafted     = "vl.reward.drafted"
)

// RewardJSON is the reward object of the REST interface; activities keep
// it as their snapshot (data.reward), so both show the same shape.
func RewardJSON(r *ent.Reward) map[string]any {
	var updated any
	if r.UpdatedAt != nil {
		updated = clock.Format(*r.UpdatedAt)
	}
	return map[string]any{
		"id": r.ID, "name": r.Name, "type": string(r.Type), "status": string(r.Status),
		"material": r.Material, "digital": r.Digital, "metadata": shape.OrEmptyMap(r.Metadata),
		"created_at": clock.Format(r.CreatedAt), "updated_at": updated, "object": "reward",
	}
}

// RecordRewardActivity stores a snapshot of the reward as it is now.
func RecordRewardActivity(ctx context.Context, r *ent.Reward, typ string) error {
	c, src, err := loyaltybase.ActivityWriter(ctx)
	if err != nil {
		return err
	}
	_, err = c.RewardActivity.Create().SetRewardID(r.ID).SetType(typ).
		SetData(map[string]any{"reward": RewardJSON(r)}).SetGroupID(loyaltybase.NewGroupID()).SetSource(src).Save(ctx)
	if err != nil {
		return fmt.Errorf("recording reward activity: %w", err)
	}
	return nil
}

func validateRewardDetails(ctx context.Context, typ reward.Type, in *loyaltybase.CreateRewardInput) error {
	switch typ {
	case reward.TypeMATERIAL:
		if in.Material == nil {
			return apperr.InvalidPayload("Property .material is required when type is MATERIAL")
		}
		if in.Digital != nil {
			return apperr.InvalidPayload("Property .digital must be null when type is MATERIAL")
		}
		if err := validateMaterial("material", in.Material); err != nil {
			return err
		}
		// The product (or the SKU of that product) must exist, as for
		// incentives: checked when the detail is sent.
		return requireMaterial(ctx, "material", in.Material)
	default:
		if in.Digital == nil {
			return apperr.InvalidPayload("Property .digital is required when type is DIGITAL")
		}
		if in.Material != nil {
			return apperr.InvalidPayload("Property .material must be null when type is DIGITAL")
		}
		return validateDigital(ctx, "digital", in.Digital)
	}
}

// CreateReward creates a reward.
func CreateReward(ctx context.Context, in loyaltybase.CreateRewardInput) (*ent.Reward, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	if in.Type == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'type'")
	}
	if err := reward.TypeValidator(*in.Type); err != nil {
		return nil, apperr.InvalidPayload("Property .type must be one of MATERIAL, DIGITAL, got %q", *in.Type)
	}
	status, err := loyaltybase.InitialStatus(in.Status, reward.StatusDRAFT, reward.StatusACTIVE)
	if err != nil {
		return nil, err
	}
	if err := validateRewardDetails(ctx, *in.Type, &in); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	create := c.Reward.Create().SetName(*in.Name).SetType(*in.Type).SetStatus(status).
		SetMetadata(shape.OrEmptyMap(in.Metadata))
	if in.Material != nil {
		create.SetMaterial(in.Material)
	}
	if in.Digital != nil {
		create.SetDigital(in.Digital)
	}
	r, err := create.Save(ctx)
	if err != nil {
		return nil, err
	}
	return r, RecordRewardActivity(ctx, r, rewardCreated)
}

// UpdateReward updates a reward.
func UpdateReward(ctx context.Context, id string, in loyaltybase.UpdateRewardInput) (*ent.Reward, error) {
	if err := in.RefuseNull("name", "material", "digital"); err != nil {
		return nil, err
	}
	r, err := loyaltybase.RewardByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := loyaltybase.RequiredName(in.Name); err != nil {
			return nil, err
		}
	}
	check := loyaltybase.CreateRewardInput{Material: r.Material, Digital: r.Digital}
	if in.Material != nil {
		check.Material = in.Material
	}
	if in.Digital != nil {
		check.Digital = in.Digital
	}
	if in.Material != nil || in.Digital != nil {
		if err := validateRewardDetails(ctx, r.Type, &check); err != nil {
			return nil, err
		}
	}
	upd := r.Update().SetNillableName(in.Name)
	if in.Material != nil {
		upd.SetMaterial(in.Material)
	}
	if in.Digital != nil {
		upd.SetDigital(in.Digital)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	r, err = upd.Save(ctx)
	if err != nil {
		return nil, err
	}
	return r, RecordRewardActivity(ctx, r, rewardUpdated)
}

// ActivateReward makes a reward active.
func ActivateReward(ctx context.Context, id string) (*ent.Reward, error) {
	return setRewardStatus(ctx, id, reward.StatusACTIVE, rewardActivated)
}

// DeactivateReward makes a reward inactive.
func DeactivateReward(ctx context.Context, id string) (*ent.Reward, error) {
	return setRewardStatus(ctx, id, reward.StatusINACTIVE, rewardDeactivated)
}

// DraftReward puts a reward back into draft.
func DraftReward(ctx context.Context, id string) (*ent.Reward, error) {
	return setRewardStatus(ctx, id, reward.StatusDRAFT, rewardDrafted)
}

func setRewardStatus(ctx context.Context, id string, to reward.Status, activity string) (*ent.Reward, error) {
	r, err := loyaltybase.RewardByID(ctx, id)
	if err != nil {
		return nil, err
	}
	r, err = r.Update().SetStatus(to).Save(ctx)
	if err != nil {
		return nil, err
	}
	return r, RecordRewardActivity(ctx, r, activity)
}

// DeleteReward soft-deletes a reward no program has assigned (the
// document's 400 for a reward in use).
func DeleteReward(ctx context.Context, id string) (*ent.Reward, error) {
	r, err := loyaltybase.RewardByID(ctx, id)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	n, err := c.ProgramReward.Query().Where(programreward.RewardID(id)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking reward use: %w", err)
	}
	if n > 0 {
		e := apperr.New(http.StatusBadRequest, "resource_in_use", "Resource in use",
			fmt.Sprintf("The reward %s is assigned to %d program(s)", id, n))
		e.ResourceID, e.ResourceType = id, "reward"
		return nil, e
	}
	return setRewardStatus(ctx, r.ID, reward.StatusDELETED, "vl.reward.deleted")
}
