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
