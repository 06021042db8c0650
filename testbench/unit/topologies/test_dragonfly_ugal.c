/* test_dragonfly_ugal.c: BookSim2's ugal_dragonflynew on the dragonfly
 * SPEC (NOC_TOPO_F_UGAL, topologies/dragonfly.c), read off
 * networks/dragonfly.cpp.
 *
 * Hand-worked on dragonfly:1: 3 groups of 2 routers, router r = 2G + i,
 * terminal t on router t; port 0 its terminal, port 1 the other router of
 * the group, port 2 its global link (router i of group G: global link x = i
 * toward group x when x < G, else x + 1): r0-r2, r1-r4, r3-r5. From
 * terminal 0 (r0, group 0) to 5 (r5, group 2): the minimal way is port 1
 * to r1 on VC 1 (phase 1), its global port 2 to r4 on VC 2 (phase 2 from
 * the global hop on), port 1 to r5 on VC 2, out on port 0, VC 2. The router
 * m drawn: in group 0, the minimal way alone; in group 1 (r2, r3), the way
 * toward m leaves on r0's own global port 2 (VC 0); in group 2 (r4, r5)
 * on port 1 (VC 0); the router keeps the minimal way while its port's used
 * credits are at most 2 times the other's plus 30. Through m = r3: r0 to
 * r2 (global, VC 0), r2 to r3 (local, VC 0), at m phase 1: r3's global
 * port 2 to r5 on VC 2, out on VC 2. Through m = r5: r0 to r1 (VC 0), r1
 * to r4 (global, VC 0), r4 to r5 (VC 0), at m phase 1: out on VC 1. To its
 * own group (terminal 1): port 1 on VC 2, out on VC 2 (phase 2).
 * m drawn uniform over the 6 routers (BookSim2: a terminal of the whole
 * network, P on each router). Phase 0's channels close a cycle on VC 0:
 * r0->r1, r1->r4, r4->r5, r5->r3, r3->r2, r2->r0, each pair the hops of a
 * packet from the first's router toward an m one group on (from r0 with
 * m = r5, from r4 with m = r2, ...): BookSim2's three VCs do not make UGAL
 * deadlock-free, and the dependency graph of all routes is cyclic. */
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

#define WORDS 6000u

static uint32_t word(uint32_t i)
{
    return i * 2654435761u;
}

/* One hop of a walk: the set at cur, which must hold one candidate. */
static noc_route_cand_t one(const noc_topo_t *t, int cur, int s, int d, uint32_t w, int in_vc)
{
    noc_route_set_t rs;
    noc_topo_graph(t)->route_set(t, cur, s, d, w, 0, 3, in_vc, &rs);
    assert_int_equal(rs.n, 1);
    assert_int_equal(rs.pick, 0);
    assert_int_equal(rs.c[0].hi, rs.c[0].lo + 1);
    return rs.c[0];
}

/* The ports and VCs of the way toward m from the source's candidate c,
 * to the ejection: port[], vc[], the routers at[]; returns the hops. */
static int walk(const noc_topo_t *t, int s, int d, uint32_t w, noc_route_cand_t c, int *port, int *vc, int *at)
{
    int cur = s, h = 0;
    for (;;) {
        port[h] = c.port;
        vc[h] = c.lo;
        at[h] = cur;
        if (c.port == 0)
            return h;
        cur = next_of(t, cur, c.port);
        c = one(t, cur, s, d, w, c.lo);
        assert_true(++h <= 8);
    }
}

static void test_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("dragonfly:1", NOC_TOPO_F_UGAL);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_set);
    assert_int_equal(t->n_vclasses, 3);
    int seen[6] = {0}, port[9], vc[9], at[9];
    for (uint32_t i = 0; i < WORDS; i++) {
        noc_route_set_t rs;
        g->route_set(t, 0, 0, 5, word(i), 0, 3, -1, &rs);
        /* the minimal way first */
        assert_int_equal(rs.c[0].port, 1);
        assert_int_equal(rs.c[0].lo, 1);
        int h = walk(t, 0, 5, word(i), rs.c[0], port, vc, at);
        static const int min_port[4] = {1, 2, 1, 0}, min_vc[4] = {1, 2, 2, 2}, min_at[4] = {0, 1, 4, 5};
        assert_int_equal(h, 3);
        for (int j = 0; j <= 3; j++) {
            assert_int_equal(port[j], min_port[j]);
            assert_int_equal(vc[j], min_vc[j]);
            assert_int_equal(at[j], min_at[j]);
        }
        if (rs.n == 1) { /* m in group 0: r0 or r1 */
            seen[0]++;
            continue;
        }
        assert_int_equal(rs.n, 2);
        assert_int_equal(rs.pick, 2);
        assert_int_equal(rs.pick_w[0], 1);
        assert_int_equal(rs.pick_w[1], 2);
        assert_int_equal(rs.pick_thr, 30);
        assert_int_equal(rs.c[1].lo, 0);
        h = walk(t, 0, 5, word(i), rs.c[1], port, vc, at);
        if (rs.c[1].port == 2) { /* m in group 1 */
            assert_int_equal(at[1], 2);
            assert_int_equal(h, 3);
            if (vc[1] == 1) { /* m = r2: on r2 -> r3 on VC 1, global to r5 on VC 2 */
                seen[2]++;
                static const int p2[4] = {2, 1, 2, 0}, v2[4] = {0, 1, 2, 2};
                for (int j = 0; j <= 3; j++) {
                    assert_int_equal(port[j], p2[j]);
                    assert_int_equal(vc[j], v2[j]);
                }
            } else { /* m = r3: r2 -> r3 on VC 0, then global to r5 on VC 2 */
                seen[3]++;
                static const int p3[4] = {2, 1, 2, 0}, v3[4] = {0, 0, 2, 2}, a3[4] = {0, 2, 3, 5};
                for (int j = 0; j <= 3; j++) {
                    assert_int_equal(port[j], p3[j]);
                    assert_int_equal(vc[j], v3[j]);
                    assert_int_equal(at[j], a3[j]);
                }
            }
        } else { /* m in group 2: r0 -> r1 -> r4 on VC 0 */
            assert_int_equal(rs.c[1].port, 1);
            assert_int_equal(at[1], 1);
            assert_int_equal(at[2], 4);
            assert_int_equal(vc[1], 0);
            if (h == 3 && vc[2] == 1) { /* m = r4: on to r5 on VC 1, out on VC 1 */
                seen[4]++;
                assert_int_equal(port[2], 1);
                assert_int_equal(vc[3], 1);
            } else { /* m = r5: r4 -> r5 on VC 0, out on VC 1 */
                seen[5]++;
                assert_int_equal(h, 3);
                assert_int_equal(vc[2], 0);
                assert_int_equal(port[3], 0);
                assert_int_equal(vc[3], 1);
            }
        }
    }
    /* group 0 a third, each other router a sixth */
    assert_true(seen[0] > 1800 && seen[0] < 2200);
    for (int m = 2; m < 6; m++)
        if (seen[m] < 850 || seen[m] > 1150)
            fail_msg("m = r%d drawn %d times of %u", m, seen[m], WORDS);
    /* its own group: phase 2 throughout */
    noc_route_set_t rs;
    g->route_set(t, 0, 0, 1, 5u, 0, 3, -1, &rs);
    assert_int_equal(rs.n, 1);
    assert_int_equal(rs.c[0].port, 1);
    assert_int_equal(rs.c[0].lo, 2);
    noc_route_cand_t c = one(t, 1, 0, 1, 5u, 2);
    assert_int_equal(c.port, 0);
    assert_int_equal(c.lo, 2);
    noc_topo_destroy(t);
}

/* All routes, either choice at the source, for many words: the channel
 * dependencies on (directed link, VC) hold the cycle on VC 0 of phase 0
 * and no other route breaks a rule: each reaches its destination within
 * local, global, local twice. */
static void test_phase0_cycle(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("dragonfly:1", NOC_TOPO_F_UGAL);
    const noc_graph_t *g = noc_topo_graph(t);
    int T = noc_topo_terminals(t), V = 3;
    cdg_t cg = {t->n_ports * V, 0, 0, NULL};
    for (uint32_t i = 0; i < 256; i++)
        for (int s = 0; s < T; s++)
            for (int d = 0; d < T; d++)
                for (int first = 0; first < 2; first++) {
                    noc_route_set_t rs;
                    g->route_set(t, s, s, d, word(i), 0, V, -1, &rs);
                    noc_route_cand_t c = rs.c[rs.n == 2 ? first : 0];
                    int cur = s, prev = -1, hops = 0;
                    while (c.port != 0) {
                        int gp = t->port_base[cur] + c.port, ch = gp * V + c.lo;
                        if (prev >= 0)
                            cdg_add(&cg, prev, ch);
                        prev = ch;
                        cur = next_of(t, cur, c.port);
                        c = one(t, cur, s, d, word(i), c.lo);
                        assert_true(++hops <= 6);
                    }
                    assert_int_equal(cur, d);
                }
    assert_false(cdg_acyclic(&cg));
    /* the cycle's six edges, each channel on VC 0 */
    static const int hop[7][2] = {{0, 1}, {1, 2}, {4, 1}, {5, 2}, {3, 1}, {2, 2}, {0, 1}};
    for (int e = 0; e < 6; e++) {
        int a = (t->port_base[hop[e][0]] + hop[e][1]) * V, found = 0;
        int b = (t->port_base[hop[e + 1][0]] + hop[e + 1][1]) * V;
        for (int k = 0; k < cg.n_edges && !found; k++)
            found = cg.edge[k][0] == a && cg.edge[k][1] == b;
        if (!found)
            fail_msg("no dependency r%d port %d -> r%d port %d on VC 0", hop[e][0], hop[e][1], hop[e + 1][0],
                     hop[e + 1][1]);
    }
    free(cg.edge);
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_phase0_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
