package loyaltyv2

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// memberCardBody is a member's card as the v2 documents list it
// (MemberCard): the assignment {member_role, created_at, card, object:
// member_card} holding the card (CardSimple).
type memberCardBody struct {
	MemberRole string            `json:"member_role"`
	CreatedAt  httpkit.Timestamp `json:"created_at"`
	Card       memberCardSimple  `json:"card"`
	Object     string            `json:"object"`
}

// memberCardSimple is CardSimple, with the card's program and member.
// The summary members (lifetime_bucket, balance.pending_points,
// next_expiration, next_activation) are there whenever the answer was
// built with the card's summary (every REST answer and member webhook;
// left out only if a webhook could not read it).
type memberCardSimple struct {
	ID               string             `json:"id"`
	CardDefinitionID *string            `json:"card_definition_id,omitempty"`
	CardType         string             `json:"card_type"`
	Code             *string            `json:"code"`
	LifetimeBucket   *lifetimeBucket    `json:"lifetime_bucket,omitempty"`
	Balance          memberCardBalance  `json:"balance"`
	NextExpiration   *optionalMove      `json:"next_expiration,omitempty"`
	NextActivation   *optionalMove      `json:"next_activation,omitempty"`
	ProgramID        string             `json:"program_id"`
	MemberID         *string            `json:"member_id"`
	CreatedAt        httpkit.Timestamp  `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp `json:"updated_at"`
	Object           string             `json:"object"`
}

// memberCardBalance is CardBalance: available and pending points.
type memberCardBalance struct {
	Points        int64  `json:"points"`
	PendingPoints *int64 `json:"pending_points,omitempty"`
}

// lifetimeBucket is CardLifetimeBucket.
type lifetimeBucket struct {
	Points struct {
		Total             int64 `json:"total"`
		Earned            int64 `json:"earned"`
		Added             int64 `json:"added"`
		Purchased         int64 `json:"purchased"`
		PurchasedReversed int64 `json:"purchased_reversed"`
		Subtracted        int64 `json:"subtracted"`
		Expired           int64 `json:"expired"`
		Spent             int64 `json:"spent"`
		Refunded          int64 `json:"refunded"`
		Returned          int64 `json:"returned"`
		Locked            int64 `json:"locked"`
		Unlocked          int64 `json:"unlocked"`
	} `json:"points"`
	PendingPoints struct {
		Total     int64 `json:"total"`
		Activated int64 `json:"activated"`
		Canceled  int64 `json:"canceled"`
	} `json:"pending_points"`
}

// optionalMove is a present member that may be null (next_expiration,
// next_activation): a nil Move renders null.
type optionalMove struct{ Move map[string]any }

// MarshalJSON implements json.Marshaler.
func (o optionalMove) MarshalJSON() ([]byte, error) {
	if o.Move == nil {
		return []byte("null"), nil
	}
	return json.Marshal(o.Move)
}

// memberCardJSON renders one of a member's cards; the member owns it
// (member_role OWNER). The time of an assignment is not stored: created_at
// is the card's (when a member's card was issued with the member, the
// same moment). s is the card's summary (nil: its members are left out).
func memberCardJSON(c *ent.Card, s *loyalty.CardSummary) memberCardBody {
	card := memberCardSimple{ID: c.ID, CardDefinitionID: c.CardDefinitionID, CardType: "INDIVIDUAL", Code: c.Code,
		Balance: memberCardBalance{Points: c.Balance}, ProgramID: c.ProgramID, MemberID: c.MemberID,
		CreatedAt: httpkit.Timestamp(c.CreatedAt), UpdatedAt: httpkit.OptionalTime(c.UpdatedAt), Object: "card"}
	if s != nil {
		pending := s.PendingPoints
		card.Balance.PendingPoints = &pending
		l := &lifetimeBucket{}
		l.Points.Total, l.Points.Earned, l.Points.Added = s.Lifetime.Total, s.Lifetime.Earned, s.Lifetime.Added
		l.Points.Subtracted, l.Points.Expired, l.Points.Spent = s.Lifetime.Subtracted, s.Lifetime.Expired, s.Lifetime.Spent
		l.Points.Returned = s.Lifetime.Returned
		l.PendingPoints.Total, l.PendingPoints.Activated = s.Lifetime.PendingTotal, s.Lifetime.PendingActivated
		l.PendingPoints.Canceled = s.Lifetime.PendingCanceled
		card.LifetimeBucket = l
		card.NextExpiration, card.NextActivation = &optionalMove{}, &optionalMove{}
		if e := s.NextExpiration; e != nil {
			card.NextExpiration.Move = map[string]any{"points": e.Points, "date": e.Date.Format("2006-01-02")}
		}
		if a := s.NextActivation; a != nil {
			day := "date"
			if a.Type == "EVENT_BASED" {
				day = "cancel_date"
			}
			card.NextActivation.Move = map[string]any{"points": a.Points, "type": a.Type, day: a.Date.Format("2006-01-02")}
		}
	}
	return memberCardBody{MemberRole: "OWNER", CreatedAt: httpkit.Timestamp(c.CreatedAt), Object: "member_card", Card: card}
}

// memberWithSummaries renders a member with its cards' summaries.
func memberWithSummaries(ctx context.Context, m *ent.LoyaltyMember, cards []*ent.Card) (memberBody, error) {
	sums, err := loyalty.CardSummaries(ctx, cards)
	if err != nil {
		return memberBody{}, err
	}
	return MemberJSON(m, cards, sums), nil
}
