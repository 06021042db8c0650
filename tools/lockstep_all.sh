#!/usr/bin/env bash
# lockstep_all.sh: the long lockstep run (docs/rtl.md, "Lockstep"): router=rtl
# against router=vc on every kind of fabric, under three router
# configurations (VC count, buffer depth, arbiter kind, packet size), and
# every program with real data; every channel slot compared after every
# cycle (testbench/cosim/lockstep.c). Stops at the first difference.
#
#   tools/lockstep_all.sh [CYCLES] [BUILD_DIR]     (default 20000, build)
#
# The first run builds a core for each parameter set it meets (~15 s each,
# cached in BUILD_DIR/rtl-models). Prints one line per run and the totals.
set -euo pipefail
cycles=${1:-20000}
build=${2:-build}
ls=$build/testbench/cosim/lockstep
[ -x "$ls" ] || { echo "lockstep_all.sh: no $ls (build with Verilator first)" >&2; exit 2; }

# shellcheck disable=SC2054 # the commas are circulant:N:a,b's
fabrics=(ring:8 mesh:4x4 mesh:3x3x3 torus:4x4 torus:3x3x3 hypercube:5 bsn:ring:4 bsn:mesh:2x2
         otis:mesh:3x3 pyramid:3 multilevel:2:1 circulant:13:2,5 complete:6)
configs=("num_vcs=0 vc_buf_size=8 arb_type=round_robin packet_size=1 injection_rate=0.3"
         "num_vcs=4 vc_buf_size=2 arb_type=matrix packet_size=2 injection_rate=0.4"
         "num_vcs=6 vc_buf_size=4 arb_type=round_robin packet_size=4 injection_rate=0.25")
programs=("bsn:mesh:4x4 --program broadcast" "bsn:ring:8 --program data-sum" "bsn:ring:4 --program prefix-sum --sync steps"
          "hypercube:5 --program prefix-sum" "torus:8x8 --program scatter" "torus:8x8 --program gather"
          "hypercube:5 --program shift --q 11" "torus:4x4 --program shift --variant rowcol --q 5"
          "mesh:8x8 --program broadcast-1phase" "mesh:8x8 --program broadcast-2phase" "mesh:8x8 --program hrelation --h 4"
          "pyramid:4 --program pyramid-sum" "pyramid:4 --program pyramid-broadcast" "torus:4x4 --program alltoall"
          "torus:4x4 --program alltoall ni_ports=0" "ring:8 --program allgather" "mesh:4x4 --program allreduce")

runs=0 total_cycles=0 total_flits=0 total_credits=0 routers=0
one() {
  local out r c fl k rc=0
  out=$("$ls" "$@" 2>&1) || rc=$?
  case $rc in
    0) ;;
    1) echo "$out"; echo "lockstep_all.sh: DIFFERENCE in: lockstep $*"; exit 1 ;;
    *) echo "$out"; echo "lockstep_all.sh: could not run: lockstep $*"; exit 2 ;;
  esac
  echo "$out"
  # "...: R routers, C cycles identical (F flit arrivals, K credits and ... compared)"
  read -r r c fl k < <(grep ' cycles identical' <<<"$out" |
    sed -E 's/.*: ([0-9]+) routers, ([0-9]+) cycles identical \(([0-9]+) flit arrivals(,| and) ([0-9]+) credits.*/\1 \2 \3 \5/') ||
    true # no line: the check below says so
  case "$r.$c.$fl.$k" in
    *[!0-9.]*|*..*|.*|*.) echo "lockstep_all.sh: cannot read the counts in the output of: lockstep $*"; exit 2 ;;
  esac
  runs=$((runs + 1)) routers=$((routers + r)) total_cycles=$((total_cycles + c))
  total_flits=$((total_flits + fl)) total_credits=$((total_credits + k))
}
for f in "${fabrics[@]}"; do
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086
    one --cycles "$cycles" "$f" $c
  done
done
one --cycles "$cycles" mesh:4x4 ni_ports=0 injection_rate=0.6 packet_size=2
for p in "${programs[@]}"; do
  # shellcheck disable=SC2086
  one $p
done
echo "lockstep_all.sh: $runs runs, $total_cycles cycles, $routers routers in all," \
     "$total_flits flit arrivals and $total_credits credits compared: no difference"
