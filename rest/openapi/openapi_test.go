package openapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

func jsonOf(t *testing.T, s *Schema) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FromGo describes what encoding/json writes: omitempty fields are
// optional and never null, other pointer/slice/map fields are always there
// and may be null, Values() types are enums, times are date-times.
func TestFromGoFollowsEncodingJSON(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type sample struct {
		Always   string                `json:"always"`
		Maybe    *string               `json:"maybe"`
		Omitted  *string               `json:"omitted,omitempty"`
		List     []int                 `json:"list"`
		When     time.Time             `json:"when"`
		Kind     jsonfield.VoucherType `json:"kind"`
		Nested   *inner                `json:"nested"`
		Internal string                `json:"-"`
	}
	s := FromGo[sample]()
	for name, want := range map[string]string{
		"always":  `{"type":"string"}`,
		"maybe":   `{"type":["string","null"]}`,
		"omitted": `{"type":"string"}`,
		"list":    `{"type":["array","null"],"items":{"type":"integer"}}`,
		"when":    `{"type":"string","format":"date-time"}`,
		"kind":    `{"type":"string","enum":["GIFT_VOUCHER","DISCOUNT_VOUCHER","LOYALTY_CARD"]}`,
		"nested":  `{"type":["object","null"],"properties":{"n":{"type":"integer"}},"required":["n"]}`,
	} {
		if got := jsonOf(t, s.Properties[name]); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if _, ok := s.Properties["Internal"]; ok {
		t.Error(`a json:"-" field is documented`)
	}
	if got := strings.Join(s.Required, ","); got != "always,maybe,list,when,kind,nested" {
		t.Errorf("required = %s", got)
	}
	// A request body: nothing required but what is named, no nulls.
	in := Input[sample]("always")
	if got := jsonOf(t, in.Properties["maybe"]); got != `{"type":"string"}` || strings.Join(in.Required, ",") != "always" {
		t.Errorf("input: maybe %s, required %v", got, in.Required)
	}
}

type ownEncoding struct{}

func (ownEncoding) MarshalJSON() ([]byte, error) { return []byte("1"), nil }

// Build refuses an operation without credentials or summary, a reference
// to a schema nobody defined and a route documented twice.
func TestBuildRefusesMistakes(t *testing.T) {
	saved := areas
	defer func() { areas = saved }()
	for name, area := range map[string]func(*API){
		"no auth":    func(a *API) { a.Add("GET /x", Op{Summary: "Get x"}) },
		"no summary": func(a *API) { a.Add("GET /x", Op{Auth: Public}) },
		"dangling":   func(a *API) { a.Add("GET /x", Op{Summary: "Get x", Auth: Public, Response: Ref("Nope")}) },
		"twice": func(a *API) {
			a.Add("GET /x", Op{Summary: "Get x", Auth: Public})
			a.Add("GET /x", Op{Summary: "Get x again", Auth: Public})
		},
		"go type": func(a *API) { a.Schema("T", FromGo[ownEncoding]()) },
	} {
		areas = []func(*API){area}
		if _, err := Build(Options{}); err == nil {
			t.Errorf("%s: built", name)
		}
	}
}
