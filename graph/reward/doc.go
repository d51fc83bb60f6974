// Package reward is the v1 rewards area: /v1/rewards (CAMPAIGN, COIN and
// MATERIAL rewards) and their assignments to loyalty and referral
// campaigns with a price in points, the loyalty-side views of those
// assignments, a member's rewards and redeeming a reward with a loyalty
// card's points (the card's redemption through graph/redemption, plus
// what the reward issues). The v2 area's rewards (lrew_, graph/loyalty)
// are other rows; see docs/loyalty.md.
package reward
