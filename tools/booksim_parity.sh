#!/usr/bin/env bash
# booksim_parity.sh: BookSim2 and noctua side by side on the same config
# files (issue 11, item 6; docs/booksim.md holds the table and says how to
# read it). Run by hand: CI has neither BookSim2 nor the network to fetch it.
#
#   tools/booksim_parity.sh [--patterns] BOOKSIM_BINARY [NOCTUA_BINARY [SET]]
#
# SET: all (the default: everything below), refused (only the check of
# BookSim2's own configs: which of them noctua runs and which it refuses,
# with no simulation but noctua's one-cycle check), wtail (only
# wait_for_tail_credit = 1, where the sources' injection VCs wait for
# their tail's credit too: an 8x8 mesh, 2 VCs of 8 flits, 1-flit and
# 4-flit packets, and 4 VCs with 1-flit packets, from low load to past
# saturation), prio (only message priorities: an 8x8 mesh, 2 VCs of 8
# flits, uniform traffic, with priority none, age, network_age, local_age,
# queue_length, hop_count and sequence, 1-flit packets near and past saturation,
# 4-flit packets near saturation (PRIO_KINDS="..." in the environment
# picks some); per-class priorities are in
# tools/booksim_classes.sh), donate (the same rows with
# vc_priority_donation = 1, for age, network_age and hop_count, the kinds
# it changes with one class; PRIO_KINDS too), empty (vc_prioritize_empty
# = 1 with separable input-first allocators: an 8x8 mesh, 2 VCs of 8
# flits with 1-flit packets and 4 VCs with 4-flit packets, from low load
# to past saturation, and two rows of the latter without it), busy
# (vc_busy_when_full = 1: an 8x8 mesh, 2 VCs of 4 flits, 4-flit packets,
# iSLIP and separable input-first allocators, from low load to past
# saturation, and two rows without it), shuffle (vc_shuffle_requests = 1:
# an 8x8 mesh, 2 VCs of 8 flits with 1-flit packets and 4 VCs with 4-flit
# packets, from low load to past saturation, and the mean over four seeds
# near saturation with and without it), subnets (subnets = 2 with
# use_read_write, every kind on subnet 1: the rw set's mesh rows below
# saturation, which BookSim2 runs as with subnets = 1; past saturation its
# drain of the replies' backlog runs for more than 10 minutes), hold (only the rows of
# hold_switch_for_packet: an 8x8 mesh with 4-flit packets, with and without
# the switch hold, from low load to saturation), wavefront (only the
# switch allocators wavefront and rr_wavefront beside separable
# input-first, on an 8x8 mesh with 4 VCs and 4-flit packets), alloc (only
# the allocator kinds: an 8x8 mesh, 4 VCs of 4 flits, 1-flit packets,
# vc_allocator and sw_allocator both max_size, loa, wavefront,
# rr_wavefront, pim and select, beside separable_input_first, below and
# past saturation; ALLOC_KINDS="..." in the environment picks some) or speedup
# (only input_speedup: BookSim2's examples/mesh88_lat, which has
# input_speedup = 2, as it is and with 1, then the same file with uniform
# traffic, and an 8x8 mesh with 4 VCs and 4-flit packets, each with
# input_speedup 1 and 2 from low load to past saturation), conc (only
# concentration: BookSim2's examples/anynet/anynet_config as shipped (three
# nodes on each of three routers, 1 VC of 3 flits: the ejection channel's
# credits hold flits back), the same with vc_buf_size = 8, and a star of 4
# leaf routers with 4 nodes each around a router without nodes, from low
# load to past saturation) or spec (only speculative switch allocation: an
# 8x8 mesh, 2 VCs of 8 flits, 1-flit packets, separable input-first
# allocators, with speculative = 0, with 1 and spec_sw_allocator = prio,
# and with 1 and a separable input-first spec_sw_allocator, from low load
# to past saturation), fly (only the k-ary n-fly: BookSim2's
# examples/singleconfig, a 10x10 crossbar (fly with k = 10, n = 1), and the
# same file with k = 2, n = 3; k = 4, n = 2; k = 3, n = 3, from low load to
# past saturation), fattree (only the k-ary n-tree with nca routing:
# BookSim2's examples/fattree_config (k = 4, n = 3, 4 VCs of 16 flits,
# hold_switch_for_packet) from low load to past saturation, the same with
# anca instead of nca (and no switch hold), the same with
# k = 2, n = 4 and with k = 8, n = 2, and runfiles/ftreeconfig (bitcomp
# traffic, 16 VCs, iSLIP, wait_for_tail_credit) as shipped and at other
# rates), xy_yx (only BookSim2's xy_yx_mesh: an 8x8 mesh, 2 VCs of 8
# flits, 1-flit packets, uniform and transpose traffic, from low load to
# past saturation), valiant (only valiant_mesh and romm_mesh: the same
# mesh, 2 VCs, uniform and transpose below saturation: past it BookSim2
# runs over 15 minutes a row), adaptive (only min_adapt_mesh,
# adaptive_xy_yx_mesh and planar_adapt_mesh: the same mesh with 2 VCs,
# uniform and transpose from low load to saturation, and with 4 VCs;
# planar_adapt with 6 VCs), rw (only request/reply traffic, use_read_write:
# an 8x8 mesh with 4 VCs, requests on VCs 0-1 and replies on 2-3, 1-flit
# packets and 1/5-flit reads and writes (a 1-flit read request answered by
# 5 flits, a 5-flit write by 1), from low load to saturation and one row
# past it; the same on an 8x8 torus; BookSim2's default ranges with 16
# VCs, which overlap),
# speedup_int (only internal and output speedup: an
# 8x8 mesh, 2 VCs of 8 flits, 4-flit packets, separable input-first
# allocators, BookSim2's example timing (routing_delay = 0, credit_delay =
# 2), with internal_speedup 1.0, 1.5 and 2.0, output_speedup 2, and
# internal_speedup 2.0 with output_buffer_size = 2, from low load to past
# saturation; then BookSim2's runfiles/immutabletest (internal_speedup =
# 1.7), with the routing_function = dim_order it lacks: as shipped both
# stop on it), or dfly (only the dragonfly: dragonflynew with k = 2
# (72 nodes on 36 routers), min routing, 2 VCs of 256 flits, 10-flit
# packets, examples/dragonflyconfig's router with internal_speedup 1,
# uniform traffic from low load to past saturation), or flatfly (only the
# flattened butterfly: BookSim2's examples/flatflyconfig (k = 4, n = 2,
# 2x2 nodes on each of 16 routers, ran_min, 8 VCs of 4 flits, iSLIP) as
# shipped, then from low load to past saturation with use_noc_latency 1
# (its default: links of 2, 4 and 6 cycles) and 0, with transpose traffic,
# with 4-flit packets, and on a 2-ary 4-flat (x = 4)), or ffroute (only
# flatflyconfig with xyyx, adaptive_xyyx (routing_delay 0 as shipped, and
# 1), valiant, ugal and ugal_xyyx (routing_delay 0 and 1), uniform and
# transpose traffic; then dragonflynew k = 2 with ugal, 3 VCs of 256 flits,
# routing_delay 0 and 1, uniform traffic), or trees (only
# BookSim2's qtree and tree4, k = 4, n = 3, nca routing, 4 VCs of 8 flits,
# 1-flit packets, uniform and bitcomp traffic from low load to past
# saturation, and tree4 with anca), or bal (only dim_order_bal_torus: an
# 8x8 torus, 4 VCs of 8 flits, uniform and transpose traffic, beside
# dim_order, from low load to past saturation; BAL_KINDS="..." in the
# environment picks one), torus (only the main table's 8x8 torus rows, 2
# VCs, from low load to past saturation), knee (only the seed spread at
# the knee: the mesh with BookSim2's example timing below (4 VCs,
# 4-flit packets) at 0.08, 0.09, 0.10 and 0.11 packets per node per cycle,
# each with seed = 0 .. 4 in the file, one row a seed, then the means and
# the range of packet latency over the seeds; KNEE_RATES="..." and
# KNEE_SEEDS=N in the environment pick others) or torsat (the same for the
# 8x8 torus with 2 VCs past saturation, at 0.30 and 0.40; TORSAT_RATES
# and KNEE_SEEDS).
# --patterns: instead, the traffic patterns of BookSim2's traffic.cpp that
# noctua's first eight lacked, each at a low and a mid rate, on BookSim2's
# examples/mesh88_lat (8x8 mesh, 8 VCs of 8 flits, 20-flit packets, iSLIP,
# wait_for_tail_credit) with its input_speedup = 2 made 1 (as when these
# rows were first made, before input_speedup was modelled), its traffic and
# rate replaced.
#
# BOOKSIM_BINARY is BookSim2's src/booksim, built from its public
# repository (github.com/booksim/booksim2: make -C src; it needs flex and
# bison), never vendored here. Its own configs are taken from beside it
# (src/examples/, runfiles/): the ones noctua accepts run on both, the
# others are listed with the number of keys noctua refuses. Then a set of
# our own: an 8x8 mesh and an 8x8 torus from low load to past saturation,
# and a mesh with BookSim2's usual example settings.
#
# Both simulators read the same file, with `sample_period = 10000;` added
# (BookSim2's examples measure 1000-cycle periods, too short to compare
# within a few %). Both also get latency_thres=1.0e9 on their command
# lines, so that past saturation they measure instead of stopping as
# unstable (should BookSim2 still end a run as unstable, it gives no
# overall figures, and its last sample period's are used). Printed: a Markdown table of packet latency, network latency
# and accepted throughput (flits/node/cycle), BookSim2's, noctua's and
# noctua's difference in % of BookSim2's.
set -euo pipefail
patterns=0
if [ "${1:-}" = --patterns ]; then patterns=1; shift; fi
BS=${1:?usage: tools/booksim_parity.sh [--patterns] BOOKSIM_BINARY [NOCTUA_BINARY [SET]]}
NOC=${2:-build/noctua}
SET=${3:-all}
case $SET in all|refused|torus|knee|torsat|wtail|prio|donate|empty|busy|shuffle|subnets|hold|wavefront|alloc|speedup|speedup_int|conc|spec|fly|fattree|xy_yx|valiant|adaptive|rw|dfly|flatfly|ffroute|trees|bal) ;; *) echo "booksim_parity.sh: SET is all, refused, torus, knee, torsat, wtail, prio, donate, empty, busy, shuffle, subnets, hold, wavefront, alloc, speedup, speedup_int, conc, spec, fly, fattree, xy_yx, valiant, adaptive, rw, dfly, flatfly, ffroute, trees or bal, not '$SET'" >&2; exit 2 ;; esac
BS=$(cd "$(dirname "$BS")" && pwd)/$(basename "$BS")
NOC=$(cd "$(dirname "$NOC")" && pwd)/$(basename "$NOC")
SRC=$(dirname "$BS")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# BookSim2's figures: packet latency, network latency, accepted flit rate
# (the overall ones, or the last sample period's when it gave none).
booksim_figures() {
  awk '
    /Overall Traffic Statistics/ { overall = 1 }
    /^Packet latency average/  { v = $5; if (overall) op = v; else pp = v }
    /^Network latency average/ { v = $5; if (overall) on = v; else pn = v }
    /^Accepted flit rate average/ {
      line = $0; sub(/.*= */, "", line); sub(/ .*/, "", line)
      if (overall) oa = line; else pa = line }
    END {
      if (oa != "") print op, on, oa, "overall"
      else if (pa != "") print pp, pn, pa, "last-period"
      else print "- - - none" }'
}

# noctua's: packet latency, network latency, accepted, and its state.
noctua_figures() {
  awk '
    $1 == "latency" { p = $3 }
    $1 == "network" { n = $3 }
    $1 == "throughput" { a = $5 }
    $1 == "state" { s = ($2 == "below") ? "below" : "saturated" }
    END { print (p == "" ? "-" : p), (n == "" ? "-" : n), (a == "" ? "-" : a), (s == "" ? "-" : s) }'
}

pct() { # noctua's difference in % of BookSim2's
  awk -v b="$1" -v n="$2" 'BEGIN { if (b == "-" || n == "-" || b + 0 == 0) print "-"; else printf "%+.1f", 100 * (n - b) / b }'
}

row() { # NAME FILE [BookSim2-only KEY=VALUE ...]
  local name=$1 file=$2
  shift 2
  local b n
  # (BookSim2 exits 255 when it ends a run as unstable, noctua 3 on a
  # deadlock: the figures tell)
  b=$( (cd "$work"; "$BS" "$file" latency_thres=1.0e9 "$@" 2>&1) | booksim_figures) || true
  n=$( (cd "$work"; "$NOC" run --config "$file" latency_thres=1.0e9 2>/dev/null) | noctua_figures) || true
  read -r bp bn ba bhow <<<"$b"
  read -r np nn na nstate <<<"$n"
  local lp ln
  lp=$(pct "$bp" "$np")
  ln=$(pct "$bn" "$nn")
  if [ "$nstate" = saturated ]; then lp="(sat.)"; ln="(sat.)"; fi
  echo "| $name | $bp | $np | $lp | $bn | $nn | $ln | $ba | $na | $(pct "$ba" "$na") | $nstate${bhow:+, BookSim2 $bhow} |"
}

echo "BookSim2: $BS"
echo "noctua:   $NOC ($("$NOC" --version))"
echo
echo "| config | packet latency BookSim2 | noctua | diff % | network latency BookSim2 | noctua | diff % | accepted BookSim2 | noctua | diff % | noctua's state |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"

# --patterns: PATTERN LOW MID per line (rates in packets per node per
# cycle, as mesh88_lat's; mid about half way to the pattern's saturation).
# hotspot's two nodes take 64 sources' packets, so its rates are small.
if [ "$patterns" = 1 ]; then
  sed -e 's/^input_speedup *= *2;/input_speedup = 1;/' -e '/^traffic *=/d' -e '/^injection_rate *=/d' \
    "$SRC/examples/mesh88_lat" >"$work/m88"
  while read -r t low mid; do
    for r in $low $mid; do
      { cat "$work/m88"; printf 'traffic = %s;\ninjection_rate = %s;\nsample_period = 10000;\n' "$t" "$r"; } >"$work/pat"
      row "mesh88_lat, $t @ $r" pat
    done
  done <<'PATTERNS'
neighbor 0.005 0.02
randperm 0.005 0.01
diagonal 0.005 0.02
asymmetric 0.005 0.015
taper64 0.005 0.015
badperm_yarc 0.002 0.005
hotspot({{0,63},{1,3}}) 0.0003 0.0006
background({{0,63}}) 0.005 0.01
PATTERNS
  # randperm: noctua draws another permutation than BookSim2 for the same
  # perm_seed (docs/traffic.md), so the rows above compare two
  # permutations; the mean over perm_seed 1..8 compares the patterns.
  for r in 0.005 0.008; do
    for s in 1 2 3 4 5 6 7 8; do
      { cat "$work/m88"; printf 'traffic = randperm;\nperm_seed = %s;\ninjection_rate = %s;\nsample_period = 10000;\n' \
        "$s" "$r"; } >"$work/rp"
      b=$( (cd "$work"; "$BS" rp latency_thres=1.0e9 2>&1) | booksim_figures) || true
      n=$( (cd "$work"; "$NOC" run --config rp latency_thres=1.0e9 2>/dev/null) | noctua_figures) || true
      echo "$b $n"
    done | awk -v name="mesh88_lat, randperm, mean of perm_seed 1..8 @ $r" '
      function pct(b, n) { return b == 0 ? "-" : sprintf("%+.1f", 100 * (n - b) / b) }
      { bp += $1; bn += $2; ba += $3; np += $5; nn += $6; na += $7; k++; if ($8 != "below") st = $8 }
      END {
        printf "| %s | %.4g | %.2f | %s | %.4g | %.2f | %s | %.4g | %.4f | %s | %s |\n", name, bp / k, np / k,
          pct(bp, np), bn / k, nn / k, pct(bn, nn), ba / k, na / k, pct(ba, na), st == "" ? "below in all 8" : st }'
  done
  exit 0
fi

refused=()
accepted=()
{ [ "$SET" = all ] || [ "$SET" = refused ]; } && for f in "$SRC"/examples/* "$SRC"/examples/anynet/anynet_config "$SRC"/../runfiles/*; do
  [ -f "$f" ] || continue
  case $(basename "$f") in README|anynet_file) continue ;; esac
  name=${f#"$SRC"/}
  name=${name#../}
  cp "$f" "$work/cfg"
  printf '\nsample_period = 10000;\n' >>"$work/cfg"
  if err=$(cd "$work" && "$NOC" run --config cfg sample_cycles=1 warmup_cycles=0 --quiet 2>&1 >/dev/null); then
    if [ "$SET" = refused ]; then accepted+=("$name"); else row "$name" cfg; fi
  else
    count=$(grep -c -E '^noctua: [^ ]*:[0-9]+: [^w]|^noctua: [^:]*: no routing' <<<"$err" || true)
    refused+=("$name ($count)")
  fi
done

if [ "$SET" = refused ]; then
  echo "BookSim2's configs that noctua runs: ${accepted[*]:-none}"
  echo "BookSim2's configs that noctua refuses (keys it cannot honour): ${refused[*]:-none}"
  exit 0
fi

own() { # NAME RATE TEXT: one of our configs at injection_rate RATE
  printf '%s\ninjection_rate = %s;\nsample_period = 10000;\n' "$3" "$2" >"$work/own"
  row "$1 @ $2" own
}
seeds() { # NAME RATE TEXT: the same, the mean over seed = 1 to 4 in both (near saturation one seed's latency moves)
  for s in 1 2 3 4; do
    printf '%s\ninjection_rate = %s;\nsample_period = 10000;\nseed = %s;\n' "$3" "$2" "$s" >"$work/seeds"
    b=$( (cd "$work"; "$BS" seeds latency_thres=1.0e9 2>&1) | booksim_figures) || true
    n=$( (cd "$work"; "$NOC" run --config seeds latency_thres=1.0e9 2>/dev/null) | noctua_figures) || true
    echo "$b $n"
  done | awk -v name="$1, mean of seed 1..4 @ $2" '
    function pct(b, n) { return b == 0 ? "-" : sprintf("%+.1f", 100 * (n - b) / b) }
    { bp += $1; bn += $2; ba += $3; np += $5; nn += $6; na += $7; k++; if ($8 != "below") st = $8 }
    END {
      printf "| %s | %.4g | %.2f | %s | %.4g | %.2f | %s | %.4g | %.4f | %s | %s |\n", name, bp / k, np / k,
        pct(bp, np), bn / k, nn / k, pct(bn, nn), ba / k, na / k, pct(ba, na), st == "" ? "below in all 4" : st }'
}
# concentration: several nodes on a router (anynet files)
if [ "$SET" = conc ]; then
  cp "$SRC/examples/anynet/anynet_file" "$work/anynet_file"
  printf 'router 0 router 1 router 2 router 3 router 4\nrouter 1 node 0 node 1 node 2 node 3\nrouter 2 node 4 node 5 node 6 node 7\nrouter 3 node 8 node 9 node 10 node 11\nrouter 4 node 12 node 13 node 14 node 15\n' >"$work/star"
  any=$(sed -e 's/^vc_buf_size *= *3;/vc_buf_size = 8;/' -e '/^injection_rate *=/d' -e 's://.*$::' "$SRC/examples/anynet/anynet_config" | tr '\n' ' ')
  any3=$(sed -e '/^injection_rate *=/d' -e 's://.*$::' "$SRC/examples/anynet/anynet_config" | tr '\n' ' ')
  for r in 0.05 0.10 0.20 0.22 0.25; do own "examples/anynet/anynet_config (vc_buf_size = 3, 1 VC)" "$r" "$any3"; done
  for r in 0.05 0.10 0.20 0.24 0.30; do own "examples/anynet/anynet_file (anynet_config, vc_buf_size = 8)" "$r" "$any"; done
  for r in 0.05 0.10 0.15 0.20 0.30; do own "star of 4 routers x 4 nodes, 2 VCs" "$r" "${any/anynet_file/star} num_vcs = 2;"; done
  exit 0
fi
# the k-ary n-fly: singleconfig (k = 10, n = 1) and three deeper flies
if [ "$SET" = fly ]; then
  fly=$(sed -e '/^injection_rate *=/d' -e '/^sample_period *=/d' -e '/^k *=/d' -e '/^n *=/d' -e 's://.*$::' \
    "$SRC/examples/singleconfig" | tr '\n' ' ')
  for r in 0.2 0.5 0.7 0.9 1.0; do own "examples/singleconfig (fly, k = 10, n = 1)" "$r" "$fly k = 10; n = 1;"; done
  for kn in "2 3" "4 2" "3 3"; do
    read -r k n <<<"$kn"
    for r in 0.2 0.4 0.6 0.8; do own "singleconfig with k = $k, n = $n" "$r" "$fly k = $k; n = $n;"; done
  done
  exit 0
fi
# the k-ary n-tree: fattree_config (k = 4, n = 3) and two other shapes,
# ftreeconfig (bitcomp)
if [ "$SET" = fattree ]; then
  ft=$(sed -e '/^injection_rate *=/d' -e '/^sample_period *=/d' -e '/^k *=/d' -e '/^n *=/d' -e 's://.*$::' \
    "$SRC/examples/fattree_config" | tr '\n' ' ')
  for r in 0.2 0.6 0.8 0.9 1.0; do own "examples/fattree_config (k = 4, n = 3)" "$r" "$ft k = 4; n = 3;"; done
  # anca (adaptive: noctua's adaptive routing has no switch hold; with
  # routing_delay = 0 BookSim2 picks a router ahead, which noctua refuses)
  fa=$(printf '%s\n' "$ft" | sed -e 's/routing_function *= *nca;/routing_function = anca;/' \
    -e 's/hold_switch_for_packet *= *1;/hold_switch_for_packet = 0;/' -e 's/routing_delay *= *0;/routing_delay = 1;/')
  for r in 0.3 0.6 0.8 1.0; do own "fattree_config, anca, no switch hold, routing_delay = 1" "$r" "$fa k = 4; n = 3;"; done
  for kn in "2 4" "8 2"; do
    read -r k n <<<"$kn"
    for r in 0.2 0.6 0.9; do own "fattree_config with k = $k, n = $n" "$r" "$ft k = $k; n = $n;"; done
  done
  { cat "$SRC/../runfiles/ftreeconfig"; printf '\nsample_period = 10000;\n'; } >"$work/ftc"
  row "runfiles/ftreeconfig (bitcomp @ 0.29)" ftc
  ftc=$(sed -e '/^injection_rate *=/d' -e '/^sample_period *=/d' -e 's://.*$::' "$SRC/../runfiles/ftreeconfig" | tr '\n' ' ')
  for r in 0.1 0.45 0.6; do own "runfiles/ftreeconfig (bitcomp)" "$r" "$ftc"; done
  exit 0
fi
# xy_yx: the order drawn per packet, each on half of the VCs
if [ "$SET" = xy_yx ]; then
  xy='topology = mesh; k = 8; n = 2; routing_function = xy_yx; vc_buf_size = 8;'
  for r in 0.05 0.20 0.30 0.45; do own "mesh 8x8, xy_yx, 2 VCs, uniform" "$r" "$xy num_vcs = 2; traffic = uniform;"; done
  for r in 0.05 0.15; do own "mesh 8x8, xy_yx, 2 VCs, transpose" "$r" "$xy num_vcs = 2; traffic = transpose;"; done
  exit 0
fi
# valiant and romm: through a node drawn per packet, each leg on half of the VCs
if [ "$SET" = valiant ]; then
  for rf in valiant romm; do
    vr="topology = mesh; k = 8; n = 2; routing_function = $rf; vc_buf_size = 8; num_vcs = 2;"
    for r in 0.05 0.10; do own "mesh 8x8, $rf, 2 VCs, uniform" "$r" "$vr traffic = uniform;"; done
    [ $rf = romm ] && own "mesh 8x8, $rf, 2 VCs, uniform" 0.20 "$vr traffic = uniform;"
    own "mesh 8x8, $rf, 2 VCs, transpose" 0.05 "$vr traffic = transpose;"
  done
  exit 0
fi
# adaptive: min_adapt_mesh (as BookSim2's route set keeps it) and adaptive_xy_yx_mesh
if [ "$SET" = adaptive ]; then
  for rf in min_adapt adaptive_xy_yx; do
    ad="topology = mesh; k = 8; n = 2; routing_function = $rf; vc_buf_size = 8;"
    for r in 0.05 0.20 0.30; do own "mesh 8x8, $rf, 2 VCs, uniform" "$r" "$ad num_vcs = 2; traffic = uniform;"; done
    for r in 0.05 0.10 0.15; do own "mesh 8x8, $rf, 2 VCs, transpose" "$r" "$ad num_vcs = 2; traffic = transpose;"; done
    for r in 0.20 0.35; do own "mesh 8x8, $rf, 4 VCs, uniform" "$r" "$ad num_vcs = 4; traffic = uniform;"; done
  done
  pl='topology = mesh; k = 8; n = 2; routing_function = planar_adapt; vc_buf_size = 8; num_vcs = 6;'
  for r in 0.05 0.20 0.30; do own "mesh 8x8, planar_adapt, 6 VCs, uniform" "$r" "$pl traffic = uniform;"; done
  own "mesh 8x8, planar_adapt, 6 VCs, transpose" 0.05 "$pl traffic = transpose;"
  exit 0
fi
# request/reply traffic: rates in requests per node per cycle
if [ "$SET" = rw ]; then
  rv='use_read_write = 1; read_request_begin_vc = 0; read_request_end_vc = 1; write_request_begin_vc = 0;
write_request_end_vc = 1; read_reply_begin_vc = 2; read_reply_end_vc = 3; write_reply_begin_vc = 2; write_reply_end_vc = 3;
vc_buf_size = 8; num_vcs = 4; traffic = uniform;'
  sz='read_request_size = 1; read_reply_size = 5; write_request_size = 5; write_reply_size = 1;'
  me="topology = mesh; k = 8; n = 2; routing_function = dim_order; $rv"
  for r in 0.02 0.08 0.13 0.20; do own "mesh 8x8, 4 VCs, use_read_write, 1-flit packets" "$r" "$me"; done
  for r in 0.01 0.03 0.045; do own "mesh 8x8, 4 VCs, use_read_write, 1/5-flit" "$r" "$me $sz"; done
  to="topology = torus; k = 8; n = 2; routing_function = dim_order; $rv"
  for r in 0.02 0.08; do own "torus 8x8, 4 VCs, use_read_write, 1-flit packets" "$r" "$to"; done
  for r in 0.01 0.03; do own "torus 8x8, 4 VCs, use_read_write, 1/5-flit" "$r" "$to $sz"; done
  d16='topology = mesh; k = 8; n = 2; routing_function = dim_order; use_read_write = 1; num_vcs = 16; vc_buf_size = 8;'
  own "mesh 8x8, 16 VCs, use_read_write, BookSim2's default ranges" 0.02 "$d16 $sz"
  own "mesh 8x8, 4 VCs, use_read_write, 1-flit packets" 0.25 "$me" # (past saturation: slow in BookSim2)
  exit 0
fi
# wait_for_tail_credit = 1: a VC, the sources' injection VCs included, takes
# a new packet once its last tail's credit is back
if [ "$SET" = wtail ]; then
  wt='topology = mesh; k = 8; n = 2; routing_function = dim_order; vc_buf_size = 8; wait_for_tail_credit = 1; traffic = uniform;'
  for r in 0.02 0.05 0.07 0.12; do own "mesh 8x8, 2 VCs, wait_for_tail_credit, 1-flit" "$r" "$wt num_vcs = 2;"; done
  for r in 0.01 0.03 0.045 0.08; do own "mesh 8x8, 2 VCs, wait_for_tail_credit, 4-flit" "$r" "$wt num_vcs = 2; packet_size = 4;"; done
  for r in 0.05 0.10 0.15 0.25; do own "mesh 8x8, 4 VCs, wait_for_tail_credit, 1-flit" "$r" "$wt num_vcs = 4;"; done
  exit 0
fi
# message priorities (one class: the allocators rank)
if [ "$SET" = prio ]; then
  pm='topology = mesh; k = 8; n = 2; routing_function = dim_order; vc_buf_size = 8; num_vcs = 2; traffic = uniform;'
  for p in ${PRIO_KINDS:-none age network_age local_age queue_length hop_count sequence}; do
    for r in 0.25 0.28 0.35; do own "mesh 8x8, 2 VCs, 1-flit, priority = $p" "$r" "$pm priority = $p;"; done
    own "mesh 8x8, 2 VCs, 4-flit, priority = $p" 0.065 "$pm priority = $p; packet_size = 4;"
  done
  exit 0
fi
# vc_prioritize_empty = 1: VC allocation takes empty output VCs first
if [ "$SET" = empty ]; then
  em='topology = mesh; k = 8; n = 2; routing_function = dim_order; vc_buf_size = 8; traffic = uniform; vc_allocator = separable_input_first; sw_allocator = separable_input_first;'
  for r in 0.15 0.28 0.35; do own "mesh 8x8, 2 VCs, 1-flit, vc_prioritize_empty" "$r" "$em num_vcs = 2; vc_prioritize_empty = 1;"; done
  for r in 0.05 0.08 0.095 0.12; do own "mesh 8x8, 4 VCs, 4-flit, vc_prioritize_empty" "$r" "$em num_vcs = 4; packet_size = 4; vc_prioritize_empty = 1;"; done
  for r in 0.08 0.095; do own "mesh 8x8, 4 VCs, 4-flit, without it" "$r" "$em num_vcs = 4; packet_size = 4;"; done
  exit 0
fi
# vc_busy_when_full = 1: a free output VC without a credit is not asked for
if [ "$SET" = busy ]; then
  bf='topology = mesh; k = 8; n = 2; routing_function = dim_order; vc_buf_size = 4; num_vcs = 2; packet_size = 4; traffic = uniform;'
  for r in 0.03 0.06 0.07 0.12; do own "mesh 8x8, 2 VCs of 4, 4-flit, iSLIP, vc_busy_when_full" "$r" "$bf vc_busy_when_full = 1;"; done
  sif='vc_allocator = separable_input_first; sw_allocator = separable_input_first;'
  for r in 0.03 0.06 0.07 0.12; do own "mesh 8x8, 2 VCs of 4, 4-flit, separable, vc_busy_when_full" "$r" "$bf $sif vc_busy_when_full = 1;"; done
  for r in 0.06 0.07; do own "mesh 8x8, 2 VCs of 4, 4-flit, iSLIP, without it" "$r" "$bf"; done
  exit 0
fi
# vc_shuffle_requests = 1: the VC allocator's requesters VC-major
if [ "$SET" = shuffle ]; then
  sh='topology = mesh; k = 8; n = 2; routing_function = dim_order; vc_buf_size = 8; traffic = uniform; vc_shuffle_requests = 1;'
  for r in 0.15 0.28 0.35; do own "mesh 8x8, 2 VCs, 1-flit, vc_shuffle_requests" "$r" "$sh num_vcs = 2;"; done
  sif='vc_allocator = separable_input_first; sw_allocator = separable_input_first;'
  for r in 0.05 0.08 0.095 0.12; do own "mesh 8x8, 4 VCs, 4-flit, separable, vc_shuffle_requests" "$r" "$sh $sif num_vcs = 4; packet_size = 4;"; done
  seeds "mesh 8x8, 4 VCs, 4-flit, separable, vc_shuffle_requests" 0.095 "$sh $sif num_vcs = 4; packet_size = 4;"
  seeds "mesh 8x8, 4 VCs, 4-flit, separable, without it" 0.095 "${sh/vc_shuffle_requests = 1;/} $sif num_vcs = 4; packet_size = 4;"
  exit 0
fi
# subnets = 2, every packet kind on subnet 1 (the other network idle)
if [ "$SET" = subnets ]; then
  sn='topology = mesh; k = 8; n = 2; routing_function = dim_order; use_read_write = 1; read_request_begin_vc = 0;
read_request_end_vc = 1; write_request_begin_vc = 0; write_request_end_vc = 1; read_reply_begin_vc = 2; read_reply_end_vc = 3;
write_reply_begin_vc = 2; write_reply_end_vc = 3; vc_buf_size = 8; num_vcs = 4; traffic = uniform;
subnets = 2; read_request_subnet = 1; read_reply_subnet = 1; write_request_subnet = 1; write_reply_subnet = 1;'
  for r in 0.02 0.08 0.13 0.20; do own "mesh 8x8, 4 VCs, use_read_write, subnets = 2 (all on 1)" "$r" "$sn"; done
  sz='read_request_size = 1; read_reply_size = 5; write_request_size = 5; write_reply_size = 1;'
  for r in 0.01 0.03; do own "mesh 8x8, 4 VCs, use_read_write, 1/5-flit, subnets = 2 (all on 1)" "$r" "$sn $sz"; done
  exit 0
fi
# vc_priority_donation = 1: a VC ranks as its highest-ranked flit
if [ "$SET" = donate ]; then
  pm='topology = mesh; k = 8; n = 2; routing_function = dim_order; vc_buf_size = 8; num_vcs = 2; traffic = uniform; vc_priority_donation = 1;'
  for p in ${PRIO_KINDS:-age network_age hop_count}; do
    for r in 0.25 0.28 0.35; do own "mesh 8x8, 2 VCs, 1-flit, priority = $p, donation" "$r" "$pm priority = $p;"; done
    own "mesh 8x8, 2 VCs, 4-flit, priority = $p, donation" 0.065 "$pm priority = $p; packet_size = 4;"
  done
  exit 0
fi
# qtree and tree4 (BookSim2 asserts k = 4, n = 3 for both), nca routing
if [ "$SET" = trees ]; then
  for topo in qtree tree4; do
    tr="topology = $topo; k = 4; n = 3; routing_function = nca; num_vcs = 4; vc_buf_size = 8;"
    if [ $topo = qtree ]; then rates="0.01 0.03 0.045 0.08"; else rates="0.05 0.2 0.35 0.5"; fi
    for r in $rates; do own "$topo, 4 VCs, uniform" "$r" "$tr traffic = uniform;"; done
    for r in 0.02 0.05; do own "$topo, 4 VCs, bitcomp" "$r" "$tr traffic = bitcomp;"; done
  done
  ta="topology = tree4; k = 4; n = 3; routing_function = anca; num_vcs = 4; vc_buf_size = 8;"
  for r in 0.05 0.2 0.3 0.5; do own "tree4, anca, 4 VCs, uniform" "$r" "$ta traffic = uniform;"; done
  exit 0
fi
# dim_order_bal_torus beside dim_order_torus
if [ "$SET" = bal ]; then
  for rf in ${BAL_KINDS:-dim_order_bal dim_order}; do
    tb="topology = torus; k = 8; n = 2; routing_function = $rf; num_vcs = 4; vc_buf_size = 8;"
    for r in 0.1 0.3 0.45 0.6; do own "torus 8x8, $rf, 4 VCs, uniform" "$r" "$tb traffic = uniform;"; done
    for r in 0.1 0.25; do own "torus 8x8, $rf, 4 VCs, transpose" "$r" "$tb traffic = transpose;"; done
  done
  exit 0
fi
# input_speedup: mesh88_lat as it is (speedup 2) and with 1; with uniform
# traffic (rates in packets of 20 flits); a mesh with 4 VCs of 8 flits and
# 4-flit packets (rates in flits), separable input-first allocators
if [ "$SET" = speedup ]; then
  for S in 2 1; do
    { sed -e "s/^input_speedup *= *2;/input_speedup = $S;/" "$SRC/examples/mesh88_lat"; printf '\nsample_period = 10000;\n'; } >"$work/m88"
    row "examples/mesh88_lat, input_speedup = $S" m88
  done
  m88u=$(sed -e '/^input_speedup *=/d' -e '/^traffic *=/d' -e '/^injection_rate *=/d' -e 's://.*$::' "$SRC/examples/mesh88_lat" | tr '\n' ' ')
  for S in 1 2; do
    for r in 0.005 0.015 0.025 0.035; do own "mesh88_lat, uniform, input_speedup = $S" "$r" "$m88u traffic = uniform; input_speedup = $S;"; done
  done
  sp='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 4; vc_buf_size = 8; traffic = uniform;
packet_size = 4; injection_rate_uses_flits = 1; vc_allocator = separable_input_first; sw_allocator = separable_input_first;'
  for S in 1 2; do
    for r in 0.10 0.30 0.40 0.50; do own "mesh 8x8, 4 VCs, 4-flit packets, input_speedup = $S" "$r" "$sp input_speedup = $S;"; done
  done
  exit 0
fi
# internal and output speedup: 2 VCs of 8 flits, 4-flit packets, rates in
# flits, BookSim2's example timing
if [ "$SET" = speedup_int ]; then
  si='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 2; vc_buf_size = 8; traffic = uniform;
packet_size = 4; injection_rate_uses_flits = 1; vc_allocator = separable_input_first;
sw_allocator = separable_input_first; routing_delay = 0; credit_delay = 2;'
  for v in "internal_speedup = 1.0;" "internal_speedup = 1.5;" "internal_speedup = 2.0;" "output_speedup = 2;" \
    "internal_speedup = 2.0; output_buffer_size = 2;"; do
    for r in 0.10 0.30 0.35 0.55; do own "mesh 8x8, 2 VCs, 4-flit packets, $v" "$r" "$si $v"; done
  done
  { cat "$SRC/../runfiles/immutabletest"; printf '\nrouting_function = dim_order;\n'; } >"$work/imm"
  row "runfiles/immutabletest (internal_speedup = 1.7), routing_function = dim_order" imm
  exit 0
fi
# speculative: 2 VCs of 8 flits, 1-flit packets (every flit a head, which
# speculation speeds up), separable input-first allocators (BookSim2's iSLIP
# ranks no request below another)
spec='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 2; vc_buf_size = 8; traffic = uniform;
vc_allocator = separable_input_first; sw_allocator = separable_input_first;'
if [ "$SET" = spec ]; then
  for v in "speculative = 0;" "speculative = 1;" "speculative = 1; spec_sw_allocator = separable_input_first;"; do
    for r in 0.05 0.15 0.25 0.40; do own "mesh 8x8, 2 VCs, $v" "$r" "$spec $v"; done
  done
  exit 0
fi
# the dragonfly: examples/dragonflyconfig's router (internal_speedup 1),
# k = 2, rates in flits
dfly='topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 2; vc_buf_size = 256;
wait_for_tail_credit = 0; vc_allocator = separable_input_first; sw_allocator = separable_input_first;
credit_delay = 2; routing_delay = 0; internal_speedup = 1.0; traffic = uniform; packet_size = 10;
injection_rate_uses_flits = 1;'
if [ "$SET" = dfly ]; then
  for r in 0.10 0.30 0.50 0.55 0.70 0.90; do own "dragonflynew k = 2, 2 VCs of 256 flits, 10-flit packets" "$r" "$dfly"; done
  exit 0
fi
# the flattened butterfly: examples/flatflyconfig as shipped, then at
# other rates (packets of 1 flit, so rates in flits too), other latencies,
# traffic, packets and shapes
if [ "$SET" = flatfly ]; then
  { cat "$SRC/examples/flatflyconfig"; printf '\nsample_period = 10000;\n'; } >"$work/ff"
  row "examples/flatflyconfig" ff
  ff=$(sed -e '/^injection_rate *=/d' -e '/^sample_period *=/d' -e 's://.*$::' "$SRC/examples/flatflyconfig" | tr '\n' ' ')
  for r in 0.30 0.50 0.60 0.65 0.70 0.90; do own "flatflyconfig" "$r" "$ff"; done
  for r in 0.30 0.60 0.70 0.90; do own "flatflyconfig, use_noc_latency = 0" "$r" "$ff use_noc_latency = 0;"; done
  for r in 0.10 0.20 0.30 0.50; do own "flatflyconfig, transpose" "$r" "${ff/uniform/transpose}"; done
  for r in 0.05 0.12 0.15 0.20; do own "flatflyconfig, 4-flit packets" "$r" "$ff packet_size = 4;"; done
  for r in 0.30 0.50; do own "flatflyconfig with k = 2, n = 4" "$r" "$ff k = 2; n = 4;"; done
  exit 0
fi
# the flattened butterfly's other routing functions (xyyx_flatfly,
# adaptive_xyyx_flatfly, valiant_flatfly, ugal_flatfly, ugal_xyyx_flatfly)
# on examples/flatflyconfig
if [ "$SET" = ffroute ]; then
  ff=$(sed -e '/^injection_rate *=/d' -e '/^sample_period *=/d' -e 's://.*$::' "$SRC/examples/flatflyconfig" | tr '\n' ' ')
  for rf in xyyx adaptive_xyyx; do
    for r in 0.30 0.60 0.70 0.90; do own "flatflyconfig, $rf" "$r" "${ff/ran_min/$rf}"; done
    tr=${ff/uniform/transpose}
    for r in 0.10 0.30 0.50; do own "flatflyconfig, $rf, transpose" "$r" "${tr/ran_min/$rf}"; done
  done
  tr=${ff/ran_min/adaptive_xyyx}
  for r in 0.30 0.60 0.90; do own "flatflyconfig, adaptive_xyyx, routing_delay = 1" "$r" "${tr/routing_delay  = 0/routing_delay = 1}"; done
  tr=${tr/uniform/transpose}
  for r in 0.30 0.50; do own "flatflyconfig, adaptive_xyyx, routing_delay = 1, transpose" "$r" "${tr/routing_delay  = 0/routing_delay = 1}"; done
  for r in 0.10 0.20 0.35 0.45 0.60; do own "flatflyconfig, valiant" "$r" "${ff/ran_min/valiant}"; done
  tr=${ff/uniform/transpose}
  for r in 0.10 0.30; do own "flatflyconfig, valiant, transpose" "$r" "${tr/ran_min/valiant}"; done
  for rf in ugal ugal_xyyx; do
    for rd in 0 1; do
      u=${ff/ran_min/$rf}
      u=${u/routing_delay  = 0/routing_delay = $rd}
      for r in 0.30 0.50 0.60 0.90; do own "flatflyconfig, $rf, routing_delay = $rd" "$r" "$u"; done
      for r in 0.10 0.30 0.50; do own "flatflyconfig, $rf, routing_delay = $rd, transpose" "$r" "${u/uniform/transpose}"; done
    done
  done
  # ugal_dragonflynew (its 3 VCs) on the dfly set's dragonflynew
  du=${dfly/routing_function = min; num_vcs = 2;/routing_function = ugal; num_vcs = 3;}
  for rd in 0 1; do
    for r in 0.10 0.30 0.50 0.60 0.90; do
      own "dragonflynew k = 2, ugal, 3 VCs of 256 flits, 10-flit packets, routing_delay = $rd" "$r" "${du/routing_delay = 0/routing_delay = $rd}"
    done
  done
  exit 0
fi
# hold_switch_for_packet: 2 VCs of 8 flits, 4-flit packets, rates in flits
hold='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 2; vc_buf_size = 8; traffic = uniform;
packet_size = 4; injection_rate_uses_flits = 1;'
if [ "$SET" = hold ]; then
  for h in 0 1; do
    for r in 0.10 0.30 0.34 0.45; do own "mesh 8x8, 2 VCs, 4-flit packets, hold_switch_for_packet = $h" "$r" "$hold hold_switch_for_packet = $h;"; done
  done
  exit 0
fi
# the switch allocators, wavefront ones beside separable input-first: 4 VCs
# of 6 flits, 4-flit packets, rates in flits
alloc='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 4; vc_buf_size = 6; traffic = uniform;
packet_size = 4; injection_rate_uses_flits = 1; vc_allocator = separable_input_first;'
if [ "$SET" = wavefront ]; then
  for a in separable_input_first wavefront rr_wavefront; do
    for r in 0.10 0.30 0.45; do own "mesh 8x8, 4 VCs, 4-flit packets, sw_allocator = $a" "$r" "$alloc sw_allocator = $a;"; done
  done
  exit 0
fi
# the allocator kinds for both allocators: 4 VCs of 4 flits, 1-flit packets
kinds='topology = mesh; k = 8; n = 2; routing_function = dim_order; num_vcs = 4; vc_buf_size = 4; traffic = uniform;'
if [ "$SET" = alloc ]; then
  for a in ${ALLOC_KINDS:-separable_input_first max_size loa wavefront rr_wavefront pim select}; do
    for r in 0.10 0.20 0.30 0.60; do own "mesh 8x8, 4 VCs of 4 flits, vc_allocator = sw_allocator = $a" "$r" "$kinds vc_allocator = $a; sw_allocator = $a;"; done
  done
  exit 0
fi
mesh='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 2; vc_buf_size = 8; traffic = uniform;'
torus='topology = torus; k = 8; n = 2; routing_function = dim_order; num_vcs = 2; vc_buf_size = 8; traffic = uniform;'
typical='topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 4; vc_buf_size = 8; routing_delay = 0;
credit_delay = 2; vc_allocator = separable_input_first; sw_allocator = separable_input_first; packet_size = 4;'
# the seed spread: NAME RATE TEXT, with seed = 0 .. KNEE_SEEDS - 1 (both
# simulators read `seed` from the file), one row a seed, then the means
seeds() {
  local s b n
  for s in $(seq 0 $((${KNEE_SEEDS:-5} - 1))); do
    printf '%s\ninjection_rate = %s;\nsample_period = 10000;\nseed = %s;\n' "$3" "$2" "$s" >"$work/seed"
    b=$( (cd "$work"; "$BS" seed latency_thres=1.0e9 2>&1) | booksim_figures) || true
    n=$( (cd "$work"; "$NOC" run --config seed latency_thres=1.0e9 2>/dev/null) | noctua_figures) || true
    echo "$s $b $n"
  done | awk -v name="$1 @ $2" '
    function pct(b, n) { return b == 0 ? "-" : sprintf("%+.1f", 100 * (n - b) / b) }
    function lo(a, b) { return a == "" || b + 0 < a + 0 ? b : a }
    function hi(a, b) { return a == "" || b + 0 > a + 0 ? b : a }
    function g(v) { return v >= 10000 ? sprintf("%.1f", v) : sprintf("%.4g", v) }
    { sat = $9 != "below"
      printf "| %s, seed %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s, BookSim2 %s |\n", name, $1, $2, $6,
        sat ? "(sat.)" : pct($2, $6), $3, $7, sat ? "(sat.)" : pct($3, $7), $4, $8, pct($4, $8), $9, $5
      bp += $2; bn += $3; ba += $4; np += $6; nn += $7; na += $8; k++; if (sat) st = $9
      bl = lo(bl, $2); bh = hi(bh, $2); nl = lo(nl, $6); nh = hi(nh, $6) }
    END {
      printf "| %s, mean of seeds 0..%d (packet latency BookSim2 %s..%s, noctua %s..%s) | %s | %.2f | %s | %.4g | %.2f | %s | %.4g | %.4f | %s | %s |\n",
        name, k - 1, bl, bh, nl, nh, g(bp / k), np / k, st == "" ? pct(bp, np) : "(sat.)", bn / k, nn / k,
        st == "" ? pct(bn, nn) : "(sat.)", ba / k, na / k, pct(ba, na), st == "" ? "below in all" : "saturated" }'
}
if [ "$SET" = torus ]; then
  for r in 0.05 0.15 0.30 0.40 0.50 0.70; do own "torus 8x8, 2 VCs" "$r" "$torus"; done
  exit 0
fi
if [ "$SET" = knee ]; then
  for r in ${KNEE_RATES:-0.08 0.09 0.10 0.11}; do seeds "mesh 8x8, 4 VCs, 4-flit packets, BookSim2's example timing" "$r" "$typical"; done
  exit 0
fi
if [ "$SET" = torsat ]; then
  for r in ${TORSAT_RATES:-0.30 0.40}; do seeds "torus 8x8, 2 VCs" "$r" "$torus"; done
  exit 0
fi
for r in 0.05 0.15 0.25 0.28 0.35 0.45; do own "mesh 8x8, 2 VCs" "$r" "$mesh"; done
for r in 0.05 0.15 0.30 0.40 0.50 0.70; do own "torus 8x8, 2 VCs" "$r" "$torus"; done
for r in 0.02 0.05 0.07 0.10; do own "mesh 8x8, 4 VCs, 4-flit packets, BookSim2's example timing" "$r" "$typical"; done
own "mesh 8x8, 2 VCs, transpose" 0.1 "${mesh/uniform/transpose}"

echo
echo "BookSim2's configs that noctua refuses (keys it cannot honour): ${refused[*]:-none}"
