/* test_flatfly_route.c: BookSim2's other flatfly routing functions on the
 * flatfly SPEC (topologies/flatfly.c): xyyx_flatfly (NOC_TOPO_F_XY_YX),
 * valiant_flatfly (NOC_TOPO_F_VALIANT) and adaptive_xyyx_flatfly
 * (NOC_TOPO_F_ADAPT_XY_YX), read off networks/flatfly_onchip.cpp.
 *
 * Hand-worked on flatfly:4:2 (16 routers, router v = digits (v % 4, v / 4),
 * terminal v on router v's port 0; the port toward digit e of dimension d
 * is 1 + 3d + (e < own ? e : e - 1)). From 0 = (0,0) to 15 = (3,3):
 * lowest dimension first (flatfly_outport) leaves on port 1 + 2 = 3 to
 * router 3 = (3,0), then on port 1 + 3 + 2 = 6 to 15; highest first
 * (flatfly_outport_yx) on port 6 to router 12 = (0,3), then on port 3.
 * From 5 = (1,1) to 6 = (2,1) both orders take port 1 + (2 - 1) = 2.
 * BookSim2 puts x-first on the lower half of the VCs, y-first on the upper
 * (vcEnd -= available_vcs, vcBegin += available_vcs), valiant's first leg
 * on the lower, the second on the upper. Valiant from 0 to 15 through 6 =
 * (2,1): port 1 + 1 = 2 to router 2 = (2,0), port 1 + 3 + 0 = 4 to 6, then
 * on the upper half port 1 + 2 = 3 to 7 = (3,1) and port 6 to 15; from 0
 * to 2 = (2,0) through the same 6, the first leg meets router 2 and the
 * packet leaves there (BookSim2 sets ph = 1 at the destination's router).
 * Then every route for many packet words: the draws about even (the order;
 * the router drawn, uniform over the 16), and the channel dependencies of
 * all routes acyclic, as BookSim2's comments claim ("each class must have
 * at least 2 vcs assigned or else xy_yx will deadlock"). UGAL
 * (ugal_flatfly, ugal_xyyx_flatfly_onchip: NOC_TOPO_F_UGAL, _UGAL_XY_YX):
 * the two candidates at the source's router, the drawn router's box, the
 * route through it, the router's rule (noc_route_set_pick) on worked
 * numbers, and the dependencies of either choice acyclic. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topo_internal.h"

#include "fabric_check.h"

#define WORDS 512u

/* A packet word for draw i (spread over all 32 bits). */
static uint32_t word(uint32_t i)
{
    return i * 2654435761u;
}

/* Walk the drawn route from s to d for word w; ports, classes and routers
 * into port[], cls[], at[] (at[0] = s); returns the hops. Records the
 * channel dependencies into cg if non-NULL. */
static int walk(const noc_topo_t *t, int s, int d, uint32_t w, int *port, int *cls, int *at, cdg_t *cg)
{
    const noc_graph_t *g = noc_topo_graph(t);
    int cur = s, hops = 0, prev = -1, V = t->n_vclasses;
    at[0] = s;
    for (;;) {
        noc_route_t r;
        g->route_rand(t, cur, s, d, w, hops, &r);
        if (cur == d) {
            assert_int_equal(r.port, 0);
            return hops;
        }
        assert_true(r.port >= 1 && r.port <= noc_topo_degree(t, cur));
        assert_true(r.vclass < V);
        port[hops] = r.port;
        cls[hops] = r.vclass;
        int gp = t->port_base[cur] + r.port;
        if (cg) {
            if (prev >= 0)
                cdg_add(cg, prev, gp * V + r.vclass);
            prev = gp * V + r.vclass;
        }
        cur = next_of(t, cur, r.port);
        at[++hops] = cur;
        assert_true(hops <= 8);
    }
}

static void test_xy_yx_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("flatfly:4:2", NOC_TOPO_F_XY_YX);
    assert_int_equal(t->n_vclasses, 2);
    assert_non_null(noc_topo_graph(t)->route_rand);
    int port[8], cls[8], at[9], seen[2] = {0, 0};
    for (uint32_t i = 0; i < WORDS; i++) {
        assert_int_equal(walk(t, 0, 15, word(i), port, cls, at, NULL), 2);
        int yx = cls[0];
        assert_int_equal(cls[1], yx); /* the order, and its half, kept */
        assert_int_equal(port[0], yx ? 6 : 3);
        assert_int_equal(at[1], yx ? 12 : 3);
        assert_int_equal(port[1], yx ? 3 : 6);
        seen[yx]++;
        /* one dimension apart: the same port, the drawn half */
        assert_int_equal(walk(t, 5, 6, word(i), port, cls, at, NULL), 1);
        assert_int_equal(port[0], 2);
        assert_int_equal(cls[0], yx);
    }
    /* the order drawn per packet, about evenly (BookSim2's RandomInt(1)) */
    assert_true(seen[0] > 0.45 * WORDS && seen[1] > 0.45 * WORDS);
    noc_topo_destroy(t);
}

static void test_valiant_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("flatfly:4:2", NOC_TOPO_F_VALIANT);
    assert_int_equal(t->n_vclasses, 2);
    int port[8], cls[8], at[9], mid_seen[16] = {0}, through6 = 0;
    for (uint32_t i = 0; i < 16 * WORDS; i++) {
        uint32_t w = word(i);
        int h = walk(t, 0, 15, w, port, cls, at, NULL), mid = 15;
        /* the first leg (class 0) ends at the drawn router: there, or at
         * 15 when 15 was drawn, class 1 from then on */
        for (int j = 0; j < h; j++)
            if (cls[j] == 1) {
                mid = at[j];
                break;
            }
        for (int j = 1; j < h; j++)
            assert_true(cls[j] >= cls[j - 1]);
        mid_seen[mid]++;
        if (mid != 6)
            continue;
        through6++;
        static const int want_port[4] = {2, 4, 3, 6}, want_cls[4] = {0, 0, 1, 1}, want_at[5] = {0, 2, 6, 7, 15};
        assert_int_equal(h, 4);
        for (int j = 0; j < 4; j++) {
            assert_int_equal(port[j], want_port[j]);
            assert_int_equal(cls[j], want_cls[j]);
            assert_int_equal(at[j + 1], want_at[j + 1]);
        }
        /* the same word to 2: the first leg meets 2, the packet leaves */
        assert_int_equal(walk(t, 0, 2, w, port, cls, at, NULL), 1);
        assert_int_equal(port[0], 2);
        assert_int_equal(cls[0], 0);
        /* at router 2 after one hop, class 0, toward 6 */
        noc_route_t r;
        noc_topo_graph(t)->route_rand(t, 2, 0, 15, w, 1, &r);
        assert_int_equal(r.port, 4);
        assert_int_equal(r.vclass, 0);
    }
    assert_true(through6 > 0);
    /* the router drawn uniform over the 16 (BookSim2's RandomInt over all
     * terminals, c of them on each router): each 1/16 of 8192 = 512 */
    for (int m = 0; m < 16; m++)
        if (mid_seen[m] < 400 || mid_seen[m] > 624)
            fail_msg("router %d drawn %d times of %u", m, mid_seen[m], 16 * WORDS);
    noc_topo_destroy(t);
}

/* Every route for WORDS words, its channel dependencies acyclic. */
static void all_routes_acyclic(const char *spec, unsigned flags)
{
    noc_topo_t *t = make_flags(spec, flags);
    int n = noc_topo_terminals(t), port[8], cls[8], at[9];
    cdg_t cg = {t->n_ports * t->n_vclasses, 0, 0, NULL};
    for (uint32_t i = 0; i < 64; i++)
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++)
                walk(t, s, d, word(i), port, cls, at, &cg);
    assert_true(cdg_acyclic(&cg));
    free(cg.edge);
    noc_topo_destroy(t);
}

static void test_acyclic(void **state)
{
    (void)state;
    all_routes_acyclic("flatfly:4:2", NOC_TOPO_F_XY_YX);
    all_routes_acyclic("flatfly:3:3", NOC_TOPO_F_XY_YX);
    all_routes_acyclic("flatfly:4:2", NOC_TOPO_F_VALIANT);
    all_routes_acyclic("flatfly:3:3", NOC_TOPO_F_VALIANT);
}

/* adaptive_xyyx_flatfly with 4 VCs: at the source's router both orders,
 * x-first on VCs [0, 2), y-first on [2, 4), the router to pick the less
 * used (pick set, a tie by the packet's word); later routers by the half
 * the head came in on; at the destination's router its terminal's port,
 * any VC. */
static void test_adaptive_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("flatfly:4:2", NOC_TOPO_F_ADAPT_XY_YX);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_set);
    assert_int_equal(t->n_vclasses, 2);
    noc_route_set_t rs;
    int tie[2] = {0, 0};
    for (uint32_t i = 0; i < WORDS; i++) {
        g->route_set(t, 0, 0, 15, word(i), 0, 4, -1, &rs);
        assert_int_equal(rs.n, 2);
        assert_int_equal(rs.pick, 1);
        assert_int_equal(rs.c[0].port, 3);
        assert_int_equal(rs.c[0].lo, 0);
        assert_int_equal(rs.c[0].hi, 2);
        assert_int_equal(rs.c[1].port, 6);
        assert_int_equal(rs.c[1].lo, 2);
        assert_int_equal(rs.c[1].hi, 4);
        assert_int_equal(rs.c[0].pri, rs.c[1].pri);
        tie[rs.pick_bit != 0]++;
    }
    /* ties drawn per packet (BookSim2's RandomInt(1)), about evenly */
    assert_true(tie[0] > 0.45 * WORDS && tie[1] > 0.45 * WORDS);
    static const struct {
        int cur, in_vc, port, lo, hi;
    } later[] = {
        {3, 0, 6, 0, 2},  /* came x-first: on in dimension 1, lower half */
        {3, 1, 6, 0, 2},
        {12, 2, 3, 2, 4}, /* came y-first: on in dimension 0, upper half */
        {12, 3, 3, 2, 4},
        {15, 1, 0, 0, 4}, /* arrived: its terminal, any VC */
        {15, 3, 0, 0, 4},
    };
    for (size_t i = 0; i < sizeof later / sizeof later[0]; i++) {
        g->route_set(t, later[i].cur, 0, 15, 7u, 1, 4, later[i].in_vc, &rs);
        assert_int_equal(rs.n, 1);
        assert_int_equal(rs.pick, 0);
        assert_int_equal(rs.c[0].port, later[i].port);
        assert_int_equal(rs.c[0].lo, later[i].lo);
        assert_int_equal(rs.c[0].hi, later[i].hi);
    }
    /* one dimension apart: both candidates the same port, each its half */
    g->route_set(t, 5, 5, 6, 7u, 0, 4, -1, &rs);
    assert_int_equal(rs.n, 2);
    assert_int_equal(rs.c[0].port, 2);
    assert_int_equal(rs.c[1].port, 2);
    noc_topo_destroy(t);
}

/* Walk the route set from s to d (salt w, V VCs), taking candidate
 * `first` where there are two (the source router's choice) and the only
 * one elsewhere, each channel (port, VC) into cg: at most max_hops
 * network hops, ending on port 0 at d. */
static void walk_set(const noc_topo_t *t, int s, int d, uint32_t w, int V, int first, int max_hops, cdg_t *cg)
{
    const noc_graph_t *g = noc_topo_graph(t);
    int cur = s, in_vc = -1, prev = -1, hops = 0;
    for (;;) {
        noc_route_set_t rs;
        g->route_set(t, cur, s, d, w, hops, V, in_vc, &rs);
        const noc_route_cand_t *c = &rs.c[rs.n == 2 ? first : 0];
        if (c->port == 0) {
            assert_int_equal(cur, d);
            break;
        }
        int gp = t->port_base[cur] + c->port, ch = gp * V + c->lo;
        if (prev >= 0)
            cdg_add(cg, prev, ch);
        prev = ch;
        in_vc = c->lo;
        cur = next_of(t, cur, c->port);
        assert_true(++hops <= max_hops);
    }
}

/* adaptive_xyyx: every route either choice at the source's router can
 * give, the later routers by the half of the VCs (V = 4): acyclic. */
static void test_adaptive_acyclic(void **state)
{
    (void)state;
    static const char *const specs[2] = {"flatfly:4:2", "flatfly:3:3"};
    for (int sp = 0; sp < 2; sp++) {
        noc_topo_t *t = make_flags(specs[sp], NOC_TOPO_F_ADAPT_XY_YX);
        int n = t->n_nodes, V = 4;
        cdg_t cg = {t->n_ports * V, 0, 0, NULL};
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++)
                for (int first = 0; first < 2; first++)
                    walk_set(t, s, d, 0u, V, first, 4, &cg);
        assert_true(cdg_acyclic(&cg));
        free(cg.edge);
        noc_topo_destroy(t);
    }
}

/* UGAL's candidates at the source's router (in_vc -1) of a packet from
 * terminal s to d with word w, V VCs; then, following the way toward m (the
 * non-minimal candidate, or none), the router m where the set turns to
 * the minimal part; -1 when the set has the minimal way only. Checks each
 * later router's set: one candidate, toward m on the same part as the
 * first hop. */
static int ugal_mid_seen(const noc_topo_t *t, int s, int d, uint32_t w, int V, noc_route_set_t *first)
{
    const noc_graph_t *g = noc_topo_graph(t);
    g->route_set(t, s, s, d, w, 0, V, -1, first);
    if (first->n == 1)
        return -1;
    const noc_route_cand_t *c = &first->c[1];
    int cur = next_of(t, s, c->port), lo = c->lo, hops = 1;
    for (;;) {
        noc_route_set_t rs;
        g->route_set(t, cur, s, d, w, hops, V, lo, &rs);
        assert_int_equal(rs.n, 1);
        if (rs.c[0].lo != c->lo || rs.c[0].port == 0) /* at m: on minimally, or m is d */
            return cur;
        assert_int_equal(rs.c[0].hi, c->hi);
        cur = next_of(t, cur, rs.c[0].port);
        assert_true(++hops <= 4);
    }
}

/* Dimensions in which routers a and b of flatfly:4:2 differ. */
static int dist42(int a, int b)
{
    return (a % 4 != b % 4) + (a / 4 != b / 4);
}

/* ugal_flatfly with 4 VCs, from 0 = (0,0) to 15 = (3,3): at the source the
 * minimal way (port 3, upper half [2, 4)) and the way toward the drawn
 * router m (lower half [0, 2)), UGAL's rule with weights 2 and
 * H(0, m) + H(m, 15), threshold 2; m drawn over the whole box (both digits
 * differ: all 16 routers, each about 1/16); m = 0 leaves the minimal way
 * alone (BookSim2: INT_MAX's overflow either way ends in phase 2 on the
 * minimal port). Through m = 6 = (2,1): port 2 to router 2, port 4 to 6 on
 * [0, 2), then minimal on [2, 4): port 3 to 7 = (3,1), port 6 to 15, where
 * it leaves on its terminal's port, any VC. From 0 to 3 = (3,0), digit 1
 * shared, m is one of routers 0 .. 3. */
static void test_ugal_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("flatfly:4:2", NOC_TOPO_F_UGAL);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_set);
    int seen[16] = {0}, seen_row[16] = {0}, by6 = 0;
    for (uint32_t i = 0; i < 16 * WORDS; i++) {
        noc_route_set_t rs;
        int m = ugal_mid_seen(t, 0, 15, word(i), 4, &rs);
        assert_int_equal(rs.c[0].port, 3);
        assert_int_equal(rs.c[0].lo, 2);
        assert_int_equal(rs.c[0].hi, 4);
        if (m < 0) {
            assert_int_equal(rs.pick, 0);
            seen[0]++;
        } else {
            assert_true(m != 0);
            seen[m]++;
            assert_int_equal(rs.pick, 2);
            assert_int_equal(rs.c[1].lo, 0);
            assert_int_equal(rs.c[1].hi, 2);
            assert_int_equal(rs.pick_w[0], 2);
            assert_int_equal(rs.pick_w[1], dist42(0, m) + dist42(m, 15));
            assert_int_equal(rs.pick_thr, 2);
        }
        if (m == 6) {
            by6++;
            assert_int_equal(rs.c[1].port, 2);
            noc_route_set_t r2;
            g->route_set(t, 2, 0, 15, word(i), 1, 4, 1, &r2);
            assert_int_equal(r2.c[0].port, 4);
            assert_int_equal(r2.c[0].lo, 0);
            g->route_set(t, 6, 0, 15, word(i), 2, 4, 0, &r2);
            assert_int_equal(r2.n, 1);
            assert_int_equal(r2.c[0].port, 3);
            assert_int_equal(r2.c[0].lo, 2);
            assert_int_equal(r2.c[0].hi, 4);
            g->route_set(t, 7, 0, 15, word(i), 3, 4, 3, &r2);
            assert_int_equal(r2.c[0].port, 6);
            assert_int_equal(r2.c[0].lo, 2);
            g->route_set(t, 15, 0, 15, word(i), 4, 4, 2, &r2);
            assert_int_equal(r2.c[0].port, 0);
            assert_int_equal(r2.c[0].lo, 0);
            assert_int_equal(r2.c[0].hi, 4);
        }
        int mr = ugal_mid_seen(t, 0, 3, word(i), 4, &rs);
        seen_row[mr < 0 ? 0 : mr]++;
    }
    assert_true(by6 > 0);
    for (int m = 0; m < 16; m++)
        if (seen[m] < 400 || seen[m] > 624)
            fail_msg("0 -> 15: router %d drawn %d times of %u", m, seen[m], 16 * WORDS);
    for (int m = 0; m < 16; m++)
        if (m < 4 ? seen_row[m] < 1800 || seen_row[m] > 2296 : seen_row[m] != 0)
            fail_msg("0 -> 3: router %d drawn %d times of %u", m, seen_row[m], 16 * WORDS);
    noc_topo_destroy(t);
}

/* ugal_xyyx_flatfly with 8 VCs, 0 to 15: x-first toward m on [0, 2),
 * x-first minimal on [2, 4) (port 3), y-first toward m on [4, 6), y-first
 * minimal on [6, 8) (port 6); the order drawn, about evenly; the way
 * toward m in the same order (at 0 toward m = (a, b): x-first port 1 + a - 1
 * where a != 0, y-first port 4 + b - 1 where b != 0). */
static void test_ugal_xy_yx_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("flatfly:4:2", NOC_TOPO_F_UGAL_XY_YX);
    assert_int_equal(t->n_vclasses, 4);
    int order[2] = {0, 0};
    for (uint32_t i = 0; i < WORDS; i++) {
        noc_route_set_t rs;
        int m = ugal_mid_seen(t, 0, 15, word(i), 8, &rs);
        int yx = rs.c[0].lo >= 4;
        order[yx]++;
        assert_int_equal(rs.c[0].port, yx ? 6 : 3);
        assert_int_equal(rs.c[0].lo, yx ? 6 : 2);
        assert_int_equal(rs.c[0].hi, yx ? 8 : 4);
        if (m < 0)
            continue;
        assert_int_equal(rs.c[1].lo, yx ? 4 : 0);
        assert_int_equal(rs.c[1].hi, yx ? 6 : 2);
        int a = m % 4, b = m / 4;
        assert_int_equal(rs.c[1].port, yx ? (b ? 4 + b - 1 : a) : (a ? a : 4 + b - 1));
        /* the way walked reaches the m UGAL weighed */
        assert_int_equal(rs.pick_w[1], dist42(0, m) + dist42(m, 15));
        if (m != 15) { /* at m, on minimally in the same order: (a, b) to (3, 3) */
            noc_route_set_t r2;
            noc_topo_graph(t)->route_set(t, m, 0, 15, word(i), dist42(0, m), 8, yx ? 4 : 0, &r2);
            assert_int_equal(r2.c[0].lo, yx ? 6 : 2);
            assert_int_equal(r2.c[0].port, yx ? (b != 3 ? 6 : 3) : (a != 3 ? 3 : 6));
        }
    }
    assert_true(order[0] > 0.45 * WORDS && order[1] > 0.45 * WORDS);
    noc_topo_destroy(t);
}

/* UGAL's rule in the router (model/graph.h's noc_route_set_pick): keep the
 * minimal candidate 0 when w0 * u0 <= w1 * u1 + thr. Worked: w = (2, 4),
 * thr 2: u = (3, 1): 6 <= 6, minimal; u = (4, 1): 8 > 6, the other;
 * u = (1, 0) with w = (1, 2): 1 <= 2 (the threshold), minimal; u = (0, 0):
 * minimal. pick 1: the less used, a tie by pick_bit. */
static void test_pick_rule(void **state)
{
    (void)state;
    noc_route_set_t rs = {0};
    rs.pick = 2;
    rs.pick_w[0] = 2;
    rs.pick_w[1] = 4;
    rs.pick_thr = 2;
    assert_int_equal(noc_route_set_pick(&rs, 3, 1), 0);
    assert_int_equal(noc_route_set_pick(&rs, 4, 1), 1);
    assert_int_equal(noc_route_set_pick(&rs, 0, 0), 0);
    rs.pick_w[0] = 1;
    rs.pick_w[1] = 2;
    assert_int_equal(noc_route_set_pick(&rs, 1, 0), 0);
    assert_int_equal(noc_route_set_pick(&rs, 3, 0), 1);
    rs.pick = 1;
    assert_int_equal(noc_route_set_pick(&rs, 3, 1), 1);
    assert_int_equal(noc_route_set_pick(&rs, 1, 3), 0);
    assert_int_equal(noc_route_set_pick(&rs, 2, 2), 0);
    rs.pick_bit = 1;
    assert_int_equal(noc_route_set_pick(&rs, 2, 2), 1);
}

/* UGAL: every route either choice at the source's router gives, for 64
 * words, the later routers by the part of the VCs: acyclic. */
static void ugal_acyclic(const char *spec, unsigned flags, int V)
{
    noc_topo_t *t = make_flags(spec, flags);
    int n = t->n_nodes;
    cdg_t cg = {t->n_ports * V, 0, 0, NULL};
    for (uint32_t i = 0; i < 64; i++)
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++)
                for (int first = 0; first < 2; first++)
                    walk_set(t, s, d, word(i), V, first, 2 * 3, &cg);
    assert_true(cdg_acyclic(&cg));
    free(cg.edge);
    noc_topo_destroy(t);
}

static void test_ugal_acyclic(void **state)
{
    (void)state;
    ugal_acyclic("flatfly:4:2", NOC_TOPO_F_UGAL, 4);
    ugal_acyclic("flatfly:3:3", NOC_TOPO_F_UGAL, 4);
    ugal_acyclic("flatfly:4:2", NOC_TOPO_F_UGAL_XY_YX, 8);
    ugal_acyclic("flatfly:3:3", NOC_TOPO_F_UGAL_XY_YX, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xy_yx_by_hand),
        cmocka_unit_test(test_valiant_by_hand),
        cmocka_unit_test(test_acyclic),
        cmocka_unit_test(test_adaptive_by_hand),
        cmocka_unit_test(test_adaptive_acyclic),
        cmocka_unit_test(test_ugal_by_hand),
        cmocka_unit_test(test_ugal_xy_yx_by_hand),
        cmocka_unit_test(test_pick_rule),
        cmocka_unit_test(test_ugal_acyclic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
