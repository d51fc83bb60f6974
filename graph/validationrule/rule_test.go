package validationrule

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const example = `{"1":{"name":"order.amount","conditions":{"$more_than":[10000]},"rules":{}},
 "2":{"name":"customer.segment","conditions":{"$is":["seg_abc"]},"rules":{}},
 "logic":"(1) and (2)"}`

func TestParseExample(t *testing.T) {
	d := mustParse(t, example, "custom message",
		`{"included":[{"object":"product","id":"prod_1"}],"excluded":[{"object":"product","id":"prod_2"}]}`)
	want := Definition{
		Rules: map[string]Condition{
			"1": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {int64(10000)}}},
			"2": {Name: "customer.segment", Conditions: map[string][]any{"$is": {"seg_abc"}}},
		},
		Logic:        "(1) and (2)",
		ErrorMessage: "custom message",
		ApplicableTo: ApplicableTo{Included: []Target{{Object: "product", ID: "prod_1"}}, Excluded: []Target{{Object: "product", ID: "prod_2"}}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %#v\nwant %#v", d, want)
	}
	if got := d.Keys(); !reflect.DeepEqual(got, []string{"1", "2"}) {
		t.Errorf("Keys() = %v", got)
	}
}

func TestParseNormalizesOperands(t *testing.T) {
	d := mustParse(t, `{
		"1":{"name":"order.amount","conditions":{"$is":[10000.0, 5]}},
		"2":{"name":"order.items.any","conditions":{"$in":["prod_1",{"object":"sku","id":"sku_1","source_id":"x"}]}},
		"3":{"name":"order.metadata.tier","conditions":{"$in":["gold",1,true],"$more_than":[1.5],"$is_defined":[]}},
		"4":{"name":"customer.id","conditions":{"$is":["cust_1"]},"error":{"message":"only cust_1"}},
		"logic":"  1 and 2  "}`, "", "")
	want := map[string]Condition{
		"1": {Name: "order.amount", Conditions: map[string][]any{"$is": {int64(10000), int64(5)}}},
		"2": {Name: "order.items.any", Conditions: map[string][]any{"$in": {"prod_1", Target{Object: "sku", ID: "sku_1"}}}},
		"3": {Name: "order.metadata.tier", Conditions: map[string][]any{
			"$in": {"gold", 1.0, true}, "$more_than": {1.5}, "$is_defined": {}}},
		"4": {Name: "customer.id", Conditions: map[string][]any{"$is": {"cust_1"}}, ErrorMessage: "only cust_1"},
	}
	if !reflect.DeepEqual(d.Rules, want) {
		t.Fatalf("got %#v\nwant %#v", d.Rules, want)
	}
	if d.Logic != "1 and 2" {
		t.Errorf("Logic = %q, want trimmed", d.Logic)
	}
}

func TestParseAcceptsGoNumbers(t *testing.T) {
	rules := map[string]any{
		"1": map[string]any{"name": "order.amount", "conditions": map[string]any{
			"$more_than": []any{json.Number("100")}, "$less_than": []int{500}, "$is_not": []any{int64(7), uint8(8), 9.0}}},
		"2": map[string]any{"name": "order.items.count", "conditions": map[string]any{"$is": []any{json.Number("3.0")}}},
	}
	d, err := Parse(rules, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Rules["1"].Conditions
	want := map[string][]any{"$more_than": {int64(100)}, "$less_than": {int64(500)}, "$is_not": {int64(7), int64(8), int64(9)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
	if got := d.Rules["2"].Conditions["$is"]; !reflect.DeepEqual(got, []any{int64(3)}) {
		t.Errorf("json.Number 3.0 → %#v", got)
	}
}

func TestParseEmpty(t *testing.T) {
	d, err := Parse(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rules) != 0 || d.Logic != "" || !d.ApplicableTo.Empty() {
		t.Errorf("got %#v", d)
	}
	if v := d.Check(Context{}); v != nil {
		t.Errorf("empty definition should pass, got %+v", v)
	}
	if _, err := Parse(decode(t, `{"logic":""}`), "", decode(t, `{"included":[],"excluded":null,"included_all":false}`)); err != nil {
		t.Errorf("empty logic and lists: %v", err)
	}
	// Nested rules that are empty (or carry only an empty logic) are fine.
	mustParse(t, `{"1":{"name":"order.amount","conditions":{"$is":[1]},"rules":{"logic":""}}}`, "", "")
	mustParse(t, `{"1":{"name":"order.amount","conditions":{"$is":[1]},"rules":null,"error":null}}`, "", "")
}

func TestRoundTrip(t *testing.T) {
	d := mustParse(t, `{
		"1":{"name":"order.amount","conditions":{"$more_than_or_equal":[100]}},
		"2":{"name":"product.id","conditions":{"$is":["prod_1",{"object":"product","id":"prod_2"}]},"error":{"message":"m"}},
		"3":{"name":"redemption.metadata.a.b","conditions":{"$is_not_defined":[true]}},
		"logic":"1 or not (2 and 3)"}`, "msg",
		`{"included":[{"object":"sku","id":"sku_1"}]}`)
	raw, err := json.Marshal(map[string]any{"rules": d.RulesMap(), "applicable_to": d.ApplicableTo.Map()})
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Rules        map[string]any `json:"rules"`
		ApplicableTo map[string]any `json:"applicable_to"`
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"excluded":[]`) {
		t.Errorf("empty list should be [], got %s", raw)
	}
	d2, err := Parse(back.Rules, "msg", back.ApplicableTo)
	if err != nil {
		t.Fatalf("re-parse %s: %v", raw, err)
	}
	if !reflect.DeepEqual(d, d2) {
		t.Errorf("round trip differs:\n%#v\n%#v", d, d2)
	}
}

func TestParseErrors(t *testing.T) {
	many := "{"
	for i := 1; i <= 21; i++ {
		if i > 1 {
			many += ","
		}
		many += `"` + strconv.Itoa(i) + `":{"name":"order.amount","conditions":{"$is":[1]}}`
	}
	many += `,"logic":""}`
	tests := []struct {
		name, rules, applicableTo string
		prop, reason              string // reason: substring
	}{
		{"unknown name", single("order.total", `{"$is":[1]}`), "", "rules.1.name", `unsupported rule name "order.total"`},
		{"metadata without key", single("order.metadata.", `{"$is":[1]}`), "", "rules.1.name", "unsupported rule name"},
		{"empty name", `{"1":{"conditions":{"$is":[1]}}}`, "", "rules.1.name", "required"},
		{"unknown operator", single("order.amount", `{"$foo":[1]}`), "", "rules.1.conditions", `unknown operator "$foo" for order.amount`},
		{"operator of other rule", single("order.amount", `{"$contains":["x"]}`), "", "rules.1.conditions", `unknown operator "$contains"`},
		{"$in on amount", single("order.amount", `{"$in":[1]}`), "", "rules.1.conditions", `unknown operator "$in"`},
		{"numeric op on segment", single("customer.segment", `{"$more_than":[1]}`), "", "rules.1.conditions", "unknown operator"},
		{"no operators", single("order.amount", `{}`), "", "rules.1.conditions", "at least one operator"},
		{"conditions not object", single("order.amount", `[1]`), "", "rules.1.conditions", "must be an object"},
		{"operands not array", single("order.amount", `{"$is":1}`), "", "rules.1.conditions.$is", "must be an array"},
		{"non-integer amount", single("order.amount", `{"$more_than":[100.5]}`), "", "rules.1.conditions.$more_than[0]", "must be an integer, got number 100.5"},
		{"string amount", single("order.amount", `{"$is":["100"]}`), "", "rules.1.conditions.$is[0]", `must be an integer, got string "100"`},
		{"two operands", single("order.items.count", `{"$less_than":[1,2]}`), "", "rules.1.conditions.$less_than", "exactly one integer operand, got 2"},
		{"no operand", single("order.items.quantity", `{"$is":[]}`), "", "rules.1.conditions.$is", "at least one operand"},
		{"null operands", single("order.amount", `{"$less_than":null}`), "", "rules.1.conditions.$less_than", "exactly one"},
		{"per customer float", single("redemption.count.per_customer", `{"$less_than_or_equal":[1.5]}`), "", "rules.1.conditions.$less_than_or_equal[0]", "integer"},
		{"segment number", single("customer.segment", `{"$is":[1]}`), "", "rules.1.conditions.$is[0]", "non-empty string id"},
		{"customer empty id", single("customer.id", `{"$in":[""]}`), "", "rules.1.conditions.$in[0]", "non-empty string id"},
		{"product bad object", single("product.id", `{"$is":[{"object":"category","id":"c"}]}`), "", "rules.1.conditions.$is[0].object", `unsupported object "category"`},
		{"product no id", single("order.items.any", `{"$is":[{"object":"product","source_id":"s"}]}`), "", "rules.1.conditions.$is[0].id", "source_id is not supported"},
		{"product number", single("order.items.any", `{"$is":[5]}`), "", "rules.1.conditions.$is[0]", "product or sku id"},
		{"metadata object operand", single("order.metadata.x", `{"$is":[{}]}`), "", "rules.1.conditions.$is[0]", "string, number or boolean"},
		{"metadata string compare", single("order.metadata.x", `{"$more_than":["a"]}`), "", "rules.1.conditions.$more_than[0]", "must be a number"},
		{"metadata contains number", single("redemption.metadata.x", `{"$contains":[1]}`), "", "rules.1.conditions.$contains[0]", "must be a string"},
		{"is_defined false", single("order.metadata.x", `{"$is_defined":[false]}`), "", "rules.1.conditions.$is_defined", "no operand"},
		{"is_defined two", single("order.metadata.x", `{"$is_not_defined":[true,true]}`), "", "rules.1.conditions.$is_not_defined", "no operand"},
		{"nested rule without operator", `{"1":{"name":"order.items.any","conditions":{"$is":["p"]},"rules":{"1":{"name":"order.items.quantity"}}}}`, "", "rules.1.rules.1.conditions", "at least one operator"},
		{"nested rules under order.amount", `{"1":{"name":"order.amount","conditions":{"$is":[1]},"rules":{"1":{"name":"order.items.quantity","conditions":{"$is":[1]}}}}}`, "", "rules.1.rules", "only supported under"},
		{"nested unknown name", `{"1":{"name":"order.items.any","conditions":{"$is":["p"]},"rules":{"1":{"name":"order.amount","conditions":{"$is":[1]}}}}}`, "", "rules.1.rules.1.name", "unsupported rule name"},
		{"nested rules not object", `{"1":{"name":"order.amount","conditions":{"$is":[1]},"rules":[]}}`, "", "rules.1.rules", "must be an object"},
		{"rule not object", `{"1":"order.amount"}`, "", "rules.1", "must be an object"},
		{"bad key", `{"a":{"name":"order.amount","conditions":{"$is":[1]}}}`, "", "rules", `unexpected key "a"`},
		{"leading zero key", `{"01":{"name":"order.amount","conditions":{"$is":[1]}}}`, "", "rules", `unexpected key "01"`},
		{"zero key", `{"0":{"name":"order.amount","conditions":{"$is":[1]}}}`, "", "rules", `unexpected key "0"`},
		{"too many rules", many, "", "rules", "at most 20 rules are allowed, got 21"},
		{"logic not string", `{"1":{"name":"order.amount","conditions":{"$is":[1]}},"logic":1}`, "", "rules.logic", "must be a string"},
		{"logic unknown key", `{"1":{"name":"order.amount","conditions":{"$is":[1]}},"logic":"1 and 2"}`, "", "rules.logic", `rule key "2" at position 7 is not defined`},
		{"logic malformed", `{"1":{"name":"order.amount","conditions":{"$is":[1]}},"logic":"1 and"}`, "", "rules.logic", "unexpected end"},
		{"rule error not object", `{"1":{"name":"order.amount","conditions":{"$is":[1]},"error":"x"}}`, "", "rules.1.error", "must be an object"},
		{"rule error message", `{"1":{"name":"order.amount","conditions":{"$is":[1]},"error":{"message":1}}}`, "", "rules.1.error.message", "must be a string"},
		{"applicable object", "", `{"included":[{"object":"category","id":"pc_1"}]}`, "applicable_to.included[0].object", `unsupported object "category"`},
		{"applicable effect", "", `{"included":[{"object":"product","id":"p","effect":"APPLY_TO_ALL"}]}`, "applicable_to.included[0].effect", "must be one of"},
		{"applicable negative limit", "", `{"included":[{"object":"product","id":"p","quantity_limit":-1}]}`, "applicable_to.included[0].quantity_limit", "from 0"},
		{"applicable negative price", "", `{"included":[{"object":"product","id":"p","price":-5}]}`, "applicable_to.included[0].price", "from 0"},
		{"applicable id", "", `{"excluded":[{"object":"sku"}]}`, "applicable_to.excluded[0].id", "required"},
		{"applicable not list", "", `{"included":{"object":"sku","id":"s"}}`, "applicable_to.included", "must be an array"},
		{"applicable entry", "", `{"included":["prod_1"]}`, "applicable_to.included[0]", "must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, tt.rules), "", decode(t, tt.applicableTo))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.Property != tt.prop || !strings.Contains(e.Reason, tt.reason) {
				t.Errorf("got %q, want property %q with %q", err, tt.prop, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), tt.prop+": ") {
				t.Errorf("Error() = %q", err)
			}
		})
	}
}

func TestErrorMessageFormat(t *testing.T) {
	_, err := Parse(decode(t, single("order.amount", `{"$foo":[1]}`)), "", nil)
	want := `rules.1.conditions: unknown operator "$foo" for order.amount (supported: $is, $is_not, $less_than, $less_than_or_equal, $more_than, $more_than_or_equal)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestParseTwentyRulesOK(t *testing.T) {
	rules := map[string]any{"logic": "1 and 20"}
	for i := 1; i <= MaxRules; i++ {
		rules[strconv.Itoa(i)] = map[string]any{"name": "order.amount", "conditions": map[string]any{"$is": []any{float64(i)}}}
	}
	d, err := Parse(rules, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if keys := d.Keys(); keys[1] != "2" || keys[9] != "10" || keys[19] != "20" {
		t.Errorf("keys not in numeric order: %v", keys)
	}
}

func TestValidateHandBuilt(t *testing.T) {
	ok := Definition{Rules: map[string]Condition{"1": {Name: "order.amount", Conditions: map[string][]any{"$is": {int64(1)}}}}}
	if err := ok.Validate(); err != nil {
		t.Errorf("valid: %v", err)
	}
	tests := []struct {
		name string
		d    Definition
		prop string
	}{
		{"bad name", Definition{Rules: map[string]Condition{"1": {Name: "x", Conditions: map[string][]any{"$is": {1}}}}}, "rules.1.name"},
		{"bad key", Definition{Rules: map[string]Condition{"x": ok.Rules["1"]}}, "rules"},
		{"bad logic", Definition{Rules: ok.Rules, Logic: "1 xor 1"}, "rules.logic"},
		{"bad target", Definition{ApplicableTo: ApplicableTo{Excluded: []Target{{Object: "product", ID: ""}}}}, "applicable_to.excluded[0].id"},
		{"bad product target", Definition{Rules: map[string]Condition{"1": {Name: "product.id",
			Conditions: map[string][]any{"$is": {Target{Object: "x", ID: "p"}}}}}}, "rules.1.conditions.$is[0].object"},
	}
	for _, tt := range tests {
		var e *Error
		if err := tt.d.Validate(); !errors.As(err, &e) || e.Property != tt.prop {
			t.Errorf("%s: got %v, want property %s", tt.name, err, tt.prop)
		}
	}
}
