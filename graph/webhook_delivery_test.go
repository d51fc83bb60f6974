package graph

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
)

func TestWebhookBackoffDoublesWithJitterUpToTheCap(t *testing.T) {
	s := WebhookSettings{}
	s.defaults()
	for n, want := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second,
		9: 2560 * time.Second, 10: time.Hour, 50: time.Hour, 500: time.Hour} {
		for range 50 {
			got := s.backoff(n)
			if got < want/2 || got > want {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", n, got, want/2, want)
			}
		}
	}
	// The schedule keeps retrying for the whole window: the sum of the
	// longest pauses of 40 attempts passes 24 h.
	var total time.Duration
	for n := 1; n <= 40; n++ {
		total += min(s.RetryBase<<min(n-1, 20), s.RetryMaxStep)
	}
	if total < 24*time.Hour {
		t.Fatalf("40 attempts span %s", total)
	}
}

func TestPublicAddr(t *testing.T) {
	for addr, public := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true, "93.184.216.34": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::": false, "fe80::1": false,
		"fc00::1": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "224.0.0.1": false,
		"198.18.0.1": false, "240.0.0.1": false,
	} {
		if got := PublicAddr(netip.MustParseAddr(addr)); got != public {
			t.Errorf("PublicAddr(%s) = %v, want %v", addr, got, public)
		}
	}
}

func TestCheckWebhookTarget(t *testing.T) {
	allow, deny := context.Background(), WithWebhookTargetsDenyPrivate(context.Background())
	for _, tc := range []struct {
		url               string
		allowOK, denialOK bool
	}{
		{"https://hooks.example.com/promo", true, true},
		{"http://93.184.216.34:8080/x?y=1", true, true},
		{"http://127.0.0.1:9000/hook", true, false},
		{"http://localhost/hook", true, false},
		{"http://[::1]/hook", true, false},
		{"http://10.0.0.5/hook", true, false},
		{"http://169.254.169.254/latest/meta-data", true, false},
		{"http://service.internal/hook", true, false},
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

func TestSignWebhookIsHexHMACSHA256(t *testing.T) {
	// RFC 4231 test case 2.
	got := SignWebhook("Jefe", []byte("what do ya want for nothing?"))
	if want := "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"; got != want {
		t.Fatalf("SignWebhook = %s, want %s", got, want)
	}
}
