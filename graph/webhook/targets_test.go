package webhook

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
)

// fakeResolver answers from a table; every other name does not resolve.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	addrs, ok := f[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

var testResolver = fakeResolver{
	"hooks.example.com":    {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
	"rebind.example.com":   {"93.184.216.34", "127.0.0.1"},
	"intranet.example.com": {"10.1.2.3"},
	"meta.example.com":     {"169.254.169.254"},
	"nat64.example.com":    {"64:ff9b::a00:1"},
	"mapped.example.com":   {"::ffff:192.168.0.1"},
	"empty.example.com":    {},
}

func TestCheckWebhookTarget(t *testing.T) {
	allow := context.Background()
	deny := WithWebhookResolver(WithWebhookTargetsDenyPrivate(context.Background()), testResolver)
	for _, tc := range []struct {
		url               string
		allowOK, denialOK bool
	}{
		{"https://hooks.example.com/promo", true, true},
		{"https://HOOKS.example.com./promo", true, true},
		{"http://93.184.216.34:8080/x?y=1", true, true},
		{"http://[2606:2800:220:1:248:1893:25c8:1946]/x", true, true},
		{"http://127.0.0.1:9000/hook", true, false},
		{"http://localhost/hook", true, false},
		{"http://LOCALHOST./hook", true, false},
		{"http://printer.local/hook", true, false},
		{"http://[::1]/hook", true, false},
		{"http://10.0.0.5/hook", true, false},
		{"http://169.254.169.254/latest/meta-data", true, false},
		{"http://service.internal/hook", true, false},
		{"http://router.home.arpa/hook", true, false},
		{"ftp://example.com/x", false, false},
		{"example.com/hook", false, false},
		{"https://user:pass@example.com/", false, false},
		{"https:///nohost", false, false},
		{"", false, false},
		{"javascript:alert(1)", false, false},
	} {
		for _, c := range []struct {
			ctx context.Context
			ok  bool
		}{{allow, tc.allowOK}, {deny, tc.denialOK}} {
			err := CheckWebhookTarget(c.ctx, tc.url)
			if (err == nil) != c.ok {
				t.Errorf("CheckWebhookTarget(%q) (deny private %v) = %v, want ok %v", tc.url, c.ctx == deny, err, c.ok)
			}
			if e, isApp := apperr.As(err); err != nil && (!isApp || e.Key != "invalid_payload") {
				t.Errorf("CheckWebhookTarget(%q) = %v, want invalid_payload", tc.url, err)
			}
		}
	}
}

// TestWebhookTargetsRefuseEveryNumericFormOfAPrivateAddress: with private
// targets off, a host that denotes a non-public address in any notation a
// resolver, browser or curl accepts, or a name that resolves to one (or
// does not resolve), is refused when set.
func TestWebhookTargetsRefuseEveryNumericFormOfAPrivateAddress(t *testing.T) {
	deny := WithWebhookResolver(WithWebhookTargetsDenyPrivate(context.Background()), testResolver)
	for _, host := range []string{
		"127.1", "127.0.1", "2130706433", "0x7f000001", "0x7F000001", "0x7f.1", "0177.0.0.1", "0177.1", "017700000001",
		"127.0.0.1.", "0", "0.0.0.0", "0x0", "00", "10.1", "167772161", "0xa.0.0.1", "012.0.0.1", "192.168.1", "3232235777",
		"169.254.43518", "2852039166", "100.64.0.1", "0x64.0x40.0.1", "224.0.0.1", "255.255.255.255", "4294967295",
		"[::1]", "[::]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::ffff:10.0.0.1]",
		"[::127.0.0.1]", "[::7f00:1]", "[64:ff9b::127.0.0.1]", "[64:ff9b::a00:1]", "[64:ff9b:1::a00:1]",
		"[2002:7f00:1::]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[fe80::1%25eth0]", "[fc00::1]", "[fd00::1]",
		"[fec0::1]", "[ff02::1]", "[::ffff:0:7f00:1]",
		"１２７.０.０.１", "127。0。0。1", "%31%32%37.0.0.1",
		"1.2.3.4.5", "256.0.0.1", "example.123", "4294967296",
		"intranet.example.com", "meta.example.com", "rebind.example.com", "nat64.example.com", "mapped.example.com",
		"empty.example.com", "unknown.example.com",
	} {
		raw := "http://" + host + ":8080/hook"
		if _, err := url.Parse(raw); err != nil {
			continue // not a URL at all: refused earlier, by the URL check
		}
		err := CheckWebhookTarget(deny, raw)
		if err == nil {
			t.Errorf("CheckWebhookTarget(%q) accepted a non-public target", raw)
			continue
		}
		if e, ok := apperr.As(err); !ok || e.Key != "invalid_payload" {
			t.Errorf("CheckWebhookTarget(%q) = %v, want invalid_payload", raw, err)
		}
	}
	err := CheckWebhookTarget(deny, "https://unknown.example.com/hook")
	if e, ok := apperr.As(err); !ok || !strings.Contains(e.Details, "does not resolve") {
		t.Errorf("a name that does not resolve: %v", err)
	}
}

// TestWebhookClientChecksTheAddressItDials: with DenyPrivate, a delivery
// refuses a name that resolves to loopback (the address dialled is
// checked, not the name), and without it reaches the receiver.
func TestWebhookClientChecksTheAddressItDials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	for _, target := range []string{"http://localhost:" + port + "/", srv.URL + "/"} {
		deny := newWebhookClient(Settings{DenyPrivate: true, Timeout: 5 * time.Second, Concurrency: 1})
		resp, err := deny.Get(target)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("delivery to %s with private targets off: %d", target, resp.StatusCode)
		}
		if !strings.Contains(err.Error(), "non-public address") {
			t.Errorf("delivery to %s: %v", target, err)
		}
		allow := newWebhookClient(Settings{Timeout: 5 * time.Second, Concurrency: 1})
		resp, err = allow.Get(target)
		if err != nil {
			t.Fatalf("delivery to %s with private targets allowed: %v", target, err)
		}
		resp.Body.Close()
	}
}
