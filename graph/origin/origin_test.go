package origin

import (
	"slices"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	got, err := Normalize([]string{" HTTPS://Shop.Example.com/ ", "shop.example.com", "*.example.org", "https://shop.example.com", "*", "http://localhost:3000"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://shop.example.com", "shop.example.com", "*.example.org", "*", "http://localhost:3000"}
	if !slices.Equal(got, want) {
		t.Errorf("Normalize = %q, want %q", got, want)
	}
	for _, bad := range []string{"", "ftp://x.com", "https://x.com/path", "https://", "a*b.com", "*.", "https://x.com?q=1", strings.Repeat("a", 300) + ".com"} {
		if _, err := Normalize([]string{bad}); err == nil {
			t.Errorf("Normalize(%q) accepted", bad)
		}
	}
	if _, err := Normalize(make([]string, MaxDomains+1)); err == nil {
		t.Error("more than MaxDomains accepted")
	}
}

func TestTrusted(t *testing.T) {
	domains, err := Normalize([]string{"https://shop.example.com", "app.example.net", "*.example.org", "http://*.dev.test:8080", "localhost:3000"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		origin string
		want   bool
	}{
		{"https://shop.example.com", true},
		{"HTTPS://SHOP.EXAMPLE.COM", true},
		{"http://shop.example.com", false},       // other scheme
		{"https://shop.example.com:8443", false}, // other port
		{"https://evil-shop.example.com", false},
		{"https://shop.example.com.evil.io", false},
		{"https://app.example.net", true},
		{"http://app.example.net:9000", true},
		{"https://a.example.org", true},
		{"https://a.b.example.org", true},
		{"https://example.org", false}, // the wildcard needs a subdomain
		{"https://badexample.org", false},
		{"http://x.dev.test:8080", true},
		{"http://x.dev.test:8081", false},
		{"https://x.dev.test:8080", false},
		{"http://localhost:3000", true},
		{"http://localhost:3001", false},
		{"", false},
		{"null", false},
		{"https://shop.example.com/path", false},
		{"javascript:alert(1)", false},
	}
	for _, c := range cases {
		if got := Trusted(domains, c.origin); got != c.want {
			t.Errorf("Trusted(%q) = %v, want %v", c.origin, got, c.want)
		}
	}
	if !Trusted([]string{"*"}, "https://anything.example") || Trusted([]string{"*"}, "") {
		t.Error(`"*" must trust every origin sent, and nothing when none is sent`)
	}
	if Trusted(nil, "https://shop.example.com") {
		t.Error("no trusted domains must trust nothing")
	}
}
