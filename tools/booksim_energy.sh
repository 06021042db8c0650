#!/usr/bin/env bash
# booksim_energy.sh: noctua's energy figures (docs/energy.md) beside BookSim2's
# power module (sim_power = 1) on one configuration. Run by hand: CI has no
# BookSim2.
#
#   tools/booksim_energy.sh BOOKSIM_BINARY [NOCTUA_BINARY [RATE [K]]]
#
# BOOKSIM_BINARY is BookSim2's src/booksim built from its public repository
# (github.com/booksim/booksim2); its techfile is read from beside it
# (src/power/techfile.txt). Both simulators run a K x K mesh (4) of 2 VCs
# of 8 flits, 1-flit packets, uniform traffic at RATE flits/node/cycle
# (0.2), 10000-cycle sample periods; BookSim2 with sim_power = 1 and
# channel_width = 64, noctua with the table tools/energy_table.sh derives
# from the same techfile for that router (64-bit flits, 5 ports, 16 flits
# a port, 2 mm links). BookSim2 prints powers, not counts: each event rate
# it implies is its power divided by the table's energy of one event times
# its clock (power = events per cycle x energy x fCLK, power_module.cpp).
# noctua's rates are its counts over its window. Printed: a Markdown table.
set -euo pipefail
BS=${1:?usage: tools/booksim_energy.sh BOOKSIM_BINARY [NOCTUA_BINARY [RATE [K]]]}
NOC=${2:-build/noctua}
RATE=${3:-0.2}
K=${4:-4}
here=$(cd "$(dirname "$0")" && pwd)
TECH=$(cd "$(dirname "$BS")" && pwd)/power/techfile.txt
[ -r "$TECH" ] || { echo "booksim_energy.sh: no techfile at $TECH" >&2; exit 2; }
NOC=$(cd "$(dirname "$NOC")" && pwd)/$(basename "$NOC")
BS=$(cd "$(dirname "$BS")" && pwd)/$(basename "$BS")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/net.cfg" <<EOF
topology = mesh;
k = $K;
n = 2;
routing_function = dim_order;
num_vcs = 2;
vc_buf_size = 8;
packet_size = 1;
traffic = uniform;
injection_rate = $RATE;
sample_period = 10000;
EOF
{ cat "$dir/net.cfg"; echo "sim_power = 1;"; echo "tech_file = $TECH;"; echo "channel_width = 64;"
  echo "power_output_file = $dir/pwr;"; } > "$dir/bs.cfg"
# (BookSim2's exit status is not 0 after a power run: its power summary is the test)
(cd "$dir" && "$BS" bs.cfg > bs.out 2>&1) || true
grep -q '^- Completion Time:' "$dir/bs.out" || { echo "booksim_energy.sh: BookSim2 printed no power summary:" >&2
  tail "$dir/bs.out" >&2; exit 1; }
"$here/energy_table.sh" "$TECH" 64 5 16 1 > "$dir/table.txt"
(cd "$dir" && "$NOC" run --config net.cfg flit_width=64 energy=table.txt --json noc.json --quiet 2>/dev/null)
jq -r '.energy | "cycles \(.cycles)", "dyn_mw \(.dynamic_pj / .ns)", "static_mw \(.static_mw.total)",
       (.events | to_entries[] | "ev_\(.key) \(.value)")' "$dir/noc.json" > "$dir/noc.txt"
echo "BookSim2 and noctua, ${K}x${K} mesh, uniform traffic at $RATE flits/node/cycle (tools/booksim_energy.sh)"
echo
awk -v T="$dir/table.txt" -v N="$dir/noc.txt" '
BEGIN {
    while ((getline l < T) > 0) if (split(l, kv, " = ") == 2) t[kv[1]] = kv[2] + 0
    while ((getline l < N) > 0) { split(l, kv, " "); n[kv[1]] = kv[2] + 0 }
}
/^- Completion Time:/ { T_bs = $NF }
/^- Channel Wire Power:/ { wire = $NF } /^- Channel Retiming Power:/ { dff = $NF }
/^- Channel Clock Power:/ { cclk = $NF } /^- Channel Leakage Power:/ { cleak = $NF }
/^- Input Read Power:/ { rd = $NF } /^- Input Write Power:/ { wr = $NF } /^- Input Leakage Power:/ { ileak = $NF }
/^- Switch Power:/ { sw = $NF } /^- Switch Control Power:/ { swc = $NF } /^- Switch Leakage Power:/ { swl = $NF }
/^- Output DFF Power:/ { od = $NF } /^- Output Clk Power:/ { oclk = $NF } /^- Output Control Power:/ { oc = $NF }
function rate(p, pj) { return pj > 0 ? p / (pj * 1e-12 * t["clock_ghz"] * 1e9) : 0 }
function row(what, b, q) { printf "| %s | %.4g | %.4g | %+.1f%% |\n", what, b, q, b ? 100 * (q - b) / b : 0 }
END {
    c = n["cycles"]
    print "| per cycle | BookSim2 (from its powers) | noctua (counted) | noctua vs BookSim2 |"
    print "|---|---|---|---|"
    row("buffer reads", rate(rd, t["buffer_read"]), n["ev_buffer_read"] / c)
    row("buffer writes", rate(wr, t["buffer_write"]), n["ev_buffer_write"] / c)
    row("crossbar traversals", rate(sw + swc + od + oc, t["crossbar"]), n["ev_crossbar"] / c)
    link = t["link_bit_mm"] * t["pitch_mm"] * t["flit_bits"]   # a flit over a 1-cycle link
    row("channel flits (links, injection, ejection)", rate(wire + dff, link),
        (n["ev_link"] + n["ev_inject"] + n["ev_eject"]) / c)
    row("dynamic power, W", wire + dff + rd + wr + sw + swc + od + oc, n["dyn_mw"] / 1000)
    row("static power, W", cclk + cleak + ileak + swl + oclk, n["static_mw"] / 1000)
    printf "\nBookSim2: %d cycles in all (warm-up and drain included); noctua: its %d-cycle window.\n", T_bs, c
}' "$dir/bs.out"
