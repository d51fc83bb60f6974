// Package rollback holds the rollbacks of redemptions: a single
// redemption's (RollbackRedemption) or a stacked one's with each child
// (RollbackStackedRedemption), the checks of what may be rolled back, the
// rollback entries, and what each part a redemption changed gets back —
// the voucher's counter, balance or points, a tier's counters, unit
// budgets, a v1 reward's stock, the order (the WITH_ORDER mode) — with the
// redemption.rollback.succeeded events. It sits above the core of
// graph/redemption, whose order documents (DecodeOrderDocument) and
// webhook events (EmitRedemptions) it shares.
package rollback
