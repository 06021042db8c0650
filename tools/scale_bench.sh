#!/usr/bin/env bash
# scale_bench.sh: the scale-out benchmark rows (docs/scale.md): one fabric on
# 1 and 2 threads, on 1 and 2 MPI ranks, and a sweep with -j 1 and -j 2;
# for each pair the wall clock, the CPU time, the peak memory, the ratio of
# the wall clocks (the threads' target: 2 threads in <= 0.6 of the time of
# one on 2 idle cores), and whether the outputs are the same (they must
# be). It measures; it does not judge (exit 0 when every run finished).
# Run it on an idle machine: the ratios mean nothing on a loaded one.
#   tools/scale_bench.sh NOCTUA_BINARY [--quick]
# --quick: a 32x32 mesh and a short sweep (a smoke run, for the figures'
# presence only). Needs /usr/bin/time (Debian package time) and, for the
# rank rows, mpirun (openmpi-bin; as root it is allowed for the run).
set -euo pipefail
B=${1:?usage: tools/scale_bench.sh NOCTUA_BINARY [--quick]}
quick=${2:-}
[ -x /usr/bin/time ] || { echo "scale_bench: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ "$quick" = --quick ]; then
  fabric=mesh:32x32 rates=0.05:0.2:0.05 window=2000
else
  fabric=mesh:96x96 rates=0.05:0.5:0.05 window=30000
fi
run=(run "$fabric" injection_rate=0.03 warmup_cycles=200 sample_cycles=300 max_drain_cycles=100 --quiet)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/noctua-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# measure NAME CMD...: the command's wall, user+sys CPU and peak resident set into $tmp/NAME.t
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/$name.t" "$@" >/dev/null 2>"$tmp/$name.err" ||
    { echo "scale_bench: $name failed:" >&2; tail -3 "$tmp/$name.err" >&2; exit 1; }
}
fig() { awk '{ printf "%.2f s wall, %.2f s CPU, %d MB", $1, $2 + $3, $4 / 1024 }' "$tmp/$1.t"; }
ratio() { awk -v a="$(cut -d' ' -f1 "$tmp/$1.t")" -v b="$(cut -d' ' -f1 "$tmp/$2.t")" \
  'BEGIN { printf "%.2f", b / a }'; }
same() { if cmp -s "$1" "$2"; then echo same; else echo DIFFERENT; fi; }

echo "| row | one | two | two / one (wall) | outputs |"
echo "|---|---|---|---|---|"
measure t1 "$B" "${run[@]}" threads=1 --json "$tmp/t1.json"
measure t2 "$B" "${run[@]}" threads=2 --json "$tmp/t2.json"
echo "| $fabric, threads 1 / 2 | $(fig t1) | $(fig t2) | $(ratio t1 t2) | $(same "$tmp/t1.json" "$tmp/t2.json") |"
if command -v mpirun >/dev/null; then
  measure r2 mpirun -n 2 "$B" "${run[@]}" --json "$tmp/r2.json"
  echo "| $fabric, ranks 1 / 2 | $(fig t1) | $(fig r2) | $(ratio t1 r2) | $(same "$tmp/t1.json" "$tmp/r2.json") |"
else
  echo "| $fabric, ranks 1 / 2 | not run: no mpirun (openmpi-bin) | | | |"
fi
sweep=(sweep mesh:8x8 --rates "$rates" warmup_cycles=1000 sample_cycles="$window" --quiet)
measure j1 "$B" "${sweep[@]}" -j 1 -o "$tmp/j1"
measure j2 "$B" "${sweep[@]}" -j 2 -o "$tmp/j2"
echo "| sweep mesh:8x8 $rates, -j 1 / 2 | $(fig j1) | $(fig j2) | $(ratio j1 j2) | $(same "$tmp/j1.csv" "$tmp/j2.csv") |"
