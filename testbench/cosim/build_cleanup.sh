#!/usr/bin/env bash
# build_cleanup.sh: ctest rtl.build_cleanup. A core build of --router rtl
# (routers/rtl/build_model.sh) works in a folder .build.PID.XXXXXX of the
# model cache (docs/reliability.md, "Outputs"):
#   - a build removes the folders of builds whose process is gone (killed
#     outright), and leaves those of live ones alone;
#   - Ctrl-C during a build (SIGINT to the whole foreground group, as a
#     terminal sends it) leaves no folder and no model behind, and noctua
#     exits 130.
#
#   build_cleanup.sh NOCTUA
set -euo pipefail
noctua=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cache=$tmp/cache
mkdir -p "$cache/.build.999999999.abcdef" "$cache/.build.$$.abcdef"
NOCTUA_RTL_CACHE=$cache "$noctua" run ring:4 --router rtl --quiet warmup_cycles=10 sample_cycles=100
[ ! -e "$cache/.build.999999999.abcdef" ] || fail "the folder of a dead build is still there"
[ -d "$cache/.build.$$.abcdef" ] || fail "the folder of a live build was removed"
ls "$cache"/*.so >/dev/null || fail "no model was built"
echo "ok: a build removes the folders of dead builds only"

cache2=$tmp/cache2
set -m # the run in a process group of its own, as a terminal's foreground job
NOCTUA_RTL_CACHE=$cache2 "$noctua" run ring:4 --router rtl --quiet >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 600); do
  compgen -G "$cache2/.build.*" >/dev/null && break
  sleep 0.1
done
compgen -G "$cache2/.build.*" >/dev/null || fail "no build folder appeared in 60 s"
sleep 1
kill -INT -- "-$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 130 ] || { cat "$tmp/out"; fail "exit $rc after Ctrl-C, not 130"; }
sleep 0.5 # the build's own shell removes its folder as it ends
# (the cache's lock and the build's log stay: they are the cache's own)
left=$(find "$cache2" -mindepth 1 -maxdepth 1 ! -name '*.lock' ! -name '*.log' -printf '%f\n')
[ -z "$left" ] || fail "left in the cache after Ctrl-C: $left"
echo "ok: Ctrl-C during a build leaves nothing behind, exit 130"
