package validationrule

import (
	"reflect"
	"slices"
	"testing"
)

func TestCheckOmitting(t *testing.T) {
	rules := `{"1":{"name":"order.amount","conditions":{"$more_than":[1000]}},
	           "2":{"name":"customer.segment","conditions":{"$in":["seg_vip"]}},
	           "3":{"name":"redemption.count.per_customer","conditions":{"$less_than":[2]}},"logic":"%s"}`
	audience := func(c Condition) bool { return !IsCustomerCondition(c) }
	perCustomer := func(c Condition) bool { return IsPerCustomerCount(c) }
	vip := Context{CustomerID: "cust_1", CustomerSegments: []string{"seg_vip"}, OrderAmount: amount(500), CustomerRedemptions: 5}
	other := Context{CustomerID: "cust_2", OrderAmount: amount(5000), CustomerRedemptions: 5}
	for _, c := range []struct {
		name, logic string
		ctx         Context
		omit        Omit
		key         string
		omitted     []string
	}{
		{"nothing left out: as Check", "1 and 2 and 3", vip, nil, KeyOrderRules, nil},
		{"audience only: a small cart passes", "1 and 2 and 3", vip, audience, "", []string{"1", "3"}},
		{"audience only: another customer fails", "1 and 2 and 3", other, audience, KeyCustomerRules, []string{"1", "3"}},
		{"per-customer count left out", "1 and 2 and 3", other, perCustomer, KeyCustomerRules, []string{"3"}},
		{"per-customer count left out: both hold", "(1 or 2) and 3", other, perCustomer, "", []string{"3"}},
		{"a left-out rule under not holds, so not fails", "2 and not 1", vip, func(c Condition) bool { return !IsCustomerCondition(c) }, KeyOrderRules, []string{"1", "3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := mustParse(t, sprintf(rules, c.logic), "", "")
			v, omitted := d.CheckOmitting(c.ctx, c.omit)
			if vkey(v) != c.key || !slices.Equal(omitted, c.omitted) {
				t.Errorf("got %q %v, want %q %v", vkey(v), omitted, c.key, c.omitted)
			}
		})
	}
}

func TestProductTargets(t *testing.T) {
	d := mustParse(t, `{"1":{"name":"product.id","conditions":{"$in":["prod_1",{"object":"sku","id":"sku_1"}],"$not_in":["prod_9"]}},
	                    "2":{"name":"order.amount","conditions":{"$more_than":[1]}}}`, "", "")
	var got []Target
	for _, k := range d.Keys() {
		got = append(got, d.Rules[k].ProductTargets()...)
	}
	if len(got) != 2 || got[0].ID != "prod_1" || !reflect.DeepEqual(got[1], Target{Object: ObjectSKU, ID: "sku_1"}) {
		t.Errorf("targets = %v", got)
	}
	if !got[0].Matches(Item{SKUID: "prod_1"}) || !got[0].Matches(Item{ProductID: "prod_1"}) {
		t.Errorf("a bare id matches a product or a sku line")
	}
}
