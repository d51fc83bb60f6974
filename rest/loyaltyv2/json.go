package loyaltyv2

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/benefit"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// JSON shapes of the v2 loyalty area. Every documented field is present,
// null where unset.

type cardActivityBody struct {
	ID        string                    `json:"id"`
	Type      string                    `json:"type"`
	CardID    string                    `json:"card_id"`
	Data      map[string]any            `json:"data"`
	CreatedAt httpkit.Timestamp         `json:"created_at"`
	GroupID   *string                   `json:"group_id"`
	Source    *jsonfield.ActivitySource `json:"source"`
	Object    string                    `json:"object"`
}

func cardActivityJSON(a *ent.CardActivity) cardActivityBody {
	return cardActivityBody{ID: a.ID, Type: a.Type, CardID: a.CardID, Data: httpkit.OrEmpty(a.Data),
		CreatedAt: httpkit.Timestamp(a.CreatedAt), GroupID: a.GroupID, Source: a.Source, Object: "card_activity"}
}

type rewardActivityBody struct {
	ID        string                    `json:"id"`
	Type      string                    `json:"type"`
	RewardID  string                    `json:"reward_id"`
	Data      map[string]any            `json:"data"`
	CreatedAt httpkit.Timestamp         `json:"created_at"`
	GroupID   *string                   `json:"group_id"`
	Source    *jsonfield.ActivitySource `json:"source"`
	Object    string                    `json:"object"`
}

func rewardActivityJSON(a *ent.RewardActivity) rewardActivityBody {
	return rewardActivityBody{ID: a.ID, Type: a.Type, RewardID: a.RewardID, Data: httpkit.OrEmpty(a.Data),
		CreatedAt: httpkit.Timestamp(a.CreatedAt), GroupID: a.GroupID, Source: a.Source, Object: "reward_activity"}
}

type programBody struct {
	ID              string             `json:"id"`
	Name            string             `json:"name"`
	Status          string             `json:"status"`
	StartDate       *httpkit.Timestamp `json:"start_date"`
	EndDate         *httpkit.Timestamp `json:"end_date"`
	Metadata        map[string]any     `json:"metadata"`
	CardDefinitions []jsonfield.IDRef  `json:"card_definitions"`
	CreatedAt       httpkit.Timestamp  `json:"created_at"`
	UpdatedAt       *httpkit.Timestamp `json:"updated_at"`
	Object          string             `json:"object"`
}

func programJSON(p *ent.LoyaltyProgram) programBody {
	refs := make([]jsonfield.IDRef, len(p.CardDefinitionIds))
	for i, id := range p.CardDefinitionIds {
		refs[i] = jsonfield.IDRef{ID: id}
	}
	return programBody{ID: p.ID, Name: p.Name, Status: string(p.Status), StartDate: httpkit.OptionalTime(p.StartDate),
		EndDate: httpkit.OptionalTime(p.EndDate), Metadata: httpkit.OrEmpty(p.Metadata), CardDefinitions: refs,
		CreatedAt: httpkit.Timestamp(p.CreatedAt), UpdatedAt: httpkit.OptionalTime(p.UpdatedAt), Object: "program"}
}

type cardDefinitionBody struct {
	ID         string             `json:"id"`
	Name       string             `json:"name"`
	Type       string             `json:"type"`
	Status     string             `json:"status"`
	CodeConfig cardCodeConfigBody `json:"code_config"`
	Metadata   map[string]any     `json:"metadata"`
	// PayWithPoints: graph/loyalty/payment/pay_with_points.go (#31 order payments).
	PayWithPoints jsonfield.PayWithPoints `json:"pay_with_points"`
	PendingPoints jsonfield.PendingPoints `json:"pending_points"`
	// cardSettingsBody: points_expiration, limits, refunds, balance_settings.
	cardSettingsBody
	CreatedAt httpkit.Timestamp  `json:"created_at"`
	UpdatedAt *httpkit.Timestamp `json:"updated_at"`
	Object    string             `json:"object"`
}

func cardDefinitionJSON(d *ent.CardDefinition) cardDefinitionBody {
	return cardDefinitionBody{ID: d.ID, Name: d.Name, Type: d.Type, Status: string(d.Status), CodeConfig: cardCodeConfigJSON(d.CodeConfig),
		Metadata: httpkit.OrEmpty(d.Metadata), PayWithPoints: loyalty.PayWithPointsOf(d), PendingPoints: loyalty.PendingPointsOf(d),
		cardSettingsBody: cardSettingsJSON(loyalty.CardSettingsOf(d)), CreatedAt: httpkit.Timestamp(d.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(d.UpdatedAt), Object: "card_definition"}
}

type cardBody struct {
	ID               string             `json:"id"`
	Code             *string            `json:"code"`
	ProgramID        string             `json:"program_id"`
	CardDefinitionID *string            `json:"card_definition_id"`
	MemberID         *string            `json:"member_id"`
	Balance          int64              `json:"balance"`
	CreatedAt        httpkit.Timestamp  `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp `json:"updated_at"`
	Object           string             `json:"object"`
}

func CardJSON(c *ent.Card) cardBody {
	return cardBody{ID: c.ID, Code: c.Code, ProgramID: c.ProgramID, CardDefinitionID: c.CardDefinitionID,
		MemberID: c.MemberID, Balance: c.Balance, CreatedAt: httpkit.Timestamp(c.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(c.UpdatedAt), Object: "card"}
}

type memberBody struct {
	ID         string             `json:"id"`
	ProgramID  string             `json:"program_id"`
	CustomerID string             `json:"customer_id"`
	Status     string             `json:"status"`
	Metadata   map[string]any     `json:"metadata"`
	Cards      []memberCardBody   `json:"cards"`
	CreatedAt  httpkit.Timestamp  `json:"created_at"`
	UpdatedAt  *httpkit.Timestamp `json:"updated_at"`
	Object     string             `json:"object"`
}

// MemberJSON renders a member and its cards (with their summaries from
// sums when it has them).
func MemberJSON(m *ent.LoyaltyMember, cards []*ent.Card, sums map[string]*loyalty.CardSummary) memberBody {
	out := make([]memberCardBody, len(cards))
	for i, c := range cards {
		out[i] = memberCardJSON(c, sums[c.ID])
	}
	return memberBody{ID: m.ID, ProgramID: m.ProgramID, CustomerID: m.CustomerID, Status: string(m.Status),
		Metadata: httpkit.OrEmpty(m.Metadata), Cards: out, CreatedAt: httpkit.Timestamp(m.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(m.UpdatedAt), Object: "member"}
}

type pointsAdjustmentBody struct {
	Status      string               `json:"status"`
	Message     string               `json:"message"`
	Transaction *cardTransactionBody `json:"transaction"`
}

func pointsAdjustmentJSON(p *loyaltybase.PointsAdjustment) pointsAdjustmentBody {
	out := pointsAdjustmentBody{Status: p.Status, Message: p.Message}
	if p.Transaction != nil {
		t := CardTransactionJSON(p.Transaction)
		out.Transaction = &t
	}
	return out
}

func rewardJSON(r *ent.Reward) map[string]any { return benefit.RewardJSON(r) }

type earningRuleBody struct {
	ID            string                          `json:"id"`
	Name          string                          `json:"name"`
	Status        string                          `json:"status"`
	Earnings      jsonfield.Earnings              `json:"earnings"`
	Trigger       *jsonfield.EarningTrigger       `json:"trigger"`
	Error         map[string]any                  `json:"error"`
	ValidityHours *jsonfield.EarningValidityHours `json:"validity_hours"`
	StartDate     *httpkit.Timestamp              `json:"start_date"`
	EndDate       *httpkit.Timestamp              `json:"end_date"`
	TriggerLimits *jsonfield.TriggerLimits        `json:"trigger_limits"`
	Metadata      map[string]any                  `json:"metadata"`
	CreatedAt     httpkit.Timestamp               `json:"created_at"`
	UpdatedAt     *httpkit.Timestamp              `json:"updated_at"`
	Object        string                          `json:"object"`
}

func earningRuleJSON(r *ent.EarningRule) earningRuleBody {
	earnings := r.Earnings
	if earnings == nil {
		earnings = jsonfield.Earnings{}
	}
	return earningRuleBody{ID: r.ID, Name: r.Name, Status: string(r.Status), Earnings: earnings, Trigger: r.Trigger,
		Error: r.Error, ValidityHours: r.ValidityHours, StartDate: httpkit.OptionalTime(r.StartDate), EndDate: httpkit.OptionalTime(r.EndDate),
		TriggerLimits: r.TriggerLimits, Metadata: httpkit.OrEmpty(r.Metadata), CreatedAt: httpkit.Timestamp(r.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(r.UpdatedAt), Object: "earning_rule"}
}

// incentiveBody shows the detail object of the incentive's type only.
type incentiveBody struct {
	ID                 string                        `json:"id"`
	Name               string                        `json:"name"`
	Type               string                        `json:"type"`
	Status             string                        `json:"status"`
	Stock              int                           `json:"stock"`
	Points             *jsonfield.IncentivePoints    `json:"points,omitempty"`
	PointsProportional *jsonfield.PointsProportional `json:"points_proportional,omitempty"`
	Material           *jsonfield.MaterialDetail     `json:"material,omitempty"`
	Digital            *jsonfield.DigitalDetail      `json:"digital,omitempty"`
	CreatedAt          httpkit.Timestamp             `json:"created_at"`
	UpdatedAt          *httpkit.Timestamp            `json:"updated_at"`
	Object             string                        `json:"object"`
}

func incentiveJSON(i *ent.Incentive) incentiveBody {
	return incentiveBody{ID: i.ID, Name: i.Name, Type: string(i.Type), Status: string(i.Status), Stock: i.Stock,
		Points: i.Points, PointsProportional: i.PointsProportional, Material: i.Material, Digital: i.Digital,
		CreatedAt: httpkit.Timestamp(i.CreatedAt), UpdatedAt: httpkit.OptionalTime(i.UpdatedAt), Object: "incentive"}
}
