// Package membership holds a customer's memberships of loyalty v2
// programs (GET /v2/loyalties/memberships/{customerId} and the program's
// form): each member with its tiers, its cards, their summaries and their
// tier progress.
package membership
