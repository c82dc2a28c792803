package ssrf

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/kodahq/koda"
)

type fakeDNS map[string][]netip.Addr

func (f fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func TestCheckURLRefusesInternalAddresses(t *testing.T) {
	g := &Guard{Resolver: fakeDNS{
		"rebind.example":  {netip.MustParseAddr("203.0.114.9"), netip.MustParseAddr("127.0.0.1")},
		"public.example":  {netip.MustParseAddr("93.184.216.34")},
		"private.example": {netip.MustParseAddr("10.1.2.3")},
		"zoned.example":   {netip.MustParseAddr("fe80::1%eth0")},
		"mapped.example":  {netip.MustParseAddr("::ffff:127.0.0.1")},
	}}
	ctx := context.Background()
	for _, u := range append([]string{
		"http://localhost:8080/", "http://LocalHost./", "http://a.b.localhost/",
		"http://rebind.example/", "http://private.example/", "http://unresolvable.example/",
		"http://zoned.example/", "http://mapped.example/",
	}, internalURLs...) {
		if err := g.CheckURL(ctx, u); err == nil || koda.ErrorKind(err) == koda.EINTERNAL {
			t.Errorf("%s accepted (%v)", u, err)
		}
	}
	for _, u := range []string{"https://public.example/hook", "http://93.184.216.34:8080/x"} {
		if err := g.CheckURL(ctx, u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	allowed := &Guard{Allow: mustPrefixes("127.0.0.0/8")}
	if err := allowed.CheckURL(ctx, "http://127.0.0.1:9/"); err != nil {
		t.Errorf("allow-listed loopback refused: %v", err)
	}
	if err := allowed.CheckURL(ctx, "http://10.0.0.1/"); err == nil {
		t.Error("the allow-list opened more than it lists")
	}
}

// TestClientRefusesAtConnectTime checks the delivery side: a connection to loopback is
// refused by the dialer whatever the URL said, and a redirect towards loopback from an
// allowed server is not followed.
func TestClientRefusesAtConnectTime(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the loopback receiver was reached")
	}))
	defer target.Close()
	// 127.0.0.2 stands for an allowed public server: it redirects to the loopback one.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	redirector := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.RedirectHandler(target.URL+"/steal", http.StatusFound)}}
	redirector.Start()
	defer redirector.Close()

	g := &Guard{Allow: mustPrefixes("127.0.0.2/32")}
	c := g.Client()
	_, err = c.Post(target.URL, "application/json", nil)
	var blocked *BlockedError
	if !errors.As(err, &blocked) || blocked.Addr != netip.MustParseAddr("127.0.0.1") {
		t.Fatalf("direct loopback: %v, want a BlockedError", err)
	}
	resp, err := c.Post(redirector.URL, "application/json", nil)
	if err != nil {
		t.Fatalf("allowed server: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("redirect was followed: %d", resp.StatusCode)
	}
}

// internalURLs spell loopback, private and metadata addresses every way a URL can:
// zones, IPv4 embedded in IPv6 (mapped, compatible, NAT64, 6to4, Teredo), the
// unspecified address, and the numeric spellings C resolvers accept.
var internalURLs = []string{
	"http://127.0.0.1/", "http://127.0.0.1.:80/", "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/",
	"http://100.64.0.1/", "http://192.168.1.1/", "http://172.16.0.1/", "http://0.0.0.0:18999/", "http://255.255.255.255/",
	"http://[::1]/", "http://[::]:18999/", "http://[::1%25lo]:18999/hook", "http://[::1%25eth0]/", "http://[fe80::1%25lo]/",
	"http://[fe80::1]/", "http://[fd00:ec2::254]/", "http://[fc00::1]/", "http://[fec0::1]/", "http://[ff02::1]/",
	"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:10.0.0.1]/", "http://[::ffff:169.254.169.254]/",
	"http://[::127.0.0.1]/", "http://[::7f00:1]/", "http://[::ffff:0:127.0.0.1]/",
	"http://[64:ff9b::127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b:1::a00:1]/",
	"http://[2002:7f00:1::]/", "http://[2002:a9fe:a9fe::1]/", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
	"http://[2001:db8::1]/", "http://[100::1]/",
	"http://2130706433/", "http://0x7f000001/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/", "http://127.0.1/",
	"http://017700000001/", "http://0/", "http://0x0/", "http://3232235777/", "http://2852039166/",
}

func TestNumericIPv4(t *testing.T) {
	for host, want := range map[string]string{
		"2130706433": "127.0.0.1", "0x7f000001": "127.0.0.1", "0x7f.1": "127.0.0.1", "0177.0.0.1": "127.0.0.1",
		"127.1": "127.0.0.1", "127.0.1": "127.0.0.1", "017700000001": "127.0.0.1", "0": "0.0.0.0", "10.1": "10.0.0.1",
		"3232235777": "192.168.1.1", "0xa9.0xfe.0xa9.0xfe": "169.254.169.254",
	} {
		got, ok := numericIPv4(host)
		if !ok || got.String() != want {
			t.Errorf("numericIPv4(%q) = %v %v, want %s", host, got, ok, want)
		}
	}
	for _, host := range []string{"127.0.0.1", "example.com", "deadbeef.cafe", "1.2.3.4.5", "256.1.1.1", "0x1g", "cafe", "08.1.1.1", "4294967296"} {
		if got, ok := numericIPv4(host); ok {
			t.Errorf("numericIPv4(%q) = %v, want not numeric", host, got)
		}
	}
}

func TestAllowedNeverTakesZones(t *testing.T) {
	g := &Guard{Allow: mustPrefixes("::1/128", "fe80::/10", "127.0.0.0/8")}
	for _, a := range []string{"::1%lo", "fe80::1%eth0", "::ffff:127.0.0.1%lo"} {
		if g.Allowed(netip.MustParseAddr(a)) {
			t.Errorf("%s allowed", a)
		}
	}
	if !g.Allowed(netip.MustParseAddr("::1")) || !g.Allowed(netip.MustParseAddr("::ffff:127.0.0.1")) {
		t.Error("the allow-list no longer works")
	}
	for _, a := range []string{"93.184.216.34", "2606:4700::1111", "2001:4860:4860::8888"} {
		if !Public(netip.MustParseAddr(a)) {
			t.Errorf("public address %s blocked", a)
		}
	}
}

// recorder is a listener that counts the connections it accepts.
type recorder struct {
	ln    net.Listener
	conns atomic.Int32
}

func listen(t *testing.T, network, addr string) *recorder {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	r := &recorder{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.conns.Add(1)
			// Reply only after the request is read: a reply to a request not yet read,
			// then a close, resets the connection before the client sees the reply.
			_, _ = http.ReadRequest(bufio.NewReader(c))
			_, _ = c.Write([]byte("HTTP/1.1 500 Internal\r\nContent-Length: 12\r\n\r\nINTERNAL-SEC"))
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return r
}

// TestDialRefusesEverySpelling connects (through the client, as deliveries do) to
// listeners on the host's loopback with every spelling of their address, and to a name
// whose DNS answer changes between the check and the connection: no connection is
// ever accepted.
func TestDialRefusesEverySpelling(t *testing.T) {
	v4 := listen(t, "tcp4", "127.0.0.1:0")
	v6 := listen(t, "tcp6", "[::1]:0")
	p4 := strconv.Itoa(v4.ln.Addr().(*net.TCPAddr).Port)
	p6 := strconv.Itoa(v6.ln.Addr().(*net.TCPAddr).Port)
	calls := 0
	rebind := resolverFunc(func(host string) []netip.Addr {
		calls++
		if host == "rebind.example" && calls == 1 {
			return []netip.Addr{netip.MustParseAddr("93.184.216.34")}
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	})
	g := &Guard{Resolver: rebind}
	if err := g.CheckURL(context.Background(), "http://rebind.example:"+p4+"/"); err != nil {
		t.Fatalf("first answer public, yet refused at submission: %v", err)
	}
	c := g.Client()
	for _, u := range []string{
		"http://rebind.example:" + p4 + "/", "http://127.0.0.1:" + p4 + "/", "http://127.1:" + p4 + "/",
		"http://2130706433:" + p4 + "/", "http://0x7f000001:" + p4 + "/", "http://0177.0.0.1:" + p4 + "/",
		"http://0.0.0.0:" + p4 + "/", "http://[::ffff:127.0.0.1]:" + p4 + "/", "http://localhost:" + p4 + "/",
		"http://[::1]:" + p6 + "/", "http://[::1%25lo]:" + p6 + "/", "http://[::]:" + p6 + "/",
	} {
		resp, err := c.Post(u, "application/json", nil)
		if err == nil {
			resp.Body.Close()
			t.Errorf("%s: connected (%d)", u, resp.StatusCode)
		}
	}
	if n := v4.conns.Load() + v6.conns.Load(); n != 0 {
		t.Fatalf("the loopback listeners accepted %d connections", n)
	}
}

type resolverFunc func(host string) []netip.Addr

func (f resolverFunc) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return f(host), nil
}

// TestPrivateRepliesLoseTheirBody: an allow-listed private receiver's answer keeps its
// status but none of its bytes.
func TestPrivateRepliesLoseTheirBody(t *testing.T) {
	r := listen(t, "tcp4", "127.0.0.1:0")
	g := &Guard{Allow: mustPrefixes("127.0.0.0/8")}
	resp, err := g.Client().Post("http://"+r.ln.Addr().String()+"/", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || len(b) != 0 {
		t.Fatalf("status %d body %q", resp.StatusCode, b)
	}
}

func TestParseAllow(t *testing.T) {
	p, err := ParseAllow("127.0.0.0/8, 10.1.2.3 ,::1")
	if err != nil || len(p) != 3 || p[1].Bits() != 32 {
		t.Fatalf("%v %v", p, err)
	}
	if _, err := ParseAllow("nope"); err == nil {
		t.Error("garbage accepted")
	}
}
