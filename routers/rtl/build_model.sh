#!/usr/bin/env bash
# build_model.sh: build one Verilated router core as a shared object for
# routers/rtl (docs/rtl.md, "The RTL datapath"). Called by noctua itself
# (rtl_model.c) when a run needs a parameter set not built yet, and by CMake
# for the default one.
#
#   build_model.sh OUT.so P V DEPTH NCLASS ARB [TRACE]
#
# TRACE 1: with Verilator's FST tracing (for --waves with --router rtl).
# Environment (rtl_model.c sets them from the build's configuration):
#   NOCTUA_SOURCE   the noctua source tree (rtl/*.sv, the shim)
#   VERILATOR       the verilator program      (default: verilator)
#   VERILATOR_ROOT  its include tree           (default: /usr/share/verilator)
#   CXX             the C++ compiler           (default: c++)
#   NOCTUA_RTL_CXXFLAGS  its optimisation flags, words split (default: -O2)
# The object appears under OUT.so only when complete (built in a temporary
# directory beside it, then renamed), so concurrent runs never load half a
# file.
set -euo pipefail
if [ $# -ne 6 ] && [ $# -ne 7 ]; then
  echo "usage: build_model.sh OUT.so P V DEPTH NCLASS ARB [TRACE]" >&2
  exit 2
fi
out=$1 P=$2 V=$3 DEPTH=$4 NCLASS=$5 ARB=$6 TRACE=${7:-0}
src=${NOCTUA_SOURCE:?NOCTUA_SOURCE: the noctua source tree}
verilator=${VERILATOR:-verilator}
vroot=${VERILATOR_ROOT:-/usr/share/verilator}
trace_args=() trace_src=() trace_lib=()
if [ "$TRACE" = 1 ]; then
  # fstapi's fclose and mmap go through waves/fst_guard.c, so a failed
  # write of the trace is seen and never faults (docs/reliability.md)
  trace_args=(--trace-fst)
  trace_src=("$vroot/include/verilated_fst_c.cpp" "$src/waves/fst_guard.c")
  trace_lib=(-lz "-Wl,--wrap=fclose" "-Wl,--wrap=mmap" -DNOC_FST_GUARD_WRAP=1)
fi
read -r -a cxxflags <<<"${NOCTUA_RTL_CXXFLAGS:--O2}"
cxx=${CXX:-c++}
dir=$(dirname "$out")
mkdir -p "$dir"
# A build killed by SIGKILL leaves its folder .build.PID.XXXXXX behind:
# remove those whose process is gone. An interrupted build removes its own.
for old in "$dir"/.build.*; do
  [ -d "$old" ] || continue
  pid=${old##*/.build.}
  pid=${pid%%.*}
  case $pid in ''|*[!0-9]*) rm -rf "$old"; continue ;; esac
  kill -0 "$pid" 2>/dev/null || [ -d "/proc/$pid" ] || rm -rf "$old"
done
tmp=$(mktemp -d "$dir/.build.$$.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; trap - EXIT; exit 130' INT TERM HUP
# the package first, then every module
set -- "$src/rtl/noc_pkg.sv"
for f in "$src"/rtl/*.sv; do
  case $f in *_pkg.sv) ;; *) set -- "$@" "$f" ;; esac
done
"$verilator" --cc -O3 --assert --x-assign fast --x-initial fast -Wno-fatal --Mdir "$tmp" "${trace_args[@]}" \
  --top-module noc_vc_router --prefix Vnoc_rtl_core \
  -GP="$P" -GV="$V" -GDEPTH="$DEPTH" -GFLIT_W=128 -GN_CLASS="$NCLASS" -GARB_KIND="$ARB" "$@" >"$tmp/verilator.log" 2>&1 ||
  { cat "$tmp/verilator.log" >&2; exit 1; }
# The core's flip-flops for rtl_toggles (the shim's toggle count): every
# register of the design is named *_q (rtl/), and Verilator keeps it as a
# member of the model's root class, its width in a comment, e.g.
#   VlWide<5>/*129:0*/ noc_vc_router__DOT__gen_out_port__BRA__0__KET____DOT__u_out__DOT__oflit_q;
#   VlUnpacked<VlWide<5>/*132:0*/, 8> noc_vc_router__DOT__...__DOT__mem_q;
# One X(member, bits) line each; a register this pattern does not read
# stops the build (it would go uncounted).
root_h="$tmp/Vnoc_rtl_core___024root.h"
regs_re='^ *(VlUnpacked<)?[A-Za-z]+(<[0-9]+>)?/\*([0-9]+):0\*/(, [0-9]+>)? (noc_vc_router__DOT__[A-Za-z0-9_]*_q);$'
{
  echo "/* made by routers/rtl/build_model.sh from $(basename "$root_h") */"
  echo "#define NOC_TOGGLE_REGS(X) \\"
  sed -nE "s%${regs_re}%    X(\\5, \\3 + 1) \\\\%p" "$root_h"
  echo
} >"$tmp/noc_toggle_regs.h"
n_all=$(grep -cE ' noc_vc_router__DOT__[A-Za-z0-9_]*_q;$' "$root_h" || true)
n_read=$(grep -cE "$regs_re" "$root_h" || true)
if [ "$n_all" != "$n_read" ] || [ "$n_all" = 0 ]; then
  echo "build_model.sh: $n_all registers (*_q) in $root_h, $n_read of them read for the toggle count" >&2
  exit 1
fi
"$cxx" -std=c++17 "${cxxflags[@]}" -fPIC -shared -fvisibility=hidden -fvisibility-inlines-hidden -Wl,-Bsymbolic \
  -w -I"$tmp" -I"$vroot/include" -I"$vroot/include/vltstd" -I"$src" \
  -DNOC_RTL_P="$P" -DNOC_RTL_V="$V" -DNOC_RTL_DEPTH="$DEPTH" -DNOC_RTL_NCLASS="$NCLASS" -DNOC_RTL_ARB="$ARB" -DNOC_RTL_TRACE="$TRACE" \
  "$tmp"/Vnoc_rtl_core*.cpp "$vroot/include/verilated.cpp" "$vroot/include/verilated_threads.cpp" "$src/routers/rtl/rtl_core_shim.cpp" "${trace_src[@]}" \
  "${trace_lib[@]}" -o "$tmp/model.so"
mv -f "$tmp/model.so" "$out"
