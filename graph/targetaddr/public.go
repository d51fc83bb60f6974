package targetaddr

import "net/netip"

// nonPublic4 are IPv4 ranges refused beyond the standard library's
// predicates: "this network", carrier-grade NAT, IETF protocol
// assignments, documentation, 6to4 relay anycast, benchmarking and the
// reserved block (with the broadcast address).
var nonPublic4 = prefixes(
	"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24",
	"198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4",
)

// nonPublic6 are ranges inside the global unicast block 2000::/3 that are
// not plain public addresses: IETF protocol assignments (Teredo, ORCHID,
// benchmarking), documentation, 6to4 (which embeds any IPv4 address) and
// SRv6 segment identifiers. Everything outside 2000::/3 (IPv4-compatible
// ::a.b.c.d, SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
// discard 100::/64, unique local, site-local, link-local, multicast) is
// refused by Public before this list is read.
var nonPublic6 = prefixes("2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20")

var global6 = netip.MustParsePrefix("2000::/3")

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Public reports whether ip is a public unicast address: not loopback,
// private, link-local, multicast, unspecified, CGNAT or otherwise
// reserved; an IPv4-mapped IPv6 address is judged as its IPv4 address and
// any other IPv6 address must be global unicast (2000::/3) outside the
// special-purpose blocks.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	list := nonPublic4
	if ip.Is6() {
		if !global6.Contains(ip) {
			return false
		}
		list = nonPublic6
	}
	for _, p := range list {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}
