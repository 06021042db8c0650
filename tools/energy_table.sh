#!/usr/bin/env bash
# energy_table.sh: derive a noctua energy table (docs/energy.md) from
# BookSim2's power model: its formulas (src/power/power_module.cpp of
# github:booksim/booksim2) evaluated with the device parameters of its
# techfile (src/power/techfile.txt, "2007 ITRS predictions for a 32nm
# high-performance library"). Every per-event energy is the power BookSim2
# charges for an activity factor of 1 divided by its clock frequency fCLK;
# the static figures are its leakage and clock powers: links per bit (wire)
# and mm, routers by their ports and flit width (docs/energy.md); the old
# form's single figures for the sizes given follow as comments. Usage:
#   tools/energy_table.sh TECHFILE [FLIT_BITS [PORTS [BUFFER_FLITS [LINK_CYCLES]]]]
# FLIT_BITS: flit (channel) width in bits (64); PORTS: router inputs =
# outputs (5, a mesh router); BUFFER_FLITS: flits of buffer per input port,
# num_vcs * vc_buf_size (16); LINK_CYCLES: link latency in cycles, each
# cycle BookSim2's wire_length millimetres (1). Prints the table on stdout.
set -euo pipefail
T=${1:?usage: tools/energy_table.sh TECHFILE [FLIT_BITS [PORTS [BUFFER_FLITS [LINK_CYCLES]]]]}
W=${2:-64}
P=${3:-5}
D=${4:-16}
LC=${5:-1}
[ -r "$T" ] || { echo "energy_table.sh: cannot read techfile $T" >&2; exit 2; }
awk -v W="$W" -v P="$P" -v D="$D" -v LC="$LC" -v TF="$T" '
# techfile lines: NAME = VALUE;//comment
{
    line = $0; sub(/\/\/.*/, "", line)
    if (split(line, kv, "=") == 2) {
        k = kv[1]; v = kv[2]; gsub(/[ \t;]/, "", k); gsub(/[ \t;]/, "", v)
        if (k != "") t[k] = v + 0
    }
}
function need(k) { if (!(k in t)) { print "energy_table.sh: " TF " has no " k > "/dev/stderr"; exit 2 } return t[k] }
# power_module.cpp: the formulas, with the same names
function repeatedWire(L, K, M, N,   seg, Ca) { seg = M * N; Ca = K * (Ci + Co) + Cw * (L / seg); return 0.5 * Ca * Vdd * Vdd * fCLK * M * N }
function repeatedWireLeak(K, M, N) { return K * 0.5 * (IoffN + 2.0 * IoffP) * Vdd * M * N }
function wireClk(M, Wd,   cols, len, C) { cols = H_DFQD1 * MetalPitch / ChannelPitch; len = Wd * ChannelPitch
    C = (1 + 5.0 / 16.0 * (1 + Co_delay / Ci_delay)) * (len * Cw * cols + Wd * Ci_delay); return M * C * Vdd * Vdd * fCLK }
function wireDFF(M, Wd, a,   Cdin, Cclk, Cint) { Cdin = 2 * 0.8 * (Ci + Co) + 2 * (2.0 / 3.0 * 0.8 * Co)
    Cclk = 2 * 0.8 * (Ci + Co) + 2 * (2.0 / 3.0 * 0.8 * Cg_pwr); Cint = (a * 0.5) * Cdin + a * Cclk; return Cint * M * Wd * Vdd * Vdd * fCLK }
function wordLine(mw, md,   Ccell, Cwl, Warr, x, Cpre, Cdec, Harr, y, Cprech, Cwren) {
    Ccell = 2 * (4.0 * LAMBDA) * Cg_pwr + 6 * MetalPitch * Cw; Cwl = mw * Ccell
    Warr = 8 * MetalPitch + md; x = 1.0 + (5.0 / 16.0) * (1 + Co / Ci); Cpre = x * (Cw * Warr * Ci); Cdec = x * Cwl
    Harr = 6 * mw * MetalPitch; y = (1 + 0.25) * (1 + Co / Ci)
    Cprech = y * (Cw * Harr + 3 * W * Ci); Cwren = y * (Cw * Harr + 2 * W * Ci)
    return (Cprech + Cwren + 2 * Cpre + Cdec) * Vdd * Vdd * fCLK }
function bitRead(md) { return md * (4.0 * LAMBDA * Cd_pwr + 8 * MetalPitch * Cw) * Vdd * Vdd * fCLK }
function bitWrite(md) { return 0.5 * 2 * (Co + Ci) * Vdd * Vdd + md * (4.0 * LAMBDA * Cd_pwr + 8 * MetalPitch * Cw) * Vdd * Vdd * fCLK }
function crossbar(Wd, I, O, from, to,   Wx, Hx, CwIn, CwOut, Cxi, Cxo, Cti, Cto, Cdrv, Cin, Cout) {
    Wx = Wd * O * CrossbarPitch; Hx = Wd * I * CrossbarPitch; CwIn = Wx * Cw; CwOut = Hx * Cw
    Cxi = (1.0 / 16.0) * CwOut; Cxo = 4.0 * Cxi * (Co_delay / Ci_delay); Cti = (1.0 / 16.0) * CwIn; Cto = 4.0 * Cti * (Co_delay / Ci_delay)
    Cdrv = 5.0 / 16.0 * (1 + Co_delay / Ci_delay) * (0.5 * Cw * Wx + Cti)
    Cin = Cdrv + CwIn + Cti + (O * Cxi); if (to < O / 2) Cin -= (0.5 * CwIn + O / 2 * Cxi)
    Cout = CwOut + Cto + (I * Cxo); if (from < I / 2) Cout -= (0.5 * CwOut + (I / 2 * Cxo))
    return 0.5 * (Cin + Cout) * (Vdd * Vdd * fCLK) }
function crossbarCtrl(Wd, I, O,   Wx, Hx, Cti, Cctrl, Cdrv) { Wx = Wd * O * CrossbarPitch; Hx = Wd * I * CrossbarPitch
    Cti = (5.0 / 16.0) * Wx * Cw; Cctrl = Wd * Cti + (Wx + Hx) * Cw; Cdrv = (5.0 / 16.0) * (1 + Co_delay / Ci_delay) * Cctrl
    return (Cdrv + Cctrl) * Vdd * Vdd * fCLK }
function crossbarLeak(Wd, I, O,   Wx, Hx, Cxi, Cti) { Wx = Wd * O * CrossbarPitch; Hx = Wd * I * CrossbarPitch
    Cxi = (1.0 / 16.0) * Hx * Cw; Cti = (1.0 / 16.0) * Wx * Cw
    return 0.5 * (IoffN + 2 * IoffP) * Wd * (I * O * Cxi + I * Cti + O * Cti) / Ci }
function outputCtrl(Wd,   Wout, C) { Wout = W * ChannelPitch; C = (1 + 5.0 / 16.0) * (1.0 + Co / Ci) * (Wout * Cw + Wd * Ci); return C * Vdd * Vdd * fCLK }
END {
    Vdd = need("Vdd"); R = need("R"); IoffSRAM = need("IoffSRAM"); IoffP = need("IoffP"); IoffN = need("IoffN")
    Cg_pwr = need("Cg_pwr"); Cd_pwr = need("Cd_pwr"); Cgdl = need("Cgdl"); Cg = need("Cg"); Cd = need("Cd")
    LAMBDA = need("LAMBDA"); MetalPitch = need("MetalPitch"); Rw = need("Rw"); Cw_gnd = need("Cw_gnd"); Cw_cpl = need("Cw_cpl")
    wire_length = need("wire_length"); H_DFQD1 = need("H_DFQD1")
    Cw = 2.0 * Cw_cpl + 2.0 * Cw_gnd
    Ci_delay = (1.0 + 2.0) * (Cg + Cgdl); Co_delay = (1.0 + 2.0) * Cd; Ci = (1.0 + 2.0) * Cg_pwr; Co = (1.0 + 2.0) * Cd_pwr
    FO4 = R * (3.0 * Cd + 12 * Cg + 12 * Cgdl); tCLK = 20 * FO4; fCLK = 1.0 / tCLK
    ChannelPitch = 2.0 * MetalPitch; CrossbarPitch = 2.0 * MetalPitch
    # wireOptimize(L): the repeater sizing BookSim2 picks for a channel of length L
    L = LC * wire_length; best = 100000000; bK = -1; bM = -1; bN = -1
    for (K = 1.0; K < 10; K += 0.1)
        for (N = 1.0; N < 40; N += 1.0)
            for (M = 1.0; M < 40.0; M += 1.0) {
                l = 1.0 * L / (N * M); k0 = R * (Co_delay + Ci_delay); k1 = R / K * Cw + K * Rw * Ci_delay; k2 = 0.5 * Rw * Cw
                Tw = k0 + (k1 * l) + k2 * (l * l)
                pw = 0.2 * 64 * repeatedWire(L, K, M, N) + wireDFF(M, 64, 0.2); metric = M * M * M * M * pw
                if ((N * Tw) < (0.8 * tCLK) && metric < best) { best = metric; bK = K; bM = M; bN = N }
            }
    if (bK < 0) { print "energy_table.sh: no repeater sizing meets the clock for a " L " mm link" > "/dev/stderr"; exit 2 }
    pj = 1e12 / fCLK   # W at activity 1 -> pJ per event
    link = (repeatedWire(L, bK, bM, bN) * W + wireDFF(bM, W, 1.0)) * pj
    wl = wordLine(W, D)
    bw = (wl + bitWrite(D) * W) * pj
    br = (wl + bitRead(D) * W) * pj
    xs = 0
    for (i = 0; i < P; i++) for (o = 0; o < P; o++) xs += crossbar(W, P, P, i, o)
    xb = (W * xs / (P * P) + crossbarCtrl(W, P, P)) * pj
    out = (wireDFF(1, W, 1.0) + outputCtrl(W)) * pj
    printf "# noctua energy table derived from BookSim2 src/power/power_module.cpp with %s\n", TF
    printf "# (fCLK %.6g GHz; link of %g mm: repeaters K=%g M=%g N=%g)\n", fCLK / 1e9, L, bK, bM, bN
    printf "# by: tools/energy_table.sh %s %s %s %s %s\n", TF, W, P, D, LC
    printf "name = booksim2-32nm-w%s-p%s-b%s-l%s\n", W, P, D, LC
    printf "flit_bits = %s\n", W
    printf "buffer_write = %.6g\n", bw
    printf "buffer_read = %.6g\n", br
    printf "route = 0\nvc_alloc = 0\nsw_alloc = 0\n"
    printf "crossbar = %.6g\n", xb + out
    printf "credit = 0\n"
    printf "inject = %.6g\n", link
    printf "eject = %.6g\n", link
    printf "leak_buffer_bit = %.6g\n", IoffSRAM * Vdd * 1e6
    printf "clock_ghz = %.6g\n", fCLK / 1e9
    # links per bit and mm: the channel of L mm and W wires above, divided by both
    printf "link_bit_mm = %.6g\n", link / (W * L)
    printf "static_link_bit_mm = %.6g\n", (repeatedWireLeak(bK, bM, bN) * W + wireClk(bM, W)) * 1e6 / (W * L)
    printf "pitch_mm = %.6g\n", wire_length
    # routers by size: powerCrossbarLeak(W, I, O) is a constant times
    # W^2 (I^2 O + I O + O^2); the output registers clock W bits per port
    printf "leak_crossbar = %.6g\n", crossbarLeak(W, P, P) * 1e12 / (W * W * (P * P * P + P * P + P * P))
    printf "clock_output_bit = %.6g\n", wireClk(1, W) * 1e6 / W
    # rtl_toggles=1: one bit toggle of a flip-flop. powerWireDFF charges a
    # write at activity a (a * 0.5) Cdin Vdd^2 a bit for its data, half the
    # bits of random data toggling: Cdin Vdd^2 a toggle (its clock term,
    # a Cclk Vdd^2, is charged per write, not per toggle: left out)
    Cdin = 2 * 0.8 * (Ci + Co) + 2 * (2.0 / 3.0 * 0.8 * Co)
    printf "toggle_bit = %.6g\n", Cdin * Vdd * Vdd * 1e12
    printf "# the old form (one figure per link and per router, for these sizes):\n"
    printf "# link = %.6g\n", link
    printf "# static_link = %.6g\n", (repeatedWireLeak(bK, bM, bN) * W + wireClk(bM, W)) * 1e3
    printf "# static_router = %.6g\n", (crossbarLeak(W, P, P) + P * wireClk(1, W)) * 1e3
}' "$T"
