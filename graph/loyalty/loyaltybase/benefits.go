package loyaltybase

import (
	"strings"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// The August document renamed incentives to benefits (reference §9): one
// row, two spellings. An incentive is stored with its linc_ id; the
// benefits routes show it as lben_ and both routes accept either prefix.

// IncentiveID returns the stored id of an incentive named by either
// spelling (lben_… becomes linc_…; any other id is returned unchanged).
func IncentiveID(id string) string {
	if rest, ok := strings.CutPrefix(id, pulid.PrefixBenefit); ok {
		return pulid.PrefixIncentive + rest
	}
	return id
}

// BenefitID returns the August spelling of an incentive id (linc_… becomes
// lben_…); activities' ids (lainc_…) become laben_….
func BenefitID(id string) string {
	if rest, ok := strings.CutPrefix(id, pulid.PrefixIncentive); ok {
		return pulid.PrefixBenefit + rest
	}
	if rest, ok := strings.CutPrefix(id, "lainc_"); ok {
		return "laben_" + rest
	}
	return id
}
