package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// TestRedemptionMutationsOwnTheirTransaction: a GraphQL operation that is
// one redemption (so it can take the one-statement path) or one validation
// (so it is admitted, and writes only in its own transaction when it locks
// a session) runs without the operation's transaction; any other mutation
// operation, including two redemptions together, keeps it.
func TestRedemptionMutationsOwnTheirTransaction(t *testing.T) {
	for query, want := range map[string]bool{
		`mutation { redeemStacked(input: {redeemables: []}) { order } }`:                           true,
		`mutation R { r: redeemVoucher(code: "A") { failure { key } } }`:                           true,
		`mutation { a: redeemVoucher(code: "A") { order } b: redeemVoucher(code: "B") { order } }`: false,
		`mutation { ...F } fragment F on Mutation { redeemVoucher(code: "A") { order } }`:          false,
		`mutation { createCampaign(input: {name: "x"}) { id } }`:                                   false,
		`query { redeemStacked { order } }`:                                                        false,
		`mutation { validateStacked(input: {redeemables: []}) { valid } }`:                         true,
		`mutation { validateVoucher(code: "A") { valid } }`:                                        true,
		`mutation { validateVoucher(code: "A") { valid } redeemVoucher(code: "A") { order } }`:     false,
	} {
		doc, err := parser.ParseQuery(&ast.Source{Input: query})
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if got := ownsTransaction(doc.Operations[0]); got != want {
			t.Errorf("%s: owns its transaction %v, want %v", query, got, want)
		}
	}
}
