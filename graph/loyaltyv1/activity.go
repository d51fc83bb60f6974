package loyaltyv1

import (
	"context"

	"github.com/promoengine/promoengine/graph/customer"
)

// ActivityListInput is the query of a member's activity list: limit
// 1-100, order created_at / -created_at, starting_after_id.
type ActivityListInput struct {
	Limit           *int    `json:"limit"`
	Order           *string `json:"order"`
	StartingAfterID *string `json:"starting_after_id"`
	// WithoutTotal skips the count (REST …/activity shows no total).
	WithoutTotal bool `json:"-"`
}

// MemberActivity pages what happened to a member's card (GET
// /v1/loyalties[/{campaignId}]/members/{memberId}/activity): the card
// holder's customer activities of the program's campaign (publications,
// redemptions, rollbacks). A card nobody holds has none.
func MemberActivity(ctx context.Context, programIDOrName *string, code string, in *ActivityListInput) (*customer.CustomerActivityList, error) {
	v, err := Member(ctx, programIDOrName, code)
	if err != nil {
		return nil, err
	}
	if in == nil {
		in = &ActivityListInput{}
	}
	if v.HolderID == nil || v.CampaignID == nil {
		return &customer.CustomerActivityList{Data: []*customer.CustomerActivity{}}, nil
	}
	return customer.ListActivities(ctx, *v.HolderID, &customer.CustomerActivityListInput{
		Limit: in.Limit, Order: in.Order, StartingAfterID: in.StartingAfterID, CampaignID: v.CampaignID, WithoutTotal: in.WithoutTotal,
	})
}
