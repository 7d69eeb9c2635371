package tools

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// hostAllowed reports whether host is on the allow list: an entry names a
// host ("docs.example.org", "127.0.0.1", "::1"), or with a leading "*." or
// "." the host and its subdomains. Case and a trailing dot do not matter.
func hostAllowed(allow []string, host string) bool {
	host = normHost(host)
	if host == "" {
		return false
	}
	for _, e := range allow {
		e = normHost(e)
		switch {
		case e == "":
		case strings.HasPrefix(e, "*.") || strings.HasPrefix(e, "."):
			base := strings.TrimPrefix(strings.TrimPrefix(e, "*"), ".")
			if host == base || strings.HasSuffix(host, "."+base) {
				return true
			}
		case host == e:
			return true
		}
	}
	return false
}

// normHost lowercases a host name and drops a trailing dot and IPv6
// brackets.
func normHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// reserved are the ranges no public host is on: "this network", shared
// (CGNAT, RFC 6598, private in all but name), IETF protocol assignments,
// the documentation and benchmarking ranges, the former class E, NAT64
// (which would reach any IPv4 address, private ones too, through a
// translator) and IPv6 documentation.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// blockedAddr reports whether a is an address web_fetch does not dial for
// a host that is not allowed: loopback, private, link-local, reserved,
// unspecified or multicast, in IPv4 or IPv6 (IPv4-mapped included), or
// one of this machine's own interface addresses.
func blockedAddr(a netip.Addr) bool {
	a = a.Unmap().WithZone("") // Prefix.Contains matches no zoned address; the kernel ignores a global one's zone
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() ||
		a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return true
	}
	for _, p := range reserved {
		if p.Contains(a) {
			return true
		}
	}
	return ownAddr(a)
}

// ownAddr reports whether a is an address of one of this machine's
// network interfaces (read each time: interfaces come and go); when they
// cannot be listed, every address counts as its own.
func ownAddr(a netip.Addr) bool {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true
	}
	return ownIn(addrs, a)
}

// ownIn reports whether a is one of the interface addresses addrs. A zone
// does not count: the kernel ignores it for a global address
// ([2001:db8::5%eth0] reaches 2001:db8::5).
func ownIn(addrs []net.Addr, a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	for _, ia := range addrs {
		if n, ok := ia.(*net.IPNet); ok {
			if own, ok := netip.AddrFromSlice(n.IP); ok && own.Unmap() == a {
				return true
			}
		}
	}
	return false
}

// guardedDial returns a DialContext that dials any address of a host
// that may be anywhere (openHost) and any other host only on a public
// address. The check runs on the address the socket is about to connect
// to (after DNS resolution), so a name that resolves, or re-resolves, to
// a private address is refused, an allowed name too.
func guardedDial(opt WebOptions) func(ctx context.Context, network, addr string) (net.Conn, error) {
	open := &net.Dialer{Timeout: 10 * time.Second}
	guarded := &net.Dialer{Timeout: 10 * time.Second, Control: refusePrivate}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("dial %q: %w", addr, err)
		}
		if openHost(opt, host) {
			return open.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
}

// openHost reports whether host may be dialled on a private, loopback or
// reserved address: an IP address [web] allow names (the user named the
// address itself), or a name [web] allow_private names (an allowed
// domain's DNS must not open loopback by itself).
func openHost(opt WebOptions, host string) bool {
	if _, err := netip.ParseAddr(normHost(host)); err == nil {
		return hostAllowed(opt.Allow, host)
	}
	return hostAllowed(opt.AllowPrivate, host)
}

// errPrivate is the refusal of a private address.
type errPrivate struct{ addr netip.Addr }

func (e errPrivate) Error() string {
	return fmt.Sprintf("refused to connect to %s: a loopback, link-local, private or reserved address, or this machine's own; add the address to [web] allow (or a host name to [web] allow_private) in the config to reach it", e.addr)
}

// refusePrivate is a net.Dialer Control that refuses blocked addresses.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dial %s %q: not an IP address and port", network, address)
	}
	if blockedAddr(ap.Addr()) {
		return errPrivate{addr: ap.Addr().Unmap()}
	}
	return nil
}
