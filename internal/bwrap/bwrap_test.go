package bwrap

import (
	"os/exec"
	"strings"
	"testing"
)

// The base policy, run for real: what both the agent sandbox and the sandboxed
// browser rely on.
func TestPolicyConfines(t *testing.T) {
	bin, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatalf("bubblewrap is needed (scripts/install-deps.sh test installs it): %v", err)
	}
	t.Setenv("KODA_BWRAP_LEAK", "secret")
	script := `
echo "host=$(cat /proc/sys/kernel/hostname)"
echo "leak=${KODA_BWRAP_LEAK:-none}"
echo "home=$HOME extra=$EXTRA"
echo "pwd=$(pwd)"
touch /etc-write 2>/dev/null && echo root=writable || echo root=readonly
echo x > /tmp/t && echo tmp=writable
ls /sys/class/net 2>/dev/null | tr '\n' ' ' | sed 's/^/net=/'; echo
test -e /usr/local/bin && echo usrlocal=visible || echo usrlocal=hidden
test -x /usr/bin/sh && echo usr=visible
`
	p := Policy{Hostname: "probe", Env: []string{"EXTRA", "yes"}}
	out, err := exec.Command(bin, p.Args("/bin/sh", "-c", script)...).CombinedOutput()
	if err != nil {
		t.Fatalf("bwrap: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{"host=probe", "leak=none", "home=/tmp extra=yes", "pwd=/tmp", "root=readonly", "tmp=writable", "usrlocal=hidden", "usr=visible"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	// /sys is not mounted at all; the network namespace shows itself through /proc.
	dev, err := exec.Command(bin, p.Args("/bin/cat", "/proc/net/dev")...).CombinedOutput()
	if err != nil {
		t.Fatalf("bwrap cat: %v\n%s", err, dev)
	}
	for _, line := range strings.Split(string(dev), "\n")[2:] {
		if name, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && name != "lo" {
			t.Errorf("interface %q visible inside: the network is not unshared", name)
		}
	}
}

func TestPolicyArgsOrder(t *testing.T) {
	a := Policy{TmpBytes: 1 << 20, Mounts: []string{"--bind", "/x", "/work"}, Chdir: "/work", Env: []string{"HOME", "/work"}}.Args("cmd", "arg")
	s := strings.Join(a, " ")
	for _, want := range []string{"--size 1048576 --tmpfs /tmp", "--bind /x /work --remount-ro /", "--chdir /work", "--setenv HOME /work", "-- cmd arg"} {
		if !strings.Contains(s, want) {
			t.Errorf("want %q in %s", want, s)
		}
	}
	if strings.Contains(s, "HOME /tmp") {
		t.Errorf("HOME set twice: %s", s)
	}
	if a[len(a)-3] != "--" {
		t.Errorf("command not last: %s", s)
	}
}
