package examine

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/programreward"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// The points preview (POST /v2/loyalties/examine/rewards): for a customer
// (or one member), each membership's cards with the rewards assigned to
// the program on the card's definition, their price and whether the card's
// points cover it. Nothing is written.

// ExamineRewardsInput is the body of POST /v2/loyalties/examine/rewards.
type ExamineRewardsInput struct {
	CustomerIdentification *loyalty.ExamineIdentification `json:"customer_identification"`
}

// RewardsExamination is the preview.
type RewardsExamination struct {
	Customer    *ent.Customer
	Rewards     []*ent.Reward
	Memberships []*ExaminedMembership
}

// ExaminedMembership is one membership's cards.
type ExaminedMembership struct {
	Member  *ent.LoyaltyMember
	Program *ent.LoyaltyProgram
	Cards   []*ExaminedCard
}

// ExaminedCard is a card and the rewards its points may buy.
type ExaminedCard struct {
	Card    *ent.Card
	Rewards []*ExaminedReward
}

// ExaminedReward is a reward's price on a card, whether the card's points
// cover it and the units left.
type ExaminedReward struct {
	RewardID   string
	Points     int64
	Affordable bool
	StockLeft  int64
	// Status is AVAILABLE when the card can buy it now, else UNAVAILABLE
	// with the documents' reasons: insufficient_balance when the points
	// do not cover it (Missing the points lacking). An exhausted stock
	// makes it UNAVAILABLE too, with no reason (the documents name none).
	Status  string
	Missing int64
}

// maxExamined bounds the memberships and the rewards per program examined.
const maxExamined = 100

// ExamineRewards previews what the customer's (or member's) points buy.
func ExamineRewards(ctx context.Context, in ExamineRewardsInput) (*RewardsExamination, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cust, members, err := examinedMembers(ctx, c, in.CustomerIdentification)
	if err != nil {
		return nil, err
	}
	out := &RewardsExamination{Customer: cust, Rewards: []*ent.Reward{}, Memberships: []*ExaminedMembership{}}
	seen := map[string]bool{}
	for _, m := range members {
		p, err := loyaltybase.Program(ctx, m.ProgramID)
		if err != nil {
			return nil, err
		}
		assigned, err := c.ProgramReward.Query().Where(programreward.ProgramID(p.ID)).Limit(maxExamined).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading program rewards: %w", err)
		}
		active, err := c.Reward.Query().Where(reward.IDIn(rewardIDs(assigned)...), reward.StatusEQ(reward.StatusACTIVE)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading rewards: %w", err)
		}
		cards, err := c.Card.Query().Where(card.MemberID(m.ID)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading cards: %w", err)
		}
		em := &ExaminedMembership{Member: m, Program: p, Cards: []*ExaminedCard{}}
		for _, crd := range cards {
			ec := &ExaminedCard{Card: crd, Rewards: []*ExaminedReward{}}
			for _, a := range assigned {
				if crd.CardDefinitionID == nil || *crd.CardDefinitionID != a.CardDefinitionID ||
					!slices.ContainsFunc(active, func(r *ent.Reward) bool { return r.ID == a.RewardID }) {
					continue
				}
				er := &ExaminedReward{RewardID: a.RewardID, Points: a.Points,
					Affordable: crd.Balance >= a.Points && a.Redeemed < a.Stock, StockLeft: a.Stock - a.Redeemed,
					Status: "UNAVAILABLE", Missing: max(a.Points-crd.Balance, 0)}
				if er.Affordable {
					er.Status = "AVAILABLE"
				}
				ec.Rewards = append(ec.Rewards, er)
			}
			em.Cards = append(em.Cards, ec)
		}
		for _, r := range active {
			if !seen[r.ID] {
				seen[r.ID] = true
				out.Rewards = append(out.Rewards, r)
			}
		}
		out.Memberships = append(out.Memberships, em)
	}
	return out, nil
}

func rewardIDs(rows []*ent.ProgramReward) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.RewardID
	}
	return ids
}

// examinedMembers resolves the identification to the customer and the
// members to examine (404 for an unknown customer or member).
func examinedMembers(ctx context.Context, c *ent.Client, id *loyalty.ExamineIdentification) (*ent.Customer, []*ent.LoyaltyMember, error) {
	if id == nil || id.Type == nil {
		return nil, nil, apperr.InvalidPayload("Property .customer_identification.type is required")
	}
	given := func(name string, v *string) (string, error) {
		if v == nil || *v == "" {
			return "", apperr.InvalidPayload("Property .customer_identification.%s is required when type is %s", name, *id.Type)
		}
		return *v, nil
	}
	var (
		cust *ent.Customer
		err  error
	)
	switch *id.Type {
	case "customer_id":
		var v string
		if v, err = given("customer_id", id.CustomerID); err == nil {
			cust, err = c.Customer.Get(ctx, v)
			err = loyaltybase.NotFound(err, "customer", v)
		}
	case "customer_source_id":
		var v string
		if v, err = given("customer_source_id", id.CustomerSourceID); err == nil {
			cust, err = c.Customer.Query().Where(customer.SourceID(v)).Only(ctx)
			err = loyaltybase.NotFound(err, "customer", v)
		}
	case "member_id":
		var v string
		if v, err = given("member_id", id.MemberID); err != nil {
			return nil, nil, err
		}
		m, err := c.LoyaltyMember.Get(ctx, v)
		if err := loyaltybase.NotFound(err, "member", v); err != nil {
			return nil, nil, err
		}
		cust, err = c.Customer.Get(ctx, m.CustomerID)
		if err := loyaltybase.NotFound(err, "customer", m.CustomerID); err != nil {
			return nil, nil, err
		}
		return cust, []*ent.LoyaltyMember{m}, nil
	default:
		return nil, nil, apperr.InvalidPayload("Property .customer_identification.type must be customer_id, customer_source_id or member_id, got %q", *id.Type)
	}
	if err != nil {
		return nil, nil, err
	}
	members, err := c.LoyaltyMember.Query().Where(loyaltymember.CustomerID(cust.ID)).
		Order(loyaltymember.ByCreatedAt()).Limit(maxExamined).All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("reading memberships: %w", err)
	}
	return cust, members, nil
}
