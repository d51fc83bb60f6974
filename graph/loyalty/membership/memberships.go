package membership

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/loyalty/tier"
)

// Memberships (GET /v2/loyalties/memberships/{customerId},
// …/programs/{programId}/memberships/{customerId}): a customer's members
// with their tiers (member_tiers.go).

// maxMemberships bounds the memberships one customer lists.
const maxMemberships = 100

// CustomerMembershipList is a customer and its memberships.
type CustomerMembershipList struct {
	Customer    *ent.Customer
	Memberships []*Membership
}

// CustomerMemberships lists a customer's memberships (404 for a customer
// the project does not have; an empty list for a customer of no program).
func CustomerMemberships(ctx context.Context, customerID string) ([]*Membership, error) {
	l, err := CustomerMembershipsOf(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return l.Memberships, nil
}

// CustomerMembershipsOf is CustomerMemberships with the customer.
func CustomerMembershipsOf(ctx context.Context, customerID string) (*CustomerMembershipList, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cust, err := c.Customer.Get(ctx, customerID)
	if err != nil {
		return nil, loyaltybase.NotFound(err, "customer", customerID)
	}
	members, err := c.LoyaltyMember.Query().Where(loyaltymember.CustomerID(customerID)).
		Order(loyaltymember.ByCreatedAt()).Limit(maxMemberships).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading memberships: %w", err)
	}
	out := make([]*Membership, 0, len(members))
	for _, m := range members {
		ms, err := membership(ctx, m)
		if err != nil {
			return nil, err
		}
		out = append(out, ms)
	}
	return &CustomerMembershipList{Customer: cust, Memberships: out}, nil
}

// ProgramMembership returns a customer's membership of one program (404
// when the customer is not a member).
func ProgramMembership(ctx context.Context, programID, customerID string) (*Membership, error) {
	if _, err := loyaltybase.Program(ctx, programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.LoyaltyMember.Query().Where(loyaltymember.ProgramID(programID), loyaltymember.CustomerID(customerID)).Only(ctx)
	if err != nil {
		return nil, loyaltybase.NotFound(err, "member", customerID)
	}
	return membership(ctx, m)
}

// membership gathers a member's program, cards (with their summaries) and
// tiers, and each card's tier progress.
func membership(ctx context.Context, m *ent.LoyaltyMember) (*Membership, error) {
	p, err := loyaltybase.Program(ctx, m.ProgramID)
	if err != nil {
		return nil, err
	}
	tiers, err := tier.MemberTiers(ctx, m)
	if err != nil {
		return nil, err
	}
	cards, err := m.QueryCards().Order(card.ByCreatedAt(), card.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading member cards: %w", err)
	}
	sums, err := loyalty.CardSummaries(ctx, cards)
	if err != nil {
		return nil, err
	}
	ms := &Membership{Member: m, Tiers: tiers, Program: p, Cards: cards, Summaries: sums, Progress: map[string]*tier.TierProgress{}}
	for _, crd := range cards {
		for _, mt := range tiers {
			if crd.CardDefinitionID == nil || *crd.CardDefinitionID != mt.TierStructure.CardDefinitionID {
				continue
			}
			if ms.Progress[crd.ID], err = tier.MemberTierProgress(ctx, m, mt); err != nil {
				return nil, err
			}
			break
		}
	}
	return ms, nil
}

// Membership is a customer's membership of a program with its tiers.
type Membership struct {
	Member *ent.LoyaltyMember
	Tiers  []*loyaltybase.MemberTier
	// Program is the member's program, Cards its cards with their
	// summaries (by card id).
	Program   *ent.LoyaltyProgram
	Cards     []*ent.Card
	Summaries map[string]*loyalty.CardSummary
	// Progress is each card's tier progress (by card id): in the first
	// ACTIVE structure over the card's definition, nil when there is none.
	Progress map[string]*tier.TierProgress
}
