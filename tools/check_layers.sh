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
# And no folder but report/ calls the JSON library.
#
# Exit 0: no call up the layers; 1: the calls found, one a line; 2: usage or
# a library missing.
set -euo pipefail
build=${1:?usage: tools/check_layers.sh BUILD_DIR}
# folder: the folders below it (what its library may call)
declare -A below=(
  [util]=""
  [topologies]="util"
  [model]="topologies util"
  [routers]="model topologies util"
  [traffic]="model topologies util"
  [waves]="model topologies util fstapi"
  [app]="waves traffic routers model topologies util fstapi"
  [report]="app waves traffic routers model topologies util fstapi"
  [cli]="report app waves traffic routers model topologies util fstapi"
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
# report/ is the one folder that uses the JSON library (jansson's json_*)
for folder in "${!below[@]}"; do
  [ "$folder" = report ] && continue
  for sym in $(nm -u "$(lib "$folder")" | awk '{ print $NF }' | grep -E '^(json_|jansson_)' | sort -u || true); do
    echo "check_layers.sh: $folder/ uses $sym of jansson: JSON is report/'s alone"
    status=1
  done
done
[ $status -eq 0 ] && echo "check_layers.sh: ${#below[@]} libraries, every noc_ symbol from the same folder or one below"
exit $status
