#!/bin/bash
# wave_screenshot.sh: open a wave file in GTKWave with a save file on a
# virtual X display (Xvfb) and grab GTKWave's window to a PNG.
#   tools/wave_screenshot.sh FILE.fst FILE.gtkw OUT.png [WIDTHxHEIGHT]
# WIDTHxHEIGHT is the window's size; the default is the save file's [size]
# (noctua writes 1600 900). The window is grabbed once it is mapped and its
# pixels have stopped changing. GTKWave's own stderr (warnings about the save
# file land there) is printed with the prefix "gtkwave: ".
# Needs gtkwave, Xvfb, xdotool and ImageMagick's import/convert; none of
# them is part of the build: `tools/bootstrap.sh --viewers` installs them
# (Debian: gtkwave xvfb xdotool imagemagick). The docs/waves/*.png screenshots were made with it; see the
# walk-through in docs/waves.md for the commands.
# Environment: WAVE_SHOT_TIMEOUT (seconds, default 60) bounds the whole
# wait; WAVE_SHOT_KEEP_LOG=FILE keeps GTKWave's output.
set -euo pipefail

usage() { echo "usage: tools/wave_screenshot.sh FILE.fst FILE.gtkw OUT.png [WIDTHxHEIGHT]" >&2; exit 2; }
if [ $# -lt 3 ] || [ $# -gt 4 ]; then usage; fi
wave=$1 save=$2 out=$3 size=${4:-}
[ -r "$wave" ] || { echo "wave_screenshot: cannot read $wave" >&2; exit 1; }
[ -r "$save" ] || { echo "wave_screenshot: cannot read $save" >&2; exit 1; }
for t in Xvfb gtkwave xdotool import convert; do
  command -v "$t" >/dev/null || { echo "wave_screenshot: $t not found: tools/bootstrap.sh --viewers installs it" >&2; exit 1; }
done
if [ -z "$size" ]; then
  size=$(awk '$1 == "[size]" { print $2 "x" $3; exit }' "$save")
  [ -n "$size" ] || size=1600x900
fi
[[ $size =~ ^([0-9]+)x([0-9]+)$ ]] || usage
w=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]}
timeout_s=${WAVE_SHOT_TIMEOUT:-60}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wave_shot.XXXXXX")
xvfb_pid='' gtk_pid=
cleanup() {
  local rc=$?
  set +e
  if [ -n "$gtk_pid" ]; then kill "$gtk_pid" 2>/dev/null; wait "$gtk_pid" 2>/dev/null; fi
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
  if [ -n "${WAVE_SHOT_KEEP_LOG:-}" ] && [ -f "$tmp/gtkwave.log" ]; then
    cp "$tmp/gtkwave.log" "$WAVE_SHOT_KEEP_LOG"
  fi
  rm -rf "$tmp"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

deadline=$((SECONDS + timeout_s))
waited() { [ $SECONDS -lt $deadline ] || { echo "wave_screenshot: timed out after ${timeout_s} s ($1)" >&2; exit 1; }; }

# Xvfb picks a free display itself and writes its number to fd 3; the
# screen is a little larger than the window.
Xvfb -displayfd 3 -screen 0 "$((w + 64))x$((h + 64))x24" -nolisten tcp \
  3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
while ! grep -q '[0-9]' "$tmp/display" 2>/dev/null; do
  kill -0 "$xvfb_pid" 2>/dev/null || { cat "$tmp/xvfb.log" >&2; echo "wave_screenshot: Xvfb did not start" >&2; exit 1; }
  waited "Xvfb"; sleep 0.1
done
DISPLAY=":$(tr -dc 0-9 < "$tmp/display")"
export DISPLAY

# A private HOME: no user ~/.gtkwaverc or GTK settings change the picture.
mkdir -p "$tmp/home"
HOME="$tmp/home" NO_AT_BRIDGE=1 gtkwave --rcvar 'splash_disable on' \
  "$wave" "$save" >"$tmp/gtkwave.log" 2>&1 &
gtk_pid=$!

win=''
while [ -z "$win" ]; do
  kill -0 "$gtk_pid" 2>/dev/null || { sed 's/^/gtkwave: /' "$tmp/gtkwave.log" >&2; echo "wave_screenshot: GTKWave exited early" >&2; gtk_pid=; exit 1; }
  waited "GTKWave's window"
  win=$(xdotool search --onlyvisible --pid "$gtk_pid" --name 'GTKWave' 2>/dev/null | head -1 || true)
  [ -n "$win" ] || sleep 0.2
done
xdotool windowmove "$win" 0 0 windowsize "$win" "$w" "$h" 2>/dev/null || true

# Drawn: two grabs half a second apart give the same pixels (three in a row
# to be safe), at least a second after the window was mapped.
sleep 1
prev='' same=0
while [ $same -lt 2 ]; do
  waited "GTKWave's window to settle"
  sum=$(import -window "$win" -depth 8 rgb:- 2>/dev/null | md5sum | cut -c1-32)
  if [ "$sum" = "$prev" ]; then same=$((same + 1)); else same=0; fi
  prev=$sum
  sleep 0.5
done
import -window "$win" "$tmp/shot.png"
# No timestamps in the PNG (reproducible files); 8-bit palette when the
# picture has at most 256 colours, which GTKWave's usually does.
convert "$tmp/shot.png" -strip -define png:exclude-chunks=date,time "$out"

sed 's/^/gtkwave: /' "$tmp/gtkwave.log" >&2
echo "wave_screenshot: $out ($(identify -format '%wx%h' "$out"), $(stat -c %s "$out") bytes)" >&2
