// Package event holds custom events (POST /v1/events: stored, counted per
// customer, checked against their schema, passed on to segments and
// loyalty earning) and the referral conversions they or a referral code's
// redemption record (RecordReferralConversion, its undo on rollback, a
// customer's referrals).
package event
