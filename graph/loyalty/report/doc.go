// Package report holds loyalty v2's points reports (GET
// /v2/loyalties/…/reports/*): a program's, a card's and a member's
// earning-rule sums per day, week, month or quarter of a bounded date
// range, and the tier joins, leaves and downgrades of a program.
package report
