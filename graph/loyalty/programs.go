package loyalty

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// CreateLoyaltyProgram creates a loyalty program.
func CreateLoyaltyProgram(ctx context.Context, in loyaltybase.CreateLoyaltyProgramInput) (*ent.LoyaltyProgram, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	status, err := loyaltybase.InitialStatus(in.Status, loyaltyprogram.StatusDRAFT, loyaltyprogram.StatusACTIVE)
	if err != nil {
		return nil, err
	}
	if err := loyaltybase.CheckDateOrder(in.StartDate, in.EndDate); err != nil {
		return nil, err
	}
	ids, err := cardDefinitionRefs(ctx, in.CardDefinitions)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return loyaltybase.Logged(ctx, loyaltybase.ProgramActivities, "created", loyaltybase.ProgramIDOf)(c.LoyaltyProgram.Create().SetName(*in.Name).SetStatus(status).
		SetNillableStartDate(loyaltybase.UTCMillis(in.StartDate)).SetNillableEndDate(loyaltybase.UTCMillis(in.EndDate)).
		SetCardDefinitionIds(ids).SetMetadata(shape.OrEmptyMap(in.Metadata)).Save(ctx))
}

// ActivateLoyaltyProgram makes a loyalty program active.
func ActivateLoyaltyProgram(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	return setProgramStatus(ctx, id, loyaltyprogram.StatusACTIVE)
}

// DeactivateLoyaltyProgram makes a loyalty program inactive.
func DeactivateLoyaltyProgram(ctx context.Context, id string) (*ent.LoyaltyProgram, error) {
	return setProgramStatus(ctx, id, loyaltyprogram.StatusINACTIVE)
}

func setProgramStatus(ctx context.Context, id string, to loyaltyprogram.Status) (*ent.LoyaltyProgram, error) {
	p, err := loyaltybase.Program(ctx, id)
	if err != nil {
		return nil, err
	}
	return loyaltybase.Logged(ctx, loyaltybase.ProgramActivities, loyaltybase.StatusVerb(to), loyaltybase.ProgramIDOf)(p.Update().SetStatus(to).Save(ctx))
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
		if _, err := loyaltybase.CardDefinition(ctx, ref.ID); err != nil {
			return nil, err
		}
		ids = append(ids, ref.ID)
	}
	return ids, nil
}

// UpdateLoyaltyProgram updates a loyalty program.
func UpdateLoyaltyProgram(ctx context.Context, id string, in loyaltybase.UpdateLoyaltyProgramInput) (*ent.LoyaltyProgram, error) {
	p, err := loyaltybase.Program(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := loyaltybase.RequiredName(in.Name); err != nil {
			return nil, err
		}
	}
	if err := in.RefuseNull("name"); err != nil {
		return nil, err
	}
	start, end := p.StartDate, p.EndDate
	if in.StartDate != nil || in.IsNull("start_date") {
		start = in.StartDate
	}
	if in.EndDate != nil || in.IsNull("end_date") {
		end = in.EndDate
	}
	if err := loyaltybase.CheckDateOrder(start, end); err != nil {
		return nil, err
	}
	upd := p.Update().SetNillableName(in.Name).SetNillableStartDate(loyaltybase.UTCMillis(in.StartDate)).
		SetNillableEndDate(loyaltybase.UTCMillis(in.EndDate))
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
	clearProgramFields(upd, &in)
	return loyaltybase.Logged(ctx, loyaltybase.ProgramActivities, "updated", loyaltybase.ProgramIDOf)(upd.Save(ctx))
}
