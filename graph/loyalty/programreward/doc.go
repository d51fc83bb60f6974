// Package programreward holds a loyalty v2 program's rewards: which
// rewards the program offers, on which card definition, at what price in
// points and with what stock (…/programs/{id}/rewards, batches all or
// nothing), and a member's purchase of one with a card's points and its
// refund.
package programreward
