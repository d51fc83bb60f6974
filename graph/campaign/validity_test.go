package campaign

import (
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

func TestValidDuration(t *testing.T) {
	for _, ok := range []string{"P1D", "PT1H", "P2W", "P1Y2M3DT4H5M6S", "PT0.5S", "P24D"} {
		if !validDuration(ok) {
			t.Errorf("%q rejected", ok)
		}
	}
	for _, bad := range []string{"", "P", "PT", "1D", "P1H", "P1DT", "24 days", "p1d"} {
		if validDuration(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNormalizeCodeConfig(t *testing.T) {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	cc, err := NormalizeCodeConfig(".code_config", nil)
	if err != nil || *cc.Length != 8 || *cc.Pattern != "########" || *cc.Charset != CharsetAlphanumeric {
		t.Errorf("defaults = %+v, %v", cc, err)
	}
	cc, err = NormalizeCodeConfig(".code_config", &jsonfield.CodeConfig{Pattern: str("AB-##-##"), Length: num(3), InitialCount: num(5)})
	if err != nil || *cc.Length != 4 || cc.InitialCount != nil {
		t.Errorf("pattern overrides length: %+v, %v", cc, err)
	}
	for _, bad := range []*jsonfield.CodeConfig{
		{Length: num(0)}, {Length: num(101)}, {Pattern: str("ABC")}, {Pattern: str(strings.Repeat("#", 101))},
	} {
		if _, err := NormalizeCodeConfig(".code_config", bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
