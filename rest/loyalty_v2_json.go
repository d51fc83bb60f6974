package rest

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// JSON shapes of tier structures, tiers, program rewards, reward and tier
// transactions and memberships (the documents' fields; null where unset).

type tierStructureBody struct {
	ID               string         `json:"id"`
	Name             string         `json:"name"`
	Type             string         `json:"type"`
	CardDefinitionID string         `json:"card_definition_id"`
	PointEarned      map[string]any `json:"point_earned"`
	Expiration       map[string]any `json:"expiration"`
	Downgrade        map[string]any `json:"downgrade"`
	Metadata         map[string]any `json:"metadata"`
	Status           string         `json:"status"`
	CreatedAt        timestamp      `json:"created_at"`
	UpdatedAt        *timestamp     `json:"updated_at"`
	Object           string         `json:"object"`
}

func tierStructureJSON(t *ent.TierStructure) tierStructureBody {
	return tierStructureBody{ID: t.ID, Name: t.Name, Type: t.Type, CardDefinitionID: t.CardDefinitionID,
		PointEarned: t.PointEarned, Expiration: t.Expiration, Downgrade: t.Downgrade, Metadata: orEmpty(t.Metadata),
		Status: t.Status, CreatedAt: timestamp(t.CreatedAt), UpdatedAt: optionalTime(t.UpdatedAt), Object: "tier_structure"}
}

type tierQualificationBody struct {
	Type     string           `json:"type"`
	MinValue *int64           `json:"min_value"`
	MaxValue *int64           `json:"max_value"`
	Segment  *jsonfield.IDRef `json:"segment"`
}

type structureTierBody struct {
	ID                 string                `json:"id"`
	TierStructureID    string                `json:"tier_structure_id"`
	Name               string                `json:"name"`
	QualificationRules tierQualificationBody `json:"qualification_rules"`
	Downgrade          map[string]string     `json:"downgrade"`
	Metadata           map[string]any        `json:"metadata"`
	CreatedAt          timestamp             `json:"created_at"`
	UpdatedAt          *timestamp            `json:"updated_at"`
	Object             string                `json:"object"`
}

func structureTierJSON(t *ent.StructureTier) structureTierBody {
	q := tierQualificationBody{Type: t.QualificationType, MinValue: t.MinPoints, MaxValue: t.MaxPoints}
	if t.SegmentID != nil {
		q.Segment = &jsonfield.IDRef{ID: *t.SegmentID}
	}
	return structureTierBody{ID: t.ID, TierStructureID: t.TierStructureID, Name: t.Name, QualificationRules: q,
		Downgrade: map[string]string{"type": t.DowngradeType}, Metadata: orEmpty(t.Metadata),
		CreatedAt: timestamp(t.CreatedAt), UpdatedAt: optionalTime(t.UpdatedAt), Object: "tier"}
}

type programRewardBody struct {
	key       string
	RewardID  string           `json:"reward_id"`
	Costs     []map[string]any `json:"costs"`
	Stock     int64            `json:"stock"`
	Redeemed  int64            `json:"redeemed"`
	CreatedAt timestamp        `json:"created_at"`
	Object    string           `json:"object"`
}

func programRewardJSON(a *ent.ProgramReward) programRewardBody {
	return programRewardBody{key: a.ID, RewardID: a.RewardID, Costs: a.Costs, Stock: a.Stock, Redeemed: a.Redeemed,
		CreatedAt: timestamp(a.CreatedAt), Object: "program_reward"}
}

// batchJSON renders an id batch as the documents' assignment objects
// ({<kind>_id, object: program_<kind>}; null for a side not requested).
func batchJSON(kind string) func(*loyalty.AssignmentBatchResult) map[string]any {
	side := func(ids []string) any {
		if ids == nil {
			return nil
		}
		out := make([]map[string]any, len(ids))
		for i, id := range ids {
			out[i] = map[string]any{kind + "_id": id, "object": "program_" + kind}
		}
		return out
	}
	return func(r *loyalty.AssignmentBatchResult) map[string]any {
		return map[string]any{"assigned": side(r.Assigned), "unassigned": side(r.Unassigned)}
	}
}

func rewardsBatchJSON(r *loyalty.ProgramRewardsBatchResult) map[string]any {
	side := func(rows []*ent.ProgramReward) any {
		if rows == nil {
			return nil
		}
		return mapAll(rows, programRewardJSON)
	}
	return map[string]any{"assigned": side(r.Assigned), "unassigned": side(r.Unassigned)}
}

type purchaseBody struct {
	Status      string               `json:"status"`
	Message     string               `json:"message"`
	Transaction *cardTransactionBody `json:"transaction"`
}

func purchaseJSON(r *loyalty.RewardPurchaseResult) purchaseBody {
	out := purchaseBody{Status: r.Status, Message: r.Message}
	if r.Transaction != nil {
		t := cardTransactionJSON(r.Transaction)
		out.Transaction = &t
	}
	return out
}

type rewardTransactionBody struct {
	ID                string         `json:"id"`
	CardID            string         `json:"card_id"`
	CardTransactionID string         `json:"card_transaction_id"`
	ProgramID         string         `json:"program_id"`
	MemberID          string         `json:"member_id"`
	RewardID          string         `json:"reward_id"`
	Status            string         `json:"status"`
	Type              string         `json:"type"`
	Details           map[string]any `json:"details"`
	CreatedAt         timestamp      `json:"created_at"`
	UpdatedAt         *timestamp     `json:"updated_at"`
	Object            string         `json:"object"`
}

func rewardTransactionJSON(p *ent.RewardPurchase) rewardTransactionBody {
	details := map[string]any{"points": map[string]any{"total": p.Points}}
	if p.RefundOf != nil {
		details["refunded_transaction_id"] = *p.RefundOf
	}
	return rewardTransactionBody{ID: p.ID, CardID: p.CardID, CardTransactionID: p.CardTransactionID,
		ProgramID: p.ProgramID, MemberID: p.MemberID, RewardID: p.RewardID, Status: p.Status, Type: p.Type,
		Details: details, CreatedAt: timestamp(p.CreatedAt), UpdatedAt: optionalTime(p.UpdatedAt),
		Object: "reward_transaction"}
}

type tierTransactionBody struct {
	ID              string         `json:"id"`
	ProgramID       string         `json:"program_id"`
	MemberID        string         `json:"member_id"`
	TierStructureID string         `json:"tier_structure_id"`
	TierID          *string        `json:"tier_id"`
	Type            string         `json:"type"`
	Details         map[string]any `json:"details"`
	Status          string         `json:"status"`
	CreatedAt       timestamp      `json:"created_at"`
	Object          string         `json:"object"`
}

func tierTransactionJSON(t *ent.TierTransaction) tierTransactionBody {
	tier := t.ToTierID
	if tier == nil {
		tier = t.FromTierID
	}
	return tierTransactionBody{ID: t.ID, ProgramID: t.ProgramID, MemberID: t.MemberID, TierStructureID: t.TierStructureID,
		TierID: tier, Type: t.Type, Details: map[string]any{"from_tier_id": t.FromTierID, "to_tier_id": t.ToTierID,
			"points": t.Points, "card_transaction_id": t.CardTransactionID},
		Status: "APPROVED", CreatedAt: timestamp(t.CreatedAt), Object: "tier_transaction"}
}

type memberTierBody struct {
	TierStructureID string  `json:"tier_structure_id"`
	TierID          *string `json:"tier_id"`
	TierName        *string `json:"tier_name"`
	Points          int64   `json:"points"`
}

type membershipCardBody struct {
	cardBody
	TierProgress []memberTierBody `json:"tier_progress"`
}

type membershipBody struct {
	Member  memberBody           `json:"member"`
	Program map[string]any       `json:"program"`
	Cards   []membershipCardBody `json:"cards"`
	Object  string               `json:"object"`
}

// membershipJSON renders a membership: the member, its program and its
// cards, each with its tiers (the structures over the card's definition).
func membershipJSON(ctx context.Context, ms *loyalty.Membership) (membershipBody, error) {
	cards, err := ms.Member.Cards(ctx)
	if err != nil {
		return membershipBody{}, err
	}
	mb := memberJSON(ms.Member, cards)
	p, err := loyalty.Program(ctx, ms.Member.ProgramID)
	if err != nil {
		return membershipBody{}, err
	}
	out := membershipBody{Member: mb, Object: "membership", Cards: []membershipCardBody{},
		Program: map[string]any{"id": p.ID, "name": p.Name, "status": p.Status, "object": "program"}}
	for _, c := range cards {
		cb := cardJSON(c)
		card := membershipCardBody{cardBody: cb, TierProgress: []memberTierBody{}}
		for _, mt := range ms.Tiers {
			if cb.CardDefinitionID == nil || *cb.CardDefinitionID != mt.TierStructure.CardDefinitionID {
				continue
			}
			t := memberTierBody{TierStructureID: mt.TierStructure.ID, Points: mt.Points}
			if mt.Tier != nil {
				t.TierID, t.TierName = &mt.Tier.ID, &mt.Tier.Name
			}
			card.TierProgress = append(card.TierProgress, t)
		}
		out.Cards = append(out.Cards, card)
	}
	return out, nil
}
