// Package window is pure logic: whether a moment is inside the validity
// window of a voucher, campaign or promotion tier (start and expiration
// dates, a timeframe repeating from the start date, days of the week,
// daily hours), and which failure key says why not. The core of
// graph/redemption checks its redeemables with it.
package window
