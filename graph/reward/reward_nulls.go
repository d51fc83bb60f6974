package reward

import (
	"github.com/promoengine/promoengine/ent"
)

// clearRewardFields clears what an update of reward r sent as null (in's
// Nulls): stock (unlimited), metadata, attributes or one attribute.
func clearRewardFields(upd *ent.V1RewardUpdateOne, r *ent.V1Reward, in *RewardInput) {
	if in.IsNull("stock") {
		upd.ClearStock()
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if in.IsNull("attributes") {
		upd.SetAttributes(map[string]any{})
		return
	}
	attrs := in.Nulls.Under("attributes")
	if !attrs.IsNull("image_url") && !attrs.IsNull("description") {
		return
	}
	out := attributesOf(r.Attributes, in.Attributes)
	for _, name := range []string{"image_url", "description"} {
		if attrs.IsNull(name) {
			delete(out, name)
		}
	}
	upd.SetAttributes(out)
}
