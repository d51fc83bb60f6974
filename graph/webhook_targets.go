package graph

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Target URLs. http and https only, with a host; credentials in the URL
// are refused (they would be logged with the URL). When the installation
// forbids private targets (PROMO_WEBHOOK_ALLOW_PRIVATE=false, for
// multi-tenant installations), loopback, private, link-local and other
// non-public addresses are refused when set and again when each delivery
// connects (the name may resolve differently later).

type webhookPolicyKey struct{}

// WithWebhookTargetsDenyPrivate returns ctx in which webhook target URLs
// must not point at private or loopback addresses (the REST layer sets it
// on every request when configured).
func WithWebhookTargetsDenyPrivate(ctx context.Context) context.Context {
	return context.WithValue(ctx, webhookPolicyKey{}, true)
}

func denyPrivateTargets(ctx context.Context) bool {
	deny, _ := ctx.Value(webhookPolicyKey{}).(bool)
	return deny
}

// CheckWebhookTarget validates a webhook target URL under ctx's policy.
func CheckWebhookTarget(ctx context.Context, raw string) error {
	raw = strings.TrimSpace(raw)
	bad := func(why string) error {
		return apperr.InvalidPayload("Property .target_url %s", why)
	}
	if raw == "" || len(raw) > 2048 {
		return bad("must be an http or https URL of at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return bad("must be an http or https URL with a host")
	}
	if u.User != nil {
		return bad("must not contain credentials")
	}
	if u.Fragment != "" {
		return bad("must not contain a fragment")
	}
	if !denyPrivateTargets(ctx) {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".internal") || strings.HasSuffix(host, ".local") {
		return bad("must not point at a private or loopback address")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !PublicAddr(ip) {
			return bad("must not point at a private or loopback address")
		}
		return nil
	}
	// A name: refuse it when it resolves to a private address now. A name
	// that does not resolve yet is accepted; every delivery checks the
	// address it connects to.
	lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(lctx, "ip", host)
	if err == nil {
		for _, a := range addrs {
			if !PublicAddr(a) {
				return bad("must not point at a private or loopback address")
			}
		}
	}
	return nil
}

// nonPublic are ranges PublicAddr refuses beyond the standard library's
// predicates: carrier-grade NAT, benchmarking, documentation, 6to4 relay,
// reserved, NAT64 and discard prefixes.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// PublicAddr reports whether ip is a public unicast address (not loopback,
// private, link-local, multicast, unspecified or otherwise reserved).
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}
