#!/usr/bin/env bash
# booksim_batch.sh: BookSim2's batch runs (sim_type = batch) and noctua's
# side by side (issue 11, item 2; docs/booksim.md, Batch runs, holds the
# table): the same BookSim2 file through both, over SEEDS seeds (the key
# seed = 1 ..), and the means of the packet and network latency, the
# accepted flit rate and the batch duration, with noctua's difference in
# percent. Run by hand (CI has no BookSim2):
#
#   tools/booksim_batch.sh BOOKSIM_BINARY [NOCTUA_BINARY] [SEEDS]
#
# BOOKSIM_BINARY is BookSim2's src/booksim (github.com/booksim/booksim2,
# make -C src).
set -euo pipefail
BS=${1:?usage: tools/booksim_batch.sh BOOKSIM_BINARY [NOCTUA_BINARY] [SEEDS]}
NOC=${2:-build/noctua}
SEEDS=${3:-4}
BS=$(cd "$(dirname "$BS")" && pwd)/$(basename "$BS")
NOC=$(cd "$(dirname "$NOC")" && pwd)/$(basename "$NOC")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The configurations: a name, then the file's lines ('|' between them).
MESH="topology = mesh|k = 8|n = 2|routing_function = dim_order|num_vcs = 4|vc_buf_size = 4|sim_type = batch"
RW="use_read_write = 1|read_reply_size = 4|write_request_size = 4|read_request_begin_vc = 0|read_request_end_vc = 1"
RW="$RW|write_request_begin_vc = 0|write_request_end_vc = 1|read_reply_begin_vc = 2|read_reply_end_vc = 3"
RW="$RW|write_reply_begin_vc = 2|write_reply_end_vc = 3"
TORUS="topology = torus|k = 8|n = 2|routing_function = dim_order|num_vcs = 4|vc_buf_size = 4|sim_type = batch"
CONFIGS=(
  "mesh 8x8, 1-flit, at most 4 unanswered;$MESH|batch_size = 1000|max_outstanding_requests = 4"
  "mesh 8x8, 4-flit, at most 4 unanswered;$MESH|batch_size = 1000|max_outstanding_requests = 4|packet_size = 4"
  "mesh 8x8, 1-flit, no limit (saturated);$MESH|batch_size = 200"
  "mesh 8x8, requests and replies, at most 4;$MESH|batch_size = 1000|max_outstanding_requests = 4|$RW"
  "torus 8x8, 2 batches, at most 8 unanswered;$TORUS|batch_size = 500|batch_count = 2|max_outstanding_requests = 8"
)

# BookSim2's overall figures: packet latency, network latency, accepted
# flit rate, average batch duration.
booksim_figures() {
  awk '/^Packet latency average = .*samples/ { p = $5 }
       /^Network latency average = .*samples/ { n = $5 }
       /^Accepted flit rate average = .*samples/ { a = $6 }
       /^Overall min batch duration/ { if (++k == 2) d = $6 }
       END { print p, n, a, d }' "$1"
}

# noctua's, from its text report.
noctua_figures() {
  awk '$1 == "latency" { p = $3 }
       $1 == "network" { n = $3 }
       $1 == "throughput" { a = $5 }
       $1 == "batches" { d = $3 }
       END { print p, n, a, d }' "$1"
}

echo "| config | BookSim2 latency | noctua | BookSim2 network latency | noctua | BookSim2 accepted | noctua | BookSim2 batch cycles | noctua |"
echo "|---|---|---|---|---|---|---|---|---|"
for c in "${CONFIGS[@]}"; do
  name=${c%%;*}
  body=${c#*;}
  : > "$work/sums"
  for seed in $(seq 1 "$SEEDS"); do
    { tr '|' '\n' <<<"$body" | sed 's/$/;/'; echo "seed = $seed;"; } > "$work/run.cfg"
    # (BookSim2 exits 255 when its run succeeded: main.cpp returns -1 for true)
    "$BS" "$work/run.cfg" > "$work/bs.out" || true
    grep -q "^Overall min batch duration" "$work/bs.out" || { echo "BookSim2 failed on $name" >&2; exit 1; }
    (cd "$work" && "$NOC" run --config run.cfg > noc.out 2>/dev/null)
    echo "$(booksim_figures "$work/bs.out") $(noctua_figures "$work/noc.out")" >> "$work/sums"
  done
  awk -v name="$name" '
    { for (i = 1; i <= 8; i++) s[i] += $i; k++ }
    END {
      line = "| " name
      for (i = 1; i <= 4; i++) {
        b = s[i] / k; m = s[i + 4] / k
        f = (i == 3) ? "%.4f" : "%.2f"
        line = line sprintf(" | " f " | " f " (%+.1f%%)", b, m, 100 * (m - b) / b)
      }
      print line " |"
    }' "$work/sums"
done
