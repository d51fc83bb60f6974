package reward

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/v1rewardassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateReward serves REST POST /v1/rewards and createV1Reward.
func CreateReward(ctx context.Context, in RewardInput) (*ent.V1Reward, error) {
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" {
		return nil, apperr.InvalidPayload("Property 'name' is required")
	}
	if in.Parameters == nil {
		return nil, missingParam("parameters")
	}
	typ, params, err := checkParameters(ctx, in.Type, "", in.Parameters)
	if err != nil {
		return nil, err
	}
	if err := checkCommon(in, typ); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	create := c.V1Reward.Create().SetName(*in.Name).SetType(typ).SetParameters(params.document).
		SetNillableStock(in.Stock).SetAttributes(attributesOf(nil, in.Attributes)).
		SetNillableCampaignID(params.campaignID).SetNillableProductID(params.productID)
	if in.Metadata != nil {
		create.SetMetadata(in.Metadata)
	}
	r, err := create.Save(ctx)
	if err != nil {
		return nil, store.WrapErr("creating reward", err)
	}
	return r, nil
}

// Reward serves REST GET /v1/rewards/{rewardId} and v1Reward.
func Reward(ctx context.Context, id string) (*ent.V1Reward, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.V1Reward.Query().Where(v1reward.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("reward", id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading reward: %w", err)
	}
	return r, nil
}

// UpdateReward serves REST PUT /v1/rewards/{rewardId} and updateV1Reward:
// the sent fields change; the type cannot.
func UpdateReward(ctx context.Context, id string, in RewardInput) (*ent.V1Reward, error) {
	if err := in.RefuseNull("name", "type", "parameters"); err != nil {
		return nil, err
	}
	r, err := Reward(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Type != nil && *in.Type != r.Type {
		return nil, apperr.InvalidPayload("Property 'type' cannot be changed (the reward is %s)", r.Type)
	}
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		return nil, apperr.InvalidPayload("Property 'name' must not be empty")
	}
	if err := checkCommon(in, r.Type); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	upd := c.V1Reward.UpdateOne(r).SetNillableName(in.Name).SetNillableStock(in.Stock)
	if in.Parameters != nil {
		_, params, err := checkParameters(ctx, &r.Type, r.Type, in.Parameters)
		if err != nil {
			return nil, err
		}
		upd.SetParameters(params.document).SetNillableCampaignID(params.campaignID).SetNillableProductID(params.productID)
	}
	if in.Attributes != nil {
		upd.SetAttributes(attributesOf(r.Attributes, in.Attributes))
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	clearRewardFields(upd, r, &in)
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, store.WrapErr("updating reward", err)
	}
	return out, nil
}

// DeleteReward serves REST DELETE /v1/rewards/{rewardId} and
// deleteV1Reward: a reward that is still assigned cannot be deleted.
func DeleteReward(ctx context.Context, id string) (string, error) {
	r, err := Reward(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	used, err := c.V1RewardAssignment.Query().Where(v1rewardassignment.RewardID(r.ID)).Limit(20).IDs(ctx)
	if err != nil {
		return "", fmt.Errorf("reading assignments: %w", err)
	}
	if len(used) > 0 {
		return "", &apperr.Error{Code: http.StatusBadRequest, Key: "resource_in_use", Message: "Resource in use",
			Details:    fmt.Sprintf("Reward %s is assigned to campaigns (reward assignments %s); delete them first", r.ID, strings.Join(used, ", ")),
			ResourceID: r.ID, ResourceType: "reward"}
	}
	if err := c.V1Reward.DeleteOne(r).Exec(ctx); err != nil {
		return "", store.WrapErr("deleting reward", err)
	}
	return r.ID, nil
}

// checkCommon checks the fields every type shares: name length, stock
// (MATERIAL only, 0 or more).
func checkCommon(in RewardInput, typ string) error {
	if in.Name != nil && len(*in.Name) > maxNameLen {
		return apperr.InvalidPayload("Property 'name' must be at most %d characters", maxNameLen)
	}
	if in.Stock != nil {
		if typ != TypeMaterial {
			return apperr.InvalidPayload("Property 'stock' is only allowed for MATERIAL rewards")
		}
		if *in.Stock < 0 || *in.Stock > maxStock {
			return apperr.InvalidPayload("Property 'stock' must be an integer from 0 to %d", maxStock)
		}
	}
	return nil
}

// attributesOf merges sent attributes into the stored ones.
func attributesOf(stored map[string]any, in *RewardAttributesInput) map[string]any {
	out := map[string]any{}
	for k, v := range stored {
		out[k] = v
	}
	if in == nil {
		return out
	}
	if in.ImageURL != nil {
		out["image_url"] = *in.ImageURL
	}
	if in.Description != nil {
		out["description"] = *in.Description
	}
	return out
}

func missingParam(name string) *apperr.Error {
	return apperr.New(http.StatusBadRequest, "missing_param", "Missing param", fmt.Sprintf("Parameter '%s' is required", name))
}
