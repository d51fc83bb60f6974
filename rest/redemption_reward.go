package rest

// rewardResultMembers are the members the reward of a redemption (and of
// its rollback) always has (redemptions.json RedemptionRewardResult's
// required list): null when they do not apply to the reward.
var rewardResultMembers = []string{"customer", "assignment_id", "voucher", "product", "sku", "loyalty_tier_id"}

// rewardResultJSON is a redemption's stored reward with every member of
// rewardResultMembers present (a copy: the entity is not changed).
func rewardResultJSON(stored map[string]any) map[string]any {
	out := make(map[string]any, len(stored)+len(rewardResultMembers))
	for k, v := range stored {
		out[k] = v
	}
	for _, k := range rewardResultMembers {
		if _, ok := out[k]; !ok {
			out[k] = nil
		}
	}
	return out
}
