package targetaddr

import (
	"errors"
	"net/netip"
	"testing"
)

func TestParseHostReadsEveryNumericForm(t *testing.T) {
	for host, want := range map[string]string{
		"127.0.0.1": "127.0.0.1", "127.0.0.1.": "127.0.0.1", "127.1": "127.0.0.1", "127.0.1": "127.0.0.1",
		"2130706433": "127.0.0.1", "0x7f000001": "127.0.0.1", "0x7f.1": "127.0.0.1", "0177.0.0.1": "127.0.0.1",
		"0177.1": "127.0.0.1", "017700000001": "127.0.0.1", "0x7f.0x0.0x0.0x1": "127.0.0.1", "0": "0.0.0.0",
		"0x": "0.0.0.0", "10.0x10.1": "10.16.0.1", "169.254.43518": "169.254.169.254", "3232235777": "192.168.1.1",
		"::1": "::1", "[::1]": "::1", "[::ffff:127.0.0.1]": "::ffff:127.0.0.1", "[::ffff:7f00:1]": "::ffff:127.0.0.1",
		"::127.0.0.1": "::127.0.0.1", "[fe80::1%eth0]": "fe80::1", "64:ff9b::10.0.0.1": "64:ff9b::a00:1",
		"93.184.216.34": "93.184.216.34",
	} {
		got, ok, err := ParseHost(host)
		if err != nil || !ok || got != netip.MustParseAddr(want) {
			t.Errorf("ParseHost(%q) = %v, %v, %v; want %s", host, got, ok, err, want)
		}
	}
	for _, name := range []string{"example.com", "hooks.example.com.", "localhost", "1.example", "0x7f.example", "a0x1"} {
		if _, ok, err := ParseHost(name); ok || err != nil {
			t.Errorf("ParseHost(%q) = %v, %v; want a name", name, ok, err)
		}
	}
	for _, bad := range []string{"1.2.3.4.5", "256.1.1.1", "1.256.1.1", "127.16777216", "4294967296", "0x100000000",
		"08.0.0.1", "1..1", "example.123", "foo.0x1", "[::1", ":::1", "1.2.3.4..", "99999999999999999999999"} {
		if _, ok, err := ParseHost(bad); ok || !errors.Is(err, ErrBadNumericHost) {
			t.Errorf("ParseHost(%q) = %v, %v; want ErrBadNumericHost", bad, ok, err)
		}
	}
}

func TestPublic(t *testing.T) {
	for addr, public := range map[string]bool{
		"93.184.216.34": true, "8.8.8.8": true, "2606:2800:220:1:248:1893:25c8:1946": true, "2a00:1450:4001::1": true,
		"127.0.0.1": false, "127.255.0.9": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "0.0.0.0": false, "0.1.2.3": false, "100.64.0.1": false, "100.127.255.254": false,
		"192.0.0.8": false, "192.0.2.1": false, "198.18.0.1": false, "198.51.100.7": false, "203.0.113.9": false,
		"224.0.0.1": false, "239.255.255.250": false, "240.0.0.1": false, "255.255.255.255": false, "192.88.99.1": false,
		"::": false, "::1": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "::ffff:93.184.216.34": true,
		"::127.0.0.1": false, "::10.0.0.1": false, "::ffff:0:7f00:1": false, "64:ff9b::7f00:1": false,
		"64:ff9b::5db8:d822": false, "64:ff9b:1::a00:1": false, "100::1": false, "fc00::1": false, "fd12:3456::1": false,
		"fe80::1": false, "fec0::1": false, "ff02::1": false, "2001::1": false, "2001:db8::1": false,
		"2002:7f00:1::": false, "2002:5db8:d822::1": false, "3fff::1": false, "fe80::1%eth0": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != public {
			t.Errorf("Public(%s) = %v, want %v", addr, got, public)
		}
	}
}
