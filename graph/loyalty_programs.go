package graph

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
)

// defaultCardCodeLength is the code length of cards whose definition gives
// no code configuration (the interface: 10 alphanumeric characters).
const defaultCardCodeLength = 10

func loyaltyProgram(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	p, err := c.LoyaltyProgram.Get(ctx, id)
	if err := notFound(err, "program", id); err != nil {
		return nil, err
	}
	return p, nil
}

func createLoyaltyProgram(ctx context.Context, in CreateLoyaltyProgramInput) (*ent.LoyaltyProgram, error) {
	if err := requiredName(in.Name); err != nil {
		return nil, err
	}
	status := loyaltyprogram.StatusDRAFT
	if in.Status != nil {
		if *in.Status != loyaltyprogram.StatusDRAFT && *in.Status != loyaltyprogram.StatusACTIVE {
			return nil, apperr.InvalidPayload("Property .status must be one of DRAFT, ACTIVE, got %q", *in.Status)
		}
		status = *in.Status
	}
	if in.StartDate != nil && in.EndDate != nil && in.EndDate.Before(*in.StartDate) {
		return nil, apperr.InvalidPayload("Property .end_date must not be before .start_date")
	}
	ids, err := cardDefinitionRefs(ctx, in.CardDefinitions)
	if err != nil {
		return nil, err
	}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	return c.LoyaltyProgram.Create().SetName(*in.Name).SetStatus(status).
		SetNillableStartDate(utcMillis(in.StartDate)).SetNillableEndDate(utcMillis(in.EndDate)).
		SetCardDefinitionIds(ids).SetMetadata(orEmptyMap(in.Metadata)).Save(ctx)
}

func activateLoyaltyProgram(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	return setProgramStatus(ctx, id, loyaltyprogram.StatusACTIVE)
}

func deactivateLoyaltyProgram(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	return setProgramStatus(ctx, id, loyaltyprogram.StatusINACTIVE)
}

func setProgramStatus(ctx context.Context, id string, to loyaltyprogram.Status) (*ent.LoyaltyProgram, error) {
	p, err := loyaltyProgram(ctx, id)
	if err != nil {
		return nil, err
	}
	return p.Update().SetStatus(to).Save(ctx)
}

func cardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	d, err := c.CardDefinition.Get(ctx, id)
	if err := notFound(err, "card_definition", id); err != nil {
		return nil, err
	}
	return d, nil
}

func createCardDefinition(ctx context.Context, in CreateCardDefinitionInput) (*ent.CardDefinition, error) {
	if err := requiredName(in.Name); err != nil {
		return nil, err
	}
	status := carddefinition.StatusDRAFT
	if in.Status != nil {
		if err := carddefinition.StatusValidator(*in.Status); err != nil {
			return nil, apperr.InvalidPayload("Property .status must be one of DRAFT, ACTIVE, got %q", *in.Status)
		}
		status = *in.Status
	}
	cc, err := cardCodeConfig(in.CodeConfig)
	if err != nil {
		return nil, err
	}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	return c.CardDefinition.Create().SetName(*in.Name).SetStatus(status).SetCodeConfig(cc).
		SetMetadata(orEmptyMap(in.Metadata)).Save(ctx)
}

func activateCardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	return setCardDefinitionStatus(ctx, id, carddefinition.StatusACTIVE)
}

func draftCardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	return setCardDefinitionStatus(ctx, id, carddefinition.StatusDRAFT)
}

func setCardDefinitionStatus(ctx context.Context, id string, to carddefinition.Status) (*ent.CardDefinition, error) {
	d, err := cardDefinition(ctx, id)
	if err != nil {
		return nil, err
	}
	return d.Update().SetStatus(to).Save(ctx)
}

// loyaltyMember finds a member of a program (404 program, then member).
func loyaltyMember(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	if _, err := loyaltyProgram(ctx, programID); err != nil {
		return nil, err
	}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.LoyaltyMember.Query().
		Where(loyaltymember.ID(memberID), loyaltymember.ProgramID(programID)).Only(ctx)
	if err := notFound(err, "member", memberID); err != nil {
		return nil, err
	}
	return m, nil
}

// createLoyaltyMember enrols an existing customer and issues the member's
// cards, recording their activities under one group id.
func createLoyaltyMember(ctx context.Context, programID string, in CreateLoyaltyMemberInput) (*ent.LoyaltyMember, error) {
	p, err := loyaltyProgram(ctx, programID)
	if err != nil {
		return nil, err
	}
	if in.CustomerID == nil || *in.CustomerID == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'customer_id'")
	}
	status := loyaltymember.StatusACTIVE
	if in.Status != nil {
		if err := loyaltymember.StatusValidator(*in.Status); err != nil {
			return nil, apperr.InvalidPayload("Property .status must be one of ACTIVE, INACTIVE, got %q", *in.Status)
		}
		status = *in.Status
	}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.Customer.Get(ctx, *in.CustomerID); err != nil {
		return nil, notFound(err, "customer", *in.CustomerID)
	}
	if err := lockKey(ctx, "member:"+p.ID+":"+*in.CustomerID); err != nil {
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
		SetMetadata(orEmptyMap(in.Metadata)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating member: %w", err)
	}
	group := newGroupID()
	defs := p.CardDefinitionIds
	if len(defs) == 0 {
		defs = []string{""}
	}
	for _, defID := range defs {
		if _, err := issueCard(ctx, p.ID, defID, &m.ID, group); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func activateLoyaltyMember(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	return setMemberStatus(ctx, programID, memberID, loyaltymember.StatusACTIVE)
}

func deactivateLoyaltyMember(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	return setMemberStatus(ctx, programID, memberID, loyaltymember.StatusINACTIVE)
}

func setMemberStatus(ctx context.Context, programID, memberID string, to loyaltymember.Status) (*ent.LoyaltyMember, error) {
	m, err := loyaltyMember(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	return m.Update().SetStatus(to).Save(ctx)
}

// cardDefinitionRefs checks a program's card definitions (at most 10, each
// existing in the project) and returns their ids.
func cardDefinitionRefs(ctx context.Context, refs []*jsonfield.IDRef) ([]string, error) {
	if len(refs) > 10 {
		return nil, apperr.InvalidPayload("Property .card_definitions must have at most 10 items, got %d", len(refs))
	}
	ids := make([]string, 0, len(refs))
	for i, ref := range refs {
		if ref == nil || ref.ID == "" {
			return nil, apperr.InvalidPayload("Property .card_definitions[%d].id is required", i)
		}
		if _, err := cardDefinition(ctx, ref.ID); err != nil {
			return nil, err
		}
		ids = append(ids, ref.ID)
	}
	return ids, nil
}

// cardCodeConfig completes and checks a card definition's code
// configuration (default: 10 alphanumeric characters).
func cardCodeConfig(cc *jsonfield.CodeConfig) (*jsonfield.CodeConfig, error) {
	if cc == nil || (cc.Pattern == nil && cc.Length == nil) {
		n := defaultCardCodeLength
		base := jsonfield.CodeConfig{}
		if cc != nil {
			base = *cc
		}
		base.Length = &n
		cc = &base
	}
	cc, err := normalizeCodeConfig(".code_config", cc)
	if err != nil {
		return nil, err
	}
	if _, err := codeGenerator(cc); err != nil {
		return nil, err
	}
	return cc, nil
}

func updateLoyaltyProgram(ctx context.Context, id string, in UpdateLoyaltyProgramInput) (*ent.LoyaltyProgram, error) {
	p, err := loyaltyProgram(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := requiredName(in.Name); err != nil {
			return nil, err
		}
	}
	start, end := p.StartDate, p.EndDate
	if in.StartDate != nil {
		start = in.StartDate
	}
	if in.EndDate != nil {
		end = in.EndDate
	}
	if start != nil && end != nil && end.Before(*start) {
		return nil, apperr.InvalidPayload("Property .end_date must not be before .start_date")
	}
	upd := p.Update().SetNillableName(in.Name).SetNillableStartDate(utcMillis(in.StartDate)).
		SetNillableEndDate(utcMillis(in.EndDate))
	if in.CardDefinitions != nil {
		ids, err := cardDefinitionRefs(ctx, in.CardDefinitions)
		if err != nil {
			return nil, err
		}
		upd.SetCardDefinitionIds(ids)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	return upd.Save(ctx)
}

func updateCardDefinition(ctx context.Context, id string, in UpdateCardDefinitionInput) (*ent.CardDefinition, error) {
	d, err := cardDefinition(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := requiredName(in.Name); err != nil {
			return nil, err
		}
	}
	upd := d.Update().SetNillableName(in.Name)
	if in.CodeConfig != nil {
		cc, err := cardCodeConfig(in.CodeConfig)
		if err != nil {
			return nil, err
		}
		upd.SetCodeConfig(cc)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	return upd.Save(ctx)
}
