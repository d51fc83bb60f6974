package pulid

// Prefixes of the v2 loyalty area added with tier structures, program
// reward assignments, reward purchases and the resources' activities
// (prefix + hex characters, like the real service's IDs).
const (
	PrefixTierStructure = "lts_"
	PrefixTier          = "lt_"
	PrefixTierTx        = "lttx_"
	PrefixProgramReward = "lprw_"
	PrefixRewardTx      = "lrtx_"
	// PrefixBenefit is the August document's spelling of an incentive
	// (linc_): the same row, read and written through either prefix.
	PrefixBenefit = "lben_"
	// PrefixLoyaltyActivity is the fallback of an activity whose resource
	// has no prefix of its own (the use case sets laprg_, lacdef_, laern_,
	// lainc_ or lats_).
	PrefixLoyaltyActivity = "la_"
)
