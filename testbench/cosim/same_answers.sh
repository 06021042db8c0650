#!/usr/bin/env bash
# same_answers.sh: --router rtl gives the answers of --router vc (ctest
# rtl.same_answers; docs/rtl.md, "Same answers"). For synthetic traffic on a
# fabric of every kind and for every program, the JSON reports of the two
# runs (cycle counts, latencies, per-step and per-link tables, results) must
# be equal but for the router's name; and the text report of
# `noctua run bsn:mesh:4x4 --program broadcast` must differ only in the line
# naming the router and the wall-clock time. Both runs must also end with
# the exit status the case expects: 0 (done, every program's result right)
# unless the case says otherwise with a first argument exit=N, so that two
# runs failing alike (a generator expecting a wrong result: exit 1 from
# both) are not "the same answers".
#
#   same_answers.sh NOCTUA
set -euo pipefail
noctua=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

same() {
  local want=0
  case ${1:-} in exit=*) want=${1#exit=}; shift ;; esac
  n=$((n + 1))
  local ev=0 er=0
  "$noctua" run "$@" --router vc --quiet --json "$tmp/vc.json" >"$tmp/vc.out" 2>&1 || ev=$?
  "$noctua" run "$@" --router rtl --quiet --json "$tmp/rtl.json" >"$tmp/rtl.out" 2>&1 || er=$?
  if [ "$ev" != "$want" ] || [ "$er" != "$want" ]; then
    # (a difference between the two is always one of these)
    echo "WRONG exit status (vc $ev, rtl $er, expected $want): noctua run $*"
    cat "$tmp/vc.out" "$tmp/rtl.out" | head -20
    fail=1
  elif [ ! -s "$tmp/vc.json" ]; then
    echo "NO REPORT (exit $ev): noctua run $*"
    cat "$tmp/vc.out"
    fail=1
  elif ! diff <(grep -v '"router":' "$tmp/vc.json") <(grep -v '"router":' "$tmp/rtl.json") >"$tmp/diff"; then
    echo "DIFFERENT: noctua run $*"
    head -20 "$tmp/diff"
    fail=1
  else
    echo "same (exit $ev, $(wc -l <"$tmp/vc.json") JSON lines): noctua run $*"
  fi
  rm -f "$tmp/vc.json" "$tmp/rtl.json"
}

# Synthetic traffic on every kind of fabric (the short windows keep it quick).
syn=(warmup_cycles=300 sample_cycles=1500)
same ring:6 "${syn[@]}" injection_rate=0.3 packet_size=3
same mesh:3x4 "${syn[@]}" injection_rate=0.3
same mesh:2x2x2 "${syn[@]}" injection_rate=0.4 traffic=bitcomp
same torus:3x4 "${syn[@]}" injection_rate=0.4 packet_size=4
same torus:4x4 "${syn[@]}" injection_rate=0.5 arb_type=matrix
same mesh:4x4 "${syn[@]}" injection_rate=0.6 num_vcs=4 vc_buf_size=2 traffic=transpose
same mesh:4x4 "${syn[@]}" injection_rate=0.5 num_vcs=3 node_stats=1
same hypercube:3 "${syn[@]}" injection_rate=0.3 packet_size=2
same bsn:ring:4 "${syn[@]}" injection_rate=0.2
same otis:mesh:2x2 "${syn[@]}" injection_rate=0.2
same pyramid:3 "${syn[@]}" injection_rate=0.2
same circulant:13:2,5 "${syn[@]}" injection_rate=0.3
same complete:5 "${syn[@]}" injection_rate=0.3
same multilevel:2:1 "${syn[@]}" injection_rate=0.2
same mesh:3x3 "${syn[@]}" injection_rate=0.5 ni_ports=0 packet_size=2
# Programs, with real data (each checks its result).
same bsn:mesh:4x4 --program broadcast
same bsn:ring:4 --program data-sum
same bsn:ring:4 --program prefix-sum --sync steps
same otis:mesh:2x2 --program broadcast
same torus:4x4 --program scatter
same torus:4x4 --program gather
same hypercube:4 --program shift --q 5
same mesh:4x4 --program broadcast-2phase
same mesh:4x4 --program hrelation --h 3
same pyramid:3 --program pyramid-sum
same pyramid:3 --program pyramid-broadcast
same torus:3x4 --program alltoall ni_ports=0
same ring:6 --program allreduce
same complete:5 --program allgather

# The text report of the issue's example.
ev=0 er=0
"$noctua" run bsn:mesh:4x4 --program broadcast --router vc >"$tmp/vc.txt" 2>&1 || ev=$?
"$noctua" run bsn:mesh:4x4 --program broadcast --router rtl >"$tmp/rtl.txt" 2>&1 || er=$?
if [ "$ev" != 0 ] || [ "$er" != 0 ]; then
  echo "WRONG exit status (vc $ev, rtl $er, expected 0): noctua run bsn:mesh:4x4 --program broadcast"
  fail=1
elif diff <(grep -v '^noctua .*router vc\|wall clock' "$tmp/vc.txt") \
        <(grep -v '^noctua .*router rtl\|wall clock' "$tmp/rtl.txt") >"$tmp/diff" &&
   [ "$(grep -c . "$tmp/vc.txt")" -gt 5 ]; then
  echo "same text report (but the router line and the wall clock): noctua run bsn:mesh:4x4 --program broadcast"
else
  echo "DIFFERENT text report: noctua run bsn:mesh:4x4 --program broadcast"
  cat "$tmp/diff"
  fail=1
fi
if [ "$fail" = 0 ]; then
  echo "same_answers: all $n runs give the same answers with --router rtl and --router vc"
fi
exit "$fail"
