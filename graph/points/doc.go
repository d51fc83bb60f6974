// Package points is the points-bucket store that both loyalty generations
// share (v1 cards are LOYALTY_CARD vouchers, v2 cards card rows): every
// credit of a card's points makes an ACTIVE bucket dated by the expiration
// rules, every debit empties buckets soonest-expiring first, the daily job
// expires buckets past their day and activates pending entries that are
// due. The bucket moves happen in the caller's transaction, beside the
// balance change, on the card the caller holds locked.
package points
