/* test_energy.c: the energy figures (model/energy.h, app/energy_file.h,
 * docs/energy.md) on hand-worked cases of the vc router.
 *   - Events of one flit over one link (mesh:2): the NI injects it into
 *     router 0's local input buffer (inject, buffer write); router 0 routes
 *     it, allocates it an output VC and the switch, reads it out, crosses
 *     its crossbar, sends the NI a credit, and the link carries it; router 1
 *     writes it into its buffer and does the same again toward its NI
 *     (eject), its credit going back to router 0. So each router: 1 write,
 *     1 read, 1 route, 1 VC and 1 switch allocation, 1 crossing, 1 credit;
 *     1 link, 1 injection (router 0), 1 ejection (router 1).
 *   - A k-flit packet over h hops passes h + 1 routers: k(h + 1) writes,
 *     reads, switch allocations, crossings and credits, h + 1 route
 *     computations and VC allocations (heads), kh link traversals, k
 *     injections and k ejections; the routers past its destination none.
 *   - Energy is the sum of counts times the table's entries: with entries
 *     of distinct powers of two the sum is exact and names any count off.
 *   - A program's steps: each step's events from the formulas above.
 *   - Table files: a bad line refused naming the file, the line and the
 *     key; the CLI exits 2 on one.
 *   - router_leakage=gates: a router's static power is its core's cells x
 *     the leakage per cell (an enable as a 3-NAND, 1-NOT multiplexer) and
 *     its output clock, on mesh:3 with cell counts passed in; refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/energy.h"
#include "model/pe.h"
#include "app/energy_file.h"
#include "testbench/unit/script_traffic.h"
#include "testbench/unit/pe_run_test.h"
#include "testbench/unit/cmd_test.h"

/* The expected events of a k-flit packet over h hops (k packets' worth of
 * flits, `packets` heads), all routers together. */
static void packet_events(uint64_t *ev, uint64_t k, uint64_t h, uint64_t packets)
{
    memset(ev, 0, NOC_EV_SLOTS * sizeof *ev);
    ev[NOC_EV_BUF_WRITE] = ev[NOC_EV_BUF_READ] = ev[NOC_EV_SW_ALLOC] = ev[NOC_EV_XBAR] = ev[NOC_EV_CREDIT] =
        k * (h + 1);
    ev[NOC_EV_ROUTE] = ev[NOC_EV_VC_ALLOC] = packets * (h + 1);
    ev[NOC_EV_LINK] = ev[NOC_EV_LINK_PITCHES] = k * h; /* 1-cycle links: one pitch each */
    ev[NOC_EV_INJECT] = ev[NOC_EV_EJECT] = k;
}

static void assert_events(const uint64_t *got, const uint64_t *want)
{
    for (int e = 0; e < NOC_EV_SLOTS; e++)
        if (got[e] != want[e])
            fail_msg("%s: counted %llu, expected %llu", noc_event_name(e), (unsigned long long)got[e],
                     (unsigned long long)want[e]);
}

/* k flits from node 0 to dst on spec, with the parameters `more` (up to
 * four, NULL-terminated; NULL: none) beside the defaults below. */
static noc_sim_t *one_packet_kv(noc_topo_t **t, const char *spec, int dst, int k, const char *const *more)
{
    static script_t sc;
    memset(&sc, 0, sizeof sc);
    script_add(&sc, 10, 0, dst, k);
    const char *kv[9] = { "sample_cycles=100", "num_vcs=2", "vc_buf_size=8", "check=1", NULL };
    for (int i = 0; more && more[i]; i++)
        kv[4 + i] = more[i];
    noc_sim_t *s = script_sim(t, spec, 0, &sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    return s;
}

static noc_sim_t *one_packet(noc_topo_t **t, const char *spec, int dst, int k)
{
    return one_packet_kv(t, spec, dst, k, NULL);
}

static void test_one_hop(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:2", 1, 1);
    uint64_t ev[2 * NOC_EV_SLOTS];
    noc_events_nodes(s, ev);
    for (int n = 0; n < 2; n++) {
        const uint64_t *r = &ev[n * NOC_EV_SLOTS];
        uint64_t want[NOC_EV_SLOTS] = { 0 };
        want[NOC_EV_BUF_WRITE] = want[NOC_EV_BUF_READ] = want[NOC_EV_ROUTE] = want[NOC_EV_VC_ALLOC] = 1;
        want[NOC_EV_SW_ALLOC] = want[NOC_EV_XBAR] = want[NOC_EV_CREDIT] = 1;
        want[NOC_EV_LINK] = want[NOC_EV_LINK_PITCHES] = n == 0;
        want[NOC_EV_INJECT] = n == 0;
        want[NOC_EV_EJECT] = n == 1;
        assert_events(r, want);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* k = 5 flits from node 0 to node h = 4 of mesh:6 (node 5 sees none). */
static void test_k_flits_h_hops(void **state)
{
    (void)state;
    const int k = 5, h = 4;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:6", h, k);
    uint64_t ev[6 * NOC_EV_SLOTS], total[NOC_EV_SLOTS], want[NOC_EV_SLOTS];
    noc_events_total(s, total);
    packet_events(want, (uint64_t)k, (uint64_t)h, 1);
    assert_events(total, want);
    noc_events_nodes(s, ev);
    for (int n = 0; n < 6; n++) {
        const uint64_t *r = &ev[n * NOC_EV_SLOTS];
        uint64_t on = n <= h; /* on the path */
        assert_int_equal(r[NOC_EV_BUF_WRITE], on * (uint64_t)k);
        assert_int_equal(r[NOC_EV_XBAR], on * (uint64_t)k);
        assert_int_equal(r[NOC_EV_ROUTE], on);
        assert_int_equal(r[NOC_EV_LINK], n < h ? (uint64_t)k : 0);
        assert_int_equal(r[NOC_EV_INJECT], n == 0 ? (uint64_t)k : 0);
        assert_int_equal(r[NOC_EV_EJECT], n == h ? (uint64_t)k : 0);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A table whose entry e is 2^e pJ, 64-bit flits, a 2 GHz clock. */
static void pow2_table(noc_energy_table_t *tb)
{
    memset(tb, 0, sizeof *tb);
    snprintf(tb->name, sizeof tb->name, "pow2");
    tb->flit_bits = 64;
    for (int e = 0; e < NOC_EV_COUNT; e++)
        tb->pj[e] = (double)(1u << e);
    tb->leak_buffer_bit_uw = 0.5;
    tb->static_router_mw = 2;
    tb->static_link_mw = 0.25;
    tb->clock_ghz = 2;
}

/* The energy of the k-flit packet from its hand-worked counts: dynamic
 * k(h+1)(1+2+16+32+128) + (h+1)(4+8) + kh 64 + k 256 + k 512 pJ; static:
 * mesh:5's 13 input ports (5 local, 8 network) of 2 VCs of 8 flits of 64
 * bits, 0.5 uW a bit, 5 routers of 2 mW, 18 channels (13 output ports'
 * and 5 injection) of 0.25 mW, over the 100-cycle window at 2 GHz. */
static void test_energy_is_counts_times_table(void **state)
{
    (void)state;
    const double k = 5, h = 4;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:5", 4, 5);
    noc_energy_table_t tb;
    pow2_table(&tb);
    char err[300];
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), 0);
    noc_energy_sum_t e;
    noc_energy_run(s, noc_sim_energy(s), &e);
    double dyn = k * (h + 1) * (1 + 2 + 16 + 32 + 128) + (h + 1) * (4 + 8) + k * h * 64 + k * 256 + k * 512;
    assert_true(e.dynamic_pj == dyn);
    assert_true(noc_energy_dynamic_pj(&tb, e.ev) == dyn);
    uint64_t rows[5 * NOC_EV_SLOTS];
    noc_events_nodes(s, rows);
    double by_router = 0;
    for (int n = 0; n < 5; n++)
        by_router += noc_energy_dynamic_pj(&tb, &rows[n * NOC_EV_SLOTS]);
    assert_true(by_router == dyn);
    assert_int_equal(e.buffer_bits, 13 * 2 * 8 * 64);
    assert_int_equal(e.channels, 18);
    double st = 13 * 2 * 8 * 64 * 0.5e-3 + 5 * 2 + 18 * 0.25, ns = 100 / 2.0;
    assert_float_equal(e.static_mw, st, 1e-9);
    assert_float_equal(e.ns, ns, 1e-12);
    assert_float_equal(e.total_pj, dyn + st * ns, 1e-6);
    assert_float_equal(e.avg_mw, (dyn + st * ns) / ns, 1e-9);
    assert_int_equal(e.flits, 5);
    assert_float_equal(e.pj_per_flit, (dyn + st * ns) / k, 1e-6);
    assert_float_equal(e.pj_per_bit, (dyn + st * ns) / k / 64, 1e-6);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A table of the per-mm form with every event energy 0 but the link's:
 * 0.5 pJ per bit and mm, 1.5 mm a pitch, 2 uW per wire and mm; routers by
 * size: 1000 pW crossbar leakage, 2 uW clock per output bit. */
static void mm_table(noc_energy_table_t *tb, int flit_bits)
{
    memset(tb, 0, sizeof *tb);
    snprintf(tb->name, sizeof tb->name, "mm");
    tb->flit_bits = flit_bits;
    tb->clock_ghz = 1;
    tb->leak_buffer_bit_uw = 0.5;
    tb->per_mm = 1;
    tb->link_bit_mm_pj = 0.5;
    tb->pitch_mm = 1.5;
    tb->static_link_bit_mm_uw = 2;
    tb->pj[NOC_EV_LINK] = 0.5 * 1.5 * flit_bits;
    tb->by_size = 1;
    tb->leak_crossbar_pw = 1000;
    tb->clock_output_bit_uw = 2;
}

/* One flit over mesh:2's link of latency 2 (2 pitches of 1.5 mm) and 16
 * wires: 2 x 1.5 x 0.5 pJ x 64 bits = 96 pJ, whatever the width (the 64
 * bits cross it in 4 phits). Static: the 2 link directions 16 wires x 3
 * mm x 2 uW, the 4 NI channels 64 wires x 1.5 mm x 2 uW. */
static void test_link_by_length_and_width(void **state)
{
    (void)state;
    noc_topo_t *t;
    const char *more[] = { "link_latency=2", "link_width=16", NULL };
    noc_sim_t *s = one_packet_kv(&t, "mesh:2", 1, 1, more);
    noc_energy_table_t tb;
    mm_table(&tb, 64);
    char err[300];
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), 0);
    noc_energy_sum_t e;
    noc_energy_run(s, &tb, &e);
    assert_int_equal(e.ev[NOC_EV_LINK], 1);
    assert_int_equal(e.ev[NOC_EV_LINK_PITCHES], 2);
    assert_true(e.dynamic_pj == 2 * 1.5 * 0.5 * 64);
    assert_true(e.ev_pj[NOC_EV_LINK] == 96.0);
    int p, w;
    noc_energy_channel_size(s, 0, &p, &w); /* node 0's port 0: its ejection channel */
    assert_int_equal(p, 1);
    assert_int_equal(w, 64);
    noc_energy_channel_size(s, 1, &p, &w); /* its link to node 1 */
    assert_int_equal(p, 2);
    assert_int_equal(w, 16);
    assert_float_equal(e.channel_mw, 2 * (16 * 3.0 * 2e-3) + 4 * (64 * 1.5 * 2e-3), 1e-12);
    assert_float_equal(noc_energy_channel_static_mw(s, &tb, 1), 16 * 3.0 * 2e-3, 1e-12);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* mesh:3, 32-bit flits, 2 VCs of 4 flits: the middle router has 3 inputs
 * (2 links, its NI) and 3 outputs, the end ones 2 and 2. Router static
 * power 1000 pW x W^2 (I^2 O + I O + O^2) + 2 uW x O x W:
 *   middle 1e-6 mW x 1024 x 45 + 2e-3 x 3 x 32 = 0.04608 + 0.192 mW,
 *   an end 1e-6 x 1024 x 16 + 2e-3 x 2 x 32 = 0.016384 + 0.128 mW;
 * buffers 3 (2) inputs x 2 x 4 x 32 bits at 0.5 uW a bit. */
static void test_router_static_by_size(void **state)
{
    (void)state;
    noc_topo_t *t;
    const char *more[] = { "flit_width=32", "vc_buf_size=4", NULL };
    noc_sim_t *s = one_packet_kv(&t, "mesh:3", 2, 1, more);
    noc_energy_table_t tb;
    mm_table(&tb, 32);
    char err[300];
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), 0);
    int in, out;
    assert_float_equal(noc_energy_router_static_mw(s, &tb, 1, &in, &out), 0.04608 + 0.192, 1e-12);
    assert_int_equal(in, 3);
    assert_int_equal(out, 3);
    assert_float_equal(noc_energy_router_static_mw(s, &tb, 0, &in, &out), 0.016384 + 0.128, 1e-12);
    assert_int_equal(in, 2);
    assert_int_equal(out, 2);
    assert_int_equal(noc_energy_router_buffer_bits(s, &tb, 1), 3 * 2 * 4 * 32);
    noc_energy_sum_t e;
    noc_energy_run(s, &tb, &e);
    assert_float_equal(e.router_mw, 0.04608 + 0.192 + 2 * (0.016384 + 0.128), 1e-12);
    assert_int_equal(e.buffer_bits, (3 + 2 + 2) * 2 * 4 * 32);
    assert_float_equal(e.leak_buffer_mw, (3 + 2 + 2) * 2 * 4 * 32 * 0.5e-3, 1e-12);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* router_leakage=gates on mesh:3 (32-bit flits, 2 VCs of 4 flits), the
 * cores' cells passed in: the ends {1000 NAND, 100 NOT, 50 flip-flops, 20
 * of them with an enable}, the middle {2000, 300, 80, 60}; 2 nW a NAND, 1
 * a NOT, 10 a flip-flop, and an enable's multiplexer 3 NANDs and a NOT (7
 * nW). A router's static power is its core's leakage and its output clock
 * (2 uW x O x 32): an end 1e-6 mW x (2000 + 100 + 500 + 140) + 0.128 =
 * 0.13074 mW, the middle 1e-6 x (4000 + 300 + 800 + 420) + 0.192 =
 * 0.19752 mW; the buffers leak nothing of their own (they are the cores'
 * flip-flops); channels and dynamic energy as without. */
static void test_router_gate_leakage(void **state)
{
    (void)state;
    noc_topo_t *t;
    const char *more[] = { "flit_width=32", "vc_buf_size=4", NULL };
    noc_sim_t *s = one_packet_kv(&t, "mesh:3", 2, 1, more);
    noc_energy_table_t tb;
    mm_table(&tb, 32);
    tb.gate_keys = 1;
    tb.leak_nand_nw = 2;
    tb.leak_not_nw = 1;
    tb.leak_ff_nw = 10;
    const noc_gate_count_t g[3] = { { 1000, 100, 50, 20 }, { 2000, 300, 80, 60 }, { 1000, 100, 50, 20 } };
    char err[400];
    noc_energy_sum_t plain;
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), 0);
    noc_energy_run(s, noc_sim_energy(s), &plain);
    assert_int_equal(noc_sim_set_energy_gates(s, &tb, g, err, sizeof err), 0);
    const noc_energy_table_t *et = noc_sim_energy(s);
    assert_non_null(et->gates);
    assert_int_equal(noc_energy_router_ports(s, 0), 2);
    assert_int_equal(noc_energy_router_ports(s, 1), 3);
    assert_int_equal(noc_energy_buffer_depth(s), 4);
    assert_float_equal(noc_energy_gates_mw(et, &g[1]), 5.52e-3, 1e-15);
    assert_float_equal(noc_energy_router_static_mw(s, et, 1, NULL, NULL), 0.19752, 1e-12);
    assert_float_equal(noc_energy_router_static_mw(s, et, 0, NULL, NULL), 0.13074, 1e-12);
    assert_true(noc_energy_router_buffer_mw(s, et, 1) == 0);
    noc_energy_sum_t e;
    noc_energy_run(s, et, &e);
    assert_int_equal(e.gates, 1);
    assert_float_equal(e.gate_mw, 2 * 2.74e-3 + 5.52e-3, 1e-15);
    assert_float_equal(e.clock_mw, 2 * 0.128 + 0.192, 1e-12);
    assert_float_equal(e.router_mw, 2 * 0.13074 + 0.19752, 1e-12);
    assert_true(e.leak_buffer_mw == 0);
    assert_int_equal(e.buffer_bits, (3 + 2 + 2) * 2 * 4 * 32);
    assert_int_equal(e.gate_total.nand, 4000);
    assert_int_equal(e.gate_total.inv, 500);
    assert_int_equal(e.gate_total.ff, 180);
    assert_int_equal(e.gate_total.ff_enable, 100);
    assert_float_equal(e.channel_mw, 10 * (32 * 1.5 * 2e-3), 1e-12); /* 4 link directions, 3 + 3 NI channels */
    assert_float_equal(e.static_mw, e.router_mw + e.channel_mw, 1e-12);
    assert_true(e.dynamic_pj == plain.dynamic_pj);
    assert_float_equal(e.total_pj, e.dynamic_pj + e.static_mw * e.ns, 1e-9);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* router_leakage=gates with a table that has no leakage per cell, or
 * gives its routers in the old form: refused by name, no table set. */
static void test_gate_refusals(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:2", 1, 1);
    const noc_gate_count_t g[2] = { { 10, 1, 1, 0 }, { 10, 1, 1, 0 } };
    noc_energy_table_t tb;
    mm_table(&tb, 64);
    char err[400];
    assert_int_equal(noc_sim_set_energy_gates(s, &tb, g, err, sizeof err), -1);
    assert_non_null(strstr(err, "parameter 'router_leakage'"));
    assert_non_null(strstr(err, "no leak_nand, leak_not, leak_ff"));
    assert_null(noc_sim_energy(s));
    pow2_table(&tb); /* the old form */
    tb.gate_keys = 1;
    assert_int_equal(noc_sim_set_energy_gates(s, &tb, g, err, sizeof err), -1);
    assert_non_null(strstr(err, "static_router"));
    assert_null(noc_sim_energy(s));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A table of the old form (link, static_link, static_router) means what it
 * meant: one figure per link traversal and per channel and router, on a
 * link of latency 2 and width 16 too: pow2's link 64 pJ once, 6 channels of
 * 0.25 mW, 2 routers of 2 mW. */
static void test_old_form_unscaled(void **state)
{
    (void)state;
    noc_topo_t *t;
    const char *more[] = { "link_latency=2", "link_width=16", NULL };
    noc_sim_t *s = one_packet_kv(&t, "mesh:2", 1, 1, more);
    noc_energy_table_t tb;
    pow2_table(&tb);
    char err[300];
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), 0);
    noc_energy_sum_t e;
    noc_energy_run(s, &tb, &e);
    assert_true(e.ev_pj[NOC_EV_LINK] == 64.0);
    assert_true(e.channel_mw == 6 * 0.25);
    assert_true(e.router_mw == 2 * 2.0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* Step a: rank 0 sends 3 words to rank 2 (2 hops) in packets of 2 flits (2
 * packets); step b: rank 4 sends 2 words to rank 1 (3 hops, 1 packet). */
static void test_program_steps(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(5, "two_steps");
    noc_prog_declare_step(p, "a");
    noc_prog_declare_step(p, "b");
    for (int r = 0; r < 5; r++)
        noc_prog_mem(p, r, 4);
    noc_prog_step(p, 0, "a");
    noc_prog_send(p, 0, 2, 0, 3, 0);
    noc_prog_step(p, 1, "b");
    noc_prog_recv(p, 1, 4, 0, 2, 0);
    noc_prog_step(p, 2, "a");
    noc_prog_recv(p, 2, 0, 0, 3, 0);
    noc_prog_step(p, 4, "b");
    noc_prog_send(p, 4, 1, 0, 2, 0);
    const char *kv[] = { "packet_size=2", "check=1", NULL };
    run_t r;
    build(&r, "mesh:5", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    uint64_t a[NOC_EV_SLOTS], b[NOC_EV_SLOTS], want[NOC_EV_SLOTS], total[NOC_EV_SLOTS];
    assert_int_equal(noc_events_step(r.sim, 0, a), 0);
    packet_events(want, 3, 2, 2);
    assert_events(a, want);
    assert_int_equal(noc_events_step(r.sim, 1, b), 0);
    packet_events(want, 2, 3, 1);
    assert_events(b, want);
    noc_events_total(r.sim, total);
    for (int e = 0; e < NOC_EV_SLOTS; e++)
        want[e] = a[e] + b[e];
    assert_events(total, want);
    drop(&r, p);
}

static void test_refusals(void **state)
{
    (void)state;
    noc_energy_table_t tb;
    noc_energy_default(&tb);
    char err[400];
    static script_t sc;
    memset(&sc, 0, sizeof sc);
    noc_topo_t *t;
    const char *ideal[] = { "router=ideal", NULL };
    noc_sim_t *s = script_sim(&t, "mesh:2", 0, &sc, ideal);
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "router ideal"));
    assert_null(noc_sim_energy(s));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    const char *narrow[] = { "flit_width=32", NULL };
    s = script_sim(&t, "mesh:2", 0, &sc, narrow);
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "64-bit flits"));
    assert_non_null(strstr(err, "flit_width=32"));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A complete table file, with line `bad` (1-based) replaced by `with`. */
static void table_file(char *path, size_t len, int bad, const char *with)
{
    static const char *const lines[] = {
        "# a test table", "name = test", "flit_bits = 64", "buffer_write = 1", "buffer_read = 2", "route = 3",
        "vc_alloc = 4", "sw_alloc = 5", "crossbar = 6", "link = 7", "credit = 8", "inject = 9", "eject = 10",
        "leak_buffer_bit = 0.1", "static_router = 1.5", "static_link = 0.5", "clock_ghz = 1", NULL,
    };
    char text[2048] = "";
    for (int i = 0; lines[i]; i++) {
        strcat(text, i + 1 == bad ? with : lines[i]);
        strcat(text, "\n");
    }
    cmd_write("table.txt", text, path, len);
}

static void test_table_file(void **state)
{
    (void)state;
    char path[400], err[600];
    noc_energy_table_t tb;
    table_file(path, sizeof path, 0, NULL);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), 0);
    assert_string_equal(tb.name, "test");
    assert_int_equal(tb.flit_bits, 64);
    for (int e = 0; e < NOC_EV_COUNT; e++)
        assert_true(tb.pj[e] == (double)(e + 1));
    assert_true(tb.static_router_mw == 1.5 && tb.static_link_mw == 0.5 && tb.clock_ghz == 1);
    assert_true(tb.per_mm == 0 && tb.by_size == 0); /* the old form: as it always meant */
    static const struct { int line; const char *text, *says; } bad[] = {
        { 5, "buffer_read = lots", "buffer_read: 'lots' is not a number" },
        { 5, "bufer_read = 2", "unknown key 'bufer_read'" },
        { 6, "buffer_read = 2", "buffer_read given twice" },
        { 10, "link = -7", "link: -7 is negative" },
        { 3, "flit_bits = 6.5", "flit_bits" },
        { 17, "clock_ghz = 0", "clock_ghz" },
        { 9, "crossbar 6", "not 'key = value'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        table_file(path, sizeof path, bad[i].line, bad[i].text);
        assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
        char where[440];
        snprintf(where, sizeof where, "%s:%d: ", path, bad[i].line);
        if (strncmp(err, where, strlen(where)) != 0 || !strstr(err, bad[i].says))
            fail_msg("'%s' gave: %s", bad[i].text, err);
    }
    table_file(path, sizeof path, 13, "# no eject");
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "no value for eject"));
}

/* The new form's table file: the per-mm link keys and the routers' by
 * size; the derived per-pitch link entry; the forms mixed or incomplete
 * refused by name. */
static void test_table_file_forms(void **state)
{
    (void)state;
    static const char base[] = "name = new\nflit_bits = 32\nbuffer_write = 1\nbuffer_read = 2\nroute = 0\n"
                               "vc_alloc = 0\nsw_alloc = 0\ncrossbar = 6\ncredit = 0\ninject = 9\neject = 10\n"
                               "leak_buffer_bit = 0.1\nclock_ghz = 1\n";
    static const char links[] = "link_bit_mm = 0.25\nstatic_link_bit_mm = 3\npitch_mm = 2\n";
    static const char routers[] = "leak_crossbar = 500\nclock_output_bit = 4\n";
    char text[1024], path[400], err[600];
    noc_energy_table_t tb;
    snprintf(text, sizeof text, "%s%s%s", base, links, routers);
    cmd_write("new.txt", text, path, sizeof path);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), 0);
    assert_true(tb.per_mm == 1 && tb.by_size == 1);
    assert_true(tb.link_bit_mm_pj == 0.25 && tb.static_link_bit_mm_uw == 3 && tb.pitch_mm == 2);
    assert_true(tb.leak_crossbar_pw == 500 && tb.clock_output_bit_uw == 4);
    assert_true(tb.pj[NOC_EV_LINK] == 0.25 * 2 * 32); /* a flit over one pitch */
    static const struct { const char *extra, *says; } bad[] = {
        { "link = 7\n", "link_bit_mm and link: a table gives the link figures" },
        { "static_router = 1\n", "leak_crossbar and static_router" },
        { "", NULL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (bad[i].says)
            snprintf(text, sizeof text, "%s%s%s%s", base, links, routers, bad[i].extra);
        else /* no pitch */
            snprintf(text, sizeof text, "%slink_bit_mm = 0.25\nstatic_link_bit_mm = 3\n%s", base, routers);
        cmd_write("new.txt", text, path, sizeof path);
        assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
        const char *want = bad[i].says ? bad[i].says : "no value for pitch_mm (with link_bit_mm";
        if (!strstr(err, want))
            fail_msg("table %zu gave: %s", i, err);
    }
    /* the gates' leakage: all three keys or none */
    snprintf(text, sizeof text, "%s%s%sleak_nand = 17.5\nleak_not = 14\nleak_ff = 86\n", base, links, routers);
    cmd_write("new.txt", text, path, sizeof path);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), 0);
    assert_true(tb.gate_keys == 1 && tb.leak_nand_nw == 17.5 && tb.leak_not_nw == 14 && tb.leak_ff_nw == 86);
    snprintf(text, sizeof text, "%s%s%sleak_nand = 17.5\nleak_ff = 86\n", base, links, routers);
    cmd_write("new.txt", text, path, sizeof path);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "no value for leak_not (the gates' leakage"));
    snprintf(text, sizeof text, "%s%s%s", base, links, routers);
    cmd_write("new.txt", text, path, sizeof path);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), 0);
    assert_int_equal(tb.gate_keys, 0);
    snprintf(text, sizeof text, "%s%s", base, routers); /* no link figures at all */
    cmd_write("new.txt", text, path, sizeof path);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "no value for link_bit_mm"));
}

static void test_cli(void **state)
{
    (void)state;
    char path[400], *out, *err;
    table_file(path, sizeof path, 8, "sw_alloc = x");
    assert_int_equal(cmd_run("run mesh:2 energy=table.txt sample_cycles=10 warmup_cycles=0", &out, &err), 2);
    assert_non_null(strstr(err, "table.txt:8: sw_alloc"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("run mesh:2 energy=default sample_cycles=100 warmup_cycles=0", &out, &err), 0);
    assert_non_null(strstr(out, "  energy        table booksim2-32nm"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("run mesh:2 sample_cycles=100 warmup_cycles=0", &out, &err), 0);
    assert_null(strstr(out, "energy"));
    free(out);
    free(err);
    /* router_leakage: refused by name without energy=, with a value it does
     * not know, and with gates when yosys is missing and nothing is cached */
    static const struct { const char *env, *args, *says; } bad[] = {
        { NULL, "router_leakage=gates", "parameter 'router_leakage': gates is a part of the energy figures" },
        { NULL, "energy=default router_leakage=gate", "parameter 'router_leakage': 'gate' is neither" },
        { "PATH=/nonexistent NOCTUA_RTL_CACHE=empty-cache XDG_CACHE_HOME=empty-xdg",
          "energy=default router_leakage=gates", "parameter 'router_leakage': gates: the 2-port router core: yosys "
          "is not installed" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[300];
        snprintf(args, sizeof args, "run mesh:2 sample_cycles=10 warmup_cycles=0 %s", bad[i].args);
        assert_int_equal(cmd_run_bin("NOCTUA_BINARY", bad[i].env, args, &out, &err), 2);
        if (!strstr(err, bad[i].says))
            fail_msg("%s gave: %s", bad[i].args, err);
        free(out);
        free(err);
    }
}

/* The number after `key` in the file's tooltip for `dir` ("(0) -> (1)"). */
static double tooltip_value(const char *dot, const char *dir, const char *before)
{
    const char *p = strstr(dot, dir);
    assert_non_null(p);
    p = strstr(p, before);
    assert_non_null(p);
    return strtod(p + strlen(before), NULL);
}

/* draw --metric energy on mesh:2 with 2-cycle links and a table whose only
 * energy is the link's, 0.5 pJ per bit and mm, 1 mm a pitch: a direction
 * that carried N flits (its utilisation picture says N) costs N x 2 x 1 x
 * 0.5 x 64 = 64 N pJ; the routers, charged nothing, are drawn at 0. */
static void test_draw_energy(void **state)
{
    (void)state;
    static const char table[] = "name = links only\nflit_bits = 64\nbuffer_write = 0\nbuffer_read = 0\n"
                                "route = 0\nvc_alloc = 0\nsw_alloc = 0\ncrossbar = 0\ncredit = 0\ninject = 0\n"
                                "eject = 0\nleak_buffer_bit = 0\nclock_ghz = 1\nlink_bit_mm = 0.5\n"
                                "static_link_bit_mm = 0\npitch_mm = 1\nleak_crossbar = 0\nclock_output_bit = 0\n";
    char path[400], *out, *err;
    cmd_write("links.txt", table, path, sizeof path);
    assert_int_equal(cmd_run("run mesh:2 link_latency=2 injection_rate=0.3 sample_cycles=200 warmup_cycles=10 "
                             "energy=links.txt node_stats=1 --json run.json --quiet", &out, &err), 0);
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw --load run.json -o u.dot", &out, &err), 0);
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw --load run.json --metric energy -o e.dot", &out, &err), 0);
    free(out);
    free(err);
    char up[400], ep[400];
    snprintf(up, sizeof up, "%s/u.dot", cmd_tmpdir);
    snprintf(ep, sizeof ep, "%s/e.dot", cmd_tmpdir);
    char *u = cmd_slurp(up, NULL), *e = cmd_slurp(ep, NULL);
    assert_non_null(u);
    assert_non_null(e);
    static const char *const dirs[] = { "(0) -> (1) (dim0): ", "(1) -> (0) (dim0): " };
    for (int d = 0; d < 2; d++) {
        double flits = tooltip_value(u, dirs[d], ", "), pj = tooltip_value(e, dirs[d], ": ");
        assert_true(flits > 10);
        if (pj != 64 * flits)
            fail_msg("%s %g flits drawn as %g pJ, expected %g", dirs[d], flits, pj, 64 * flits);
    }
    assert_non_null(strstr(e, "(0): router 0 pJ"));
    assert_non_null(strstr(e, "energy in the run (dynamic + static)"));
    assert_non_null(strstr(e, "<td>routers:</td>"));
    free(u);
    free(e);
    /* a run without energy figures, and the metric without a run: refused */
    assert_int_equal(cmd_run("run mesh:2 sample_cycles=50 warmup_cycles=0 --json plain.json --quiet", &out, &err), 0);
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw --load plain.json --metric energy -o p.dot", &out, &err), 2);
    assert_non_null(strstr(err, "no \"energy\" object"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw mesh:2 --metric energy -o p.dot", &out, &err), 2);
    assert_non_null(strstr(err, "--metric energy needs --load"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_hop),
        cmocka_unit_test(test_k_flits_h_hops),
        cmocka_unit_test(test_energy_is_counts_times_table),
        cmocka_unit_test(test_link_by_length_and_width),
        cmocka_unit_test(test_router_static_by_size),
        cmocka_unit_test(test_old_form_unscaled),
        cmocka_unit_test(test_router_gate_leakage),
        cmocka_unit_test(test_gate_refusals),
        cmocka_unit_test(test_program_steps),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_table_file),
        cmocka_unit_test(test_table_file_forms),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_draw_energy),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
