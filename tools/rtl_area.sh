#!/usr/bin/env bash
# rtl_area.sh: gate count of one module of rtl/ for given parameters, with
# yosys (Debian): synthesized flat to NAND gates, inverters and flip-flops
# (abc -g NAND), counted as cells and as NAND2 equivalents.
#
#   tools/rtl_area.sh MODULE [PARAM=VALUE ...]
#   tools/rtl_area.sh noc_sep_alloc_if N_IN=5 N_OUT=5
#   tools/rtl_area.sh noc_fifo DEPTH=8 WIDTH=64
#
# Prints "MODULE cells N nand2 E" and the cell breakdown. NAND2 equivalents
# weigh a 2-input NAND 1, an inverter 0.67, a flip-flop 6 (a D flip-flop
# with its enable and asynchronous reset in a typical standard-cell
# library); they are for comparing designs, not a sign-off area
# (docs/area.md). The weights are read from routers/rtl/area.h (NOC_AREA_W_*), the
# one place they are written, so this script and `noctua area` agree; the
# yosys script below is the one routers/rtl/area.c runs for the router core.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,16p' "$0"; exit 2; }
module=$1
shift
command -v yosys >/dev/null || { echo "rtl_area.sh: yosys is not installed (apt-get install yosys)" >&2; exit 2; }
[ -f "rtl/$module.sv" ] || { echo "rtl_area.sh: no module rtl/$module.sv" >&2; exit 2; }
params=""
for kv in "$@"; do
  case "$kv" in
    *=*) params="$params -set ${kv%%=*} ${kv#*=}" ;;
    *) echo "rtl_area.sh: expected PARAM=VALUE, got '$kv'" >&2; exit 2 ;;
  esac
done
# The weights: "#define NOC_AREA_W_NAND 1.0" and so on, from routers/rtl/area.h.
weight() { sed -n "s/^#define NOC_AREA_W_$1 \([0-9.][0-9.]*\).*/\1/p" routers/rtl/area.h; }
w_nand=$(weight NAND) w_not=$(weight NOT) w_ff=$(weight FF)
if [ -z "$w_nand" ] || [ -z "$w_not" ] || [ -z "$w_ff" ]; then
  echo "rtl_area.sh: no NOC_AREA_W_NAND, _NOT, _FF in routers/rtl/area.h" >&2; exit 1
fi
sources="rtl/noc_pkg.sv"
for f in rtl/*.sv; do [ "$f" = rtl/noc_pkg.sv ] || sources="$sources $f"; done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
script="read_verilog -sv $sources; "
[ -n "$params" ] && script="$script chparam $params $module; "
script="$script synth -flatten -top $module; abc -g NAND; opt_clean; stat"
if ! yosys -q -p "$script" -l "$log" >/dev/null 2>&1; then
  echo "rtl_area.sh: yosys failed; its log:" >&2
  tail -20 "$log" >&2
  exit 1
fi
# yosys 0.23 reads a field select of an element of an array of structs, or
# of a struct declared in a generate or procedural block, as a wire of its
# own, with only a warning, and synthesizes a wrong circuit (noc_pkg.sv):
# stop on those warnings instead of counting it.
if grep -E "is implicitly declared|Range select out of bounds|Setting result bit to undef" "$log" >&2; then
  echo "rtl_area.sh: yosys misread the sources (the warnings above)" >&2
  exit 1
fi
awk -v m="$module" -v wn="$w_nand" -v wi="$w_not" -v wf="$w_ff" '
  /Number of wires:/ { cells = ""; nand = inv = ff = 0; kinds = "" } # keep the last statistics only
  /Number of cells:/ { cells = $4 }
  /\$_NAND_/ { nand += $2; kinds = kinds sprintf("  %-18s %d\n", $1, $2) }
  /\$_NOT_/  { inv += $2;  kinds = kinds sprintf("  %-18s %d\n", $1, $2) }
  /\$_.*DFF.*_/ { ff += $2; kinds = kinds sprintf("  %-18s %d\n", $1, $2) }
  END {
    if (cells == "") { print "rtl_area.sh: no statistics in the yosys log" > "/dev/stderr"; exit 1 }
    printf "%s cells %d nand2 %.1f\n%s", m, cells, wn * nand + wi * inv + wf * ff, kinds
  }' "$log"
