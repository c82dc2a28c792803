// Package bwrap is Koda's one bubblewrap policy. Agent sandboxes (sandbox/local) and
// sandboxed browsers (renderer) run untrusted code the same way; a hardening added to
// one and forgotten in the other would be a hole, so both build their argv here and
// add only what differs: their own mounts, environment and command.
package bwrap

import "strconv"

// Policy describes one confined command. Everything not named here is the base
// policy: every namespace unshared (network included) with no way to make user
// namespaces inside, all capabilities dropped, a new session (no TIOCSTI into the
// caller's terminal), death with the parent, read-only /usr (without /usr/local) and
// the merged-/usr symlinks, private /proc, /dev and /tmp, a read-only root, and a
// cleared environment.
type Policy struct {
	// Hostname inside the UTS namespace.
	Hostname string
	// TmpBytes caps the private /tmp; 0 leaves it at tmpfs's default.
	TmpBytes int64
	// Mounts are extra bwrap mount arguments ("--ro-bind-try", "/etc/fonts", "/etc/fonts"),
	// applied after the base mounts and before the root is made read-only.
	Mounts []string
	// Chdir is the working folder inside; default /tmp.
	Chdir string
	// Env is set after the environment is cleared, as name, value pairs; PATH defaults
	// to /usr/bin:/bin, HOME to /tmp, TMPDIR is /tmp and LANG is C.UTF-8.
	Env []string
	// Extra are bwrap options placed just before the command (e.g. "--info-fd", "5").
	Extra []string
}

// Args returns bwrap's arguments for running command under p.
func (p Policy) Args(command ...string) []string {
	argv := []string{
		"--unshare-all", "--unshare-user", "--disable-userns",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--ro-bind", "/usr", "/usr",
		// /usr/local holds what the host's admin installed by hand (here: Go, Postgres,
		// terraform, the service's own tools); sandboxes need none of it (node, npm,
		// ffmpeg, chromium and the build tools are Debian's, under /usr/bin and
		// /usr/lib), so it is an empty read-only folder inside (issue 26).
		"--tmpfs", "/usr/local", "--remount-ro", "/usr/local",
		"--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
		"--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
		"--proc", "/proc", "--dev", "/dev",
	}
	if p.TmpBytes > 0 {
		argv = append(argv, "--size", strconv.FormatInt(p.TmpBytes, 10))
	}
	argv = append(argv, "--tmpfs", "/tmp")
	argv = append(argv, p.Mounts...)
	chdir := p.Chdir
	if chdir == "" {
		chdir = "/tmp"
	}
	hostname := p.Hostname
	if hostname == "" {
		hostname = "sandbox"
	}
	argv = append(argv,
		// The root bwrap builds is a tmpfs; without this, writes outside the bound
		// folders and /tmp would succeed there (harmless, private, but confusing).
		"--remount-ro", "/",
		"--chdir", chdir,
		"--hostname", hostname,
		"--clearenv",
	)
	env := map[string]string{}
	for i := 0; i+1 < len(p.Env); i += 2 {
		env[p.Env[i]] = p.Env[i+1]
	}
	for _, d := range [][2]string{{"PATH", "/usr/bin:/bin"}, {"HOME", "/tmp"}} {
		if _, ok := env[d[0]]; !ok {
			argv = append(argv, "--setenv", d[0], d[1])
		}
	}
	argv = append(argv, "--setenv", "TMPDIR", "/tmp", "--setenv", "LANG", "C.UTF-8")
	for i := 0; i+1 < len(p.Env); i += 2 {
		argv = append(argv, "--setenv", p.Env[i], p.Env[i+1])
	}
	argv = append(argv, p.Extra...)
	argv = append(argv, "--")
	return append(argv, command...)
}
