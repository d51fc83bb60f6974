package loyalty

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/formula"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Card definitions: the kinds of loyalty card a program issues, with the
// code configuration of their cards.

// defaultCardCodeLength is the code length of cards whose definition gives
// no code configuration (the interface: 10 alphanumeric characters).
const defaultCardCodeLength = 10

// CreateCardDefinition creates a card definition of a loyalty program.
func CreateCardDefinition(ctx context.Context, in loyaltybase.CreateCardDefinitionInput) (*ent.CardDefinition, error) {
	if err := loyaltybase.RequiredName(in.Name); err != nil {
		return nil, err
	}
	status, err := loyaltybase.InitialStatus(in.Status, carddefinition.StatusDRAFT, carddefinition.StatusACTIVE)
	if err != nil {
		return nil, err
	}
	cc, err := cardCodeConfig(in.CodeConfig)
	if err != nil {
		return nil, err
	}
	var pay *jsonfield.PayWithPoints
	if in.PayWithPoints != nil {
		if pay, err = payWithPointsConfig(in.PayWithPoints); err != nil {
			return nil, err
		}
	}
	var pending *jsonfield.PendingPoints
	if in.PendingPoints != nil {
		if pending, err = pendingPointsConfig(in.PendingPoints); err != nil {
			return nil, err
		}
	}
	settings, err := cardSettings(nil, in.CardSettingsInput, shape.Nulls{})
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return loyaltybase.Logged(ctx, loyaltybase.CardDefinitionActivities, "created", loyaltybase.CardDefinitionIDOf)(c.CardDefinition.Create().
		SetName(*in.Name).SetStatus(status).SetCodeConfig(cc).SetMetadata(shape.OrEmptyMap(in.Metadata)).
		SetPayWithPoints(pay).SetPendingPoints(pending).SetSettings(settings).Save(ctx))
}

// ActivateCardDefinition makes a card definition active.
func ActivateCardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	return setCardDefinitionStatus(ctx, id, carddefinition.StatusACTIVE)
}

// DraftCardDefinition puts a card definition back into draft.
func DraftCardDefinition(ctx context.Context, id string) (*ent.CardDefinition, error) {
	return setCardDefinitionStatus(ctx, id, carddefinition.StatusDRAFT)
}

func setCardDefinitionStatus(ctx context.Context, id string, to carddefinition.Status) (*ent.CardDefinition, error) {
	d, err := loyaltybase.CardDefinition(ctx, id)
	if err != nil {
		return nil, err
	}
	return loyaltybase.Logged(ctx, loyaltybase.CardDefinitionActivities, loyaltybase.StatusVerb(to), loyaltybase.CardDefinitionIDOf)(d.Update().SetStatus(to).Save(ctx))
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
	cc, err := campaign.NormalizeCodeConfig(".code_config", cc)
	if err != nil {
		return nil, err
	}
	if _, err := campaign.CodeGenerator(cc); err != nil {
		return nil, err
	}
	return cc, nil
}

// UpdateCardDefinition updates a card definition.
func UpdateCardDefinition(ctx context.Context, id string, in loyaltybase.UpdateCardDefinitionInput) (*ent.CardDefinition, error) {
	if err := in.RefuseNull("name", "code_config"); err != nil {
		return nil, err
	}
	d, err := loyaltybase.CardDefinition(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if err := loyaltybase.RequiredName(in.Name); err != nil {
			return nil, err
		}
	}
	settings, err := cardSettings(d.Settings, in.CardSettingsInput, in.Nulls)
	if err != nil {
		return nil, err
	}
	upd := d.Update().SetNillableName(in.Name).SetSettings(settings)
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
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if in.PayWithPoints != nil { // always updatable (the documents), even in use
		pay, err := payWithPointsConfig(in.PayWithPoints)
		if err != nil {
			return nil, err
		}
		if pay == nil {
			upd.ClearPayWithPoints()
		} else {
			upd.SetPayWithPoints(pay)
		}
	}
	if in.PendingPoints != nil { // applies to points earned from now on
		pending, err := pendingPointsConfig(in.PendingPoints)
		if err != nil {
			return nil, err
		}
		if pending == nil {
			upd.ClearPendingPoints()
		} else {
			upd.SetPendingPoints(pending)
		}
	}
	return loyaltybase.Logged(ctx, loyaltybase.CardDefinitionActivities, "updated", loyaltybase.CardDefinitionIDOf)(upd.Save(ctx))
}

// A card definition's pay-with-points configuration (`pay_with_points`):
// NO_PAYMENTS (the default; stored as null) or EXCHANGE_RATIO with a
// formula giving the amount, in the currency's minor unit, one point pays
// (1: 100 points pay 1.00). The formula is the discount formulas' language
// (graph/formula): a number, or an expression of the order
// (ORDER_AMOUNT in the main unit, ORDER_METADATA(…), …).

// Pay-with-points types.
const (
	payNone          = "NO_PAYMENTS"
	PayExchangeRatio = "EXCHANGE_RATIO"
)

// maxFormulaLength is the documents' bound of an exchange-ratio formula.
const maxFormulaLength = 2000

// payWithPointsConfig checks a card definition's pay_with_points and
// returns what to store (nil for NO_PAYMENTS).
func payWithPointsConfig(p *jsonfield.PayWithPoints) (*jsonfield.PayWithPoints, error) {
	switch p.Type {
	case payNone:
		if p.ExchangeRatio != nil {
			return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio is allowed only with type EXCHANGE_RATIO")
		}
		return nil, nil
	case PayExchangeRatio:
	default:
		return nil, apperr.InvalidPayload("Property .pay_with_points.type must be NO_PAYMENTS or EXCHANGE_RATIO")
	}
	if p.ExchangeRatio == nil {
		return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio is required with type EXCHANGE_RATIO")
	}
	src := string(p.ExchangeRatio.Formula)
	if n := len([]rune(src)); n < 1 || n > maxFormulaLength {
		return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio.formula must be 1-%d characters long", maxFormulaLength)
	}
	if _, err := formula.Parse(src); err != nil {
		return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio.formula: %v", err)
	}
	return &jsonfield.PayWithPoints{Type: PayExchangeRatio, ExchangeRatio: p.ExchangeRatio}, nil
}

// PayWithPointsOf is a card definition's configuration as the interface
// shows it: always present, NO_PAYMENTS when none is stored.
func PayWithPointsOf(d *ent.CardDefinition) jsonfield.PayWithPoints {
	if d.PayWithPoints == nil || d.PayWithPoints.Type != PayExchangeRatio {
		return jsonfield.PayWithPoints{Type: payNone}
	}
	return *d.PayWithPoints
}
