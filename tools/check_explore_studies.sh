#!/usr/bin/env bash
# check_explore_studies.sh: runs examples/explore/bsn_table4.ini with the ideal
# router only and checks step counts worked from the BSN paper's formulas
# (docs/exploration_papers.md): BSN-Mesh broadcast 4m - 2 = 6 (m = 2), OTIS
# broadcast and data sum 2 D + 1 = 9 (D(mesh:2x4) = 4), hypercube:5 broadcast
# log2 32 = 5. Usage: check_explore_studies.sh NOCTUA SOURCE_DIR
set -euo pipefail
noctua=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$noctua" explore --study "$src/examples/explore/bsn_table4.ini" router=ideal \
    -j 1 -q -o "$tmp/t" > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
fail=0
want() { # FABRIC WORKLOAD CYCLES
    got=$(awk -F, -v f="\"$1\"" -v w="\"$2\"" '$1 == f && $3 == w { print $15 }' "$tmp/t.csv")
    if [ "$got" != "$3" ]; then
        echo "FAIL: $1 $2: $got cycles, expected $3"
        fail=1
    fi
}
want bsn:mesh:2x2 broadcast:1 6
want otis:mesh:2x4 broadcast:1 9
want otis:mesh:2x4 data-sum:1 9
want hypercube:5 broadcast:1 5
rows=$(grep -c '^"' "$tmp/t.csv")
[ "$rows" = 24 ] || { echo "FAIL: $rows rows, expected 8 fabrics x 3 workloads"; fail=1; }
exit "$fail"
