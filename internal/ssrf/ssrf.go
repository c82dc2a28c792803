// Package ssrf is Koda's one outbound address policy: every connection Koda makes on a
// tenant's behalf (webhooks today) goes through a Guard, which keeps it away from
// addresses a tenant must not reach through Koda: loopback, private networks,
// link-local addresses (where cloud metadata services live), and every IPv6 form that
// embeds or tunnels to one of them.
//
// A URL is checked twice: when it is submitted (its host is resolved and every address
// checked, for a clear error) and when a connection is made (the Guard's dialer
// resolves the name itself and checks the address it actually connects to, in the
// socket's Control hook, so DNS that changes its answer in between cannot slip
// through). Redirects are never followed and no proxy is used.
//
// Addresses are judged after normalisation: an IPv6 zone ("[::1%25lo]") is refused
// outright, because netip.Prefix.Contains is false for any zoned address and a public
// receiver never needs one; IPv4-mapped addresses are unmapped; numeric host spellings
// other than dotted decimal ("2130706433", "0x7f.1", "0177.0.0.1", "127.1") are
// refused, since C resolvers turn them into addresses Go's parser does not see.
package ssrf

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kodahq/koda"
)

// blocked lists the ranges no outbound connection may reach. Tunnelling and
// translation prefixes are blocked whole rather than decoded: a webhook receiver has
// no reason to live behind NAT64, 6to4 or Teredo, and decoding each scheme's embedded
// IPv4 address is one more thing to get wrong.
var blocked = mustPrefixes(
	"0.0.0.0/8",       // "this" network; 0.0.0.0 reaches the local host
	"10.0.0.0/8",      // private
	"100.64.0.0/10",   // carrier-grade NAT
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link-local, cloud metadata (169.254.169.254)
	"172.16.0.0/12",   // private
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation
	"192.88.99.0/24",  // 6to4 relay anycast
	"192.168.0.0/16",  // private
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, broadcast
	"::/96",           // unspecified, loopback and IPv4-compatible (::127.0.0.1)
	"::ffff:0:0:0/96", // SIIT IPv4-translated (::ffff:0:a.b.c.d)
	"64:ff9b::/96",    // NAT64 well-known prefix: embeds any IPv4 address
	"64:ff9b:1::/48",  // NAT64 local-use prefixes
	"100::/64",        // discard
	"2001::/23",       // IETF protocol assignments: Teredo (2001::/32), ORCHID, benchmarking
	"2001:db8::/32",   // documentation
	"2002::/16",       // 6to4: embeds any IPv4 address
	"3fff::/20",       // documentation
	"5f00::/16",       // segment routing SIDs
	"fc00::/7",        // unique local (private); includes fd00:ec2::254 metadata
	"fe80::/10",       // link-local
	"fec0::/10",       // deprecated site-local
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
	// Replies from such an address are not shown to tenants (see Client).
	Allow []netip.Prefix
	// Resolver resolves host names, at submission and at connection time; nil means
	// net.DefaultResolver.
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
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", part)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// Public reports whether addr is an ordinary public unicast address, outside every
// blocked range. A zoned address is never public.
func Public(addr netip.Addr) bool {
	if !addr.IsValid() || addr.Zone() != "" {
		return false
	}
	addr = addr.Unmap()
	for _, p := range blocked {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// Allowed reports whether a connection to addr is permitted: it is public, or listed
// in Allow. A zoned address is never permitted, whatever Allow says.
func (g *Guard) Allowed(addr netip.Addr) bool {
	if !addr.IsValid() || addr.Zone() != "" {
		return false
	}
	addr = addr.Unmap()
	if g != nil {
		for _, p := range g.Allow {
			if p.Contains(addr) {
				return true
			}
		}
	}
	return Public(addr)
}

func forbidden(format string, args ...any) error {
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeCallbackForbidden, format, args...)
}

func invalid(format string, args ...any) error {
	return koda.Errorf(koda.EINVALID, koda.CodeInvalidCallback, format, args...)
}

// CheckURL refuses a URL that is not absolute http(s) or whose host is, or resolves
// to, a forbidden address. Resolution failures are refused too: a callback URL must
// resolve when it is submitted.
func (g *Guard) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return invalid("callback_url must be an absolute http or https URL")
	}
	if u.User != nil {
		return invalid("callback_url must not carry credentials")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return invalid("callback_url port %q is not a port number", p)
		}
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return forbidden("callback_url names the address %s with a zone; zoned (link-local) addresses are never reachable", a)
		}
		if !g.Allowed(a) {
			return forbidden("callback_url points at %s, a loopback, private, link-local or reserved address", a)
		}
		return nil
	}
	if strings.ContainsAny(host, "%[]") {
		return invalid("callback_url host %q is not a valid host name", host)
	}
	if a, ok := numericIPv4(host); ok {
		return invalid("callback_url host %q spells the address %s in a non-standard form; write it as dotted decimal", host, a)
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		if !g.Allowed(netip.MustParseAddr("127.0.0.1")) {
			return forbidden("callback_url host %q is the local host", host)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := g.resolver().LookupNetIP(ctx, "ip", host)
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

func (g *Guard) resolver() Resolver {
	if g != nil && g.Resolver != nil {
		return g.Resolver
	}
	return net.DefaultResolver
}

// numericIPv4 parses host as the C library's inet_aton does: one to four parts, each
// decimal, octal (leading 0) or hexadecimal (0x), the last filling the remaining
// bytes. It reports false for dotted decimal, which every parser reads alike.
func numericIPv4(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(host, ".")
	if _, err := netip.ParseAddr(host); err == nil || host == "" {
		return netip.Addr{}, false
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 0xff {
			return netip.Addr{}, false
		}
		n |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// Control is a net.Dialer Control function refusing forbidden addresses; it sees the
// address actually dialled, after resolution, just before connect.
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

// DialContext resolves addr's host with the Guard's resolver and connects to the first
// permitted address, each connection checked again in Control. Numeric hosts in
// non-standard spellings are refused rather than resolved.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		if a, ok := numericIPv4(host); ok {
			return nil, &BlockedError{Addr: a}
		}
		if addrs, err = g.resolver().LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		}
	}
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.Control}
	var errs []error
	for _, a := range addrs {
		if !g.Allowed(a) {
			errs = append(errs, &BlockedError{Addr: a.Unmap()})
			continue
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !Public(a) {
			c = &privateConn{Conn: c}
		}
		return c, nil
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("%s has no addresses", host)
	}
	return nil, errors.Join(errs...)
}

// privateConn marks a connection to an allow-listed private address: what such a
// server answers must not reach the tenant.
type privateConn struct{ net.Conn }

// Client returns an HTTP client whose connections pass the guard, that never follows
// redirects and never uses a proxy (a proxy would hide the final address). A reply
// that came over a connection to an allow-listed private address keeps its status but
// loses its body, so the first bytes of an internal service never reach a tenant
// through a delivery's last error.
func (g *Guard) Client() *http.Client {
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            g.DialContext,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport:     &bodyGuard{next: tr},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// bodyGuard drops the body of replies from private (allow-listed) servers.
type bodyGuard struct{ next http.RoundTripper }

func (b *bodyGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	private := false
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		c := info.Conn
		if tc, ok := c.(*tls.Conn); ok {
			c = tc.NetConn()
		}
		_, private = c.(*privateConn)
	}}
	resp, err := b.next.RoundTrip(req.WithContext(httptrace.WithClientTrace(req.Context(), trace)))
	if err != nil || !private {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = http.NoBody
	resp.ContentLength = 0
	return resp, nil
}
