package loyalty

import (
	"context"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardactivity"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/reward"
	"github.com/promoengine/promoengine/ent/rewardactivity"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Connections of the loyalty entities: every page bounded (boundPage).

// activityOrder defaults activity lists to newest first (-created_at).
func activityOrder(o *ent.CardActivityOrder) *ent.CardActivityOrder {
	if o == nil {
		return &ent.CardActivityOrder{Field: ent.CardActivityOrderFieldCreatedAt, Direction: entgql.OrderDirectionDesc}
	}
	return o
}

func rewardActivityOrder(o *ent.RewardActivityOrder) *ent.RewardActivityOrder {
	if o == nil {
		return &ent.RewardActivityOrder{Field: ent.RewardActivityOrderFieldCreatedAt, Direction: entgql.OrderDirectionDesc}
	}
	return o
}

func transactionOrder(o *ent.CardTransactionOrder) *ent.CardTransactionOrder {
	if o == nil {
		return &ent.CardTransactionOrder{Field: ent.CardTransactionOrderFieldCreatedAt, Direction: entgql.OrderDirectionDesc}
	}
	return o
}

// CardActivities lists the activities of a member's card (keyset paging on
// created_at, id). The card must belong to the member, the member to the
// program.
func CardActivities(ctx context.Context, programID, memberID, cardID string, after *entgql.Cursor[string], first *int, orderBy *ent.CardActivityOrder, where *ent.CardActivityWhereInput) (*ent.CardActivityConnection, error) {
	card, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	return CardActivitiesEdge(ctx, card, after, first, nil, nil, orderBy, where)
}

// CardActivitiesEdge is a card's activities connection (Card.activities), bounded.
func CardActivitiesEdge(ctx context.Context, obj *ent.Card, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CardActivityOrder, where *ent.CardActivityWhereInput) (*ent.CardActivityConnection, error) {
	if err := checkCardActivityWhere(where); err != nil {
		return nil, err
	}
	if orderBy != nil && page.EagerLoaded(ctx, obj.NamedActivities) {
		return page.Bounded(first, last, func(first *int) (*ent.CardActivityConnection, error) {
			return obj.Activities(ctx, after, first, before, last, orderBy, where)
		})
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.CardActivityConnection, error) {
		return c.CardActivity.Query().Where(cardactivity.CardID(obj.ID)).
			Paginate(ctx, after, first, before, last,
				ent.WithCardActivityOrder(activityOrder(orderBy)), ent.WithCardActivityFilter(where.Filter))
	})
}

// RewardActivities lists the activities of a reward.
func RewardActivities(ctx context.Context, rewardID string, after *entgql.Cursor[string], first *int, orderBy *ent.RewardActivityOrder, where *ent.RewardActivityWhereInput) (*ent.RewardActivityConnection, error) {
	r, err := loyaltybase.RewardByID(ctx, rewardID)
	if err != nil {
		return nil, err
	}
	return RewardActivitiesEdge(ctx, r, after, first, nil, nil, orderBy, where)
}

// RewardActivitiesEdge is a reward's activities connection (Reward.activities), bounded.
func RewardActivitiesEdge(ctx context.Context, obj *ent.Reward, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.RewardActivityOrder, where *ent.RewardActivityWhereInput) (*ent.RewardActivityConnection, error) {
	if err := checkRewardActivityWhere(where); err != nil {
		return nil, err
	}
	if orderBy != nil && page.EagerLoaded(ctx, obj.NamedActivities) {
		return page.Bounded(first, last, func(first *int) (*ent.RewardActivityConnection, error) {
			return obj.Activities(ctx, after, first, before, last, orderBy, where)
		})
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.RewardActivityConnection, error) {
		return c.RewardActivity.Query().Where(rewardactivity.RewardID(obj.ID)).
			Paginate(ctx, after, first, before, last,
				ent.WithRewardActivityOrder(rewardActivityOrder(orderBy)), ent.WithRewardActivityFilter(where.Filter))
	})
}

// CardTransactions lists the points moves of a member's card.
func CardTransactions(ctx context.Context, programID, memberID, cardID string, after *entgql.Cursor[string], first *int, orderBy *ent.CardTransactionOrder) (*ent.CardTransactionConnection, error) {
	card, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	return CardTransactionsEdge(ctx, card, after, first, nil, nil, orderBy, nil)
}

// CardTransactionsEdge is a card's transactions connection (Card.transactions), bounded.
func CardTransactionsEdge(ctx context.Context, obj *ent.Card, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CardTransactionOrder, where *ent.CardTransactionWhereInput) (*ent.CardTransactionConnection, error) {
	if orderBy != nil && page.EagerLoaded(ctx, obj.NamedTransactions) {
		return page.Bounded(first, last, func(first *int) (*ent.CardTransactionConnection, error) {
			return obj.Transactions(ctx, after, first, before, last, orderBy, where)
		})
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.CardTransaction.Query().Where(cardtransaction.CardID(obj.ID))
	// totalCount: capped, counted in the order of (card_id, created_at, id).
	total := func(ctx context.Context) (int, error) {
		tq, err := where.Filter(q.Clone())
		if err != nil {
			return 0, err
		}
		return tq.Where(page.CountInIndexOrder(false, cardtransaction.FieldCreatedAt, cardtransaction.FieldID)).
			CountAtMost(ctx, ent.TotalCountCap)
	}
	return page.Bounded(first, last, func(first *int) (*ent.CardTransactionConnection, error) {
		return q.Clone().Paginate(ctx, after, first, before, last, ent.WithCardTransactionOrder(transactionOrder(orderBy)),
			ent.WithCardTransactionFilter(where.Filter), ent.WithCardTransactionTotalCount(total))
	})
}

// ProgramMembersEdge is a program's members connection (LoyaltyProgram.members), bounded.
func ProgramMembersEdge(ctx context.Context, obj *ent.LoyaltyProgram, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.LoyaltyMemberOrder, where *ent.LoyaltyMemberWhereInput) (*ent.LoyaltyMemberConnection, error) {
	if page.EagerLoaded(ctx, obj.NamedMembers) {
		return page.Bounded(first, last, func(first *int) (*ent.LoyaltyMemberConnection, error) {
			return obj.Members(ctx, after, first, before, last, orderBy, where)
		})
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.LoyaltyMember.Query().Where(loyaltymember.ProgramID(obj.ID))
	// totalCount: capped, counted in the order of (program_id, created_at, id).
	total := func(ctx context.Context) (int, error) {
		tq, err := where.Filter(q.Clone())
		if err != nil {
			return 0, err
		}
		return tq.Where(page.CountInIndexOrder(false, loyaltymember.FieldCreatedAt, loyaltymember.FieldID)).
			CountAtMost(ctx, ent.TotalCountCap)
	}
	return page.Bounded(first, last, func(first *int) (*ent.LoyaltyMemberConnection, error) {
		return q.Clone().Paginate(ctx, after, first, before, last, ent.WithLoyaltyMemberOrder(orderBy),
			ent.WithLoyaltyMemberFilter(where.Filter), ent.WithLoyaltyMemberTotalCount(total))
	})
}

// Top-level connections.

// Cards pages through the project's loyalty cards (GraphQL connection).
func Cards(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CardOrder, where *ent.CardWhereInput) (*ent.CardConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.CardConnection, error) {
		return c.Card.Query().Paginate(ctx, after, first, before, last, ent.WithCardOrder(orderBy), ent.WithCardFilter(where.Filter))
	})
}

// CardDefinitions pages through the project's card definitions (GraphQL connection).
func CardDefinitions(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CardDefinitionOrder, where *ent.CardDefinitionWhereInput) (*ent.CardDefinitionConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.CardDefinitionConnection, error) {
		return c.CardDefinition.Query().Paginate(ctx, after, first, before, last, ent.WithCardDefinitionOrder(orderBy), ent.WithCardDefinitionFilter(where.Filter))
	})
}

// EarningRules pages through the project's earning rules (GraphQL connection).
func EarningRules(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.EarningRuleOrder, where *ent.EarningRuleWhereInput) (*ent.EarningRuleConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.EarningRuleConnection, error) {
		return c.EarningRule.Query().Where(earningrule.StatusNEQ(earningrule.StatusDELETED)).Paginate(ctx, after, first, before, last, ent.WithEarningRuleOrder(orderBy), ent.WithEarningRuleFilter(where.Filter))
	})
}

// Incentives pages through the project's incentives (GraphQL connection).
func Incentives(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.IncentiveOrder, where *ent.IncentiveWhereInput) (*ent.IncentiveConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.IncentiveConnection, error) {
		return c.Incentive.Query().Where(incentive.StatusNEQ(incentive.StatusDELETED)).Paginate(ctx, after, first, before, last, ent.WithIncentiveOrder(orderBy), ent.WithIncentiveFilter(where.Filter))
	})
}

// Members pages through the project's loyalty members (GraphQL connection).
func Members(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.LoyaltyMemberOrder, where *ent.LoyaltyMemberWhereInput) (*ent.LoyaltyMemberConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.LoyaltyMemberConnection, error) {
		return c.LoyaltyMember.Query().Paginate(ctx, after, first, before, last, ent.WithLoyaltyMemberOrder(orderBy), ent.WithLoyaltyMemberFilter(where.Filter))
	})
}

// Programs pages through the project's loyalty programs (GraphQL connection).
func Programs(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.LoyaltyProgramOrder, where *ent.LoyaltyProgramWhereInput) (*ent.LoyaltyProgramConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.LoyaltyProgramConnection, error) {
		return c.LoyaltyProgram.Query().Paginate(ctx, after, first, before, last, ent.WithLoyaltyProgramOrder(orderBy), ent.WithLoyaltyProgramFilter(where.Filter))
	})
}

// Rewards pages through the project's rewards (GraphQL connection).
func Rewards(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.RewardOrder, where *ent.RewardWhereInput) (*ent.RewardConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return page.Bounded(first, last, func(first *int) (*ent.RewardConnection, error) {
		return c.Reward.Query().Where(reward.StatusNEQ(reward.StatusDELETED)).Paginate(ctx, after, first, before, last, ent.WithRewardOrder(orderBy), ent.WithRewardFilter(where.Filter))
	})
}
