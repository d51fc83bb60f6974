package benefit

import (
	"context"
	"fmt"
	"math"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// CreateIncentive validates every rule of the interface, each violation a
// 400 naming the field (404 for unknown card definitions and campaigns),
// and stores the incentive. The name is unique per project through a
// unique index, so concurrent creates with one name end in one row and
// 409 duplicate_found for the others.
func CreateIncentive(ctx context.Context, in loyaltybase.CreateIncentiveInput) (*ent.Incentive, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	if in.Type == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'type'")
	}
	if err := incentive.TypeValidator(*in.Type); err != nil {
		return nil, apperr.InvalidPayload("Property .type must be one of POINTS, POINTS_PROPORTIONAL, MATERIAL, DIGITAL, got %q", *in.Type)
	}
	if in.Stock == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'stock'")
	}
	if err := checkStock(*in.Stock); err != nil {
		return nil, err
	}
	status, err := loyaltybase.InitialStatus(in.Status, incentive.StatusDRAFT, incentive.StatusACTIVE)
	if err != nil {
		return nil, err
	}
	if err := validateIncentiveDetail(ctx, &in); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	create := c.Incentive.Create().SetName(*in.Name).SetType(*in.Type).SetStatus(status).SetStock(int(*in.Stock))
	setIncentiveDetail(create.Mutation(), &in)
	inc, err := create.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateIncentive(*in.Name)
	}
	return loyaltybase.Logged(ctx, loyaltybase.IncentiveActivities, "created", loyaltybase.IncentiveIDOf)(inc, err)
}

// detailOf names the detail property each incentive type uses.
var detailOf = map[incentive.Type]string{
	incentive.TypePOINTS:              "points",
	incentive.TypePOINTS_PROPORTIONAL: "points_proportional",
	incentive.TypeMATERIAL:            "material",
	incentive.TypeDIGITAL:             "digital",
}

func validateIncentiveDetail(ctx context.Context, in *loyaltybase.CreateIncentiveInput) error {
	var given []string
	if in.Points != nil {
		given = append(given, "points")
	}
	if in.PointsProportional != nil {
		given = append(given, "points_proportional")
	}
	if in.Material != nil {
		given = append(given, "material")
	}
	if in.Digital != nil {
		given = append(given, "digital")
	}
	want := detailOf[*in.Type]
	switch {
	case len(given) == 0:
		return apperr.InvalidPayload("Exactly one of points, points_proportional, material, digital must be non-null; property .%s is required for type %s", want, *in.Type)
	case len(given) > 1:
		return apperr.InvalidPayload("Exactly one of points, points_proportional, material, digital must be non-null, got %v", given)
	case given[0] != want:
		return apperr.InvalidPayload("Property .%s does not match type %s, which requires .%s", given[0], *in.Type, want)
	}
	switch {
	case in.Points != nil:
		return loyalty.ValidatePoints(ctx, "points", in.Points)
	case in.PointsProportional != nil:
		return loyalty.ValidatePointsProportional(ctx, "points_proportional", in.PointsProportional)
	case in.Material != nil:
		if err := validateMaterial("material", in.Material); err != nil {
			return err
		}
		return requireMaterial(ctx, "material", in.Material)
	default:
		return validateDigital(ctx, "digital", in.Digital)
	}
}

// ActivateIncentive makes an incentive active.
func ActivateIncentive(ctx context.Context, id string) (*ent.Incentive, error) {
	return setIncentiveStatus(ctx, id, incentive.StatusACTIVE)
}

// DraftIncentive puts an incentive back into draft.
func DraftIncentive(ctx context.Context, id string) (*ent.Incentive, error) {
	return setIncentiveStatus(ctx, id, incentive.StatusDRAFT)
}

func setIncentiveStatus(ctx context.Context, id string, to incentive.Status) (*ent.Incentive, error) {
	i, err := loyaltybase.IncentiveByID(ctx, id)
	if err != nil {
		return nil, err
	}
	return loyaltybase.Logged(ctx, loyaltybase.IncentiveActivities, loyaltybase.StatusVerb(to), loyaltybase.IncentiveIDOf)(i.Update().SetStatus(to).Save(ctx))
}

// UpdateIncentive replaces the given fields; the result must pass every
// create rule (the type cannot change, so a detail object of another type
// is refused).
func UpdateIncentive(ctx context.Context, id string, in loyaltybase.UpdateIncentiveInput) (*ent.Incentive, error) {
	if err := in.RefuseNull("name", "stock"); err != nil {
		return nil, err
	}
	inc, err := loyaltybase.IncentiveByID(ctx, id)
	if err != nil {
		return nil, err
	}
	stock := int64(inc.Stock)
	merged := loyaltybase.CreateIncentiveInput{Name: &inc.Name, Type: &inc.Type, Stock: &stock,
		Points: inc.Points, PointsProportional: inc.PointsProportional, Material: inc.Material, Digital: inc.Digital}
	if in.Name != nil {
		merged.Name = in.Name
	}
	if in.Stock != nil {
		merged.Stock = in.Stock
	}
	detail := in.Points != nil || in.PointsProportional != nil || in.Material != nil || in.Digital != nil
	if detail {
		merged.Points, merged.PointsProportional, merged.Material, merged.Digital = in.Points, in.PointsProportional, in.Material, in.Digital
	}
	if err := loyaltybase.RequiredName(merged.Name); err != nil {
		return nil, err
	}
	if err := checkStock(*merged.Stock); err != nil {
		return nil, err
	}
	// The stored detail passed these checks when it was written (its
	// product may be deleted since: a stock change must still go through).
	if err := validateIncentiveDetailIf(ctx, detail, &merged); err != nil {
		return nil, err
	}
	upd := inc.Update().SetName(*merged.Name).SetStock(int(*merged.Stock))
	setIncentiveDetail(upd.Mutation(), &merged)
	out, err := upd.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateIncentive(*merged.Name)
	}
	return loyaltybase.Logged(ctx, loyaltybase.IncentiveActivities, "updated", loyaltybase.IncentiveIDOf)(out, err)
}

// validateIncentiveDetailIf runs validateIncentiveDetail when sent.
func validateIncentiveDetailIf(ctx context.Context, sent bool, in *loyaltybase.CreateIncentiveInput) error {
	if !sent {
		return nil
	}
	return validateIncentiveDetail(ctx, in)
}

// setIncentiveDetail sets the one detail object of a validated input.
func setIncentiveDetail(m *ent.IncentiveMutation, in *loyaltybase.CreateIncentiveInput) {
	switch {
	case in.Points != nil:
		m.SetPoints(in.Points)
	case in.PointsProportional != nil:
		m.SetPointsProportional(in.PointsProportional)
	case in.Material != nil:
		m.SetMaterial(in.Material)
	case in.Digital != nil:
		m.SetDigital(in.Digital)
	}
}

// checkStock refuses a stock outside 0 to 2^31-1.
func checkStock(n int64) error {
	if n < 0 || n > math.MaxInt32 {
		return apperr.InvalidPayload("Property .stock must be between 0 and 2147483647, got %d", n)
	}
	return nil
}

// duplicateIncentive is the 409 of a second incentive of one name.
func duplicateIncentive(name string) error {
	return apperr.Duplicate("incentive", fmt.Sprintf("An incentive named %q already exists", name))
}
