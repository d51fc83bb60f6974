package membership

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/tier"
)

// MembershipCard is one of a membership's cards with its summary and the
// member's tier progress on it (nil when no ACTIVE tier structure covers
// the card's definition): GraphQL's Membership.cards, what the REST
// memberships answer shows per card.
type MembershipCard struct {
	Card         *ent.Card
	Summary      *loyalty.CardSummary
	TierProgress *tier.TierProgress
}

// CardEntries lists the membership's cards in order, each with its summary
// and tier progress.
func (m *Membership) CardEntries() []*MembershipCard {
	out := make([]*MembershipCard, len(m.Cards))
	for i, crd := range m.Cards {
		sum := m.Summaries[crd.ID]
		if sum == nil {
			sum = &loyalty.CardSummary{}
		}
		out[i] = &MembershipCard{Card: crd, Summary: sum, TierProgress: m.Progress[crd.ID]}
	}
	return out
}
