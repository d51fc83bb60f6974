// Package payment holds order payments with a loyalty card's points (POST
// and GET /v2/loyalties/…/members/{memberId}/orders/payments): the
// exchange ratio of the card definition's formula, the split of a payment
// into amount and points, the payment itself (or its dry run) within the
// card's spending limits, and the payments' list and filters.
package payment
