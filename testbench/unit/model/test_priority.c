/* test_priority.c: message priorities (priority, class_priority;
 * model/priority.c, the ranked allocators of model/alloc.c, the NI's
 * ranked class choice in model/ni.c, routers/vc/vc_rank.c). Worked by hand:
 * - the ranked allocator on small request sets (the higher rank first at
 *   each arbiter, round-robin among equals; wavefront ranks from the top
 *   down; iSLIP ranks none), against what BookSim2's arbiters and
 *   wavefront.cpp do with the same in_pri and out_pri;
 * - two packets meeting at a router of mesh:3: A from node 0 made in
 *   cycle 0, B from node 1 made in cycle 5, both for node 2, reach router
 *   1 in cycle 6 (zero-load: one cycle on the injection channel, R + VA +
 *   SA + ST + L = 5 a hop) and bid for its east port together. The one
 *   that goes first has the zero-load latency T0 = 2 Lloc + (H+1) 4 + H
 *   (16 for A's 2 hops, 11 for B's 1); the other is held. Without a
 *   priority the arbiters' pointers start at port 0, the local one: B
 *   first. With age, network_age, hop_count and sequence A ranks higher
 *   (made first, sent first, one link crossed, node 0's first packet
 *   where B is node 1's second, after B' below): A first; queue_length
 *   (one flit each) and local_age (both reached router 1 in cycle 6) tie:
 *   B first. With one VC they meet in VC allocation; with two
 *   VCs and a two-iteration iSLIP VC allocator (which ranks nothing) both
 *   get a VC in the same cycle and meet in switch allocation;
 * - two packets in two VCs of one input port, both ready for one output
 *   (test_vc_pick_by_rank): with age the older one's flits cross first;
 * - the NI: two backlogged classes, class 1 ranked above class 0, on
 *   ring:4 with neighbour traffic (each flow on links of its own, one VC
 *   of its dateline class: the NI always has more than the network
 *   takes): class 1 sends every flit the network takes, class 0 none;
 *   unranked or with age they take turns;
 * - refusals by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/alloc.h"
#include "model/sim_internal.h"
#include "traffic/classes.h"
#include "testbench/unit/script_traffic.h"

#define B(r) (UINT64_C(1) << (r))

/* Input-first, round-robin, fresh pointers: three requesters want
 * resource 0, ranked 0, 5, 5: the output arbiter takes the first of the
 * highest rank at or after its pointer (0): requester 1; its pointer then
 * moves past 1, so the same requests next give requester 2. Unranked:
 * requester 0. */
static void test_ranked_output_arbiter(void **state)
{
    (void)state;
    noc_alloc_t a;
    noc_alloc_init(&a, NOC_ALLOC_INPUT_FIRST, NOC_ARB_ROUND_ROBIN, 3, 2, 1);
    const int16_t who[3] = { 0, 1, 2 };
    const uint64_t mask[3] = { B(0), B(0), B(0) };
    const int64_t key[3] = { 0, 5, 5 };
    int16_t g[3];
    noc_alloc_run_sparse_ranked(&a, 3, who, mask, key, 1, 0, g);
    assert_int_equal(g[0], -1);
    assert_int_equal(g[1], 0);
    assert_int_equal(g[2], -1);
    noc_alloc_run_sparse_ranked(&a, 3, who, mask, key, 1, 0, g);
    assert_int_equal(g[1], -1);
    assert_int_equal(g[2], 0);
    noc_alloc_free(&a);
    noc_alloc_init(&a, NOC_ALLOC_INPUT_FIRST, NOC_ARB_ROUND_ROBIN, 3, 2, 1);
    noc_alloc_run_sparse_general(&a, 3, who, mask, g);
    assert_int_equal(g[0], 0);
    noc_alloc_free(&a);
}

/* Per-request ranks (the switch allocator's): requester 0 wants
 * resources 0 (rank 1) and 1 (rank 3): its input arbiter takes 1 though
 * its pointer (0) would take 0; requester 1 wants resource 0 alone and
 * gets it. Output-first: resource 0 wanted by requester 0 (rank 1) and 1
 * (rank 2) goes to 1; requester 0 takes resource 1's grant. */
static void test_ranked_requests(void **state)
{
    (void)state;
    noc_alloc_t a;
    int64_t key[2 * 64];
    key[0 * 64 + 0] = 1;
    key[0 * 64 + 1] = 3;
    key[1 * 64 + 0] = 2;
    const int16_t who[2] = { 0, 1 };
    const uint64_t mask[2] = { B(0) | B(1), B(0) };
    int16_t g[2];
    noc_alloc_init(&a, NOC_ALLOC_INPUT_FIRST, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
    noc_alloc_run_sparse_ranked(&a, 2, who, mask, key, 64, 1, g);
    assert_int_equal(g[0], 1);
    assert_int_equal(g[1], 0);
    noc_alloc_free(&a);
    noc_alloc_init(&a, NOC_ALLOC_OUTPUT_FIRST, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
    noc_alloc_run_sparse_ranked(&a, 2, who, mask, key, 64, 1, g);
    assert_int_equal(g[0], 1);
    assert_int_equal(g[1], 0);
    noc_alloc_free(&a);
    /* unranked output-first: resource 0 to requester 0 (pointer 0), which
       accepts 0 over 1 (its pointer 0); requester 1 gets nothing */
    noc_alloc_init(&a, NOC_ALLOC_OUTPUT_FIRST, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
    noc_alloc_run_sparse_general(&a, 2, who, mask, g);
    assert_int_equal(g[0], 0);
    assert_int_equal(g[1], -1);
    noc_alloc_free(&a);
}

/* Wavefront on a 2 x 2 square, priority diagonal 0: requester 0 wants
 * {0, 1}, requester 1 wants {0}. Unranked, diagonal 0 holds (0, 0): 0-0,
 * then diagonal 1 holds (1, 0), taken: one grant. Ranked with 1-0 at 9
 * and the others 0: the rank-9 pass grants 1-0, the rank-0 pass 0-1. */
static void test_ranked_wavefront(void **state)
{
    (void)state;
    noc_alloc_t a;
    int64_t key[2 * 64];
    key[0 * 64 + 0] = 0;
    key[0 * 64 + 1] = 0;
    key[1 * 64 + 0] = 9;
    const int16_t who[2] = { 0, 1 };
    const uint64_t mask[2] = { B(0) | B(1), B(0) };
    int16_t g[2];
    noc_alloc_init(&a, NOC_ALLOC_WAVEFRONT, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
    noc_alloc_run_sparse_general(&a, 2, who, mask, g);
    assert_int_equal(g[0], 0);
    assert_int_equal(g[1], -1);
    noc_alloc_free(&a);
    noc_alloc_init(&a, NOC_ALLOC_WAVEFRONT, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
    noc_alloc_run_sparse_ranked(&a, 2, who, mask, key, 64, 1, g);
    assert_int_equal(g[0], 1);
    assert_int_equal(g[1], 0);
    assert_int_equal(a.pri, 1); /* (the diagonal moves on by one, as without ranks) */
    noc_alloc_free(&a);
    /* iSLIP ranks none: the unranked grants */
    noc_alloc_init(&a, NOC_ALLOC_ISLIP, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
    noc_alloc_run_sparse_ranked(&a, 2, who, mask, key, 64, 1, g);
    assert_int_equal(g[0], 0);
    assert_int_equal(g[1], -1);
    noc_alloc_free(&a);
}

/* A (node 0, cycle 0) and B (node 1, cycle 5), both to node 2 of mesh:3,
 * 1-flit packets, under `priority` and extra settings: their latencies.
 * Before them B' (node 1 to node 0, cycle 0) crosses router 1 alone (its
 * own input and output ports: latency T0 = 11), which moves a wavefront
 * switch allocator's priority diagonal on by one, to the diagonal of B's
 * request (local port 0 + east port 1): unranked, every kind then takes B
 * first. */
static void meet(const char *priority, const char *const *extra, uint64_t *lat_a, uint64_t *lat_b)
{
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 2, 1);
    script_add(&sc, 0, 1, 0, 1); /* B': the other way, alone on its ports */
    script_add(&sc, 5, 1, 2, 1);
    char pr[64];
    snprintf(pr, sizeof pr, "priority=%s", priority);
    const char *kv[8] = { pr, "node_stats=1", "sample_cycles=100" };
    for (int i = 0; extra && extra[i]; i++)
        kv[3 + i] = extra[i];
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_node_stats_t *a = noc_sim_node_stats(s, 0), *b = noc_sim_node_stats(s, 1);
    assert_int_equal(a->lat_src.n, 1);
    assert_int_equal(b->lat_src.n, 2);
    assert_int_equal(b->lat_src.min, 11); /* B', 1 hop, alone: T0 */
    *lat_a = a->lat_src.sum;
    *lat_b = b->lat_src.sum - 11;
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void check_meet(const char *const *extra)
{
    const uint64_t T0a = 16, T0b = 11; /* 2 Lloc + (H + 1) 4 + H: H = 2, 1 */
    static const char *const b_first[] = { "none", "queue_length", "local_age" };
    static const char *const a_first[] = { "age", "network_age", "hop_count", "sequence" };
    uint64_t la, lb;
    for (int i = 0; i < 3; i++) {
        meet(b_first[i], extra, &la, &lb);
        assert_int_equal(lb, T0b);
        assert_true(la > T0a);
    }
    for (int i = 0; i < 4; i++) {
        meet(a_first[i], extra, &la, &lb);
        assert_int_equal(la, T0a);
        assert_true(lb > T0b);
    }
}

/* One VC: the two heads meet in VC allocation. */
static void test_meet_in_va(void **state)
{
    (void)state;
    check_meet((const char *const[]){ "num_vcs=1", NULL });
}

/* Two VCs, iSLIP VC allocation in two iterations (no ranks): both get a
 * VC at once, and meet in switch allocation, separable input-first and
 * the wavefront kinds alike. */
static void test_meet_in_sa(void **state)
{
    (void)state;
    check_meet((const char *const[]){ "num_vcs=2", "vc_allocator=islip", "alloc_iters=2", NULL });
    check_meet((const char *const[]){ "num_vcs=2", "vc_allocator=islip", "alloc_iters=2", "sw_allocator=wavefront",
                                      NULL });
    check_meet((const char *const[]){ "num_vcs=2", "vc_allocator=islip", "alloc_iters=2",
                                      "sw_allocator=separable_output_first", NULL });
}

/* Two packets in two VCs of one input port, both ready for the same
 * output: on mesh:4, L (node 1 to node 3, 16 flits, cycle 0) shares
 * router 1's east output with what comes from the west, so the west
 * input crosses every other cycle and its VCs fill: X (node 0 to node 2,
 * 4 flits, cycle 0) and Y (node 0 to node 3, 4 flits, cycle 1) each hold
 * a VC there (3 VCs: L, X and Y each get one at the east port). When the
 * west input wins, one of its VCs crosses: unranked, its round-robin VC
 * pointer takes them in turn, so X and Y interleave; with age X (made
 * first) crosses every time until its tail has gone, so X arrives sooner
 * and Y later than unranked. X's latency is node 2's (the only packet
 * there), Y's node 3's less L's (node 1's). */
static void two_vcs(const char *priority, uint64_t *lat_x, uint64_t *lat_y)
{
    script_t sc = { 0 };
    script_add(&sc, 0, 1, 3, 16);
    script_add(&sc, 0, 0, 2, 4);
    script_add(&sc, 1, 0, 3, 4);
    char pr[64];
    snprintf(pr, sizeof pr, "priority=%s", priority);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:4", 0, &sc,
                              (const char *const[]){ pr, "node_stats=1", "sample_cycles=200", "num_vcs=3", NULL });
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_node_stats_t *n1 = noc_sim_node_stats(s, 1), *n2 = noc_sim_node_stats(s, 2),
                           *n3 = noc_sim_node_stats(s, 3);
    assert_int_equal(n2->lat_dst.n, 1);
    assert_int_equal(n3->lat_dst.n, 2);
    *lat_x = n2->lat_dst.sum;
    *lat_y = n3->lat_dst.sum - n1->lat_src.sum;
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_vc_pick_by_rank(void **state)
{
    (void)state;
    uint64_t x0, y0, x1, y1;
    two_vcs("none", &x0, &y0);
    two_vcs("age", &x1, &y1);
    assert_true(x1 < x0);
    assert_true(y1 > y0);
}

/* vc_priority_donation (BookSim2's VC::UpdatePriority: a VC ranks as the
 * highest-ranked flit it holds). On mesh:6x2 (node x + 6y, dimension
 * order, one VC), four packets for node 3 = (3,0): R, 20 flits from
 * node 9 = (3,1) at cycle 0, takes router 3's ejection VC at cycle 7 and
 * holds it until its tail has crossed, about cycle 27; P1 (1 flit, node
 * 2, cycle 2, 1 link to router 3) reaches router 3's west input at cycle
 * 8; Q (1 flit, node 5, cycle 1, 2 links) its east input at cycle 12; P2
 * (1 flit, node 0, cycle 0, 3 links) the west input at cycle 16, behind
 * P1 (zero-load, 5 cycles a hop: it passes router 2 long after P1 left).
 * When R's tail has gone, P1 and Q, both routed and bidding, meet for the
 * freed VC. With age, network_age and hop_count P1 ranks below Q (made
 * and sent at 2 against 1; 1 link against 2) and P2 above it (made and
 * sent at 0; 3 links). Without donation the west VC ranks as P1: Q takes
 * the VC, P1 the next; with donation it ranks as P2: P1 takes it, Q the
 * next. Both eject through the same port, so the winner is delivered in
 * one same cycle D1 either way and the loser in D2 > D1: the two runs'
 * delivery cycles of P1 and Q swap. By hand (a flit granted the switch
 * at s reaches the next router or NI at s + 3: SA, ST, link): R's head
 * reaches router 9 at 1 (injection channel), is routed at 1, granted a
 * VC at 2 and the switch at 3, reaches router 3 at 6, is routed at 6,
 * granted the ejection VC at 7 and the switch at 8, and its 19 other
 * flits follow one a cycle: the tail is granted the switch at 27, and
 * the VC is free for the allocation of 28. The winner is granted it at
 * 28 and the switch at 29 (its tail: the VC is free again), delivered at
 * D1 = 32; the loser is granted it at 30: D2 = 34. */
#define D1 32
#define D2 34
static void donation(const char *priority, int donate, uint64_t *del_p1, uint64_t *del_q)
{
    script_t sc = { 0 };
    script_add(&sc, 0, 9, 3, 20); /* R */
    script_add(&sc, 2, 2, 3, 1);  /* P1 */
    script_add(&sc, 1, 5, 3, 1);  /* Q */
    script_add(&sc, 0, 0, 3, 1);  /* P2 */
    char pr[64], dn[64];
    snprintf(pr, sizeof pr, "priority=%s", priority);
    snprintf(dn, sizeof dn, "vc_priority_donation=%d", donate);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:6x2", 0, &sc,
                              (const char *const[]){ pr, dn, "node_stats=1", "sample_cycles=200", "num_vcs=1", NULL });
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_node_stats_t *p1 = noc_sim_node_stats(s, 2), *q = noc_sim_node_stats(s, 5);
    assert_int_equal(p1->lat_src.n, 1);
    assert_int_equal(q->lat_src.n, 1);
    *del_p1 = 2 + p1->lat_src.sum;
    *del_q = 1 + q->lat_src.sum;
    assert_true(*del_p1 > 2 + 11 + 10 && *del_q > 1 + 16 + 10); /* both waited for R (T0 + 10 at least) */
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_donation(void **state)
{
    (void)state;
    static const char *const kinds[] = { "age", "network_age", "hop_count" };
    for (int i = 0; i < 3; i++) {
        uint64_t p1_off, q_off, p1_on, q_on;
        donation(kinds[i], 0, &p1_off, &q_off);
        donation(kinds[i], 1, &p1_on, &q_on);
        assert_int_equal(q_off, D1); /* without donation Q first */
        assert_int_equal(p1_off, D2);
        assert_int_equal(p1_on, D1); /* with it P1 first */
        assert_int_equal(q_on, D2);
    }
}

/* vc_prioritize_empty (BookSim2's: in VC allocation an input VC ranks the
 * output VCs whose downstream buffer is empty above the others). On
 * mesh:4 with 2 VCs: C (node 2 to node 3, 32 flits, cycle 0) crosses
 * router 2's east port alone from cycle 3 to 12 on VC 0; A (node 0 to
 * node 3, 16 flits, cycle 0) reaches router 2 at 11 on VC 0 of link 1-2
 * (router 1's first free VC), takes VC 1 east at 12 and from 13 shares
 * the port with C, one flit every other cycle, A first (the arbiter's
 * pointer is past C): A's tail crosses at 13 + 2 * 15 = 43. Its flits
 * fill router 2's west VC 0 (8 slots), so A's tail leaves router 1 at
 * about 29 and VC 0 of link 1-2 is free again but not empty until 43.
 * B (node 1 to node 2, 1 flit, cycle 30) bids at router 1 at 32 with
 * both VCs free. Without the key its arbiter's pointer (0) takes VC 0:
 * at router 2 it waits behind A's last flits; its head is at the front
 * at 44, routed at 44, granted the ejection VC at 45 and the switch at
 * 46, delivered at 46 + 3 = 49: latency 19. With it B takes VC 1, empty,
 * and crosses both routers alone (at router 2 the west input's VC
 * pointer is past A's VC, which crossed the cycle before): its zero-load
 * latency 2 Lloc + (H+1) 4 + H = 11.
 * With D (node 0 to node 2, 1 flit, cycle 25) and the key, B and D bid
 * for router 1's east port together (the allocation of several bidders):
 * D reaches router 0 at 26 and bids at 27, when A's tail has left it but
 * A's last flits are still in router 1: it takes VC 1, empty, reaches
 * router 1 at 31 and bids at 32 with B. Both ask for VC 1 alone (VC 0 is
 * free but not empty); its arbiter (pointer 0) takes B, the lower input
 * VC (local port first): B's latency is 11 again. D, left only VC 0 at
 * 33, waits behind A's flits at router 2 as B did above: its head is at
 * the front at 44, delivered at 49: latency 24. */
static uint64_t empty_first(int on, int with_d, uint64_t *node0)
{
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 3, 16); /* A */
    script_add(&sc, 0, 2, 3, 32); /* C */
    script_add(&sc, 30, 1, 2, 1); /* B */
    if (with_d)
        script_add(&sc, 25, 0, 2, 1); /* D */
    char pe[64];
    snprintf(pe, sizeof pe, "vc_prioritize_empty=%d", on);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:4", 0, &sc,
                              (const char *const[]){ pe, "node_stats=1", "sample_cycles=300", "num_vcs=2", NULL });
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_node_stats_t *b = noc_sim_node_stats(s, 1), *a = noc_sim_node_stats(s, 0);
    assert_int_equal(b->lat_src.n, 1);
    uint64_t lat = b->lat_src.sum;
    assert_int_equal(a->lat_src.n, with_d ? 2 : 1);
    *node0 = a->lat_src.sum; /* (A's latency, and D's) */
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    return lat;
}

static void test_empty_first(void **state)
{
    (void)state;
    uint64_t a, ad;
    assert_int_equal(empty_first(0, 0, &a), 19);
    assert_int_equal(empty_first(1, 0, &a), 11);
    assert_int_equal(empty_first(1, 1, &ad), 11);
    assert_int_equal(ad - a, 24); /* D's (A's is the same: D is behind it all the way) */
}

/* Two classes of 1-flit packets, each offered a packet a cycle at every
 * node of ring:4 (neighbour traffic: each flow has its links to itself,
 * the injection channel is what the classes share). */
static void class_shares(const char *priority, const char *class_priority, uint64_t *in0, uint64_t *in1)
{
    char err[512], pr[64], cp[64];
    snprintf(pr, sizeof pr, "priority=%s", priority);
    snprintf(cp, sizeof cp, "class_priority=%s", class_priority);
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, (const char *const[]){ "traffic=neighbor", "classes=2", "injection_rate=1", "num_vcs=2",
                                               "sample_cycles=2000", pr, class_priority ? cp : NULL, NULL });
    noc_topo_t *t = noc_topo_create("ring:4", 0, err, sizeof err);
    assert_non_null(t);
    noc_class_traffic_t ct;
    if (noc_class_traffic_init(&ct, &cfg, t, err, sizeof err))
        fail_msg("%s", err);
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), noc_class_traffic(&ct), err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    noc_sim_run(s);
    int C;
    const noc_class_stats_t *cs = noc_sim_class_stats(s, &C);
    assert_int_equal(C, 2);
    *in0 = cs[0].window_flits_in;
    *in1 = cs[1].window_flits_in;
    noc_sim_destroy(s);
    noc_class_traffic_free(&ct);
    noc_topo_destroy(t);
}

static void test_ni_class_rank(void **state)
{
    (void)state;
    uint64_t in0, in1, all0, all1;
    class_shares("none", NULL, &all0, &all1); /* in turn: half each */
    uint64_t all = all0 + all1;
    assert_true(all > 4 * 500);
    assert_true(all0 >= all / 2 - 4 && all0 <= all / 2 + 4);
    class_shares("class", "0,1", &in0, &in1);
    assert_int_equal(in0, 0);
    assert_int_equal(in1, all); /* what the channels carry, all class 1's */
    class_shares("class", "1,0", &in0, &in1);
    assert_int_equal(in0, all);
    assert_int_equal(in1, 0);
    /* age: both classes make a packet every cycle; the older head first,
       equals in turn: half each, give or take a packet a node */
    class_shares("age", NULL, &in0, &in1);
    assert_int_equal(in0 + in1, all);
    assert_true(in0 >= all / 2 - 4 && in0 <= all / 2 + 4);
}

/* Refused by name: unknown kinds, kinds not modelled, class_priority
 * without priority = class, the routers and options without ranks;
 * vc_prioritize_empty with the ideal router and the allocators that rank
 * their input side otherwise. */
static void test_refusals(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        { "priority=urgent", NULL, "not a priority" },
        
        { "priority=sequence", "classes=2", "classes > 1" },
        { "class_priority=1", NULL, "priority = class" },
        { "priority=class", "class_priority=1,x", "integers" },
        { "priority=age", "router=ideal", "ideal router" },
        { "priority=age", "speculative=1", "speculative" },
        { "priority=age", "internal_speedup=2", "speedup" },
        { "priority=age", "num_vcs=16", "more than 64 input VCs" },
        { "vc_prioritize_empty=1", "router=ideal", "ideal router" },
        { "vc_prioritize_empty=1", "vc_allocator=separable_output_first", "separable_output_first" },
        { "vc_prioritize_empty=1", "vc_allocator=wavefront", "wavefront" },
        { "vc_prioritize_empty=1", "speculative=1", "speculative" },
    };
    script_expect_refused(bad, sizeof bad / sizeof bad[0], NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranked_output_arbiter),
        cmocka_unit_test(test_ranked_requests),
        cmocka_unit_test(test_ranked_wavefront),
        cmocka_unit_test(test_meet_in_va),
        cmocka_unit_test(test_meet_in_sa),
        cmocka_unit_test(test_vc_pick_by_rank),
        cmocka_unit_test(test_donation),
        cmocka_unit_test(test_empty_first),
        cmocka_unit_test(test_ni_class_rank),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
