package loyaltyv1

import (
	"maps"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/internal/clock"
)

// The members of a points transaction's details (loyalties.json
// LoyaltyCardTransaction.details, LoyaltyPendingPointsDetails) that the
// documents require: earning_rule {id, source {banner}}, event {id, type}
// and the transfers' source_voucher / destination_voucher (SimpleVoucher:
// type, code, created_at, object).

// earningRuleDetails is details.earning_rule: the rule's ID and source;
// the banner (the rule's name) is the event the rule earns on when it was
// created without one.
func earningRuleDetails(r *ent.CampaignEarningRule) map[string]any {
	source := maps.Clone(r.Source)
	if source == nil {
		source = map[string]any{}
	}
	if _, ok := source["banner"]; !ok {
		source["banner"] = r.Event
	}
	return map[string]any{"id": r.ID, "source": source}
}

// eventDetails is details.event for an event that is not a stored custom
// event (order paid, segment entered, tier changed): its type and an ID of
// the occurrence (evcus_…), the same on every transaction it causes.
func eventDetails(typ string) map[string]any {
	return map[string]any{"id": "evcus_" + pulid.Hex(9), "type": typ}
}

// createdAt is a SimpleVoucher's created_at.
func createdAt(t time.Time) string {
	return t.UTC().Format(clock.Layout)
}
