package loyaltyv2

import (
	"encoding/json"

	"github.com/promoengine/promoengine/ent"
)

// The August document's benefit shape (loyalties-v2-benefits.json) of an
// activity's benefit snapshot: rendered as GET answers a benefit.

// benefitSnapshot renders an incentive activity's stored snapshot as a
// benefit (stock as {type, limited}, material without nulls); a snapshot
// that does not read back is kept as stored.
func benefitSnapshot(stored map[string]any) map[string]any {
	var inc ent.Incentive
	raw, err := json.Marshal(stored)
	if err != nil || json.Unmarshal(raw, &inc) != nil {
		return stored
	}
	out := map[string]any{}
	if raw, err := json.Marshal(benefitJSON(&inc)); err == nil && json.Unmarshal(raw, &out) == nil {
		return out
	}
	return stored
}
