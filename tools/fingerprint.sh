#!/usr/bin/env bash
# fingerprint.sh: run a fixed set of configurations and print a hash of each
# JSON report. Two builds that simulate the same cycles print the same list;
# use it to check that an optimisation changed no cycle:
#   tools/fingerprint.sh build/noctua > before.txt; ...; tools/fingerprint.sh build/noctua | diff before.txt -
set -euo pipefail
B=${1:?usage: tools/fingerprint.sh NOCTUA_BINARY}
while read -r line; do
  if [ -z "$line" ]; then continue; fi
  # a run that fails prints no report: FAILED below, and the list goes on
  # shellcheck disable=SC2086 # the line's words are separate arguments
  out=$("$B" run $line sample_cycles=2000 warmup_cycles=300 --json - 2>/dev/null) || true
  # the "config" object is left out: a new parameter (at its default) adds
  # a key there without changing a cycle
  if [ -z "$out" ]; then h="FAILED      "
  else h=$(printf '%s\n' "$out" | sed '/^  "config": {/,/^  }/d' | md5sum | cut -c1-12); fi
  echo "$h  $line"
done <<'LIST'
mesh:8x8 injection_rate=0.2
mesh:8x8 injection_rate=0.45 packet_size=5
mesh:4x4 injection_rate=0.6 packet_size=4 vc_allocator=islip sw_allocator=islip alloc_iters=3
torus:4x4 injection_rate=0.5 num_vcs=4 vc_buf_size=2 arb_type=matrix
torus:8x8 injection_rate=0.3 packet_size=3 lookahead=1
hypercube:5 injection_rate=0.4 packet_size=2 vc_allocator=separable_output_first
torus:3x3x3 injection_rate=0.3 traffic=tornado num_vcs=3 vc_buf_size=1 routing_delay=0 vc_alloc_delay=0 sw_alloc_delay=0 st_final_delay=0
mesh:3x5 injection_rate=0.35 traffic=uniform routing_delay=2 vc_alloc_delay=2 sw_alloc_delay=2 credit_delay=3 link_latency=2
ring:8 injection_rate=0.5
mesh:8x8 injection_rate=0.3 traffic=hotspot hotspot_rate=0.1 num_vcs=3
torus:4x4 router=ideal injection_rate=0.6 packet_size=4
mesh:8x8 router=ideal injection_rate=0.3
bsn:mesh:4x4 injection_rate=0.25 packet_size=2
otis:ring:6 injection_rate=0.3 num_vcs=6
pyramid:3 injection_rate=0.2 traffic=hotspot hotspot_rate=0.2
circulant:16:1,4 injection_rate=0.4 packet_size=3 vc_allocator=islip
mesh:8x8 num_vcs=4 use_read_write=1 read_reply_size=5 write_request_size=5 write_fraction=0.3 injection_rate=0.3
torus:4x4 num_vcs=6 use_read_write=1 read_request_end_vc=1 write_request_end_vc=1 injection_rate=0.5
LIST
