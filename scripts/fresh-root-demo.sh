#!/usr/bin/env bash
# fresh-root-demo.sh [ROOT]: proves the README's first command on a machine that has
# never seen Koda. It makes a fresh Debian 12 root with debootstrap (minbase: no
# Chromium, ffmpeg, bubblewrap, Redis or PostgreSQL), copies in the committed tree,
# bind-mounts this machine's Go (the README asks for Go; everything else comes from
# `make demo`), runs `make demo` there as a user would, and checks that the videos it
# names exist and play. Needs root; takes several minutes (packages and a first build).
set -euo pipefail
root=${1:-/var/tmp/koda-fresh-root}
repo=$(cd "$(dirname "$0")/.." && pwd)
goroot=$(go env GOROOT)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)

[ "$(id -u)" -eq 0 ] || { echo "fresh-root-demo: run as root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }

cleanup() {
  for m in proc sys dev/pts dev usr/local/go; do umount -l "$root/$m" 2>/dev/null || true; done
}
trap cleanup EXIT

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "== debootstrap bookworm into $root"
  rm -rf "$root"
  # make and git are what a newcomer who cloned a Go project has; nothing of Koda's.
  debootstrap --variant=minbase --include=make,ca-certificates,git bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
    { tail -20 "$root.debootstrap.log"; exit 1; }
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's own certificate authorities (a proxy's, say) are part of the machine a
# newcomer has, not of Koda: give them to the fresh root too.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mkdir -p "$root/usr/local/go"
mount --bind -o ro "$goroot" "$root/usr/local/go"

echo "== copy the committed tree"
rm -rf "$root/src/koda"
mkdir -p "$root/src/koda"
git -C "$repo" archive HEAD | tar -x -C "$root/src/koda"

echo "== make demo in the fresh root"
set +e
# pivot_root in a mount namespace of its own, not chroot: the kernel refuses user
# namespaces to a chrooted process, and bubblewrap needs them as on any real machine.
unshare --mount --propagation private -- bash -c '
  set -e
  mount --rbind "$0" "$0"
  cd "$0"
  mkdir -p .oldroot
  pivot_root . .oldroot
  cd /
  exec /usr/bin/env -i HOME=/root PATH=/usr/local/go/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    GOPROXY="$1" GOFLAGS=-mod=mod TERM=dumb bash -c "cd /src/koda && make demo"
' "$root" "$(go env GOPROXY)" 2>&1 | tee "$root.demo.log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" -eq 0 ] || { echo "fresh-root-demo: make demo failed ($rc)" >&2; exit 1; }

echo "== check the videos"
n=0
for v in $(grep -oE '/[^ ]+\.mp4' "$root.demo.log" | sort -u); do
  f="$root$v"; [ -f "$f" ] || f="$root/src/koda/${v#/}"
  [ -s "$f" ] || { echo "fresh-root-demo: $v named but missing" >&2; exit 1; }
  d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$f")
  echo "ok $v ($(stat -c %s "$f") bytes, ${d}s)"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "fresh-root-demo: the demo named no video" >&2; exit 1; }
grep -q 'CR' <(tr -d -c '\r' <"$root.demo.log" | head -c1 | od -An -c | tr -d ' \n' | sed 's/\\r/CR/') &&
  { echo "fresh-root-demo: the demo's log has carriage-return redraws" >&2; exit 1; }
echo "fresh-root-demo: $n videos in $(( $(date +%s) - start ))s"
