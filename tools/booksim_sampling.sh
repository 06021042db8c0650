#!/usr/bin/env bash
# booksim_sampling.sh: BookSim2's sample periods and noctua's side by side
# (issue 11, item 2; docs/booksim.md, Sampling, holds the table): the same
# BookSim2 file through both, with its own sample_period, max_samples and
# thresholds, and how each ended: sample periods run (warm-up ones among
# them), converged / max_samples / unstable, and the cycles simulated.
# Run by hand (CI has no BookSim2):
#
#   tools/booksim_sampling.sh BOOKSIM_BINARY [NOCTUA_BINARY]
#
# BOOKSIM_BINARY is BookSim2's src/booksim (github.com/booksim/booksim2,
# make -C src); its src/examples/torus88 is read from beside it.
set -euo pipefail
BS=${1:?usage: tools/booksim_sampling.sh BOOKSIM_BINARY [NOCTUA_BINARY]}
NOC=${2:-build/noctua}
BS=$(cd "$(dirname "$BS")" && pwd)/$(basename "$BS")
NOC=$(cd "$(dirname "$NOC")" && pwd)/$(basename "$NOC")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# BookSim2: periods (one "latency change" line each), warm-up cycles, the
# end, and "Time taken" (absent when it ends a run as unstable). It says
# nothing when it stops measuring on max_samples: periods = max_samples
# (its first argument) tell.
booksim_end() {
  awk -v max="$1" '
    /latency change/ { p++ }
    /Warmed up/ { w = $NF; sub(/cycles/, "", w); w = $(NF - 1) }
    /Aborting simulation/ { how = "unstable" }
    /Too many sample periods/ { if (how == "") how = "max_samples" }
    /Time taken is/ { t = $4 }
    END { if (how == "") how = (p >= max) ? "max_samples" : "converged"
          print p, (w == "" ? "-" : w), how, (t == "" ? "-" : t) }'
}

# noctua: the same from its text report.
noctua_end() {
  awk '
    $1 == "cycles" { t = $2; w = $4; sub(/,/, "", w) }
    $1 == "sampling" { p = $2; how = $NF }
    END { print p, w, how, t }'
}

row() { # NAME RATE FILE [MAX_SAMPLES]
  local b n
  b=$( (cd "$work"; "$BS" "$3" injection_rate="$2" 2>&1) | booksim_end "${4:-10}") || true
  n=$( (cd "$work"; "$NOC" run --config "$3" injection_rate="$2" 2>/dev/null) | noctua_end) || true
  read -r bp bw bhow bt <<<"$b"
  read -r np nw nhow nt <<<"$n"
  echo "| $1 @ $2 | $bp | $bw | $bhow | $bt | $np | $nw | $nhow | $nt |"
}

echo "| config @ injection_rate | BookSim2 periods | warm-up cycles | end | cycles | noctua periods | warm-up cycles | end | cycles |"
echo "|---|---|---|---|---|---|---|---|---|"
cp "$(dirname "$BS")/examples/torus88" "$work/torus88"
for r in 0.05 0.15 0.25 0.30 0.40; do row "examples/torus88" "$r" torus88; done
{ cat "$work/torus88"; echo "warmup_periods = 0;"; } >"$work/torus88w0"
for r in 0.05 0.15 0.25; do row "examples/torus88, warmup_periods = 0" "$r" torus88w0; done
{ cat "$work/torus88"; echo "sim_type = throughput;"; } >"$work/torus88tp"
for r in 0.15 0.40; do row "examples/torus88, sim_type = throughput" "$r" torus88tp; done
printf 'topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 2; vc_buf_size = 8;\n' >"$work/mesh88"
for r in 0.15 0.28 0.35; do row "mesh 8x8, 2 VCs" "$r" mesh88; done
printf 'topology = mesh; k = 4; n = 2; routing_function = dor; num_vcs = 2; max_samples = 4;\n' >"$work/mesh44"
for r in 0.2 0.5; do row "mesh 4x4, max_samples = 4" "$r" mesh44 4; done
