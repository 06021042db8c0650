#!/usr/bin/env bash
# test_area.sh (ctest rtl.area): tools/rtl_area.sh synthesizes parts of the
# core with yosys and counts gates: the counts are positive, grow with the
# allocator's size (10x10 has more than twice the gates of 5x5, its
# arbiters' request sets doubling in both directions), and a FIFO's grow with
# its depth; bad requests fail with status 2.
set -euo pipefail
src=${1:?usage: test_area.sh SOURCE_DIR}
area() { "$src/tools/rtl_area.sh" "$@" | awk 'NR == 1 { print $5 }'; }
a5=$(area noc_sep_alloc_if N_IN=5 N_OUT=5)
a10=$(area noc_sep_alloc_if N_IN=10 N_OUT=10)
f4=$(area noc_fifo DEPTH=4 WIDTH=64)
f16=$(area noc_fifo DEPTH=16 WIDTH=64)
echo "sep_alloc_if 5x5 $a5, 10x10 $a10; fifo 4x64 $f4, 16x64 $f16 NAND2-eq"
awk -v a="$a5" -v b="$a10" -v c="$f4" -v d="$f16" \
    'BEGIN { exit !(a > 0 && b > 2 * a && c > 0 && d > 3 * c) }' || { echo "FAIL: gate counts do not grow as expected"; exit 1; }
if "$src/tools/rtl_area.sh" no_such_module >/dev/null 2>&1; then echo "FAIL: unknown module accepted"; exit 1; fi
if "$src/tools/rtl_area.sh" noc_fifo DEPTH >/dev/null 2>&1; then echo "FAIL: bad parameter accepted"; exit 1; fi
echo ok
