package validationrule

import (
	"reflect"
	"slices"
	"testing"
)

// TestCompiledChecksAlike: a compiled definition (Compile, as the
// qualifications' tier snapshot keeps them) checks, leaves out and names
// the catalogue exactly as the definition it came from.
func TestCompiledChecksAlike(t *testing.T) {
	rules := `{"1":{"name":"order.amount","conditions":{"$more_than":[1000]}},
	           "2":{"name":"customer.segment","conditions":{"$in":["seg_vip"]}},
	           "3":{"name":"product.id","conditions":{"$is":[{"id":"prod_1","object":"products_collection"}]}},"logic":"%s"}`
	audience := func(c Condition) bool { return !IsCustomerCondition(c) }
	contexts := []Context{
		{CustomerID: "cust_1", CustomerSegments: []string{"seg_vip"}, OrderAmount: amount(500)},
		{CustomerID: "cust_2", OrderAmount: amount(5000)},
	}
	for _, logic := range []string{"", "1 and 2", "1 or 2", "(1 or 2) and not 1", "2 and 2", "1 and (2 or 3)"} {
		d := mustParse(t, sprintf(rules, logic), "", "")
		c := d.Compile()
		for i, ctx := range contexts {
			if a, b := vkey(d.Check(ctx)), vkey(c.Check(ctx)); a != b {
				t.Errorf("%q, context %d: Check %q, compiled %q", logic, i, a, b)
			}
			va, oa := d.CheckOmitting(ctx, audience)
			vb, ob := c.CheckOmitting(ctx, audience)
			if vkey(va) != vkey(vb) || !slices.Equal(oa, ob) {
				t.Errorf("%q, context %d: CheckOmitting %q %v, compiled %q %v", logic, i, vkey(va), oa, vkey(vb), ob)
			}
		}
		p1, s1, c1 := d.Refs()
		p2, s2, c2 := c.Refs()
		if !reflect.DeepEqual([][]string{p1, s1, c1}, [][]string{p2, s2, c2}) || d.ReadsCart() != c.ReadsCart() {
			t.Errorf("%q: Refs %v %v %v / %v, compiled %v %v %v / %v", logic, p1, s1, c1, d.ReadsCart(), p2, s2, c2, c.ReadsCart())
		}
	}
	// A broken logic fails the check the same way, compiled or not.
	broken := Definition{Rules: map[string]Condition{"1": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {int64(1)}}}}, Logic: "1 and"}
	if a, b := vkey(broken.Check(contexts[0])), vkey(broken.Compile().Check(contexts[0])); a != b || a != KeyRedemptionRules {
		t.Errorf("broken logic: Check %q, compiled %q", a, b)
	}
}
