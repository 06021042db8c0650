/* test_dragonfly.c: dragonfly:P (topologies/dragonfly.c), BookSim2's
 * dragonflynew with k = P, n = 1. Counts from the formulas (a = 2P routers
 * in a group, g = 2P^2 + 1 groups, 4P - 1 ports on a router); ports, peers
 * and routes worked by hand from BookSim2's networks/dragonfly.cpp:
 * terminal t on router t / P at port t % P, local links at ports P ..
 * 3P - 2, global ones at 3P - 1 .. 4P - 2, dragonfly_port's choice of port
 * and min_dragonflynew's VC (0 in the source's group, 1 from the global
 * link on). Then every route of dragonfly:1 and dragonfly:2 walked: it
 * arrives, takes at most local, global, local, and the channel dependency
 * graph over (link, VC class) has no cycle. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "topologies/topo_internal.h"

#include "fabric_check.h"

/* The router at the far end of port `port` of router n. */
static int far_router(const noc_topo_t *t, int n, int port)
{
    return noc_topo_port_node(t, t->peer[t->port_base[n] + port]);
}

/* Counts: P = 1, 2, 3: a = 2P, g = 2P^2 + 1, routers a*g, terminals P*a*g,
 * links a*g*(2P-1)/2 local + a*g*P/2 global (one between every pair of
 * groups: g*(g-1)/2). */
static void test_counts(void **state)
{
    (void)state;
    for (int P = 1; P <= 3; P++) {
        char spec[32];
        snprintf(spec, sizeof spec, "dragonfly:%d", P);
        noc_topo_t *t = make(spec);
        int a = 2 * P, g = 2 * P * P + 1, n = a * g;
        assert_int_equal(noc_topo_nodes(t), n);
        assert_int_equal(noc_topo_terminals(t), n * P);
        assert_int_equal(noc_topo_ports(t), n * (4 * P - 1));
        assert_int_equal(noc_topo_classes(t), 2);
        assert_string_equal(noc_topo_class_name(t, 0), "local");
        assert_string_equal(noc_topo_class_name(t, 1), "global");
        assert_int_equal(noc_topo_vclasses(t), 2);
        /* BookSim2 asks for VC ph at the ejection port too */
        assert_int_equal(noc_topo_graph(t)->eject_vclass, 1);
        int local = 0, global = 0;
        for (int v = 0; v < n; v++) {
            assert_int_equal(noc_topo_locals(t, v), P);
            assert_int_equal(noc_topo_degree(t, v), 3 * P - 1);
            for (int p = P; p < 4 * P - 1; p++) {
                int gp = t->port_base[v] + p, peer = t->peer[gp];
                assert_true(peer >= 0);
                assert_int_equal(t->peer[peer], gp); /* two-way, on the same port */
                int u = noc_topo_port_node(t, peer), cls = noc_topo_link_class(t, gp);
                assert_int_equal(cls, p >= 3 * P - 1);
                assert_int_equal(u / a == v / a, cls == 0); /* local links stay in the group */
                local += cls == 0;
                global += cls == 1;
            }
        }
        assert_int_equal(local / 2, n * (2 * P - 1) / 2);
        assert_int_equal(global / 2, g * (g - 1) / 2);
        /* every pair of groups joined exactly once */
        int *seen = calloc((size_t)(g * g), sizeof *seen);
        assert_non_null(seen);
        for (int v = 0; v < n; v++)
            for (int p = 3 * P - 1; p < 4 * P - 1; p++)
                seen[(v / a) * g + far_router(t, v, p) / a]++;
        for (int x = 0; x < g; x++)
            for (int y = 0; y < g; y++)
                assert_int_equal(seen[x * g + y], x != y);
        free(seen);
        noc_topo_destroy(t);
    }
}

/* dragonfly:2: P = 2, a = 4, g = 9, 36 routers, 72 terminals; ports 0-1
 * terminals, 2-4 local links, 5-6 global links. Worked from BookSim2's
 * _BuildNet: router (G,i)'s global output c goes to group x = 2i + c (x + 1
 * when x >= G). */
static void test_places(void **state)
{
    (void)state;
    noc_topo_t *t = make("dragonfly:2");
    const noc_graph_t *g = noc_topo_graph(t);
    /* terminal 13: router 6 (group 1, router 2), port 1 */
    assert_int_equal(noc_graph_term_node(g, 13), 6);
    assert_int_equal(noc_graph_term_gport(g, 13) - t->port_base[6], 1);
    assert_int_equal(noc_graph_term_at(g, 6, 0), 12);
    /* router 0 (group 0, router 0): local ports 2, 3, 4 to routers 1, 2, 3 */
    assert_int_equal(far_router(t, 0, 2), 1);
    assert_int_equal(far_router(t, 0, 4), 3);
    /* router 6 (1,2): port 2 to router 4 (1,0), port 3 to 5 (1,1), port 4 to 7 (1,3) */
    assert_int_equal(far_router(t, 6, 2), 4);
    assert_int_equal(far_router(t, 6, 3), 5);
    assert_int_equal(far_router(t, 6, 4), 7);
    /* and router 7's port toward 6 is its port 4 (6 = index 2 < 3: P + 2) */
    assert_int_equal(t->peer[t->port_base[6] + 4], t->port_base[7] + 4);
    /* router 0's globals: x = 0 -> group 1, x = 1 -> group 2; group 1
     * reaches group 0 through its x = 0: router 4 (1,0), port 5 */
    assert_int_equal(far_router(t, 0, 5), 4);
    assert_int_equal(t->peer[t->port_base[0] + 5], t->port_base[4] + 5);
    assert_int_equal(far_router(t, 0, 6), 8);
    /* router 35 (8,3): x = 6, 7 -> groups 6, 7 (x < 8); group 7 reaches
     * group 8 through its x = 7: router 31 (7,3), port 6 */
    assert_int_equal(far_router(t, 35, 6), 31);
    assert_int_equal(t->peer[t->port_base[35] + 6], t->port_base[31] + 6);
    char label[16];
    noc_topo_label(t, 6, label, sizeof label);
    assert_string_equal(label, "(1,2)");
    noc_topo_destroy(t);
}

/* The routes of dragonfly:2 worked from dragonfly_port and min_dragonflynew. */
static void test_routes(void **state)
{
    (void)state;
    noc_topo_t *t = make("dragonfly:2");
    noc_route_t r;
    /* terminal 0 (router 0) to terminal 71 (router 35, group 8): group 0's
     * link to group 8 is x = 7, on router 3 (7/2), port 5 + 1 = 6. At 0:
     * local port to router 3: 2 + 3 - 1 = 4, VC 0. */
    noc_topo_route(t, 0, 0, 71, &r);
    assert_int_equal(r.port, 4);
    assert_int_equal(r.vclass, 0);
    noc_topo_route(t, 3, 0, 71, &r);
    assert_int_equal(r.port, 6);
    assert_int_equal(r.vclass, 1);
    /* it lands on group 8's x = 0: router 32 (8,0), port 5; then to router
     * 35: 2 + 3 - 1 = 4, VC 1; eject at port 71 % 2 = 1 */
    assert_int_equal(far_router(t, 3, 6), 32);
    noc_topo_route(t, 32, 0, 71, &r);
    assert_int_equal(r.port, 4);
    assert_int_equal(r.vclass, 1);
    noc_topo_route(t, 35, 0, 71, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(noc_topo_route_hops(t, 0, 71), 3);
    /* terminal 21 (router 10, group 2, index 2) to terminal 2 (router 1,
     * group 0): group 2's x toward group 0 is 0, on router 8 (2,0), port 5:
     * from index 2 to 0: local port 2 + 0 = 2, VC 0; 8 -> group 0's x = 1
     * (group 2 > 0: 2 - 1), router 0, port 6; then 0 -> 1: port 2, VC 1 */
    noc_topo_route(t, 10, 21, 2, &r);
    assert_int_equal(r.port, 2);
    assert_int_equal(r.vclass, 0);
    noc_topo_route(t, 8, 21, 2, &r);
    assert_int_equal(r.port, 5);
    assert_int_equal(r.vclass, 1);
    assert_int_equal(far_router(t, 8, 5), 0);
    assert_int_equal(t->peer[t->port_base[8] + 5], t->port_base[0] + 6);
    noc_topo_route(t, 0, 21, 2, &r);
    assert_int_equal(r.port, 2);
    assert_int_equal(r.vclass, 1);
    /* in one group: terminal 8 (router 4) to 15 (router 7): one local hop,
     * VC 0 (BookSim2's ph stays 0) */
    noc_topo_route(t, 4, 8, 15, &r);
    assert_int_equal(r.port, 4);
    assert_int_equal(r.vclass, 0);
    assert_int_equal(noc_topo_route_hops(t, 8, 15), 1);
    assert_int_equal(noc_topo_route_hops(t, 8, 9), 0);
    /* the source's router holds the global link: terminal 0 to group 1
     * (x = 0 on router 0, port 5): global first, then local in group 1 */
    noc_topo_route(t, 0, 0, 15, &r);
    assert_int_equal(r.port, 5);
    assert_int_equal(r.vclass, 1);
    assert_int_equal(noc_topo_route_hops(t, 0, 15), 2);
    noc_topo_destroy(t);
}

/* Every route of dragonfly:1 and :2: arrives at the destination's port,
 * local hops in class 0 only in the source's group, at most one global hop
 * and one local hop on either side of it; no cycle over (link, class). */
static void test_all_routes(void **state)
{
    (void)state;
    static const char *const specs[] = {"dragonfly:1", "dragonfly:2"};
    for (size_t s = 0; s < 2; s++) {
        noc_topo_t *t = make(specs[s]);
        const noc_graph_t *g = noc_topo_graph(t);
        int T = noc_topo_terminals(t), V = t->n_vclasses, P = g->max_locals, a = 2 * P;
        cdg_t dep = {t->n_ports * V, 0, 0, NULL};
        for (int src = 0; src < T; src++)
            for (int dst = 0; dst < T; dst++) {
                int cur = noc_graph_term_node(g, src), prev = -1, hops = 0, globals = 0, before = 0, after = 0;
                noc_route_t r;
                for (;;) {
                    t->ops->route(t, cur, src, dst, &r);
                    if (r.port < P) { /* ejection, on the phase's VC */
                        assert_int_equal(r.vclass, cur / a != src / P / a);
                        break;
                    }
                    assert_true(r.port < 4 * P - 1 && r.vclass < V);
                    int gp = t->port_base[cur] + r.port, global = noc_topo_link_class(t, gp) == 1;
                    assert_int_equal(r.vclass, global || cur / a != src / P / a);
                    globals += global;
                    before += !global && !globals;
                    after += !global && globals;
                    int ch = gp * V + r.vclass;
                    if (prev >= 0)
                        cdg_add(&dep, prev, ch);
                    prev = ch;
                    cur = noc_topo_port_node(t, t->peer[gp]);
                    assert_true(++hops <= 3);
                }
                assert_int_equal(t->port_base[cur] + r.port, noc_graph_term_gport(g, dst));
                assert_true(globals <= 1 && before <= 1 && after <= 1);
                assert_int_equal(globals, src / P / a != dst / P / a);
            }
        assert_true(cdg_acyclic(&dep));
        free(dep.edge);
        noc_topo_destroy(t);
    }
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {"dragonfly", "dragonfly:", "dragonfly:0", "dragonfly:17", "dragonfly:2:1",
                                      "dragonfly:x"};
    expect_refused(bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_places),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_all_routes),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
