package config

import (
	"net"
	"net/url"
	"strings"

	"github.com/tick-agent/tick/provider"
)

// PriceSource says where a model's price came from.
type PriceSource string

// The sources of a price.
const (
	PriceUnknown PriceSource = ""       // no price: the cost is not known
	PriceConfig  PriceSource = "config" // the user's [providers.NAME.prices]
	PriceTable   PriceSource = "table"  // tick's built-in list prices (an estimate)
	PriceLocal   PriceSource = "local"  // a self-hosted server: costs nothing
)

// PriceOf returns the price of model at the selected provider: the user
// file's [providers.NAME.prices."MODEL"] (a project file's prices are
// ignored like its keys), else nothing for a self-hosted server
// (PriceLocal: free), else unknown (the agent then tries its list prices,
// agent.PriceOf). A server that reports the cost itself (OpenRouter) is
// believed over all of these by the agent.
func (s *Settings) PriceOf(model string) (provider.Price, PriceSource) {
	if p, ok := provider.LookupPrice(s.Providers[s.Provider].Prices, model); ok && s.Provider != "" {
		return p, PriceConfig
	}
	if s.BaseURL != "" && !IsHosted(s.BaseURL) && IsLocalURL(s.BaseURL) {
		return provider.Price{}, PriceLocal
	}
	return provider.Price{}, PriceUnknown
}

// IsLocalURL reports whether base is a server on this machine or the
// local network: localhost, a loopback, private or link-local address, or
// a host name without a dot or under .local, .lan, .home.arpa or
// .internal. Such servers are self-hosted and cost nothing per token.
func IsLocalURL(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
	}
	if !strings.Contains(host, ".") {
		return true // localhost, a machine's name on the network
	}
	for _, suf := range []string{".localhost", ".local", ".lan", ".home.arpa", ".internal"} {
		if strings.HasSuffix(host, suf) {
			return true
		}
	}
	return false
}
