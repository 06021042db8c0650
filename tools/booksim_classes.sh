#!/usr/bin/env bash
# booksim_classes.sh: BookSim2 and noctua side by side on files with traffic
# classes (classes > 1: per-class injection_rate, packet_size, traffic,
# injection_process vectors), each class's packet latency, network latency
# and accepted flit rate, as means over SEEDS seeds (BookSim2's seed key,
# noctua's seed: two different random streams, so the means compare the
# models, not the draws). Prints a Markdown table (docs/booksim.md, Traffic
# classes).
#   tools/booksim_classes.sh BOOKSIM NOCTUA [SEEDS [ONLY]]
# ONLY: run only the rows whose name contains it (e.g. "priority").
# BOOKSIM is BookSim2's binary, built from its public repository
# (github.com/booksim/booksim2: src/, `make`; never vendored here).
set -euo pipefail
BS=${1:?usage: tools/booksim_classes.sh BOOKSIM NOCTUA [SEEDS]}
NOC=${2:?usage: tools/booksim_classes.sh BOOKSIM NOCTUA [SEEDS]}
SEEDS=${3:-3}
ONLY=${4:-}
BS=$(cd "$(dirname "$BS")" && pwd)/$(basename "$BS")
NOC=$(cd "$(dirname "$NOC")" && pwd)/$(basename "$NOC")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

base='topology = mesh; k = 8; n = 2; routing_function = dim_order; num_vcs = 4; vc_buf_size = 8;
sample_period = 5000; latency_thres = 1.0e9;'

# BookSim2's overall per-class figures: "CLASS packet network accepted" lines.
bs_classes() {
  awk '/====== Overall/ { o = 1 } o && /Traffic class/ { c = $4 }
       o && /^Packet latency average/ { p[c] = $5 } o && /^Network latency average/ { n[c] = $5 }
       o && /^Accepted flit rate average/ { a[c] = $6 }
       END { for (k in p) print k, p[k], n[k], a[k] }' | sort -n
}

# noctua's class lines: the same.
noc_classes() {
  awk '$1 == "class" { c = $2; p = $9; split($0, x, "network avg "); split(x[2], y, ","); n = y[1] }
       $1 == "generated" { print c, p, n, $6 }'
}

echo "BookSim2: $BS"
echo "noctua:   $NOC ($("$NOC" --version)), means over seeds 1..$SEEDS"
echo
echo "| config | class | packet latency BookSim2 | noctua | diff % | network latency BookSim2 | noctua | diff % | accepted BookSim2 | noctua | diff % |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"

row() { # NAME KEYS...
  local name=$1
  shift
  if [ -n "$ONLY" ] && [[ $name != *"$ONLY"* ]]; then return; fi
  { echo "$base"; printf '%s\n' "$@"; } >"$work/c.cfg"
  for s in $(seq 1 "$SEEDS"); do
    (cd "$work" && "$BS" c.cfg seed="$s" 2>&1 | bs_classes | sed 's/^/b /') || true
    (cd "$work" && "$NOC" run --config c.cfg seed="$s" 2>/dev/null | noc_classes | sed 's/^/n /') || true
  done | awk -v name="$name" '
    function pct(b, n) { return b == 0 ? "-" : sprintf("%+.1f", 100 * (n - b) / b) }
    { k = $1 " " $2; p[k] += $3; nl[k] += $4; a[k] += $5; cnt[k]++; if ($2 > m) m = $2 }
    END {
      for (c = 0; c <= m; c++) {
        b = "b " c; n = "n " c
        if (!cnt[b] || !cnt[n]) { printf "| %s | %d | - | - | - | - | - | - | - | - | - |\n", name, c; continue }
        bp = p[b] / cnt[b]; np = p[n] / cnt[n]; bn = nl[b] / cnt[b]; nn = nl[n] / cnt[n]
        ba = a[b] / cnt[b]; na = a[n] / cnt[n]
        printf "| %s | %d | %.2f | %.2f | %s | %.2f | %.2f | %s | %.4f | %.4f | %s |\n", name, c, bp, np, pct(bp, np),
          bn, nn, pct(bn, nn), ba, na, pct(ba, na)
      }
    }'
}

row "uniform 1-flit 0.10, transpose 4-flit 0.02" 'classes = 2;' 'injection_rate = {0.10,0.02};' \
  'packet_size = {1,4};' 'traffic = {uniform,transpose};'
row "uniform 1-flit 0.05, uniform 4-flit 0.05" 'classes = 2;' 'injection_rate = {0.05,0.05};' 'packet_size = {1,4};'
row "the same, hold_switch_for_packet = 1" 'classes = 2;' 'injection_rate = {0.05,0.05};' 'packet_size = {1,4};' \
  'hold_switch_for_packet = 1;'
row "3 classes: 1, 2, 8 flits, uniform, bitcomp, uniform" 'classes = 3;' 'injection_rate = {0.05,0.03,0.01};' \
  'packet_size = {1,2,8};' 'traffic = {uniform,bitcomp,uniform};'
row "on_off class 1 (alpha 0.1, beta 0.4)" 'classes = 2;' 'injection_rate = {0.05,0.04};' 'packet_size = {1,2};' \
  'injection_process = {bernoulli,on_off};' 'burst_alpha = 0.1;' 'burst_beta = 0.4;' 'burst_r1 = -1.0;'
row "past saturation: uniform 1-flit 0.3, 4-flit 0.1" 'classes = 2;' 'injection_rate = {0.3,0.1};' \
  'packet_size = {1,4};'
# message priorities among classes
row "priority = class, class 1 above, uniform 1-flit 0.2 each" 'classes = 2;' 'injection_rate = {0.2,0.2};' \
  'priority = class;' 'class_priority = {0,1};'
row "priority = class, class 0 above, 1-flit 0.05, 4-flit 0.08" 'classes = 2;' 'injection_rate = {0.05,0.08};' \
  'packet_size = {1,4};' 'priority = class;' 'class_priority = {1,0};'
row "priority = age, uniform 1-flit 0.15, 4-flit 0.04" 'classes = 2;' 'injection_rate = {0.15,0.04};' \
  'packet_size = {1,4};' 'priority = age;'
