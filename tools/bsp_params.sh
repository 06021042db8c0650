#!/usr/bin/env bash
# bsp_params.sh: measure the BSP parameters g and l of a fabric with a built
# noctua: run the `hrelation` program (one superstep, every PE sends h words)
# for several h, fit cycles = g*h + l by least squares, print g and l
# (docs/algorithms/bsp.md).
#
# usage: tools/bsp_params.sh NOCTUA SPEC [--timing unit|router] [--variant V]
#                            [--hs "1 2 4 8 16 32"] [--seed S] [key=value ...]
#   NOCTUA      the binary (build/noctua)
#   SPEC        the fabric (torus:8x8, hypercube:6, bsn:ring:4, ...)
#   --timing    unit: the papers' model (ideal router, all-port PEs); router
#               (default): the configured router, as `noctua run` does
#   --variant   the h-relation: balanced (default: h random derangements, a
#               full h-relation, h_s = h_r = h), random, total-exchange, shift
#   --hs        the h values (at least two different ones)
#   --seed      the relation's and the data's seed (default 1)
#   key=value   passed on to `noctua run` (e.g. vc_buf_size=256)
# Prints one line per h (cycles and the fit), then "g = ..." and "l = ...".
# Exit status: 0, 2 on bad usage, or the failing run's status.
set -euo pipefail

usage() {
  sed -n '7,19p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 2 ] || usage
bin=$1; spec=$2; shift 2
timing=router; variant=balanced; hs="1 2 4 8 16 32"; seed=1; extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --timing) [ $# -ge 2 ] || usage; timing=$2; shift 2 ;;
    --variant) [ $# -ge 2 ] || usage; variant=$2; shift 2 ;;
    --hs) [ $# -ge 2 ] || usage; hs=$2; shift 2 ;;
    --seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
    *=*) extra+=("$1"); shift ;;
    *) echo "bsp_params.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -x "$bin" ] || { echo "bsp_params.sh: $bin is not an executable (give the built noctua)" >&2; exit 2; }
case $timing in unit|router) ;; *) echo "bsp_params.sh: --timing $timing: expected unit or router" >&2; exit 2 ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The run's total cycles from its JSON report: the top-level "cycles" (the
# report is indented by two spaces a level; steps have their own "cycles").
cycles_of() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$1"
  else
    awk '/^  "cycles": / { gsub(/[^0-9]/, "", $2); print $2; exit }' "$1"
  fi
}

: > "$tmp/points"
for h in $hs; do
  rc=0
  "$bin" run "$spec" ${extra[@]+"${extra[@]}"} --program hrelation --variant "$variant" --h "$h" \
    --seed "$seed" --timing "$timing" --sync steps --json "$tmp/run.json" --quiet 2> "$tmp/err" || rc=$?
  if [ $rc -ne 0 ]; then
    echo "bsp_params.sh: the run with h = $h failed (exit $rc):" >&2
    cat "$tmp/err" >&2
    exit $rc
  fi
  echo "$h $(cycles_of "$tmp/run.json")" >> "$tmp/points"
done

# Least squares of cycles = g h + l over the points; fails on fewer than two
# distinct h.
# shellcheck disable=SC2016 # an awk program: its $1 is awk's
fit_awk='
{ h[NR] = $1; c[NR] = $2; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
END {
  n = NR; d = n * sxx - sx * sx
  if (n < 2 || d == 0) { print "bsp_params.sh: need at least two different h" > "/dev/stderr"; exit 2 }
  g = (n * sxy - sx * sy) / d; l = (sy - g * sx) / n
  printf "fabric %s, timing %s, hrelation --variant %s, seed %s\n", spec, timing, variant, seed
  printf "%8s %10s %10s\n", "h", "cycles", "g*h+l"
  for (i = 1; i <= n; i++) printf "%8d %10d %10.1f\n", h[i], c[i], g * h[i] + l
  printf "g = %.3f\nl = %.3f\n", g, l
}'
awk -v spec="$spec" -v timing="$timing" -v variant="$variant" -v seed="$seed" "$fit_awk" "$tmp/points"
