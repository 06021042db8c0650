#!/usr/bin/env bash
# loggopsim_compare.sh: LogGOPSim and noctua's `--timing loggp` side by side
# on the same GOAL schedules (docs/goal.md holds the table and how it was
# made). Run by hand: CI has neither LogGOPSim nor the network to fetch it.
#
#   tools/loggopsim_compare.sh LOGGOPSIM_DIR [NOCTUA_BINARY] -- GOAL_FILE... [-- key=value...]
#
# LOGGOPSIM_DIR holds LogGOPSim's `LogGOPSim` and `txt2bin` binaries, built
# from its public repository (github.com/spcl/LogGOPSim: make in
# src/LogGOPSim; it needs gengetopt, re2c and libgraphviz-dev), never
# vendored here. Each schedule is given to both: to LogGOPSim through
# txt2bin (comment lines, which its parser does not take, removed), to
# noctua placed on complete:P (P ranks; the fabric plays no part under
# --timing loggp). key=value arguments after a second `--` are noctua's
# loggp_* parameters, handed to LogGOPSim as its -L -o -g -G -O -S.
# Printed: a Markdown table of each schedule's maximum finishing time in
# both, and whether every rank's finishing time agrees (LogGOPSim prints
# them for up to 16 ranks). Exit 1 when a schedule's times differ.
set -euo pipefail
usage="usage: tools/loggopsim_compare.sh LOGGOPSIM_DIR [NOCTUA_BINARY] -- GOAL_FILE... [-- key=value...]"
LG=${1:?$usage}
shift
NOC=build/noctua
if [ "${1:-}" != "--" ]; then
  NOC=${1:?$usage}
  shift
fi
[ "${1:-}" = "--" ] || { echo "$usage" >&2; exit 2; }
shift
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do files+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
params=("$@")
lgargs=()
for kv in "${params[@]}"; do
  case "$kv" in
    loggp_[LogGOS]=*) k=${kv%%=*}; lgargs+=("-${k#loggp_}" "${kv#*=}") ;;
    *) echo "loggopsim_compare.sh: only loggp_L, _o, _g, _G, _O, _S are passed to both ($kv)" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| schedule | ranks | ops | LogGOPSim | noctua --timing loggp | every rank |"
echo "|---|---:|---:|---:|---:|---|"
bad=0
for f in "${files[@]}"; do
  name=$(basename "$f")
  grep -v '^[[:space:]]*#' "$f" > "$work/in.goal"
  "$LG/txt2bin" -i "$work/in.goal" -o "$work/in.bin" > /dev/null
  "$LG/LogGOPSim" -f "$work/in.bin" "${lgargs[@]}" > "$work/lgs.txt"
  p=$(awk '/^num_ranks/ { print $2; exit }' "$work/in.goal")
  ops=$(grep -cE '^[[:space:]]*[A-Za-z0-9_]+:[[:space:]]*(send|recv|calc)' "$work/in.goal" || true)
  if grep -q '^Host ' "$work/lgs.txt"; then
    awk '/^Host / { print $3 }' "$work/lgs.txt" > "$work/lgs_ranks.txt"
    lgs=$(sort -n "$work/lgs_ranks.txt" | tail -1)
  else
    lgs=$(awk '/^Maximum finishing time/ { print $(NF-2) }' "$work/lgs.txt")
    : > "$work/lgs_ranks.txt"
  fi
  "$NOC" run "complete:$p" --program-file "$f" --timing loggp "${params[@]}" --json "$work/noc.json" --quiet
  noc=$(sed -n 's/^  "finish": \([0-9]*\),*$/\1/p' "$work/noc.json")
  tr -d ' \n' < "$work/noc.json" | sed -n 's/.*"rank_finish":\[\([0-9,]*\)\].*/\1/p' | tr ',' '\n' |
    awk 'NF' > "$work/noc_ranks.txt"
  ranks="-"
  if [ -s "$work/lgs_ranks.txt" ]; then
    if cmp -s "$work/lgs_ranks.txt" "$work/noc_ranks.txt"; then ranks="same"; else ranks="DIFFER"; bad=1; fi
  fi
  [ "$lgs" = "$noc" ] || bad=1
  echo "| $name | $p | $ops | $lgs | $noc | $ranks |"
done
exit "$bad"
