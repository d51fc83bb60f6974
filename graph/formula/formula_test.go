package formula

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

var env = Env{Vars: map[string]float64{"ORDER_AMOUNT": 350, "ORDER_ITEMS_COUNT": 2, "ORDER_ITEMS_QUANTITY": 5},
	Metadata: map[string]map[string]any{
		"customer": {"favorite_brands": "Nike, Adidas", "age": float64(31), "tier": "gold"},
		"order":    {"channel": "web", "weight": "2.5", "boxes": json.Number("3"), "count": int64(2)},
	}}

// The reference's examples (campaigns.json, vouchers.json) and the
// language around them.
func TestNumber(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want float64
	}{
		{"IF(ORDER_AMOUNT > 300;15;5)", 15},
		{"IF(ORDER_AMOUNT > 400;15;5)", 5},
		{`IF(CUSTOMER_METADATA("favorite_brands") contains "Nike";20;CUSTOMER_METADATA("age"))`, 20},
		{`IF(CUSTOMER_METADATA("favorite_brands") contains "Puma";20;CUSTOMER_METADATA("age"))`, 31},
		{`if(customer_metadata("tier") = "gold"; 10; 0)`, 10},
		{"ORDER_AMOUNT * 0.1 + 2", 37},
		{"(ORDER_AMOUNT - 50) / 3", 100},
		{"-ORDER_ITEMS_COUNT * 2", -4},
		{"ROUND(10 / 3; 2)", 3.33},
		{"ROUND_UP(ORDER_AMOUNT / 100)", 4},
		{"ROUND_DOWN(ORDER_AMOUNT / 100)", 3},
		{"ROUND(2.5)", 3},
		{"MIN(ORDER_AMOUNT; 100; 250)", 100},
		{"MAX(1; ORDER_ITEMS_QUANTITY)", 5},
		{"ABS(-7)", 7},
		{`ORDER_METADATA("weight") * 2`, 5},
		{`ORDER_METADATA("boxes") + ORDER_METADATA("count")`, 5},
		{"IF(ORDER_AMOUNT >= 350 AND ORDER_ITEMS_COUNT <= 2;1;0)", 1},
		{"IF(ORDER_AMOUNT < 100 OR NOT ORDER_ITEMS_COUNT = 2;1;0)", 0},
		{"IF(AND(ORDER_AMOUNT > 1; OR(0; 1));1;0)", 1},
		{"IF(ORDER_AMOUNT <> 350;1;0)", 0},
		{"IF(1 > 0; 7; 1 / 0)", 7}, // only the branch taken is evaluated
	} {
		e, err := Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		got, err := e.Number(env)
		if err != nil || got != tt.want {
			t.Errorf("%s = %v, %v; want %v", tt.src, got, err, tt.want)
		}
	}
}

// Formulas the language does not have are refused when parsed.
func TestParseRefuses(t *testing.T) {
	for _, src := range []string{"", "   ", "ORDER_AMOUNT +", "IF(1;2)", "IF(1;2;3;4)", "UNKNOWN_VAR * 2",
		"EXEC(1)", `CUSTOMER_METADATA(age)`, "1 ** 2", "(1 + 2", "1 + 2)", `"open`, "1.2.3", "ORDER_AMOUNT ! 2",
		"MIN()", "1 2", strings.Repeat("1+", 600) + "1", strings.Repeat("(", 30) + "1" + strings.Repeat(")", 30),
		strings.Repeat("MAX(1;", 25) + "1" + strings.Repeat(")", 25)} {
		if _, err := Parse(src); !errors.Is(err, ErrInvalid) {
			t.Errorf("%.60q parsed (err %v)", src, err)
		}
	}
}

// A formula that parses but has no value for the request says so.
func TestNoValue(t *testing.T) {
	for _, src := range []string{`CUSTOMER_METADATA("missing") + 1`, "ORDER_AMOUNT / 0", `"text" * 2`,
		`CUSTOMER_METADATA("tier")`, "ROUND(1; 9)"} {
		e, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := e.Number(env); !errors.Is(err, ErrNoValue) {
			t.Errorf("%s: err %v, want ErrNoValue", src, err)
		}
	}
	e, _ := Parse("ORDER_AMOUNT")
	if _, err := e.Number(Env{}); !errors.Is(err, ErrNoValue) {
		t.Errorf("a variable the caller does not supply: %v", err)
	}
}

// TestPriceFormulaExamples: validations.json's "Fixed" example entries'
// price_formula, with ORDER_ITEM_PRICE the line's unit price (main units)
// — the new price per line; without ORDER_ITEM_PRICE (any other formula)
// there is no value.
func TestPriceFormulaExamples(t *testing.T) {
	for _, tt := range []struct {
		src         string
		amount, sku float64
		want        float64
	}{
		{"IF(ORDER_AMOUNT > 400;0;20)", 450, 30, 0},
		{"IF(ORDER_AMOUNT > 400;0;20)", 350, 30, 20},
		{"IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)", 350, 999, 799.2},
		{"IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)", 250, 999, 999},
		{"IF(ORDER_AMOUNT > 200;ORDER_ITEM_PRICE * 0.9;ORDER_ITEM_PRICE)", 250, 999, 899.1},
	} {
		x, err := Parse(tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		got, err := x.Number(Env{Vars: map[string]float64{"ORDER_AMOUNT": tt.amount, "ORDER_ITEM_PRICE": tt.sku}})
		if err != nil || got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("%s (amount %v, item %v) = %v, %v; want %v", tt.src, tt.amount, tt.sku, got, err, tt.want)
		}
	}
	x, _ := Parse("ORDER_ITEM_PRICE * 0.8")
	if _, err := x.Number(env); err == nil {
		t.Error("ORDER_ITEM_PRICE outside a price formula has a value")
	}
}
