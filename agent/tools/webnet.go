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

// sharedAddrs is the carrier-grade NAT range (RFC 6598), private in all
// but name; thisNet is "this network" (0.0.0.0/8).
var (
	sharedAddrs = netip.MustParsePrefix("100.64.0.0/10")
	thisNet     = netip.MustParsePrefix("0.0.0.0/8")
)

// blockedAddr reports whether a is an address web_fetch does not dial for
// a host that is not allowed: loopback, private, link-local, shared
// (CGNAT), unspecified or multicast, in IPv4 or IPv6 (IPv4-mapped
// included).
func blockedAddr(a netip.Addr) bool {
	a = a.Unmap()
	return !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() ||
		a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() ||
		a.IsUnspecified() || sharedAddrs.Contains(a) || thisNet.Contains(a)
}

// guardedDial returns a DialContext that dials an allowed host as it is
// and any other host only on a public address. The check runs on the
// address the socket is about to connect to (after DNS resolution), so a
// name that resolves, or re-resolves, to a private address is refused.
func guardedDial(allow []string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	open := &net.Dialer{Timeout: 10 * time.Second}
	guarded := &net.Dialer{Timeout: 10 * time.Second, Control: refusePrivate}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("dial %q: %w", addr, err)
		}
		if hostAllowed(allow, host) {
			return open.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
}

// errPrivate is the refusal of a private address.
type errPrivate struct{ addr netip.Addr }

func (e errPrivate) Error() string {
	return fmt.Sprintf("refused to connect to %s: a loopback, link-local or private address; add the host to [web] allow in the config to reach it", e.addr)
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
