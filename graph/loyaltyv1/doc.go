// Package loyaltyv1 is the v1 loyalty API (REST /v1/loyalties, GraphQL
// graph/schema/loyaltyv1.graphqls): a program is a campaign of type
// LOYALTY_PROGRAM and a member is one of its LOYALTY_CARD vouchers, so
// programs also show in /v1/campaigns and cards in /v1/vouchers. Points
// live on the voucher (loyalty_card.points/balance) and every move is a
// voucher transaction (POINTS_*), written under the card's row lock.
// The v2 area (graph/loyalty) keeps its own rows: nothing here reads or
// writes them, and nothing there sees these (docs/loyalty.md).
package loyaltyv1
