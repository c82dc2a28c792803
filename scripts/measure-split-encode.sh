#!/bin/sh
# Measures what encoding one capture's frames to several presets costs, three ways:
# one ffmpeg process converting the frames to YUV once and splitting them (what
# renderer/derive.go does), one process converting per branch, and one ffmpeg process
# per output fed only its own frames. 180 raw 1080p60 BGRX frames (ffmpeg's testsrc2)
# go to 1080p60, 1080p30, 720p60 and 720p30 at x264 veryfast CRF 18, as Koda encodes.
# Prints wall, user and system seconds of each; needs about 2.3 GB in $WORK (default a
# folder under /dev/shm).
set -eu
WORK=${WORK:-/dev/shm/koda-split-encode}
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc2=s=1920x1080:r=60 -frames:v 180 -pix_fmt bgr0 -f rawvideo raw60 -y
ffmpeg -hide_banner -loglevel error -f rawvideo -pix_fmt bgr0 -s 1920x1080 -r 60 -i raw60 -vf "select=not(mod(n\,2))" \
  -fps_mode passthrough -f rawvideo raw30 -y
X="-c:v libx264 -preset veryfast -crf 18 -threads 2 -pix_fmt yuv420p -color_range tv -f mp4"
IN60="-f rawvideo -pix_fmt bgr0 -s 1920x1080 -framerate 60 -i raw60"
IN30="-f rawvideo -pix_fmt bgr0 -s 1920x1080 -framerate 30 -i raw30"
t() { /usr/bin/time -f "  %e s wall, %U s user, %S s system" "$@" 2>&1 | tail -1; }
HALF='select=not(mod(n\,2)),setpts=N/30/TB'
echo "one process, YUV once, split:"
t ffmpeg -hide_banner -loglevel error $IN60 -filter_complex \
  "[0]format=yuv420p,split=4[a][b][c][d];[b]$HALF[b2];[c]scale=1280:720:flags=lanczos[c2];[d]$HALF,scale=1280:720:flags=lanczos[d2]" \
  -map "[a]" $X -r 60 a.mp4 -map "[b2]" $X -r 30 b.mp4 -map "[c2]" $X -r 60 c.mp4 -map "[d2]" $X -r 30 d.mp4 -y
echo "one process, split, YUV per branch:"
t ffmpeg -hide_banner -loglevel error $IN60 -filter_complex \
  "[0]split=4[a][b][c][d];[b]$HALF[b2];[c]scale=1280:720:flags=lanczos[c2];[d]$HALF,scale=1280:720:flags=lanczos[d2]" \
  -map "[a]" $X -r 60 a.mp4 -map "[b2]" $X -r 30 b.mp4 -map "[c2]" $X -r 60 c.mp4 -map "[d2]" $X -r 30 d.mp4 -y
echo "four processes, each fed its own frames:"
t sh -c "ffmpeg -hide_banner -loglevel error $IN60 $X -r 60 a.mp4 -y &
  ffmpeg -hide_banner -loglevel error $IN30 $X -r 30 b.mp4 -y &
  ffmpeg -hide_banner -loglevel error $IN60 -vf scale=1280:720:flags=lanczos $X -r 60 c.mp4 -y &
  ffmpeg -hide_banner -loglevel error $IN30 -vf scale=1280:720:flags=lanczos $X -r 30 d.mp4 -y & wait"
