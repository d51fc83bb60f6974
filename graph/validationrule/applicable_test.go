package validationrule

import "testing"

func TestApplies(t *testing.T) {
	shirtRed := Item{ProductID: "prod_shirt", SKUID: "sku_red"}
	shirtBlue := Item{ProductID: "prod_shirt", SKUID: "sku_blue"}
	pen := Item{ProductID: "prod_pen"}
	noIDs := Item{}
	tests := []struct {
		name, json string
		item       Item
		want       bool
	}{
		{"empty applies to all", `{}`, pen, true},
		{"empty applies to item without ids", `{}`, noIDs, true},
		{"included product", `{"included":[{"object":"product","id":"prod_shirt"}]}`, shirtRed, true},
		{"included product covers its skus", `{"included":[{"object":"product","id":"prod_shirt"}]}`, shirtBlue, true},
		{"not included", `{"included":[{"object":"product","id":"prod_shirt"}]}`, pen, false},
		{"item without ids not included", `{"included":[{"object":"product","id":"prod_shirt"}]}`, noIDs, false},
		{"included sku", `{"included":[{"object":"sku","id":"sku_red"}]}`, shirtRed, true},
		{"other sku not included", `{"included":[{"object":"sku","id":"sku_red"}]}`, shirtBlue, false},
		{"sku target does not match product id", `{"included":[{"object":"sku","id":"prod_pen"}]}`, pen, false},
		{"product target does not match sku id", `{"included":[{"object":"product","id":"sku_red"}]}`, shirtRed, false},
		{"several included", `{"included":[{"object":"sku","id":"sku_red"},{"object":"product","id":"prod_pen"}]}`, pen, true},
		{"excluded only", `{"excluded":[{"object":"product","id":"prod_pen"}]}`, pen, false},
		{"excluded only, other item", `{"excluded":[{"object":"product","id":"prod_pen"}]}`, shirtRed, true},
		{"excluded wins over included", `{"included":[{"object":"product","id":"prod_shirt"}],"excluded":[{"object":"sku","id":"sku_blue"}]}`, shirtBlue, false},
		{"included minus excluded sku", `{"included":[{"object":"product","id":"prod_shirt"}],"excluded":[{"object":"sku","id":"sku_blue"}]}`, shirtRed, true},
		{"extra properties ignored", `{"included":[{"object":"product","id":"prod_pen","strict":true}],"included_all":false,"total":1}`, pen, true},
	}
	for _, tt := range tests {
		d := mustParse(t, "", "", tt.json)
		if got := d.ApplicableTo.Applies(tt.item); got != tt.want {
			t.Errorf("%s: Applies(%+v) = %v, want %v", tt.name, tt.item, got, tt.want)
		}
	}
}

func TestApplicableEmptyAndMatches(t *testing.T) {
	if !(ApplicableTo{}).Empty() {
		t.Error("zero value should be empty")
	}
	if (ApplicableTo{Excluded: []Target{{Object: ObjectSKU, ID: "s"}}}).Empty() {
		t.Error("excluded entry: not empty")
	}
	if (ApplicableTo{Included: []Target{{Object: ObjectProduct, ID: "p"}}}).Empty() {
		t.Error("included entry: not empty")
	}
	it := Item{ProductID: "p", SKUID: "s"}
	tests := []struct {
		t    Target
		want bool
	}{
		{Target{Object: ObjectProduct, ID: "p"}, true},
		{Target{Object: ObjectSKU, ID: "s"}, true},
		{Target{Object: ObjectProduct, ID: "s"}, false},
		{Target{Object: "", ID: "s"}, true}, // hand-built, no object: either id
		{Target{Object: ObjectProduct, ID: ""}, false},
	}
	for _, tt := range tests {
		if got := tt.t.Matches(it); got != tt.want {
			t.Errorf("%+v.Matches = %v", tt.t, got)
		}
	}
	if (Target{Object: ObjectSKU, ID: ""}).Matches(Item{}) {
		t.Error("empty ids must never match")
	}
}
