package rest

import "github.com/promoengine/promoengine/ent"

// memberCardBody is a member's card as the v2 documents list it
// (loyalties-v2.json, MemberCard): the assignment {member_role,
// created_at, card, object: member_card} holding the card
// (CardSimple: balance {points}).
type memberCardBody struct {
	MemberRole string           `json:"member_role"`
	CreatedAt  timestamp        `json:"created_at"`
	Card       memberCardSimple `json:"card"`
	Object     string           `json:"object"`
}

// memberCardSimple is CardSimple, with the card's program and member.
type memberCardSimple struct {
	ID               string            `json:"id"`
	CardDefinitionID *string           `json:"card_definition_id,omitempty"`
	CardType         string            `json:"card_type"`
	Code             *string           `json:"code"`
	Balance          memberCardBalance `json:"balance"`
	ProgramID        string            `json:"program_id"`
	MemberID         *string           `json:"member_id"`
	CreatedAt        timestamp         `json:"created_at"`
	UpdatedAt        *timestamp        `json:"updated_at"`
	Object           string            `json:"object"`
}

// memberCardBalance is CardBalance's available points.
type memberCardBalance struct {
	Points int64 `json:"points"`
}

// memberCardJSON renders one of a member's cards; the member owns it
// (member_role OWNER). The time of an assignment is not stored: created_at
// is the card's (when a member's card was issued with the member, the
// same moment).
func memberCardJSON(c *ent.Card) memberCardBody {
	return memberCardBody{MemberRole: "OWNER", CreatedAt: timestamp(c.CreatedAt), Object: "member_card",
		Card: memberCardSimple{ID: c.ID, CardDefinitionID: c.CardDefinitionID, CardType: "INDIVIDUAL", Code: c.Code,
			Balance: memberCardBalance{Points: c.Balance}, ProgramID: c.ProgramID, MemberID: c.MemberID,
			CreatedAt: timestamp(c.CreatedAt), UpdatedAt: optionalTime(c.UpdatedAt), Object: "card"}}
}
