// Package targetaddr decides whether a URL host names a public address: it
// reads every numeric form of an address that resolvers, browsers and curl
// accept (inet_aton's "127.1", "2130706433", "0x7f000001", "0177.0.0.1",
// trailing dots, IPv6 with embedded or mapped IPv4) and knows the ranges
// that are not public (loopback, private, link-local, CGNAT, multicast,
// reserved, documentation, NAT64/6to4/Teredo and other translation
// prefixes). It is pure: no DNS, no ent, no HTTP.
package targetaddr

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// ErrBadNumericHost is returned for a host whose last label is a number but
// that is not a valid IPv4 address in any form (e.g. "1.2.3.4.5", "foo.1",
// "256.1.1.1"), or that is malformed around an address (unbalanced
// brackets, two trailing dots): browsers refuse such hosts and resolvers
// disagree on them.
var ErrBadNumericHost = errors.New("host ends in a number but is not a valid address")

// ParseHost returns the address a URL host denotes when it is an address
// in any accepted notation: IPv6 (with or without brackets and zone) or
// IPv4 in the forms of inet_aton and the WHATWG URL parser (1 to 4 parts,
// each decimal, octal with a leading 0 or hexadecimal with 0x, the last
// part filling the remaining bytes, one trailing dot allowed). ok is false
// for a name. host must already be lower-cased ASCII.
func ParseHost(host string) (addr netip.Addr, ok bool, err error) {
	h := host
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return netip.Addr{}, false, ErrBadNumericHost
		}
		h = h[1 : len(h)-1]
	}
	if strings.Contains(h, ":") {
		a, err := netip.ParseAddr(h)
		if err != nil {
			return netip.Addr{}, false, ErrBadNumericHost
		}
		return a.WithZone(""), true, nil
	}
	parts := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		return netip.Addr{}, false, ErrBadNumericHost // "a.b.." and other empty last labels
	}
	if !numericPart(parts[len(parts)-1]) {
		return netip.Addr{}, false, nil
	}
	a, err := parseIPv4(parts)
	if err != nil {
		return netip.Addr{}, false, err
	}
	return a, true, nil
}

// numericPart reports whether a label reads as a number (the WHATWG
// "ends in a number" test): all decimal digits, or 0x followed by hex.
func numericPart(p string) bool {
	if p == "" {
		return false
	}
	if strings.HasPrefix(p, "0x") {
		for _, r := range p[2:] {
			if !strings.ContainsRune("0123456789abcdef", r) {
				return false
			}
		}
		return true
	}
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func parseIPv4(parts []string) (netip.Addr, error) {
	if len(parts) > 4 {
		return netip.Addr{}, ErrBadNumericHost
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := parseIPv4Part(p)
		if err != nil {
			return netip.Addr{}, ErrBadNumericHost
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, ErrBadNumericHost
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, ErrBadNumericHost
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

func parseIPv4Part(p string) (uint64, error) {
	switch {
	case p == "":
		return 0, ErrBadNumericHost
	case strings.HasPrefix(p, "0x"):
		if p == "0x" {
			return 0, nil
		}
		return strconv.ParseUint(p[2:], 16, 64)
	case len(p) > 1 && p[0] == '0':
		return strconv.ParseUint(p[1:], 8, 64)
	default:
		return strconv.ParseUint(p, 10, 64)
	}
}
