package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Memberships (GET /v2/loyalties/memberships/{customerId},
// …/programs/{programId}/memberships/{customerId}): a customer's members
// with their tiers (member_tiers.go).

// maxMemberships bounds the memberships one customer lists.
const maxMemberships = 100

// CustomerMemberships lists a customer's memberships (404 for a customer
// the project does not have; an empty list for a customer of no program).
func CustomerMemberships(ctx context.Context, customerID string) ([]*Membership, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.Customer.Get(ctx, customerID); err != nil {
		return nil, notFound(err, "customer", customerID)
	}
	members, err := c.LoyaltyMember.Query().Where(loyaltymember.CustomerID(customerID)).
		Order(loyaltymember.ByCreatedAt()).Limit(maxMemberships).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading memberships: %w", err)
	}
	out := make([]*Membership, 0, len(members))
	for _, m := range members {
		tiers, err := memberTiers(ctx, m)
		if err != nil {
			return nil, err
		}
		out = append(out, &Membership{Member: m, Tiers: tiers})
	}
	return out, nil
}

// ProgramMembership returns a customer's membership of one program (404
// when the customer is not a member).
func ProgramMembership(ctx context.Context, programID, customerID string) (*Membership, error) {
	if _, err := Program(ctx, programID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.LoyaltyMember.Query().Where(loyaltymember.ProgramID(programID), loyaltymember.CustomerID(customerID)).Only(ctx)
	if err != nil {
		return nil, notFound(err, "member", customerID)
	}
	tiers, err := memberTiers(ctx, m)
	if err != nil {
		return nil, err
	}
	return &Membership{Member: m, Tiers: tiers}, nil
}
