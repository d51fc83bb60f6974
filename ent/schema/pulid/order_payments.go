package pulid

// PrefixOrderTx names a v2 order transaction: a member's order paid with
// points (POST …/members/{memberId}/orders/payments).
const PrefixOrderTx = "lotx_"
