package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Members of a loyalty program: enrolment (which issues the member's cards)
// and status.

// CreateLoyaltyMember enrols an existing customer and issues the member's
// Cards, recording their activities under one group id.
func CreateLoyaltyMember(ctx context.Context, programID string, in loyaltybase.CreateLoyaltyMemberInput) (*ent.LoyaltyMember, error) {
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, err
	}
	if in.CustomerID == nil || *in.CustomerID == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'customer_id'")
	}
	status, err := loyaltybase.InitialStatus(in.Status, loyaltymember.StatusACTIVE, loyaltymember.StatusINACTIVE)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.Customer.Get(ctx, *in.CustomerID); err != nil {
		return nil, loyaltybase.NotFound(err, "customer", *in.CustomerID)
	}
	if err := store.LockKey(ctx, "member:"+p.ID+":"+*in.CustomerID); err != nil {
		return nil, err
	}
	exists, err := c.LoyaltyMember.Query().
		Where(loyaltymember.ProgramID(p.ID), loyaltymember.CustomerID(*in.CustomerID)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking membership: %w", err)
	}
	if exists {
		return nil, apperr.Duplicate("member", fmt.Sprintf("Customer %s is already a member of program %s", *in.CustomerID, p.ID))
	}
	m, err := c.LoyaltyMember.Create().SetProgramID(p.ID).SetCustomerID(*in.CustomerID).SetStatus(status).
		SetMetadata(shape.OrEmptyMap(in.Metadata)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating member: %w", err)
	}
	if err := recordMemberActivity(ctx, m, "created"); err != nil {
		return nil, err
	}
	group := loyaltybase.NewGroupID()
	defs := p.CardDefinitionIds
	if len(defs) == 0 {
		defs = []string{""}
	}
	for _, defID := range defs {
		crd, err := issueCard(ctx, p.ID, defID, &m.ID, group)
		if err != nil {
			return nil, err
		}
		if err := loyaltybase.RecordActivity(ctx, memberCardActivities, m.ID, "card.assigned", crd); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// ActivateLoyaltyMember makes a program's member active.
func ActivateLoyaltyMember(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	return setMemberStatus(ctx, programID, memberID, loyaltymember.StatusACTIVE)
}

// DeactivateLoyaltyMember makes a program's member inactive.
func DeactivateLoyaltyMember(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	return setMemberStatus(ctx, programID, memberID, loyaltymember.StatusINACTIVE)
}

func setMemberStatus(ctx context.Context, programID, memberID string, to loyaltymember.Status) (*ent.LoyaltyMember, error) {
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	out, err := m.Update().SetStatus(to).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("setting member status: %w", err)
	}
	return out, recordMemberActivity(ctx, out, loyaltybase.StatusVerb(to))
}
