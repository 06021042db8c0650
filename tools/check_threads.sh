#!/usr/bin/env bash
# check_threads.sh: a synthetic run's report is the same, byte for byte, for
# threads=1, 2 and 3 (model/sim_threads.c; issue 13 item 3), on a spread of
# fabrics and vc router options: the --json report (its wall-clock figures
# left out) and the text report. And what this step does not run on
# several threads is refused by name with exit 2.
#   tools/check_threads.sh NOCTUA_BINARY
set -euo pipefail
B=${1:?usage: tools/check_threads.sh NOCTUA_BINARY}
fail=0
# the wall-clock figures of a report (seconds, cycles per second) differ from run to run
wall='"(seconds|wall_seconds|cycles_per_second|cycles_per_s|elapsed)"'
while read -r line; do
  if [ -z "$line" ]; then continue; fi
  ref_j="" ref_t=""
  for t in 1 2 3; do
    rc=0
    # shellcheck disable=SC2086 # the line's words are separate arguments
    j=$("$B" run $line sample_cycles=500 warmup_cycles=200 threads=$t --json - 2>/dev/null) || rc=$?
    # shellcheck disable=SC2086
    x=$("$B" run $line sample_cycles=500 warmup_cycles=200 threads=$t 2>/dev/null) || true
    if [ $rc -ne 0 ] || [ -z "$j" ]; then
      echo "FAIL: threads=$t $line: exit $rc"; fail=1; continue
    fi
    j=$(printf '%s\n' "$j" | grep -Ev "$wall") || true
    if ! grep -Eq '"packets": [1-9]' <<<"$j"; then
      echo "FAIL: threads=$t $line: no packet delivered (the comparison would say nothing)"; fail=1
    fi
    if [ $t -eq 1 ]; then ref_j=$j ref_t=$x; continue; fi
    if [ "$j" != "$ref_j" ]; then
      echo "FAIL: threads=$t $line: --json differs from threads=1:"
      diff <(printf '%s\n' "$ref_j") <(printf '%s\n' "$j") | head -10 || true
      fail=1
    fi
    if [ "$x" != "$ref_t" ]; then
      echo "FAIL: threads=$t $line: the text report differs from threads=1:"
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
LIST

# refused by name, exit 2
refuse() { # WHAT-THE-MESSAGE-NAMES ARGS...
  local what=$1
  shift
  local err rc=0
  err=$("$B" "$@" 2>&1 >/dev/null) || rc=$?
  if [ $rc -ne 2 ] || ! grep -q "threads" <<<"$err" || ! grep -q -- "$what" <<<"$err"; then
    echo "FAIL: $* : want exit 2 naming 'threads' and '$what', got exit $rc: $err"; fail=1
  fi
}
refuse "ideal" run mesh:4x4 router=ideal injection_rate=0.1 threads=2
refuse "speedup" run mesh:4x4 internal_speedup=2 injection_rate=0.1 threads=2
refuse "valiant" run mesh:4x4 routing_function=valiant injection_rate=0.1 threads=2
refuse "fattree:2:3" run fattree:2:3 injection_rate=0.1 threads=2
refuse "node_stats" run mesh:4x4 node_stats=1 injection_rate=0.1 threads=3
refuse "check=1" run mesh:4x4 check=1 injection_rate=0.1 threads=2
refuse "--waves" run mesh:4x4 injection_rate=0.1 threads=2 --waves /tmp/noctua-threads-refused.vcd
refuse "programs" run mesh:4x4 threads=2 --program broadcast --quiet
refuse "not a thread count" run mesh:4x4 injection_rate=0.1 threads=-1

if [ $fail -ne 0 ]; then echo "check_threads: FAILED"; exit 1; fi
echo "check_threads: the reports are the same for threads=1, 2 and 3; the refusals name what they refuse"
