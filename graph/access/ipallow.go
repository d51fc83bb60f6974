package access

import (
	"net/netip"

	"github.com/promoengine/promoengine/graph/apperr"
)

// maxAllowedIPs bounds a key's IP allow-list.
const maxAllowedIPs = 100

// normalizeAllowedIPs validates an IP allow-list (addresses such as
// 203.0.113.7 or 2001:db8::1, and CIDR prefixes such as 10.0.0.0/8) and
// returns it in canonical form. An empty list allows any address.
func normalizeAllowedIPs(entries []string) ([]string, error) {
	if len(entries) > maxAllowedIPs {
		return nil, apperr.InvalidPayload("Property .allowed_ips must have at most %d entries", maxAllowedIPs)
	}
	out := make([]string, 0, len(entries))
	for i, e := range entries {
		if p, err := netip.ParsePrefix(e); err == nil {
			out = append(out, p.Masked().String())
			continue
		}
		a, err := netip.ParseAddr(e)
		if err != nil || a.Zone() != "" {
			return nil, apperr.InvalidPayload("Property .allowed_ips[%d] must be an IP address or CIDR prefix, got %q", i, e)
		}
		out = append(out, a.Unmap().String())
	}
	return out, nil
}

// ipAllowed reports whether clientIP may use a key with the given
// allow-list. An empty list allows any address; an unparsable client
// address is refused when there is a list.
func ipAllowed(allowed []string, clientIP string) bool {
	if len(allowed) == 0 {
		return true
	}
	ip, err := netip.ParseAddr(clientIP)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, e := range allowed {
		if p, err := netip.ParsePrefix(e); err == nil {
			if p.Contains(ip) {
				return true
			}
		} else if a, err := netip.ParseAddr(e); err == nil && a.Unmap() == ip {
			return true
		}
	}
	return false
}

// ipNotAllowed is the error for a valid credential used from an address
// outside its key's allow-list.
func ipNotAllowed() *apperr.Error {
	return apperr.Forbidden("Requests from this IP address are not allowed for this key")
}
