/* test_adaptive_routing.c: the route sets of adaptive routing on meshes
 * (topologies/grid_adapt.c): hand-worked sets on a 4x4 mesh, and for every
 * (node, destination, input VC) of several meshes: every candidate one hop
 * nearer, the escape VC in dimension order and never left, the adaptive
 * ranges one per differing dimension (BookSim2's set: the first only;
 * its planar_adapt: dimension order on the upper third of the VCs),
 * adaptive_xy_yx's halves each acyclic over (link, half). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topo_internal.h"
#include "fabric_check.h" /* cdg_t, cdg_add, cdg_acyclic */

static const char *const specs[] = { "mesh:4x4", "mesh:3x5", "mesh:2x3x4", "mesh:6" };
#define N_SPECS (sizeof specs / sizeof specs[0])

static int next_node(const noc_topo_t *t, int cur, int port)
{
    return noc_topo_port_node(t, t->peer[noc_topo_gport(t, cur, port)]);
}

static void set_of(const noc_topo_t *t, int cur, int dst, int V, int in_vc, uint32_t salt, noc_route_set_t *rs)
{
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_set);
    memset(rs, 0xa5, sizeof *rs);
    g->route_set(g->ctx, cur, 0, dst, salt, 0, V, in_vc, rs);
    assert_in_range(rs->n, 1, NOC_ROUTE_SET_MAX);
}

static void expect_cand(const noc_route_cand_t *c, int port, int lo, int hi, int pri, int empty)
{
    assert_int_equal(c->port, port);
    assert_int_equal(c->lo, lo);
    assert_int_equal(c->hi, hi);
    assert_int_equal(c->pri, pri);
    assert_int_equal(c->empty, empty);
}

/* mesh:4x4, node 0 = (0,0) toward 5 = (1,1): port 1 is x+, port 2 y+
 * (a corner has no - ports); 4 VCs. */
static void test_hand_sets(void **state)
{
    (void)state;
    noc_route_set_t rs;
    noc_topo_t *t = make_flags("mesh:4x4", NOC_TOPO_F_MIN_ADAPT);
    set_of(t, 0, 5, 4, -1, 0, &rs); /* injected: escape x+ VC 0, adaptive x+ and y+ on VCs 1..3 */
    assert_int_equal(rs.n, 3);
    assert_int_equal(rs.pick, 0);
    expect_cand(&rs.c[0], 1, 0, 1, 0, 0);
    expect_cand(&rs.c[1], 1, 1, 4, 1, 1);
    expect_cand(&rs.c[2], 2, 1, 4, 1, 1);
    set_of(t, 0, 5, 4, 0, 0, &rs); /* in the escape VC: only it */
    assert_int_equal(rs.n, 1);
    expect_cand(&rs.c[0], 1, 0, 1, 0, 0);
    set_of(t, 5, 5, 4, 2, 0, &rs); /* at the destination: eject on any VC */
    assert_int_equal(rs.n, 1);
    expect_cand(&rs.c[0], 0, 0, 4, 0, 0);
    /* node 5 = (1,1) toward 0: ports 1 x+, 2 x-, 3 y+, 4 y- */
    set_of(t, 5, 0, 4, 3, 0, &rs);
    assert_int_equal(rs.n, 3);
    expect_cand(&rs.c[0], 2, 0, 1, 0, 0);
    expect_cand(&rs.c[1], 2, 1, 4, 1, 1);
    expect_cand(&rs.c[2], 4, 1, 4, 1, 1);
    noc_topo_destroy(t);

    t = make_flags("mesh:4x4", NOC_TOPO_F_MIN_ADAPT_BS);
    set_of(t, 0, 5, 4, -1, 0, &rs); /* BookSim2's set: x+ only */
    assert_int_equal(rs.n, 2);
    expect_cand(&rs.c[0], 1, 0, 1, 0, 0);
    expect_cand(&rs.c[1], 1, 1, 4, 1, 0);
    noc_topo_destroy(t);

    t = make_flags("mesh:4x4", NOC_TOPO_F_PLANAR_BS);
    set_of(t, 0, 5, 6, -1, 0, &rs); /* BookSim2's planar_adapt: x+ on VCs 4, 5 of 6 */
    assert_int_equal(rs.n, 1);
    expect_cand(&rs.c[0], 1, 4, 6, 0, 0);
    set_of(t, 0, 5, 2, 1, 0, &rs); /* fewer than 3 VCs: all */
    expect_cand(&rs.c[0], 1, 0, 2, 0, 0);
    noc_topo_destroy(t);

    t = make_flags("mesh:4x4", NOC_TOPO_F_ADAPT_XY_YX);
    set_of(t, 0, 5, 4, -1, 1u, &rs); /* at the source: x-first low half or y-first high half, picked */
    assert_int_equal(rs.n, 2);
    assert_int_equal(rs.pick, 1);
    assert_int_equal(rs.pick_bit, 0); /* salt bit 0 set: x first on a tie */
    expect_cand(&rs.c[0], 1, 0, 2, 0, 0);
    expect_cand(&rs.c[1], 2, 2, 4, 0, 0);
    set_of(t, 0, 5, 4, -1, 2u, &rs);
    assert_int_equal(rs.pick_bit, 1);
    set_of(t, 0, 5, 4, 1, 0, &rs); /* on the low half: x first */
    assert_int_equal(rs.n, 1);
    expect_cand(&rs.c[0], 1, 0, 2, 0, 0);
    set_of(t, 0, 5, 4, 3, 0, &rs); /* on the high half: y first */
    assert_int_equal(rs.n, 1);
    expect_cand(&rs.c[0], 2, 2, 4, 0, 0);
    noc_topo_destroy(t);
}

/* Every candidate of every (node, destination, input VC) is a link one hop
 * nearer the destination; escape and adaptive ranges as documented. */
static void check_sets(const noc_topo_t *t, unsigned flag, int V)
{
    for (int cur = 0; cur < t->n_nodes; cur++)
        for (int d = 0; d < t->n_nodes; d++) {
            int h = noc_topo_grid_hops(t, cur, d), differ = 0;
            for (int e = 0; e < t->dims; e++)
                differ += (cur / t->stride[e]) % t->k[e] != (d / t->stride[e]) % t->k[e];
            for (int in_vc = -1; in_vc < V; in_vc++) {
                noc_route_set_t rs;
                set_of(t, cur, d, V, in_vc, (uint32_t)(cur * 31 + d), &rs);
                if (cur == d) {
                    assert_int_equal(rs.n, 1);
                    expect_cand(&rs.c[0], 0, 0, V, 0, 0);
                    continue;
                }
                for (int k = 0; k < rs.n; k++) {
                    assert_in_range(rs.c[k].port, 1, noc_topo_degree(t, cur));
                    assert_int_equal(noc_topo_grid_hops(t, next_node(t, cur, rs.c[k].port), d), h - 1);
                    assert_true(rs.c[k].lo < rs.c[k].hi && rs.c[k].hi <= V);
                }
                noc_route_t dor;
                t->ops->route(t, cur, 0, d, &dor);
                if (flag == NOC_TOPO_F_PLANAR_BS) { /* dimension order on the upper third */
                    assert_int_equal(rs.n, 1);
                    expect_cand(&rs.c[0], dor.port, 2 * (V / 3), V, 0, 0);
                    continue;
                }
                if (flag == NOC_TOPO_F_ADAPT_XY_YX) {
                    assert_int_equal(rs.n, in_vc < 0 ? 2 : 1);
                    if (in_vc >= 0 && in_vc < V / 2)
                        assert_int_equal(rs.c[0].port, dor.port); /* x first: dimension order */
                    continue;
                }
                expect_cand(&rs.c[0], dor.port, 0, 1, 0, 0); /* the escape VC */
                int adaptive = in_vc == 0 ? 0 : flag == NOC_TOPO_F_MIN_ADAPT_BS ? 1 : differ;
                assert_int_equal(rs.n, 1 + adaptive);
                for (int k = 1; k < rs.n; k++)
                    expect_cand(&rs.c[k], rs.c[k].port, 1, V, 1, flag == NOC_TOPO_F_MIN_ADAPT);
                if (flag == NOC_TOPO_F_MIN_ADAPT_BS && adaptive)
                    assert_int_equal(rs.c[1].port, dor.port);
                for (int k = 1; k < rs.n; k++) /* one per differing dimension: all distinct */
                    for (int j = 1; j < k; j++)
                        assert_int_not_equal(rs.c[k].port, rs.c[j].port);
            }
        }
}

static void test_all_sets(void **state)
{
    (void)state;
    static const unsigned flags[4] = { NOC_TOPO_F_MIN_ADAPT, NOC_TOPO_F_MIN_ADAPT_BS, NOC_TOPO_F_ADAPT_XY_YX,
                                       NOC_TOPO_F_PLANAR_BS };
    for (size_t i = 0; i < N_SPECS; i++)
        for (int f = 0; f < 4; f++) {
            noc_topo_t *t = make_flags(specs[i], flags[f]);
            assert_int_equal(noc_topo_graph(t)->n_vclasses, flags[f] == NOC_TOPO_F_PLANAR_BS ? 1 : 2);
            check_sets(t, flags[f], 4);
            check_sets(t, flags[f], 2);
            check_sets(t, flags[f], 8);
            noc_topo_destroy(t);
        }
}

/* adaptive_xy_yx: every route, either order, over channels (link, half):
 * acyclic (each order on its own half). */
static void test_xy_yx_cdg(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_SPECS; i++) {
        noc_topo_t *t = make_flags(specs[i], NOC_TOPO_F_ADAPT_XY_YX);
        cdg_t g;
        memset(&g, 0, sizeof g);
        g.n = t->n_ports * 2;
        for (int s = 0; s < t->n_nodes; s++)
            for (int d = 0; d < t->n_nodes; d++)
                for (int pick = 0; pick < 2 && s != d; pick++) {
                    int cur = s, prev = -1, vc = -1;
                    while (cur != d) {
                        noc_route_set_t rs;
                        set_of(t, cur, d, 4, vc, 0, &rs);
                        const noc_route_cand_t *c = &rs.c[vc < 0 ? pick : 0];
                        int ch = noc_topo_gport(t, cur, c->port) * 2 + (c->lo >= 2);
                        if (prev >= 0)
                            cdg_add(&g, prev, ch);
                        prev = ch;
                        vc = c->lo;
                        cur = next_node(t, cur, c->port);
                    }
                }
        assert_true(cdg_acyclic(&g));
        free(g.edge);
        noc_topo_destroy(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_sets),
        cmocka_unit_test(test_all_sets),
        cmocka_unit_test(test_xy_yx_cdg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
