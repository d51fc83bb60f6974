package openapi

import "github.com/promoengine/promoengine/graph/loyalty"

// loyaltyMemberDeleteAndActivities documents DELETE …/members/{memberId}
// and GET …/members/{memberId}/activities (rest/loyaltyv2/members_more.go).
func loyaltyMemberDeleteAndActivities(a *API, deleted func(string) *Schema) {
	member := "/v2/loyalties/programs/{programId}/members/{memberId}"
	mid := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID."}
	a.Add("DELETE "+member, Op{Summary: "Delete a loyalty member", Auth: Loyalty, PathParams: mid,
		Description: "The member is removed; its cards stay in the program, unassigned, with their points and history. Answers the member as it was (its cards included), status DELETED.",
		Response:    deleted("LoyaltyMember")})
	a.Add("GET "+member+"/activities", Op{Summary: "List member activities", Auth: Loyalty, PathParams: mid,
		Description: "vl.member.* activities, also of a deleted member.", Query: v2ListQuery,
		Response: V2List(Object(
			Req("id", String()),
			Req("type", Enum(loyalty.MemberActivityTypes()...)),
			Req("member_id", String()),
			Req("data", Object(Opt("member", FreeObject()), Opt("card", FreeObject())).
				Desc("The member (vl.member.card.*: the card) as it was after the change.")),
			Req("created_at", DateTime()),
			Req("group_id", String().Null()),
			Req("source", Ref("ActivitySource").Null()),
			Req("object", Const("member_activity")),
		))})
}
