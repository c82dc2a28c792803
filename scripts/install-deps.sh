#!/usr/bin/env bash
# Installs the programs Koda runs (Debian's chromium-headless-shell, ffmpeg, bubblewrap
# for the sandboxes, fonts), gcc for the cgo SQLite driver, and, with "test", the ones its tests use (tesseract), with
# apt-get when they are missing. Never downloads anything else: Debian's packages are the only source.
set -euo pipefail

want=(chromium-headless-shell:chromium-headless-shell ffmpeg:ffmpeg ffprobe:ffmpeg fc-list:fontconfig bwrap:bubblewrap)
if [ "${1:-}" = "test" ]; then
  want+=(tesseract:tesseract-ocr)
fi

missing=()
for pair in "${want[@]}"; do
  bin=${pair%%:*} pkg=${pair##*:}
  command -v "$bin" >/dev/null 2>&1 || missing+=("$pkg")
done
# A C compiler: the SQLite driver is cgo, and a Go build without one silently makes a
# binary whose database does not open (and `go test -race` needs cgo too).
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
[ -e /usr/include/stdio.h ] || missing+=(libc6-dev)
# Fonts: text in animations needs a real sans-serif face.
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
# Text in Chinese, Japanese or Korean ("新年快乐") and emoji in a prompt's quoted words
# draw as empty boxes without these (renderer's TestScriptsHaveFonts checks both).
[ -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
[ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
  echo "Koda needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing ${missing[*]} with apt-get…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
