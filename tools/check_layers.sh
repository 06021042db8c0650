#!/usr/bin/env bash
# check_layers.sh: the folders' libraries call only down the layers of
# DESIGN.md ("Layers"): every noc_ symbol a folder's library uses must be
# defined in that library or in one of the folders below it. A call up the
# layers (a dependency cycle) fails, even where a static link would not
# notice (an archive member pulled in by another caller). ctest
# structure.layers runs it on the build.
#
#   tools/check_layers.sh BUILD_DIR
#
# Symbols miss what a header alone brings (a struct's fields, a static
# inline function, a macro), so the folders' sources are checked too: every
# #include "FOLDER/..." names the folder itself or one below it (the kernel,
# model/, includes nothing of topologies/: it reads a fabric through
# model/graph.h), and no file outside topologies/ (and its unit tests)
# includes topologies/topo_internal.h, where struct noc_topo is. And no
# folder but report/ calls the JSON library.
#
# Exit 0: no call up the layers; 1: the calls found, one a line; 2: usage or
# a library missing.
set -euo pipefail
build=${1:?usage: tools/check_layers.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
# folder: the folders below it (what its library may call)
declare -A below=(
  [util]=""
  [model]="util"
  [topologies]="model util"
  [routers]="model util"
  [traffic]="topologies model util"
  [waves]="model util fstapi"
  [app]="waves traffic routers topologies model util fstapi"
  [report]="app waves traffic routers topologies model util fstapi"
  [cli]="report app waves traffic routers topologies model util fstapi"
)
lib() { echo "$build/libnoctua_$1.a"; }
defined() { nm --defined-only -g "$(lib "$1")" 2>/dev/null | awk 'NF == 3 { print $3 }' | grep '^noc_' || true; }
status=0
for folder in "${!below[@]}"; do
  [ -f "$(lib "$folder")" ] || { echo "check_layers.sh: no $(lib "$folder")" >&2; exit 2; }
  allowed=$(for f in $folder ${below[$folder]}; do defined "$f"; done | sort -u)
  used=$(nm -u "$(lib "$folder")" | awk '{ print $NF }' | grep '^noc_' | sort -u || true)
  bad=$(comm -23 <(echo "$used") <(echo "$allowed") | grep . || true)
  for sym in $bad; do
    owner=""
    for f in "${!below[@]}"; do
      if defined "$f" | grep -x "$sym" >/dev/null; then owner+="$f "; fi
    done
    owner=${owner% }
    echo "check_layers.sh: $folder/ uses $sym, defined in ${owner:-no library} (not below $folder/)"
    status=1
  done
done
# the sources' includes: a folder's own or one below it (headers carry what
# symbols do not show). rtl_core_shim.cpp is no part of the routers'
# library: it is compiled into each Verilated core's shared object, with
# that object's own fstapi and waves/fst_guard.c (routers/rtl/build_model.sh).
apart="routers/rtl/rtl_core_shim.cpp"
for folder in "${!below[@]}"; do
  while IFS=: read -r file line inc; do
    case " $apart " in *" ${file#"$src"/} "*) continue ;; esac
    dir=${inc%%/*}
    [ -n "${below[$dir]+set}" ] || continue # not a folder of the map (fstapi.h, a model's header)
    case " $folder ${below[$folder]} " in *" $dir "*) continue ;; esac
    echo "check_layers.sh: ${file#"$src"/}:$line includes $inc ($dir/ is not below $folder/)"
    status=1
  done < <(grep -rnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/[^"]+"' --include='*.c' --include='*.h' \
             --include='*.cpp' "$src/$folder" | sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]+"/:/; s/"$//')
done
# a topology's inside (struct noc_topo) is topologies/' own: only its files
# and the topology unit tests include topologies/topo_internal.h; the rest
# read a topology through topo.h's functions, the kernel through its graph
while IFS=: read -r file line _; do
  rel=${file#"$src"/}
  case $rel in topologies/* | testbench/unit/topologies/*) continue ;; esac
  echo "check_layers.sh: $rel:$line includes topologies/topo_internal.h (the inside of a topology is topologies/' own)"
  status=1
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"topologies/topo_internal\.h"' --include='*.c' \
           --include='*.h' --include='*.cpp' --exclude-dir=build "$src" || true)
# report/ is the one folder that uses the JSON library (jansson's json_*)
for folder in "${!below[@]}"; do
  [ "$folder" = report ] && continue
  for sym in $(nm -u "$(lib "$folder")" | awk '{ print $NF }' | grep -E '^(json_|jansson_)' | sort -u || true); do
    echo "check_layers.sh: $folder/ uses $sym of jansson: JSON is report/'s alone"
    status=1
  done
done
[ $status -eq 0 ] && echo "check_layers.sh: ${#below[@]} libraries, every noc_ symbol and every include from the same folder or one below"
exit $status
