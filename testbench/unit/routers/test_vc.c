/* test_vc.c: routers/vc, the main model, on its own (no Verilator), against
 * figures derived from its cycle-level contract (docs/router.md), never
 * from its own output:
 *   - zero-load latency of one packet over H hops, for several pipelines:
 *     T0 = 2·Lloc + (H+1)·(R+VA+SA+ST) + H·L + (P−1);
 *   - the credit loop: a single stream over one link with buffers of d
 *     flits and credits taking c cycles carries min(d, RT)/RT flits a cycle,
 *     RT = SA+ST+L+c, and stalls for want of a credit in the cycles the
 *     formula leaves over;
 *   - (fairness: test_vc_fair.c);
 *   - the VC allocator's round-robin choice of output VCs, with a pointer per
 *     output port and with BookSim2's one per router (va_in_pointer);
 *   - hold_switch_for_packet: the flits crossing a link, cycle by cycle, in
 *     small hand-worked cases (interleaved flit by flit without the hold,
 *     packet by packet with it; the hold ending on an empty buffer and on
 *     a missing credit);
 *   - input_speedup: two VCs of one input port crossing in the same cycle
 *     (and not without the speedup), in a small hand-worked case; the VC
 *     arbiter's pointer of a switch input moving to v + S modulo V;
 *   - concentration: two terminals of one router sending at once, to one
 *     destination and to each other (local ports of their own);
 *   - the invariant checker after every cycle of all of the above. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "routers/vc/vc.h"
#include "testbench/unit/script_traffic.h"
#include "testbench/unit/routers/vc_links.h"
/* (vc_arb_update; the header's other functions are the router's, unused here) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "routers/vc/vc_switch.h"
#pragma GCC diagnostic pop

/* ---- zero-load latency ---------------------------------------------------- */

typedef struct pipe {
    int R, VA, SA, ST, L, local, lookahead;
} pipe_t;

/* docs/router.md: the head is routed (R), allocated a VC (VA), switched
 * (SA) and crosses the crossbar (ST) in each of the H+1 routers, crosses H
 * links of L cycles and the two local channels; the tail follows P−1
 * cycles behind. With lookahead the route travels with the head: R = 0. */
static uint64_t zero_load(const pipe_t *p, int H, int P)
{
    int R = p->lookahead ? 0 : p->R;
    return (uint64_t)(2 * p->local + (H + 1) * (R + p->VA + p->SA + p->ST) + H * p->L + (P - 1));
}

/* One packet of P flits from src to dst (H hops) on spec under pipeline p:
 * its latency, network latency and hop count. */
static void one_packet(const char *spec, const pipe_t *p, int src, int dst, int H, int P)
{
    char kv_s[8][48];
    snprintf(kv_s[0], sizeof kv_s[0], "routing_delay=%d", p->R);
    snprintf(kv_s[1], sizeof kv_s[1], "vc_alloc_delay=%d", p->VA);
    snprintf(kv_s[2], sizeof kv_s[2], "sw_alloc_delay=%d", p->SA);
    snprintf(kv_s[3], sizeof kv_s[3], "st_final_delay=%d", p->ST);
    snprintf(kv_s[4], sizeof kv_s[4], "link_latency=%d", p->L);
    snprintf(kv_s[5], sizeof kv_s[5], "local_latency=%d", p->local);
    snprintf(kv_s[6], sizeof kv_s[6], "lookahead=%d", p->lookahead);
    const char *kv[] = { kv_s[0], kv_s[1], kv_s[2], kv_s[3], kv_s[4], kv_s[5], kv_s[6],
                         "sample_cycles=50", "check=1", NULL };
    script_t sc = { 0 };
    script_add(&sc, 7, src, dst, P);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, spec, 0, &sc, kv);
    run_ok(s);
    const noc_stats_t *st = noc_sim_stats(s);
    uint64_t want = zero_load(p, H, P);
    if (st->packets != 1 || st->latency.max != want || st->hops.max != (uint64_t)H ||
        st->net_latency.max != want || st->queue_latency.max != 0)
        fail_msg("%s %d->%d (H=%d, P=%d) R=%d VA=%d SA=%d ST=%d L=%d local=%d lookahead=%d: "
                 "%llu packets, latency %llu (network %llu, queue %llu), hops %llu; formula %llu",
                 spec, src, dst, H, P, p->R, p->VA, p->SA, p->ST, p->L, p->local, p->lookahead,
                 (unsigned long long)st->packets, (unsigned long long)st->latency.max,
                 (unsigned long long)st->net_latency.max, (unsigned long long)st->queue_latency.max,
                 (unsigned long long)st->hops.max, (unsigned long long)want);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static const pipe_t pipes[] = {
    { 1, 1, 1, 1, 1, 1, 0 }, /* the defaults: 5H + 6 + (P−1) */
    { 2, 1, 2, 0, 3, 1, 0 },
    { 0, 0, 0, 0, 1, 1, 0 }, /* every stage merged: a hop is the link alone */
    { 3, 2, 1, 1, 2, 2, 0 },
    { 1, 1, 1, 1, 1, 1, 1 }, /* lookahead: no route stage */
    { 0, 3, 0, 2, 1, 3, 0 },
    { 2, 0, 1, 0, 4, 1, 1 },
};

/* Every hop of a line, both ways, one flit and five, under every pipeline:
 * the latency grows by exactly R+VA+SA+ST+L a hop. */
static void test_zero_load_per_hop(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pipes / sizeof pipes[0]; i++)
        for (int H = 1; H <= 7; H++)
            for (int P = 1; P <= 5; P += 4) {
                one_packet("mesh:8", &pipes[i], 0, H, H, P);
                one_packet("mesh:8", &pipes[i], 7, 7 - H, H, P);
            }
}

/* The same formula on paths that turn, wrap or cross a dateline. */
static void test_zero_load_paths(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pipes / sizeof pipes[0]; i++) {
        one_packet("mesh:4x4", &pipes[i], 0, 15, 6, 3);  /* x then y: 3 + 3 hops */
        one_packet("mesh:4x4", &pipes[i], 12, 3, 6, 1);
        one_packet("torus:4x4", &pipes[i], 0, 3, 1, 2);  /* over the wraparound link */
        one_packet("torus:5x5", &pipes[i], 4, 20, 2, 4); /* (4,0) -> (0,4): 1 + 1 hops, both wrap */
        one_packet("ring:8", &pipes[i], 6, 1, 3, 2);     /* 6 -> 7 -> 0 -> 1: across the dateline */
        one_packet("hypercube:4", &pipes[i], 0, 15, 4, 2);
    }
}

/* ---- the credit loop ------------------------------------------------------ */

/* A single long packet streams from node 0 to node 1 of mesh:2 (one link).
 * A flit that leaves router 0 in cycle s used a credit; it reaches router 1
 * in cycle s + SA+ST+L, where a body flit of a packet that holds its output
 * (the ejection port, which always accepts) crosses at once, so its credit
 * is back at router 0 in cycle s + SA+ST+L + c, usable in that very cycle
 * (credits are taken before the switch stage). So each of the d credits of
 * the VC carries one flit per round trip RT = SA+ST+L+c: once the start is
 * over the link carries bursts of min(d, RT) flits every RT cycles, and in
 * a window of a multiple of RT cycles exactly W·min(d, RT)/RT flits.
 *
 * The NI feeds router 0 through its own credit loop of Lloc + c cycles
 * (no longer than RT here: Lloc <= SA+ST+L): a flit that leaves router 0
 * in cycle s is replaced, at the earliest, in cycle s + Lloc + c. So in a
 * period whose burst starts in cycle s the VC holds a flit but no credit
 * from s + max(d, Lloc + c) to s + RT: RT − max(d, Lloc + c) credit stalls
 * a period (none when d >= RT). When d < RT, router 0's input buffer
 * holds before each burst the refills that arrived in cycles s + Lloc + c
 * .. s + RT: min(d, RT − (Lloc + c) + 1) flits; router 1's never holds
 * more than the flit arriving (the link's rate is below one, so what
 * queued behind the head at the start has drained before the window). (When d >= RT both hold what the
 * start left in them, the flits that queued behind a head while it was
 * routed and allocated a VC: flits come in and go out one a cycle from
 * then on. No formula for that, so only "between 1 and d" is checked.) */
static void stream(int d, int c, int SA, int ST, int L, int both)
{
    const uint64_t W = 840; /* a multiple of every RT below (4 .. 8) */
    const int Lloc = 1;
    char kv_s[5][48];
    snprintf(kv_s[0], sizeof kv_s[0], "vc_buf_size=%d", d);
    snprintf(kv_s[1], sizeof kv_s[1], "credit_delay=%d", c);
    snprintf(kv_s[2], sizeof kv_s[2], "sw_alloc_delay=%d", SA);
    snprintf(kv_s[3], sizeof kv_s[3], "st_final_delay=%d", ST);
    snprintf(kv_s[4], sizeof kv_s[4], "link_latency=%d", L);
    const char *kv[] = { kv_s[0], kv_s[1], kv_s[2], kv_s[3], kv_s[4], "warmup_cycles=200",
                         "sample_cycles=840", "check=1", NULL };
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 1, 2000); /* longer than the window at any rate below */
    if (both)
        script_add(&sc, 0, 1, 0, 2000);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:2", 0, &sc, kv);
    run_ok(s);
    int RT = SA + ST + L + c;
    assert_true(W % (uint64_t)RT == 0);
    uint64_t periods = W / (uint64_t)RT;
    uint64_t flits = periods * (uint64_t)(d < RT ? d : RT);
    uint64_t refill = (uint64_t)(d > Lloc + c ? d : Lloc + c);
    uint64_t stalls = d < RT ? periods * ((uint64_t)RT - refill) : 0;
    int arrived = RT - (Lloc + c) + 1; /* refills in by the next burst */
    uint32_t peak = (uint32_t)(d < arrived ? d : arrived); /* d < RT; else at most d */
    const noc_link_stats_t *ls = noc_sim_link_stats(s, script_link(s, 0, 1));
    const noc_link_stats_t *inj = noc_sim_link_stats(s, noc_topo_ports(t) + 0); /* NI 0 -> router 0 */
    print_message("d=%d c=%d SA=%d ST=%d L=%d: RT %d, %llu flits (formula %llu), %llu credit stalls "
                  "(formula %llu), router 0 input peak %u (%s %u)\n", d, c, SA, ST, L, RT,
                  (unsigned long long)ls->flits, (unsigned long long)flits,
                  (unsigned long long)ls->credit_stall, (unsigned long long)stalls, inj->peak_queue,
                  d < RT ? "formula" : "at most", d < RT ? peak : (uint32_t)d);
    assert_int_equal(ls->flits, flits);
    assert_int_equal(ls->busy, flits);
    assert_int_equal(ls->credit_stall, stalls);
    assert_int_equal(ls->contention, 0);
    const noc_link_stats_t *in1 = ls; /* (peak_queue: router 1's input port) */
    if (d < RT) {
        assert_int_equal(inj->peak_queue, peak);
        assert_int_equal(in1->peak_queue, 1); /* router 1 forwards every flit as it arrives */
    } else {
        assert_true(inj->peak_queue >= 1 && inj->peak_queue <= (uint32_t)d);
        assert_true(in1->peak_queue >= 1 && in1->peak_queue <= (uint32_t)d);
    }
    /* router 1 passes every flit on as it arrives: its ejection port sees
     * the same periodic stream, shifted, so as many flits in the window */
    assert_int_equal(noc_sim_link_stats(s, script_ejection(s, 1))->flits, ls->flits);
    if (both) { /* the stream the other way: the same figures */
        const noc_link_stats_t *back = noc_sim_link_stats(s, script_link(s, 1, 0));
        assert_int_equal(back->flits, flits);
        assert_int_equal(back->credit_stall, stalls);
        assert_int_equal(back->contention, 0);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_credit_round_trip(void **state)
{
    (void)state;
    static const int dc[][2] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 6, 1 }, { 1, 2 },
                                 { 2, 3 }, { 3, 4 }, { 4, 5 }, { 5, 4 }, { 7, 1 }, { 4, 3 } };
    for (size_t i = 0; i < sizeof dc / sizeof dc[0]; i++)
        stream(dc[i][0], dc[i][1], 1, 1, 1, 0);
    stream(3, 2, 2, 0, 3, 0); /* RT = 7 */
    stream(7, 2, 2, 0, 3, 0);
    stream(2, 1, 0, 0, 3, 0); /* RT = 4, all of it on the link */
}

/* Streams both ways at once: each router then has two VCs bidding in most
 * cycles (its own stream's, for the link, and the other's, for its
 * ejection port), which the switch stage handles apart from a lone bidder;
 * the streams use different ports, so each link's figures are those of a
 * single stream, credit stalls included. */
static void test_credit_round_trip_both_ways(void **state)
{
    (void)state;
    static const int dc[][2] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 2, 3 }, { 5, 4 }, { 6, 1 } };
    for (size_t i = 0; i < sizeof dc / sizeof dc[0]; i++)
        stream(dc[i][0], dc[i][1], 1, 1, 1, 1);
}

/* Two packets in one VC (num_vcs=1), P = 3 flits each, from node 0 to
 * node 1, made in cycles 10 and 11. The first crosses router 0 as at zero
 * load: its head arrives in cycle a = 11, crosses in a + R+VA = 13, its
 * tail in 13 + P−1 = 15. The second's head arrives behind it in a + P = 14
 * (the NI sends it right after the first's tail), reaches the front of the
 * VC in the cycle after that tail crossed, 16, and crosses R+VA later, in
 * 18, where an idle VC would have let it cross in 14 + R+VA = 16: 2 cycles
 * more. At router 1 the VC is empty again when it arrives. So the network
 * latencies are T0 and T0 + 2, T0 = t0(1 hop, 3 flits) = 13, and the second
 * queued P − 1 = 2 cycles in its NI. */
static void test_head_behind_tail(void **state)
{
    (void)state;
    const pipe_t def = { 1, 1, 1, 1, 1, 1, 0 };
    const int P = 3;
    script_t sc = { 0 };
    script_add(&sc, 10, 0, 1, P);
    script_add(&sc, 11, 0, 1, P);
    const char *kv[] = { "num_vcs=1", "sample_cycles=50", "check=1", NULL };
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:2", 0, &sc, kv);
    run_ok(s);
    const noc_stats_t *st = noc_sim_stats(s);
    uint64_t T0 = zero_load(&def, 1, P);
    assert_int_equal(st->packets, 2);
    assert_int_equal(st->net_latency.min, T0);
    assert_int_equal(st->net_latency.max, T0 + 2);
    assert_int_equal(st->queue_latency.max, P - 1);
    assert_int_equal(st->latency.max, T0 + 2 + (P - 1));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* ---- switch hold (hold_switch_for_packet) ---------------------------------- */

/* Two VCs of one input port want one output with 4-flit packets, and a
 * third packet holds that output when they come. On mesh:3 (0 - 1 - 2),
 * default timing (a head arriving in cycle a crosses in a + 2 and arrives
 * at the next router in a + 5; body flits cross as they arrive), 3 VCs:
 *   X: node 0 -> 2, made in cycle 0: at router 0 its flits cross in 3..6,
 *      arriving at router 1 in 6..9 on output VC 0 of router 0;
 *   Y: node 0 -> 2, made in cycle 1, sent after X's tail: its head reaches
 *      router 0 in 5, gets a VC in 6 (VC 1: X's tail leaves in 6, after VC
 *      allocation), crosses in 7..10, arrives at router 1 in 10..13;
 *   Z: node 1 -> 2, 8 flits, made in cycle 3: reaches router 1 in 4..11
 *      and wants its port to node 2 from cycle 6 (X from 8, Y from 12).
 * Router 0 sends X and Y one after the other, hold or not, so router 1's
 * input port from node 0 holds X on VC 0 and Y on VC 1, both wanting the
 * port to node 2 with Z (local port). Flits arrive at router 2 three cycles
 * after crossing router 1.
 *
 * hold=0: from 8 the output alternates between the local port (Z) and the
 * port from node 0, whose VC arbiter alternates between X and Y from 12 on
 * (its pointer past X's VC 0 after X1): crossing in 6 Z0, 7 Z1, 8 X0, 9 Z2,
 * 10 X1, 11 Z3, 12 Y0, 13 Z4, 14 X2, 15 Z5, 16 Y1, 17 Z6, 18 X3, 19 Z7,
 * 20 Y2, 21 Y3.
 *
 * hold=1: Z crosses in 6 with Z1 and Z2 behind it and holds the output to
 * its tail in 13; then X (VC 0 first, the arbiter's pointer at 0) crosses
 * 14..17, holding the port against Y, and Y 18..21. */
static void test_hold_two_vcs(void **state)
{
    (void)state;
    static const int names[][3] = { { 0, 0, 'X' }, { 0, 1, 'Y' }, { 1, 3, 'Z' }, { -1, 0, 0 } };
    for (int hold = 0; hold <= 1; hold++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 2, 4);
        script_add(&sc, 1, 0, 2, 4);
        script_add(&sc, 3, 1, 2, 8);
        const char *kv[] = { "num_vcs=3", hold ? "hold_switch_for_packet=1" : "hold_switch_for_packet=0", NULL };
        expect_link("mesh:3", &sc, kv, names, 1, 2,
                    hold ? "9:Z0 10:Z1 11:Z2 12:Z3 13:Z4 14:Z5 15:Z6 16:Z7 17:X0 18:X1 19:X2 20:X3 "
                           "21:Y0 22:Y1 23:Y2 24:Y3"
                         : "9:Z0 10:Z1 11:X0 12:Z2 13:X1 14:Z3 15:Y0 16:Z4 17:X2 18:Z5 19:Y1 20:Z6 "
                           "21:X3 22:Z7 23:Y2 24:Y3");
    }
}

/* A held input port is shut to its other VCs even when their output is
 * free: one flit a cycle leaves an input port. mesh:3x2 (nodes 0 1 2 /
 * 3 4 5), default timing, 3 VCs, hold=1; as in test_hold_two_vcs, X and Y
 * (4 flits each, made in cycles 0 and 1 at node 0) reach router 1 on its
 * port from node 0, in 6..9 and 10..13, but Y goes to node 4 (router 1's
 * port to node 4), and Z (node 1 -> 2, 8 flits, made in 3) holds router
 * 1's port to node 2 from 6 to its tail in 13:
 *   X wants the port to node 2 from 8: shut out by Z's hold;
 *   Y wants the port to node 4 from 12: nothing holds it or its input
 *      port, so Y0 crosses in 12 and holds both, Y1..Y3 in 13..15;
 *   X, its output free from 14, waits for its input port: 16..19.
 * Arrivals at the next router: 3 cycles after crossing. */
static void test_hold_shuts_the_input(void **state)
{
    (void)state;
    static const int names[][3] = { { 0, 0, 'X' }, { 0, 1, 'Y' }, { 1, 3, 'Z' }, { -1, 0, 0 } };
    for (int link = 0; link < 2; link++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 2, 4);
        script_add(&sc, 1, 0, 4, 4);
        script_add(&sc, 3, 1, 2, 8);
        const char *kv[] = { "num_vcs=3", "hold_switch_for_packet=1", NULL };
        if (link == 0)
            expect_link("mesh:3x2", &sc, kv, names, 1, 2,
                        "9:Z0 10:Z1 11:Z2 12:Z3 13:Z4 14:Z5 15:Z6 16:Z7 19:X0 20:X1 21:X2 22:X3");
        else
            expect_link("mesh:3x2", &sc, kv, names, 1, 4, "15:Y0 16:Y1 17:Y2 18:Y3");
    }
}

/* The holder's buffer empties in the middle of its packet: the hold ends,
 * and another input port takes the output. mesh:3, default timing, 8-flit
 * buffers, and credits taking 8 cycles back to a network interface:
 *   H: node 1 -> 2, 12 flits, made in cycle 0: its NI sends H0..H7 in
 *      0..7 (8 credits), which reach router 1 in 1..8 and cross from 3 on;
 *      H0's credit is back in the NI in 3 + 8 = 11, so H8..H11 arrive in
 *      12..15 (H1..H3's credits following a cycle apart);
 *   C: node 0 -> 2, 4 flits, made in cycle 0: arrives at router 1 on its
 *      port from node 0 in 6..9, wanting the port to node 2 from 8.
 * hold=1: H crosses 3..10 holding the output (C shut out from 8); H7
 * leaves H's buffer empty, so the hold ends; C crosses 11..14, holding the
 * output in turn, and H8 (there since 12) from 15. hold=0: H alone 3..7;
 * from 8 the output alternates between C (first: its arbiter's pointer is
 * past the local port) and H: 8 C0, 9 H5, 10 C1, 11 H6, 12 C2, 13 H7,
 * 14 C3, then H8..H11 in 15..18. Arrivals at router 2: 3 cycles later. */
static void test_hold_ends_on_empty_buffer(void **state)
{
    (void)state;
    static const int names[][3] = { { 1, 0, 'H' }, { 0, 0, 'C' }, { -1, 0, 0 } };
    for (int hold = 0; hold <= 1; hold++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 2, 4);
        script_add(&sc, 0, 1, 2, 12);
        const char *kv[] = { "num_vcs=3", "inject_credit_delay=8",
                             hold ? "hold_switch_for_packet=1" : "hold_switch_for_packet=0", NULL };
        expect_link("mesh:3", &sc, kv, names, 1, 2,
                    hold ? "6:H0 7:H1 8:H2 9:H3 10:H4 11:H5 12:H6 13:H7 14:C0 15:C1 16:C2 17:C3 "
                           "18:H8 19:H9 20:H10 21:H11"
                         : "6:H0 7:H1 8:H2 9:H3 10:H4 11:C0 12:H5 13:C1 14:H6 15:C2 16:H7 17:C3 "
                           "18:H8 19:H9 20:H10 21:H11");
    }
}

/* The holder has flits but no credit: the hold ends at once, the cycle is
 * lost to the ports it held, and the other bidders may have them from the
 * next (BookSim2's _SWHoldUpdate). mesh:3x2 (nodes 0 1 2 / 3 4 5), default
 * timing, 6-flit buffers (more than the 4-cycle credit loop and the 2
 * cycles a head waits: streams flow a flit a cycle), 3 VCs, hold=1:
 *   W: node 5 -> 2, 40 flits, made in cycle 0: holds router 2's ejection
 *      port from 8 to its tail in 47;
 *   X: node 0 -> 2, 16 flits, made in cycle 0: crosses router 1 from 8,
 *      holding its port to node 2; at router 2 (from 11) it waits behind
 *      W, so after X0..X5 (8..13) its output VC has no credit left, while
 *      X6 (arrived in 12) is at the front: in 14 the hold ends;
 *   Y: node 1 -> 2, 4 flits, made in cycle 8: wants router 1's port to
 *      node 2 from 11, shut out by X's hold through 14, crosses 15..18.
 * X0's credit comes back once W's tail has gone and X0 has left router 2
 * (48): X6 crosses router 1 in 49. Arrivals at router 2: 3 cycles later. */
static void test_hold_ends_without_credit(void **state)
{
    (void)state;
    static const int names[][3] = { { 0, 0, 'X' }, { 1, 8, 'Y' }, { 5, 0, 'W' }, { -1, 0, 0 } };
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 2, 16);
    script_add(&sc, 0, 5, 2, 40);
    script_add(&sc, 8, 1, 2, 4);
    const char *kv[] = { "num_vcs=3", "vc_buf_size=6", "hold_switch_for_packet=1", NULL };
    expect_link("mesh:3x2", &sc, kv, names, 1, 2,
                "11:X0 12:X1 13:X2 14:X3 15:X4 16:X5 18:Y0 19:Y1 20:Y2 21:Y3 52:X6");
}

/* A held output whose link still carries an earlier flit (a narrow link:
 * link_width 32 of flit_width 64, 2 cycles a flit) keeps its hold: the
 * holder waits for the link, the others stay shut out. mesh:3, 3 VCs:
 *   H: node 1 -> 2, 6 flits, made in cycle 0: its flits reach router 1 a
 *      flit every 2 cycles, H0 crosses in 3 and holds the port to node 2;
 *      each later flit is there when the link is free again;
 *   C: node 0 -> 2, 4 flits, made in cycle 0: wants the port to node 2
 *      from about cycle 9, while H still has flits to send.
 * hold=1: H's six flits go first, back to back on the link, then C's.
 * hold=0: the output alternates between the two from C's first bid, so
 * a flit of C goes before H's tail. (The order of the packets' flits on the
 * link from router 1 to 2, cycles left out.) */
static void test_hold_waits_for_narrow_link(void **state)
{
    (void)state;
    static const int names[][3] = { { 1, 0, 'H' }, { 0, 0, 'C' }, { -1, 0, 0 } };
    for (int hold = 0; hold <= 1; hold++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 2, 4);
        script_add(&sc, 0, 1, 2, 6);
        const char *kv[] = { "sample_cycles=100", "check=1", "num_vcs=3", "link_width=32",
                             hold ? "hold_switch_for_packet=1" : "hold_switch_for_packet=0", NULL };
        noc_topo_t *t;
        noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc, kv);
        seen_t v = { .chan = script_link(s, 1, 2), .names = names };
        noc_sim_set_observer(s, seen_obs, &v);
        run_ok(s);
        char order[32] = { 0 };
        size_t n = 0;
        for (const char *c = strchr(v.text, ':'); c && n + 1 < sizeof order; c = strchr(c + 1, ':'))
            order[n++] = c[1];
        print_message("hold=%d: %s\n", hold, v.text);
        if (hold)
            assert_string_equal(order, "HHHHHHCCCC");
        else
            assert_true(strlen(order) == 10 && strrchr(order, 'H') > strchr(order, 'C'));
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
}

/* ---- input speedup (input_speedup) ---------------------------------------- */

/* Two VCs of one input port, both with a flit at the front, want two
 * different outputs: with input_speedup = 2, VCs 0 and 1 are on switch
 * inputs of their own (v mod 2) and cross in the same cycle; with 1, the
 * port sends one flit a cycle. mesh:4 (0 - 1 - 2 - 3), default timing (a
 * head arriving in cycle a crosses in a + 2, body flits at the front cross
 * the cycle they are there; a flit arrives at the next router 3 cycles
 * after crossing), 2 VCs:
 *   X: node 0 -> 3, 4 flits, made in cycle 0: reaches router 1 in 6..9
 *      (as in test_hold_two_vcs), gets router 1's output VC 1 to node 2 in
 *      7 (Z holds VC 0);
 *   Z: node 1 -> 2, 8 flits, made in cycle 3: reaches router 1 in 4..11,
 *      output VC 0 to node 2 from 5.
 * Router 1's output to node 2 alternates between them once X bids (its
 * arbiter's pointer past the local port): 6 Z0, 7 Z1, 8 X0, 9 Z2, 10 X1,
 * 11 Z3, 12 X2, 13 Z4, 14 X3, 15 Z5, 16 Z6, 17 Z7; either speedup, as each
 * of its switch inputs bids alone. So router 2's input port from node 1
 * gets Z (VC 0, to its ejection port) in 9 10 12 14 16 18 19 20 and X
 * (VC 1, on to node 3) in 11 13 15 17. There Z0 crosses in 11, Z1 in 12;
 * X0 (arrived 11) bids from 13, when Z2 (arrived 12, behind Z1) is at the
 * front too.
 * input_speedup = 1: from 13 the port's input arbiter alternates between
 * the two outputs, the output to node 3 first (its pointer past the
 * ejection port after Z0 and Z1), and each flit waits a cycle for its
 * turn: X crosses router 2 in 13 15 17 19, arriving at router 3 in 16 18
 * 20 22.
 * input_speedup = 2: Z2 and X0 cross together in 13, Z3 and X1 in 14, and
 * X2 and X3 as they arrive, in 15 and 17: X arrives at router 3 in 16 17 18
 * 20. */
static void test_speedup_two_vcs_cross_together(void **state)
{
    (void)state;
    static const int names[][3] = { { 0, 0, 'X' }, { 1, 3, 'Z' }, { -1, 0, 0 } };
    for (int S = 1; S <= 2; S++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 3, 4);
        script_add(&sc, 3, 1, 2, 8);
        const char *kv[] = { "num_vcs=2", S == 1 ? "input_speedup=1" : "input_speedup=2", NULL };
        expect_link("mesh:4", &sc, kv, names, 2, 3, S == 1 ? "16:X0 18:X1 20:X2 22:X3" : "16:X0 17:X1 18:X2 20:X3");
    }
}

/* ---- concentration --------------------------------------------------------- */

/* Several terminals on one router (an anynet file with two nodes on each of
 * routers 0 and 1): each has its own injection and ejection channel, on
 * local ports 0 and 1. Pipeline 1-1-1-1, links and local channels of 1:
 * T0 = 2 + (H+1)·4 + H (one flit). Terminals 0 and 2 (both on router 0)
 * send to terminal 3 (router 1) in cycle 7: their heads reach the switch
 * together and one crosses a cycle later (T0 and T0 + 1, H = 1). Terminals
 * 0 and 2 sending to each other use different local ports: both T0 with
 * H = 0 and no hop counted (an ejection is no hop). */
static void test_concentration_local_ports(void **state)
{
    (void)state;
    char path[64], spec[80];
    snprintf(path, sizeof path, "/tmp/noctua_conc_%d.anynet", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("router 0 node 0 node 2 router 1\nrouter 1 node 1 node 3\n", f);
    fclose(f);
    snprintf(spec, sizeof spec, "anynet:%s", path);
    const char *kv[] = { "routing_delay=1", "vc_alloc_delay=1", "sw_alloc_delay=1", "st_final_delay=1",
                         "link_latency=1", "local_latency=1", "num_vcs=2", "sample_cycles=50", "check=1", NULL };
    for (int local = 0; local <= 1; local++) {
        script_t sc = { 0 };
        script_add(&sc, 7, 0, local ? 2 : 3, 1);
        script_add(&sc, 7, 2, local ? 0 : 3, 1);
        noc_topo_t *t;
        noc_sim_t *s = script_sim(&t, spec, 0, &sc, kv);
        run_ok(s);
        const noc_stats_t *st = noc_sim_stats(s);
        int H = local ? 0 : 1;
        uint64_t T0 = (uint64_t)(2 + (H + 1) * 4 + H);
        assert_int_equal(st->packets, 2);
        assert_int_equal(st->latency.min, T0);
        assert_int_equal(st->latency.max, local ? T0 : T0 + 1);
        assert_int_equal(st->hops.max, (uint64_t)H);
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
    remove(path);
}

/* With input_speedup S a switch input's VC arbiter, after VC v crosses,
 * puts VC v + S first, modulo V (BookSim2's _sw_rr_offset = (vc + S) %
 * V), whatever VCs the switch input has. So with V = 3 and S = 2, switch
 * input 0 has VCs 0 and 2: after 0 the pointer is 2, and after 2 it is
 * (2 + 2) mod 3 = 1, where the first of its VCs at or after 1 is 2 again:
 * with both always bidding, 0, 2, 2, 2, ... (2 keeps the switch input);
 * switch input 1 has VC 1 alone. With V = 4, after 2 the pointer is 4 mod
 * 4 = 0: 0, 2, 0, 2, ...; with V = 5 and VCs 0, 2, 4: 0, 2, 4, then 4 + 2
 * mod 5 = 1 gives 2: 0, 2, 4, 2, 4, ... (A pointer moved to v + 1, or left
 * at v + S past V without the wrap, serves 0 and 2 of V = 3 in turn.) The
 * switch stage's own arbiter update (vc_switch.h) on the picks of its
 * round-robin choice (model/arbiter.h). */
static void test_speedup_vc_pointer_wraps(void **state)
{
    (void)state;
    static const struct {
        int V;
        uint64_t vcs;
        int want[6];
    } cases[] = { { 3, 0x5, { 0, 2, 2, 2, 2, 2 } },
                  { 3, 0x2, { 1, 1, 1, 1, 1, 1 } },
                  { 4, 0x5, { 0, 2, 0, 2, 0, 2 } },
                  { 5, 0x15, { 0, 2, 4, 2, 4, 2 } } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vc_state_t r;
        vc_node_t nd;
        uint8_t ptr[2] = { 0, 0 };
        memset(&r, 0, sizeof r);
        memset(&nd, 0, sizeof nd);
        nd.vc_ptr = ptr;
        vc_ctx_t x = { .r = &r, .nd = &nd, .V = cases[i].V, .W = 1, .S = 2 };
        int e = cases[i].vcs == 0x2 ? 1 : 0; /* VC 1 is on switch input 1 */
        for (int k = 0; k < 6; k++) {
            int v = noc_rr_pick(cases[i].vcs, ptr[e]);
            if (v != cases[i].want[k])
                fail_msg("V=%d S=2, VCs %#llx of switch input %d: pick %d is VC %d, want %d", cases[i].V,
                         (unsigned long long)cases[i].vcs, e, k, v, cases[i].want[k]);
            vc_arb_update(&x, e, v);
        }
    }
}

/* ---- VC allocation -------------------------------------------------------- */

/* VCs used on channel chan, packet by packet (one entry per head flit). */
typedef struct vcs_seen {
    int chan, n;
    int vc[16];
} vcs_seen_t;

static void vcs_obs(const noc_sim_t *s, void *ctx)
{
    vcs_seen_t *v = ctx;
    uint32_t i = (uint32_t)v->chan * s->cap + (uint32_t)(s->now & s->mask);
    if (s->ring_valid[i] && (s->ring_flit[i].flags & NOC_FLIT_HEAD) && v->n < 16)
        v->vc[v->n++] = s->ring_flit[i].vc;
}

/* Node 0 of mesh:3 sends one-flit packets to node 2, 20 cycles apart (each
 * alone in the network). The NI takes the injection VCs in turn, from VC 0
 * (round-robin per packet), so at router 0 the requesters of the VC
 * allocator of the port to node 1 alternate between input VC 0 and input
 * VC 1 of the local port; each requester's round-robin arbiter starts at
 * output VC 0 and moves past every VC it is granted. So with 2 VCs the
 * packets get output VCs 0 (VC 0's pointer 0 -> 1), 0 (VC 1's: 0 -> 1),
 * 1, 1, 0, 0, ...: pairs, and the same at router 1. A pointer that never
 * moves gives 0 every time. */
static void test_vc_allocation_round_robin(void **state)
{
    (void)state;
    script_t sc = { 0 };
    for (int k = 0; k < 8; k++)
        script_add(&sc, (uint64_t)(20 * k), 0, 2, 1);
    const char *kv[] = { "num_vcs=2", "sample_cycles=200", "check=1", NULL };
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc, kv);
    vcs_seen_t v = { .chan = script_link(s, 0, 1) };
    noc_sim_set_observer(s, vcs_obs, &v);
    run_ok(s);
    static const int want[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
    assert_int_equal(v.n, 8);
    for (int k = 0; k < 8; k++)
        if (v.vc[k] != want[k])
            fail_msg("packet %d left router 0 on VC %d, round-robin allocation gives %d", k, v.vc[k],
                     want[k]);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* va_in_pointer: node 1 of mesh:3 sends one-flit packets, 20 cycles apart,
 * to 2, 2, 0, 0, 2, 2, 0, 0; the NI takes its VCs in turn, so input VC 0
 * of router 1's local port carries the 1st, 3rd, 5th, 7th (to 2, 0, 2, 0)
 * and input VC 1 the others. With a pointer per output port (port), each
 * input VC's pointer at a port moves past the VC it got there: each link
 * sees VCs 0, 0, 1, 1. With BookSim2's one pointer over all the router's
 * output VCs (router), a grant at the other port in between sends it back
 * to VC 0 (the lowest free VC after a pointer in another port's range):
 * every packet leaves on VC 0. */
typedef struct two_links {
    vcs_seen_t a, b;
} two_links_t;

static void two_obs(const noc_sim_t *s, void *ctx)
{
    two_links_t *t = ctx;
    vcs_obs(s, &t->a);
    vcs_obs(s, &t->b);
}

static void test_va_in_pointer(void **state)
{
    (void)state;
    for (int router = 0; router <= 1; router++) {
        script_t sc = { 0 };
        static const int dst[8] = { 2, 2, 0, 0, 2, 2, 0, 0 };
        for (int k = 0; k < 8; k++)
            script_add(&sc, (uint64_t)(20 * k), 1, dst[k], 1);
        const char *kv[] = { "num_vcs=2", "sample_cycles=200", "check=1",
                             router ? "va_in_pointer=router" : "va_in_pointer=port", NULL };
        noc_topo_t *t;
        noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc, kv);
        two_links_t v = { .a = { .chan = script_link(s, 1, 2) }, .b = { .chan = script_link(s, 1, 0) } };
        noc_sim_set_observer(s, two_obs, &v);
        run_ok(s);
        static const int want_port[4] = { 0, 0, 1, 1 };
        assert_int_equal(v.a.n, 4);
        assert_int_equal(v.b.n, 4);
        for (int k = 0; k < 4; k++) {
            int want = router ? 0 : want_port[k];
            if (v.a.vc[k] != want || v.b.vc[k] != want)
                fail_msg("va_in_pointer=%s: packet %d to each side left on VCs %d (to 2) and %d (to 0), want %d",
                         router ? "router" : "port", k, v.a.vc[k], v.b.vc[k], want);
        }
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load_per_hop),
        cmocka_unit_test(test_zero_load_paths),
        cmocka_unit_test(test_credit_round_trip),
        cmocka_unit_test(test_credit_round_trip_both_ways),
        cmocka_unit_test(test_head_behind_tail),
        cmocka_unit_test(test_vc_allocation_round_robin),
        cmocka_unit_test(test_va_in_pointer),
        cmocka_unit_test(test_hold_two_vcs),
        cmocka_unit_test(test_hold_shuts_the_input),
        cmocka_unit_test(test_hold_ends_on_empty_buffer),
        cmocka_unit_test(test_hold_ends_without_credit),
        cmocka_unit_test(test_hold_waits_for_narrow_link),
        cmocka_unit_test(test_speedup_two_vcs_cross_together),
        cmocka_unit_test(test_concentration_local_ports),
        cmocka_unit_test(test_speedup_vc_pointer_wraps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
