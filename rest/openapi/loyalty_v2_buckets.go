package openapi

// loyaltyCardBuckets documents a v2 card's expiring and pending points
// (rest/loyaltyv2/card_buckets.go).
func loyaltyCardBuckets(a *API) {
	card := "/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}"
	ids := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID.", "cardId": "The card's ID."}
	bucketIDs := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID.", "cardId": "The card's ID.",
		"bucketId": "The bucket's ID."}
	bucket := Object(
		Req("id", String()),
		Req("card_id", String()),
		Req("customer_id", String()),
		Req("card_definition_id", String().Null()),
		Req("program_id", String()),
		Req("card_type", Const("INDIVIDUAL")),
		Req("member_id", String().Null()),
		Req("points", Object(Req("total", Integer()))),
		Req("expiration_date", Date().Null()),
		Req("expiration_type", Enum("NO_EXPIRATION", "ROLLING_EXPIRATION", "CALENDAR_EXPIRATION", "SLIDING_EXPIRATION")),
		Req("status", Enum("ACTIVE", "EXPIRED")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("card_points_bucket")),
	)
	a.Add("GET "+card+"/expiring-points", Op{Summary: "List a card's expiring points", Auth: Loyalty, PathParams: ids,
		Description: "The card's ACTIVE buckets that expire (lcpeb_…), soonest first (order expiration_date, default) or latest first.",
		Query:       []Param{LimitParam, OrderParam("expiration_date"), CursorParam}, Response: V2List(bucket)})
	transaction := Ref("CardTransaction") // loyalty_members.go: the documents' CardTransaction
	a.Add("POST "+card+"/expiring-points/{bucketId}/expire", Op{Summary: "Expire a card's points bucket now", Auth: Loyalty,
		PathParams: bucketIDs,
		Description: "Expires the ACTIVE bucket now, as the daily job does on its day: what is left in it (at most the balance) " +
			"leaves the card as a POINTS_EXPIRED transaction (null and status NO_EXPIRATION when the bucket was empty). " +
			"A bucket that is no longer ACTIVE (a second call) is 400 invalid_bucket_state.",
		Response: Object(Req("transaction", transaction.Null()), Req("status", Enum("TRANSACTION_CREATED", "NO_EXPIRATION")),
			Req("message", String()))})
	a.Add("GET "+card+"/pending-points", Op{Summary: "List a card's pending points", Auth: Loyalty, PathParams: ids,
		Description: "The card's PENDING entries (earning under a PERIOD_BASED pending_points card definition), in the order they were made (date: activation day).",
		Query:       []Param{LimitParam, OrderParam("date"), CursorParam}, Response: V2List(FreeObject())})
	for _, verb := range []string{"activate", "cancel"} {
		a.Add("POST "+card+"/pending-points/{bucketId}/"+verb, Op{Summary: "Pending points bucket: " + verb, Auth: Loyalty,
			PathParams:  bucketIDs,
			Description: "Moves a PENDING entry once (activate: its points join the balance as a POINTS_ADDITION by its earning rule; cancel: transaction null); an entry no longer PENDING is 400 invalid_pending_points_bucket_status, another card's 404 card_pending_points_bucket.",
			Response:    FreeObject()})
	}
}
