package ssrf

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
	}}
	ctx := context.Background()
	for _, u := range []string{
		"http://127.0.0.1/", "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://localhost:8080/",
		"http://[::1]/", "http://[fe80::1]/", "http://[::ffff:10.0.0.1]/", "http://0.0.0.0/", "http://100.64.0.1/",
		"http://rebind.example/", "http://private.example/", "http://unresolvable.example/",
	} {
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

func TestParseAllow(t *testing.T) {
	p, err := ParseAllow("127.0.0.0/8, 10.1.2.3 ,::1")
	if err != nil || len(p) != 3 || p[1].Bits() != 32 {
		t.Fatalf("%v %v", p, err)
	}
	if _, err := ParseAllow("nope"); err == nil {
		t.Error("garbage accepted")
	}
}
