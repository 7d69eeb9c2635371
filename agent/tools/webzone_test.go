package tools

import (
	"net"
	"net/netip"
	"testing"
)

// TestOwnAddrIgnoresZone: a URL may give an IPv6 address a zone
// (http://[2001:4860::5%25eth0]/); the kernel ignores the zone of a
// global address and connects to it, so the machine's own global IPv6
// address with any zone is still its own. Comparing with the zone kept
// let web_fetch reach a service on the machine's own global IPv6 address
// with no approval (only where the machine has one: a ULA or link-local
// address is refused as private whatever its zone).
func TestOwnAddrIgnoresZone(t *testing.T) {
	own := netip.MustParseAddr("2001:4860:4860::5")
	addrs := []net.Addr{&net.IPNet{IP: own.AsSlice(), Mask: net.CIDRMask(64, 128)}}
	for _, a := range []netip.Addr{own, own.WithZone("eth0"), own.WithZone("1")} {
		if !ownIn(addrs, a) {
			t.Errorf("ownIn(%s) = false for the machine's own address", a)
		}
	}
	if ownIn(addrs, netip.MustParseAddr("2001:4860:4860::6%eth0")) {
		t.Error("another address counts as the machine's own")
	}
}

// TestBlockedAddrIgnoresZone: netip.Prefix.Contains never matches an
// address with a zone, so http://[64:ff9b::c0a8:101%25eth0]/ (through a
// NAT64 translator: 192.168.1.1) and the other reserved IPv6 ranges with
// a zone were dialled.
func TestBlockedAddrIgnoresZone(t *testing.T) {
	for _, s := range []string{"64:ff9b::c0a8:101%eth0", "64:ff9b::7f00:1%1", "64:ff9b:1::a00:1%lo", "2001:db8::1%eth0", "::ffff:127.0.0.1%eth0", "fd00::2%eth0", "fe80::1%eth0", "::1%lo"} {
		if a := netip.MustParseAddr(s); !blockedAddr(a) {
			t.Errorf("blockedAddr(%s) = false", s)
		}
	}
}
