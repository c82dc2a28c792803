// Package ssrf keeps Koda's outgoing requests (webhooks) away from addresses a
// customer must not reach through it: loopback, private networks, link-local
// addresses (where cloud metadata services live) and other special ranges.
//
// A URL is checked twice: when it is submitted (its host is resolved and every address
// checked, for a clear error) and when a connection is made (the dialer checks the
// address it actually connects to, so DNS that changes its answer in between, or a
// redirect, cannot slip through). Redirects are never followed.
package ssrf

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/kodahq/koda"
)

// blocked lists the ranges no webhook may reach.
var blocked = mustPrefixes(
	"0.0.0.0/8",       // "this" network; 0.0.0.0 reaches the local host
	"10.0.0.0/8",      // private
	"100.64.0.0/10",   // carrier-grade NAT
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link-local, cloud metadata (169.254.169.254)
	"172.16.0.0/12",   // private
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation
	"192.168.0.0/16",  // private
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, broadcast
	"::/128",          // unspecified
	"::1/128",         // loopback
	"64:ff9b::/96",    // NAT64 can embed any IPv4 address
	"100::/64",        // discard
	"2001:db8::/32",   // documentation
	"fc00::/7",        // unique local (private); includes fd00:ec2::254 metadata
	"fe80::/10",       // link-local
	"ff00::/8",        // multicast
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard decides which addresses outgoing requests may reach.
type Guard struct {
	// Allow lists prefixes reachable even though blocked (local development, tests).
	Allow []netip.Prefix
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver Resolver
}

// ParseAllow reads a comma-separated allow-list of CIDR prefixes or single addresses
// ("127.0.0.1/32,10.1.2.3").
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", part)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// Allowed reports whether a connection to addr is permitted.
func (g *Guard) Allowed(addr netip.Addr) bool {
	addr = addr.Unmap()
	if g != nil {
		for _, p := range g.Allow {
			if p.Contains(addr) {
				return true
			}
		}
	}
	if !addr.IsValid() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

func forbidden(format string, args ...any) error {
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeCallbackForbidden, format, args...)
}

// CheckURL refuses a URL that is not absolute http(s) or whose host is, or resolves
// to, a forbidden address. Resolution failures are refused too: a callback URL must
// resolve when it is submitted.
func (g *Guard) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidCallback, "callback_url must be an absolute http or https URL")
	}
	if u.User != nil {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidCallback, "callback_url must not carry credentials")
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if !g.Allowed(a) {
			return forbidden("callback_url points at %s, a loopback, private, link-local or reserved address", a)
		}
		return nil
	}
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") || strings.HasSuffix(strings.ToLower(strings.TrimSuffix(host, ".")), ".localhost") {
		if !g.Allowed(netip.MustParseAddr("127.0.0.1")) {
			return forbidden("callback_url host %q is the local host", host)
		}
	}
	var r Resolver = net.DefaultResolver
	if g != nil && g.Resolver != nil {
		r = g.Resolver
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeInvalidCallback, "callback_url host %q does not resolve", host)
	}
	for _, a := range addrs {
		if !g.Allowed(a) {
			return forbidden("callback_url host %q resolves to %s, a loopback, private, link-local or reserved address", host, a.Unmap())
		}
	}
	return nil
}

// Control is a net.Dialer Control function refusing forbidden addresses; it sees the
// address actually dialled, after resolution.
func (g *Guard) Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("ssrf: unexpected dial address %q: %w", address, err)
	}
	if !g.Allowed(ap.Addr()) {
		return &BlockedError{Addr: ap.Addr().Unmap()}
	}
	return nil
}

// BlockedError is the dial error for a forbidden address.
type BlockedError struct{ Addr netip.Addr }

func (e *BlockedError) Error() string {
	return fmt.Sprintf("connection to %s refused: loopback, private, link-local or reserved address", e.Addr)
}

// Client returns an HTTP client whose connections pass the guard, that never follows
// redirects and never uses a proxy (a proxy would hide the final address).
func (g *Guard) Client() *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.Control}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
