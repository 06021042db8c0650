#!/usr/bin/env bash
# booksim_speed.sh: how fast noctua's one-thread core is next to BookSim2
# (issue 13, item 6; docs/scale.md, Speed, holds the table): the same
# BookSim2 file through both binaries, each run's simulated cycles and
# time, and the ratio of their cycles per second. Run by hand (CI has no
# BookSim2, and the benchmark, bench/README.md, does not need it):
#
#   tools/booksim_speed.sh BOOKSIM_BINARY NOCTUA_BINARY [ROWS] [RUNS]
#
# BOOKSIM_BINARY is BookSim2's src/booksim (github.com/booksim/booksim2,
# make -C src). ROWS: the workloads to run, comma-separated (default 1,2):
#   1  mesh 8x8, uniform at 0.20 flits/node/cycle (sample_period 10000)
#   2  mesh 32x32, uniform at 0.05 (sample_period 300)
# both with dim_order routing, 2 VCs of 8 flits, 1-flit packets,
# sim_type = latency, warmup_periods = 3, max_samples = 10 (each BookSim2
# run takes some 10-30 s on an idle 2-core machine). RUNS (default 1): each
# binary runs that many times and the fastest run counts.
#
# Times: "user" is the user CPU time of the whole process (/usr/bin/time
# %U: reading the file, building the network, simulating; the last line of
# its output, as BookSim2 exits with 255 after max_samples), the figure the
# ratio is taken on, as it varies least on a shared machine; "own" is each
# simulator's own clock of its run (BookSim2's "Total run time", wall
# clock of its simulation; noctua's "simulated N cycles in T s", wall clock
# of noc_sim_run), whose ratio is printed too. Cycles: BookSim2's "Time
# taken is N cycles", noctua's N of that line.
set -euo pipefail
BS=${1:?usage: tools/booksim_speed.sh BOOKSIM_BINARY NOCTUA_BINARY [ROWS] [RUNS]}
NOC=${2:?usage: tools/booksim_speed.sh BOOKSIM_BINARY NOCTUA_BINARY [ROWS] [RUNS]}
ROWS=${3:-1,2}
RUNS=${4:-1}
BS=$(cd "$(dirname "$BS")" && pwd)/$(basename "$BS")
NOC=$(cd "$(dirname "$NOC")" && pwd)/$(basename "$NOC")
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
  echo "booksim_speed.sh: $TIME (GNU time) is needed for the user CPU times" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# config K RATE SAMPLE_PERIOD: the BookSim2 file of a workload
config() {
  printf 'topology = mesh;\nk = %s;\nn = 2;\nrouting_function = dim_order;\n' "$1"
  printf 'num_vcs = 2;\nvc_buf_size = 8;\ntraffic = uniform;\ninjection_rate = %s;\n' "$2"
  printf 'packet_size = 1;\nsim_type = latency;\nwarmup_periods = 3;\n'
  printf 'sample_period = %s;\nmax_samples = 10;\n' "$3"
}

# once BIN FILE: "cycles own-seconds user-seconds" of one run of BIN
# (booksim or noctua) on FILE, or nothing if the run printed no figures
once() {
  local out="$work/out" tm="$work/time"
  if [ "$1" = booksim ]; then
    (cd "$work" && "$TIME" -f '%U' -o "$tm" "$BS" "$2" >"$out" 2>&1) || true
    awk -v u="$(tail -n 1 "$tm" 2>/dev/null || true)" '
      /Time taken is/ { c = $4 }
      /Total run time/ { t = $NF }
      END { if (c != "" && t != "") print c, t, u }' "$out"
  else
    (cd "$work" && "$TIME" -f '%U' -o "$tm" "$NOC" run --config "$2" >/dev/null 2>"$out") || true
    awk -v u="$(tail -n 1 "$tm" 2>/dev/null || true)" '
      /^noctua: simulated/ { c = $3; t = $6 }
      END { if (c != "" && t != "") print c, t, u }' "$out"
  fi
}

# best BIN FILE: the fastest of RUNS runs (least user time), as once prints
best() {
  local r line keep=""
  for ((r = 0; r < RUNS; r++)); do
    line=$(once "$1" "$2")
    if [ -z "$line" ]; then
      echo "booksim_speed.sh: $1 printed no cycles and time on $2" >&2
      exit 1
    fi
    if [ -z "$keep" ] || awk -v a="$line" -v b="$keep" 'BEGIN { split(a, x); split(b, y); exit !(x[3] < y[3]) }'; then
      keep=$line
    fi
  done
  echo "$keep"
}

row() { # NAME FILE
  local b n
  b=$(best booksim "$2")
  n=$(best noctua "$2")
  awk -v name="$1" -v b="$b" -v n="$n" 'BEGIN {
    split(b, x); split(n, y)
    bu = x[1] / x[3]; nu = y[1] / y[3]
    printf "| %s | %d | %.2f | %.2f | %.0f | %d | %.3f | %.3f | %.0f | %.1fx | %.1fx |\n",
      name, x[1], x[2], x[3], bu, y[1], y[2], y[3], nu, nu / bu, (y[1] / y[2]) / (x[1] / x[2]) }'
}

echo "| workload | BookSim2 cycles | own s | user s | cycles/s (user) | noctua cycles | own s | user s | cycles/s (user) | ratio (user) | ratio (own) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
IFS=, read -r -a rows <<<"$ROWS"
for r in "${rows[@]}"; do
  case $r in
    1) config 8 0.20 10000 >"$work/m88.cfg"; row "mesh 8x8, uniform 0.20" "$work/m88.cfg" ;;
    2) config 32 0.05 300 >"$work/m3232.cfg"; row "mesh 32x32, uniform 0.05" "$work/m3232.cfg" ;;
    *) echo "booksim_speed.sh: no workload '$r' (1 or 2)" >&2; exit 2 ;;
  esac
done
