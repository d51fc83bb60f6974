// Package refund holds the points side of refunded orders: points an
// order's approved payments spent, returned to their cards when the order
// is canceled (whole) or lowered (per amount or line), and points the
// order earned, revoked; graph/order calls it on every order write.
package refund
