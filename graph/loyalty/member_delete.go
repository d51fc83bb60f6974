package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/loyaltyactivity"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Member delete and member activities (DELETE and GET …/activities of
// /v2/loyalties/programs/{programId}/members/{memberId}).

// memberActivities are the vl.member.* activities of a member.
var memberActivities = loyaltybase.ActivityKind{Prefix: pulid.PrefixMember, ActivityPrefix: "lambr_", Stem: "member", Key: "member"}

// memberCardActivities are a member's vl.member.card.* activities: the
// card's snapshot under data.card.
var memberCardActivities = loyaltybase.ActivityKind{Prefix: pulid.PrefixMember, ActivityPrefix: "lambr_", Stem: "member", Key: "card"}

// MemberActivityTypes lists the documented member activity types.
func MemberActivityTypes() []string {
	return []string{"vl.member.created", "vl.member.deleted", "vl.member.activated", "vl.member.deactivated",
		"vl.member.card.assigned", "vl.member.card.unassigned"}
}

// DeleteLoyaltyMember removes a program's member. Its cards stay in the
// program, unassigned, with their balance and history (each records
// vl.card.unassigned, the member vl.member.card.unassigned); the member
// records vl.member.deleted and keeps its activities. The member is
// returned as it was, its Edges.Cards the cards it held.
func DeleteLoyaltyMember(ctx context.Context, programID, memberID string) (*ent.LoyaltyMember, error) {
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "member:"+m.ProgramID+":"+m.CustomerID); err != nil {
		return nil, err
	}
	cards, err := c.Card.Query().Where(card.MemberID(m.ID)).Order(card.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the member's cards: %w", err)
	}
	group := loyaltybase.NewGroupID()
	held := make([]*ent.Card, 0, len(cards))
	for _, crd := range cards {
		n, err := crd.Update().Where(card.MemberID(m.ID)).ClearMemberID().Save(ctx)
		if err := loyaltybase.NotFound(err, "card", crd.ID); err != nil {
			return nil, err
		}
		data := map[string]any{"card": webhook.CardSnapshot(n), "member_id": m.ID}
		if err := RecordCardActivity(ctx, n.ID, "vl.card.unassigned", data, group); err != nil {
			return nil, err
		}
		if err := loyaltybase.RecordActivity(ctx, memberCardActivities, m.ID, "card.unassigned", n); err != nil {
			return nil, err
		}
		held = append(held, n)
	}
	if err := c.LoyaltyMember.DeleteOneID(m.ID).Exec(ctx); err != nil {
		return nil, fmt.Errorf("deleting member: %w", err)
	}
	m.Edges.Cards = held
	return m, loyaltybase.RecordActivity(ctx, memberActivities, m.ID, "deleted", memberSnapshot(m, "DELETED"))
}

// memberSnapshot is a member's activity data with the given status.
func memberSnapshot(m *ent.LoyaltyMember, status string) map[string]any {
	return map[string]any{"id": m.ID, "program_id": m.ProgramID, "customer_id": m.CustomerID, "status": status,
		"metadata": m.Metadata, "created_at": m.CreatedAt, "updated_at": m.UpdatedAt, "object": "member"}
}

// recordMemberActivity records vl.member.<verb> with the member's snapshot.
func recordMemberActivity(ctx context.Context, m *ent.LoyaltyMember, verb string) error {
	return loyaltybase.RecordActivity(ctx, memberActivities, m.ID, verb, memberSnapshot(m, string(m.Status)))
}

// MemberActivities pages through a member's activities (also after its
// delete): 404 program, then member when the program has neither the
// member nor activities of it.
func MemberActivities(ctx context.Context, programID, memberID string, p loyaltybase.PageInput) (*loyaltybase.LoyaltyActivityPage, error) {
	if _, err := loyaltybase.Member(ctx, programID, memberID); err != nil {
		if e, ok := apperr.As(err); !ok || e.ResourceType != "member" || !deletedMemberOf(ctx, programID, memberID) {
			return nil, err
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	of := loyaltyactivity.And(loyaltyactivity.ResourceType(memberActivities.Stem), loyaltyactivity.ResourceID(memberID))
	return loyaltybase.ActivityPage(ctx, c, of, p)
}

// deletedMemberOf tells whether memberID is a deleted member of programID
// in the caller's project (its vl.member.deleted activity names the program).
func deletedMemberOf(ctx context.Context, programID, memberID string) bool {
	c, err := store.Client(ctx)
	if err != nil {
		return false
	}
	a, err := c.LoyaltyActivity.Query().Where(loyaltyactivity.ResourceType(memberActivities.Stem),
		loyaltyactivity.ResourceID(memberID), loyaltyactivity.Type("vl.member.deleted")).First(ctx)
	if err != nil {
		return false
	}
	snap, _ := a.Data["member"].(map[string]any)
	return snap != nil && snap["program_id"] == programID
}
