package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/idna"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/targetaddr"
)

// Target URLs. http and https only, with a host; credentials in the URL
// are refused (they would be logged with the URL). When the installation
// forbids private targets (PROMO_WEBHOOK_ALLOW_PRIVATE=false, the default:
// an installation may host several projects), a target is refused when it
// is set if its host is a non-public address in any notation (see
// graph/targetaddr), a local name, or a name that does not resolve now or
// resolves to any non-public address; and each delivery checks the
// address it actually connects to (newWebhookClient), so a name that
// resolves differently later (DNS rebinding) is refused then.

type webhookPolicyKey struct{}

type webhookResolverKey struct{}

// Resolver resolves a target's host name (net.DefaultResolver by
// default; tests inject their own, the machine may have no DNS).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// WithWebhookTargetsDenyPrivate returns ctx in which webhook target URLs
// must not point at private or loopback addresses (the REST layer sets it
// on every request when configured).
func WithWebhookTargetsDenyPrivate(ctx context.Context) context.Context {
	return context.WithValue(ctx, webhookPolicyKey{}, true)
}

// WithWebhookResolver returns ctx in which target host names are resolved
// by r (nil keeps net.DefaultResolver).
func WithWebhookResolver(ctx context.Context, r Resolver) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, webhookResolverKey{}, r)
}

func denyPrivateTargets(ctx context.Context) bool {
	deny, _ := ctx.Value(webhookPolicyKey{}).(bool)
	return deny
}

func webhookResolver(ctx context.Context) Resolver {
	if r, ok := ctx.Value(webhookResolverKey{}).(Resolver); ok {
		return r
	}
	return net.DefaultResolver
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
	return checkPublicHost(ctx, u.Hostname(), bad)
}

// checkPublicHost refuses a host that is, names or resolves to a
// non-public address. A host with non-ASCII characters is first mapped as
// the HTTP client maps it (IDNA: "１２７．０．０．１" is 127.0.0.1).
func checkPublicHost(ctx context.Context, hostname string, bad func(string) error) error {
	private := bad("must not point at a private or loopback address")
	host := strings.ToLower(hostname)
	if !isASCII(host) {
		ascii, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return bad("must have a valid host name")
		}
		host = ascii
	}
	name := strings.TrimSuffix(host, ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") || strings.HasSuffix(name, ".internal") ||
		strings.HasSuffix(name, ".local") || strings.HasSuffix(name, ".home.arpa") {
		return private
	}
	ip, isAddr, err := targetaddr.ParseHost(host)
	if err != nil {
		return bad("must have a valid host: " + err.Error())
	}
	if isAddr {
		if !targetaddr.Public(ip) {
			return private
		}
		return nil
	}
	// A name must resolve now, and only to public addresses: a name that
	// does not resolve cannot be checked, so it is refused rather than
	// trusted (deliveries check again what they connect to).
	lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	addrs, err := webhookResolver(ctx).LookupNetIP(lctx, "ip", name)
	if err != nil || len(addrs) == 0 {
		return bad(fmt.Sprintf("host %q does not resolve; with private targets off (PROMO_WEBHOOK_ALLOW_PRIVATE=false) a target's name must resolve to public addresses when it is set", name))
	}
	for _, a := range addrs {
		if !targetaddr.Public(a) {
			return private
		}
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// PublicAddr reports whether ip is a public unicast address (not loopback,
// private, link-local, multicast, unspecified or otherwise reserved); see
// targetaddr.Public.
func PublicAddr(ip netip.Addr) bool { return targetaddr.Public(ip) }
