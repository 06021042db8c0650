#!/usr/bin/env bash
# check_threads.sh: a synthetic run's report is the same, byte for byte, for
# threads=1, 2 and 3 (model/sim_threads.c; issue 13 item 3), on a spread of
# fabrics and vc router options: the --json report (its wall-clock figures
# left out) and the text report. And what this step does not run on
# several threads is refused by name with exit 2.
# With --ranks: the same for 1, 2 and 3 MPI ranks (mpirun -n R
# --oversubscribe, model/sim_ranks.c; the 3 ranks with 2 threads each)
# instead of threads, and a sweep's and an exploration's CSV the same over
# ranks as -j 1's; mpirun as root is allowed for the run (CI runs as root).
#   tools/check_threads.sh NOCTUA_BINARY [--ranks]
set -euo pipefail
B=${1:?usage: tools/check_threads.sh NOCTUA_BINARY [--ranks]}
mode=${2:-threads}
case "$mode" in
  threads) ;;
  --ranks) mode=ranks
    command -v mpirun >/dev/null || { echo "check_threads: --ranks needs mpirun (Debian: openmpi-bin)" >&2; exit 2; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
  *) echo "usage: tools/check_threads.sh NOCTUA_BINARY [--ranks]" >&2; exit 2 ;;
esac
# noctua run ARGS... on P parts: P threads, or P ranks (1: no mpirun; 3: with
# 2 threads inside each rank, model/sim_threads.c cutting the rank's part)
parts() {
  local p=$1
  shift
  if [ "$mode" = threads ]; then "$B" run "$@" threads="$p"
  elif [ "$p" -eq 1 ]; then "$B" run "$@"
  elif [ "$p" -eq 3 ]; then mpirun -n 3 --oversubscribe "$B" run "$@" threads=2
  else mpirun -n "$p" --oversubscribe "$B" run "$@"
  fi
}
fail=0
# the wall-clock figures of a report (seconds, cycles per second) differ from run to run
wall='"(seconds|wall_seconds|cycles_per_second|cycles_per_s|elapsed)"'
while read -r line; do
  if [ -z "$line" ]; then continue; fi
  ref_j="" ref_t=""
  for t in 1 2 3; do
    rc=0
    # shellcheck disable=SC2086 # the line's words are separate arguments
    j=$(parts $t $line sample_cycles=500 warmup_cycles=200 --json - 2>/dev/null) || rc=$?
    # shellcheck disable=SC2086
    x=$(parts $t $line sample_cycles=500 warmup_cycles=200 2>/dev/null) || true
    if [ $rc -ne 0 ] || [ -z "$j" ]; then
      echo "FAIL: $mode=$t $line: exit $rc"; fail=1; continue
    fi
    j=$(printf '%s\n' "$j" | grep -Ev "$wall") || true
    if ! grep -Eq '"packets": [1-9]' <<<"$j"; then
      echo "FAIL: $mode=$t $line: no packet delivered (the comparison would say nothing)"; fail=1
    fi
    if [ $t -eq 1 ]; then ref_j=$j ref_t=$x; continue; fi
    if [ "$j" != "$ref_j" ]; then
      echo "FAIL: $mode=$t $line: --json differs from $mode=1:"
      diff <(printf '%s\n' "$ref_j") <(printf '%s\n' "$j") | head -10 || true
      fail=1
    fi
    if [ "$x" != "$ref_t" ]; then
      echo "FAIL: $mode=$t $line: the text report differs from $mode=1:"
      diff <(printf '%s\n' "$ref_t") <(printf '%s\n' "$x") | head -10 || true
      fail=1
    fi
  done
done <<'LIST'
mesh:8x8 injection_rate=0.3
mesh:8x8 injection_rate=0.45 packet_size=4 num_vcs=4 speculative=1
mesh:6x6 injection_rate=0.35 packet_size=5 hold_switch_for_packet=1
mesh:8x8 injection_rate=0.9 packet_size=2
mesh:6x6 injection_rate=0.3 ni_ports=0 traffic=transpose
mesh:4x4 injection_rate=0.2 link_width=16 packet_size=2
mesh:8x8 injection_rate=0.3 eject_credit_delay=2 wait_for_tail_credit=1 vc_allocator=islip sw_allocator=islip alloc_iters=2
mesh:8x8 injection_rate=0.25 max_samples=4
torus:5x5 injection_rate=0.4 packet_size=3 lookahead=1 num_vcs=4
torus:4x4x3 injection_rate=0.3 traffic=tornado arb_type=matrix vc_buf_size=2
hypercube:5 injection_rate=0.4 packet_size=2
bsn:mesh:3x3 injection_rate=0.25 packet_size=2
otis:ring:6 injection_rate=0.3 num_vcs=6
mesh:8x8 injection_rate=0.2 energy=default
cmesh:4x4 injection_rate=0.2
mesh:8x8 injection_rate=0.3 traffic=hotspot hotspot_rate=0.2 credit_delay=2 link_latency=3
mesh:8x8 classes=3 class_injection_rate=0.2,0.1,0.05 class_packet_size=1,4,2 class_traffic=uniform,transpose,bitcomp max_samples=3
mesh:8x8 classes=2 class_injection_rate=0.25,0.1 class_packet_size=1,4 priority=class class_priority=0,1
mesh:6x6 injection_rate=0.35 packet_size=3 priority=local_age sw_allocator=wavefront
mesh:6x6 injection_rate=0.35 priority=age hold_switch_for_packet=1 packet_size=4
mesh:8x8 injection_rate=0.3 routing_function=valiant
mesh:6x6 injection_rate=0.3 routing_function=xy_yx packet_size=2
fattree:2:3 injection_rate=0.3
torus:6x6 injection_rate=0.3 routing_function=dor_bal_booksim
mesh:8x8 injection_rate=0.35 routing_function=min_adapt va_in_pointer=router num_vcs=4
flatfly:4:2 injection_rate=0.3 routing_function=ugal num_vcs=4 va_in_pointer=router
mesh:8x8 injection_rate=0.35 num_vcs=2 vc_buf_size=4 packet_size=4 vc_busy_when_full=1 vc_shuffle_requests=1 eject_credit_delay=3
mesh:6x6 injection_rate=0.4 num_vcs=2 vc_buf_size=2 vc_busy_when_full=1 vc_shuffle_requests=1 vc_allocator=islip
LIST

# the per-node figures (node_stats): a packet's source's figures added after
# the cycle in part order (threads) or summed over the ranks at the end: the
# same --nodes-csv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/noctua-$mode.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for t in 1 2 3; do
  parts $t mesh:8x8 injection_rate=0.3 node_stats=1 sample_cycles=1000 warmup_cycles=200 \
    --quiet --nodes-csv "$tmp/nodes-$t.csv" >/dev/null 2>&1 || { echo "FAIL: $mode=$t node_stats=1: exit status $?"; fail=1; }
  if [ $t -gt 1 ] && ! cmp -s "$tmp/nodes-1.csv" "$tmp/nodes-$t.csv"; then
    echo "FAIL: $mode=$t node_stats=1: --nodes-csv differs from $mode=1's"; fail=1
  fi
done

# the invariant checker after every cycle (check=1) finds the state of a
# threaded run whole: it runs, and the report stays the same (threads only:
# a rank sets up its own part of the routers)
if [ "$mode" = threads ]; then
  for line in "mesh:8x8 injection_rate=0.4 packet_size=3" "torus:4x4x3 injection_rate=0.3 num_vcs=4 lookahead=1 node_stats=1"; do
    ref=""
    for t in 1 2 3; do
      rc=0
      # shellcheck disable=SC2086 # the line's words are separate arguments
      j=$("$B" run $line check=1 threads=$t sample_cycles=300 warmup_cycles=100 --json - 2>/dev/null) || rc=$?
      j=$(printf '%s\n' "$j" | grep -Ev "$wall") || true
      if [ $rc -ne 0 ]; then echo "FAIL: threads=$t $line check=1: exit $rc"; fail=1; fi
      if [ $t -eq 1 ]; then ref=$j; elif [ "$j" != "$ref" ]; then echo "FAIL: threads=$t $line check=1: --json differs"; fail=1; fi
    done
  done
fi

# refused by name, exit 2
refuse() { # WHAT-THE-MESSAGE-NAMES ARGS...
  local what=$1 named=threads
  shift
  local err rc=0
  if [ "$mode" = ranks ]; then
    named=mpirun
    err=$(mpirun -n 2 --oversubscribe "$B" "$@" 2>&1 >/dev/null) || rc=$?
  else
    err=$("$B" "$@" 2>&1 >/dev/null) || rc=$?
  fi
  if [ $rc -ne 2 ] || ! grep -q "$named" <<<"$err" || ! grep -q -- "$what" <<<"$err"; then
    echo "FAIL: $* : want exit 2 naming '$named' and '$what', got exit $rc: $err"; fail=1
  fi
}
if [ "$mode" = threads ]; then
  refuse "ideal" run mesh:4x4 router=ideal injection_rate=0.1 threads=2
  refuse "speedup" run mesh:4x4 internal_speedup=2 injection_rate=0.1 threads=2
  refuse "--waves" run mesh:4x4 injection_rate=0.1 threads=2 --waves "$tmp/refused.vcd"
  refuse "programs" run mesh:4x4 threads=2 --program broadcast --quiet
  refuse "not a thread count" run mesh:4x4 injection_rate=0.1 threads=-1
else
  refuse "ideal" run mesh:4x4 router=ideal injection_rate=0.1
  refuse "speedup" run mesh:4x4 internal_speedup=2 injection_rate=0.1
  refuse "--waves" run mesh:4x4 injection_rate=0.1 --waves "$tmp/refused.vcd"
  refuse "programs" run mesh:4x4 --program broadcast --quiet
  refuse "only run, sweep and explore" topo mesh:4x4
  refuse "check=1" run mesh:4x4 check=1 injection_rate=0.1
  # a sweep's and an exploration's points spread over the ranks (cli/pool.c): the same CSV as one
  # process running them one after another
  for what in sweep explore; do
    case $what in
      sweep) args=(sweep mesh:4x4 torus:4x4 --rates 0.1:0.8:0.1 --seeds 2 warmup_cycles=100 sample_cycles=400) ;;
      *) args=(explore 'mesh:{3,4}x{3,4}' 'num_vcs={2,4}' --program 'broadcast:{1,8}' --traffic uniform@0.1) ;;
    esac
    "$B" "${args[@]}" --quiet -j 1 -o "$tmp/$what-1" >/dev/null 2>&1 || { echo "FAIL: $what -j 1"; fail=1; }
    for r in 2 3; do
      mpirun -n $r --oversubscribe "$B" "${args[@]}" --quiet -o "$tmp/$what-$r" >/dev/null 2>&1 ||
        { echo "FAIL: mpirun -n $r $what: exit status $?"; fail=1; }
      if ! cmp -s "$tmp/$what-1.csv" "$tmp/$what-$r.csv"; then
        echo "FAIL: mpirun -n $r $what: the CSV differs from -j 1's"; fail=1
      fi
    done
  done
fi

if [ $fail -ne 0 ]; then echo "check_threads: FAILED"; exit 1; fi
echo "check_threads: the reports are the same for $mode 1, 2 and 3; the refusals name what they refuse"
