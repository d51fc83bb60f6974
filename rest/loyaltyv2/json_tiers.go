package loyaltyv2

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/loyalty/membership"
	"github.com/promoengine/promoengine/graph/loyalty/tier"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// JSON shapes of tier structures, tiers, program rewards, reward and tier
// transactions and memberships (the documents' fields; null where unset).

type tierStructureBody struct {
	ID               string             `json:"id"`
	Name             string             `json:"name"`
	Type             string             `json:"type"`
	CardDefinitionID string             `json:"card_definition_id"`
	PointEarned      map[string]any     `json:"point_earned"`
	Expiration       map[string]any     `json:"expiration"`
	Downgrade        map[string]any     `json:"downgrade"`
	Metadata         map[string]any     `json:"metadata"`
	Status           string             `json:"status"`
	CreatedAt        httpkit.Timestamp  `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp `json:"updated_at"`
	Object           string             `json:"object"`
}

func tierStructureJSON(t *ent.TierStructure) tierStructureBody {
	return tierStructureBody{ID: t.ID, Name: t.Name, Type: t.Type, CardDefinitionID: t.CardDefinitionID,
		PointEarned: t.PointEarned, Expiration: t.Expiration, Downgrade: t.Downgrade, Metadata: httpkit.OrEmpty(t.Metadata),
		Status: t.Status, CreatedAt: httpkit.Timestamp(t.CreatedAt), UpdatedAt: httpkit.OptionalTime(t.UpdatedAt), Object: "tier_structure"}
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
	CreatedAt          httpkit.Timestamp     `json:"created_at"`
	UpdatedAt          *httpkit.Timestamp    `json:"updated_at"`
	Object             string                `json:"object"`
}

func structureTierJSON(t *ent.StructureTier) structureTierBody {
	q := tierQualificationBody{Type: t.QualificationType, MinValue: t.MinPoints, MaxValue: t.MaxPoints}
	if t.SegmentID != nil {
		q.Segment = &jsonfield.IDRef{ID: *t.SegmentID}
	}
	return structureTierBody{ID: t.ID, TierStructureID: t.TierStructureID, Name: t.Name, QualificationRules: q,
		Downgrade: map[string]string{"type": t.DowngradeType}, Metadata: httpkit.OrEmpty(t.Metadata),
		CreatedAt: httpkit.Timestamp(t.CreatedAt), UpdatedAt: httpkit.OptionalTime(t.UpdatedAt), Object: "tier"}
}

type programRewardBody struct {
	key       string
	RewardID  string            `json:"reward_id"`
	Costs     []map[string]any  `json:"costs"`
	Stock     int64             `json:"stock"`
	Redeemed  int64             `json:"redeemed"`
	CreatedAt httpkit.Timestamp `json:"created_at"`
	Object    string            `json:"object"`
}

func programRewardJSON(a *ent.ProgramReward) programRewardBody {
	return programRewardBody{key: a.ID, RewardID: a.RewardID, Costs: a.Costs, Stock: a.Stock, Redeemed: a.Redeemed,
		CreatedAt: httpkit.Timestamp(a.CreatedAt), Object: "program_reward"}
}

// batchJSON renders an id batch as the documents' assignment objects
// ({<kind>_id, object: program_<kind>}; null for a side not requested).
func batchJSON(kind string) func(*loyaltybase.AssignmentBatchResult) map[string]any {
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
	return func(r *loyaltybase.AssignmentBatchResult) map[string]any {
		return map[string]any{"assigned": side(r.Assigned), "unassigned": side(r.Unassigned)}
	}
}

func rewardsBatchJSON(r *loyaltybase.ProgramRewardsBatchResult) map[string]any {
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

func purchaseJSON(r *loyaltybase.RewardPurchaseResult) purchaseBody {
	out := purchaseBody{Status: r.Status, Message: r.Message}
	if r.Transaction != nil {
		t := CardTransactionJSON(r.Transaction)
		out.Transaction = &t
	}
	return out
}

// refundBody is a reward purchase refund's answer
// (RewardPurchaseRefundResponse): the REFUND reward transaction.
type refundBody struct {
	Transaction rewardTransactionBody `json:"transaction"`
	Status      string                `json:"status"`
	Message     string                `json:"message"`
}

func refundJSON(r *loyaltybase.RewardPurchaseResult) refundBody {
	return refundBody{Transaction: rewardTransactionJSON(r.Purchase), Status: r.Status, Message: r.Message}
}

type rewardTransactionBody struct {
	ID                string             `json:"id"`
	CardID            string             `json:"card_id"`
	CardTransactionID string             `json:"card_transaction_id"`
	ProgramID         string             `json:"program_id"`
	MemberID          string             `json:"member_id"`
	RewardID          string             `json:"reward_id"`
	Status            string             `json:"status"`
	Type              string             `json:"type"`
	Details           map[string]any     `json:"details"`
	CreatedAt         httpkit.Timestamp  `json:"created_at"`
	UpdatedAt         *httpkit.Timestamp `json:"updated_at"`
	Object            string             `json:"object"`
}

func rewardTransactionJSON(p *ent.RewardPurchase) rewardTransactionBody {
	details := map[string]any{"points": map[string]any{"total": p.Points}}
	if p.RefundOf != nil {
		details["refunded_transaction_id"] = *p.RefundOf
		details["reason"] = "Reward purchase refund"
		details["metadata"] = map[string]any{}
		details["purchase"] = map[string]any{"reward_transaction": map[string]any{"id": *p.RefundOf}}
	}
	return rewardTransactionBody{ID: p.ID, CardID: p.CardID, CardTransactionID: p.CardTransactionID,
		ProgramID: p.ProgramID, MemberID: p.MemberID, RewardID: p.RewardID, Status: p.Status, Type: p.Type,
		Details: details, CreatedAt: httpkit.Timestamp(p.CreatedAt), UpdatedAt: httpkit.OptionalTime(p.UpdatedAt),
		Object: "reward_transaction"}
}

type tierTransactionBody struct {
	ID              string            `json:"id"`
	ProgramID       string            `json:"program_id"`
	MemberID        string            `json:"member_id"`
	TierStructureID string            `json:"tier_structure_id"`
	TierID          *string           `json:"tier_id"`
	Type            string            `json:"type"`
	Details         map[string]any    `json:"details"`
	Status          string            `json:"status"`
	CreatedAt       httpkit.Timestamp `json:"created_at"`
	Object          string            `json:"object"`
}

func tierTransactionJSON(t *ent.TierTransaction) tierTransactionBody {
	tier := t.ToTierID
	if tier == nil {
		tier = t.FromTierID
	}
	return tierTransactionBody{ID: t.ID, ProgramID: t.ProgramID, MemberID: t.MemberID, TierStructureID: t.TierStructureID,
		TierID: tier, Type: t.Type, Details: map[string]any{"from_tier_id": t.FromTierID, "to_tier_id": t.ToTierID,
			"points": t.Points, "card_transaction_id": t.CardTransactionID},
		Status: "APPROVED", CreatedAt: httpkit.Timestamp(t.CreatedAt), Object: "tier_transaction"}
}

// membershipCardBody is a membership's card (MembershipCard): the
// member_card assignment and, on a program's membership, the member's
// tier_progress on it.
type membershipCardBody struct {
	memberCardBody
	TierProgress *tierProgressBody `json:"tier_progress,omitempty"`
}

type membershipBody struct {
	Member  memberBody           `json:"member"`
	Program map[string]any       `json:"program"`
	Cards   []membershipCardBody `json:"cards"`
	Object  string               `json:"object"`
}

// tierRefBody is MemberTierProgressTier.
type tierRefBody struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func tierRef(t *ent.StructureTier) *tierRefBody {
	if t == nil {
		return nil
	}
	return &tierRefBody{ID: t.ID, Name: t.Name}
}

// tierProgressBody is MemberTierProgress.
type tierProgressBody struct {
	Current       map[string]any   `json:"current"`
	TierStructure map[string]any   `json:"tier_structure"`
	Deferred      []map[string]any `json:"deferred"`
	Risks         []map[string]any `json:"risks"`
	Opportunities []map[string]any `json:"opportunities"`
	Object        string           `json:"object"`
}

// tierProgressJSON renders a card's tier progress; p nil (no ACTIVE tier
// structure over the card's definition) has no current tier and no
// structure.
func tierProgressJSON(p *tier.TierProgress) *tierProgressBody {
	out := &tierProgressBody{Deferred: []map[string]any{}, Risks: []map[string]any{}, Opportunities: []map[string]any{},
		Object: "member_tier_progress"}
	if p == nil {
		return out
	}
	out.TierStructure = map[string]any{"id": p.Structure.ID, "object": "tier_structure"}
	if p.Current != nil {
		var points map[string]any // null for a SEGMENT tier (no points range)
		if p.Current.MinPoints != nil {
			points = map[string]any{"current": p.Points, "min": *p.Current.MinPoints}
			if p.Current.MaxPoints != nil {
				points["max"] = *p.Current.MaxPoints
			}
		}
		out.Current = map[string]any{"tier": tierRef(p.Current), "start_at": httpkit.OptionalTime(p.StartAt),
			"expires_at": httpkit.OptionalTime(p.ExpiresAt), "points": points}
	}
	for _, r := range p.Risks {
		out.Risks = append(out.Risks, map[string]any{"type": r.Type, "date": httpkit.Timestamp(r.Date), "tier": tierRef(r.Tier)})
	}
	for _, o := range p.Opportunities {
		out.Opportunities = append(out.Opportunities, map[string]any{"valid_until": httpkit.OptionalTime(o.ValidUntil),
			"tier": tierRef(o.Tier), "points": o.Points})
	}
	return out
}

// membershipJSON renders a membership: the member, its program and its
// cards as member_card assignments, each with the member's tier progress
// on it when withProgress (a program's membership; a customer's list of
// memberships has none).
func membershipJSON(ms *membership.Membership, withProgress bool) membershipBody {
	p := ms.Program
	out := membershipBody{Member: MemberJSON(ms.Member, ms.Cards, ms.Summaries), Object: "membership",
		Cards: make([]membershipCardBody, len(ms.Cards)),
		Program: map[string]any{"id": p.ID, "name": p.Name, "status": p.Status, "metadata": httpkit.OrEmpty(p.Metadata),
			"object": "program"}}
	for i, c := range ms.Cards {
		out.Cards[i] = membershipCardBody{memberCardBody: memberCardJSON(c, ms.Summaries[c.ID])}
		if withProgress {
			out.Cards[i].TierProgress = tierProgressJSON(ms.Progress[c.ID])
		}
	}
	return out
}
