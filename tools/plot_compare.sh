#!/usr/bin/env bash
# plot_compare.sh: overlay the latency curves of several `noctua sweep` CSVs
# in one picture (gnuplot, Debian's gnuplot-nox).
# usage: tools/plot_compare.sh OUT.png "TITLE" A.csv "label A" [B.csv "label B" ...]
set -euo pipefail
out=$1; title=$2; shift 2
[ $# -ge 2 ] || { echo "usage: $0 OUT.png TITLE A.csv LABEL [B.csv LABEL ...]" >&2; exit 2; }
plots=()
while [ $# -ge 2 ]; do
  plots+=("'$1' skip 1 using 1:3 with linespoints lw 2 pt 7 ps 0.8 title '$2'")
  shift 2
done
{
  echo "set terminal pngcairo size 900,560 font 'sans,11'"
  echo "set output '$out'"
  echo "set datafile separator ','"
  echo "set title '$title'"
  echo "set xlabel 'offered load (flits/node/cycle)'"
  echo "set ylabel 'average latency (cycles)'"
  echo "set yrange [0:400]"
  echo "set grid"
  echo "set key top left"
  printf 'plot %s\n' "$(IFS=,; echo "${plots[*]}")"
} | gnuplot
