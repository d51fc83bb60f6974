// Package examine holds loyalty v2's previews, which write nothing: the
// earning preview (POST /v2/loyalties/examine/earning-rules: which ACTIVE
// earning rules an event would fire for a customer's or member's cards,
// with the earning's own arithmetic) and the rewards preview (POST
// /v2/loyalties/examine/rewards: which rewards the cards' points buy).
package examine
