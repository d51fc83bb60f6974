// Package origin decides which browser origins a project trusts: the forms
// a trusted domain may take, their normal form, and matching an Origin
// header against them. It knows nothing of projects, keys or HTTP.
//
// A trusted domain is one of:
//   - "https://shop.example.com" or "http://localhost:3000": that origin
//     exactly (scheme, host and port);
//   - "shop.example.com": that host over http or https, on any port;
//     "shop.example.com:8443": that host and port over http or https;
//   - "*.example.com" or "https://*.example.com": any subdomain of
//     example.com (not example.com itself), over any or the given scheme;
//   - "*": any origin (for development; a browser can then call the client
//     API from any page).
package origin

import (
	"fmt"
	"net/url"
	"strings"
)

// Limits on a project's trusted domains.
const (
	MaxDomains      = 100
	MaxDomainLength = 255
)

// Normalize checks trusted domains and returns them in normal form
// (lower case, no trailing slash, duplicates removed, order kept). An error
// names the first invalid entry.
func Normalize(domains []string) ([]string, error) {
	if len(domains) > MaxDomains {
		return nil, fmt.Errorf("at most %d trusted domains are allowed", MaxDomains)
	}
	out := make([]string, 0, len(domains))
	seen := map[string]bool{}
	for _, d := range domains {
		n, err := normalizeOne(d)
		if err != nil {
			return nil, err
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func normalizeOne(raw string) (string, error) {
	d := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(raw), "/"))
	if d == "" || len(d) > MaxDomainLength {
		return "", fmt.Errorf("trusted domain %q must be 1 to %d characters", raw, MaxDomainLength)
	}
	if d == "*" {
		return d, nil
	}
	scheme, host, hasScheme := strings.Cut(d, "://")
	if !hasScheme {
		scheme, host = "", d
	} else if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("trusted domain %q: the scheme must be http or https", raw)
	}
	pattern := strings.TrimPrefix(host, "*.")
	u, err := url.Parse("http://" + pattern)
	if err != nil || u.Host != pattern || u.Hostname() == "" || strings.Contains(u.Hostname(), "*") {
		return "", fmt.Errorf("trusted domain %q is not an origin (scheme://host[:port]), a host or a *.host pattern", raw)
	}
	return d, nil
}

// Trusted reports whether the Origin header value origin matches one of
// the normalized trusted domains. An empty, "null" or malformed origin is
// never trusted, except by "*".
func Trusted(domains []string, origin string) bool {
	scheme, host, ok := parseOrigin(origin)
	for _, d := range domains {
		if d == "*" && origin != "" {
			return true
		}
		if ok && matches(d, scheme, host) {
			return true
		}
	}
	return false
}

// parseOrigin splits an Origin header ("https://host[:port]") into its
// lower-case scheme and host[:port].
func parseOrigin(origin string) (scheme, host string, ok bool) {
	u, err := url.Parse(strings.ToLower(origin))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return "", "", false
	}
	return u.Scheme, u.Host, true
}

func matches(domain, scheme, host string) bool {
	s, rest, hasScheme := strings.Cut(domain, "://")
	if hasScheme {
		if s != scheme {
			return false
		}
		domain = rest
	}
	if suffix, wildcard := strings.CutPrefix(domain, "*"); wildcard {
		// suffix is ".example.com[:port]": a subdomain, same port if given.
		name, port := splitPort(host)
		dname, dport := splitPort(suffix)
		return strings.HasSuffix(name, dname) && len(name) > len(dname) && (dport == "" || dport == port)
	}
	if hasScheme || strings.Contains(domain, ":") {
		return domain == host // an origin: exactly this host and port
	}
	name, _ := splitPort(host)
	return domain == name || domain == host
}

// splitPort splits "host:port" (the port may be absent).
func splitPort(hostport string) (host, port string) {
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.Contains(hostport[i:], "]") {
		return hostport[:i], hostport[i+1:]
	}
	return hostport, ""
}
