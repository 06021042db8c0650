/* test_cmesh.c: cmesh:AxB[:CXxCY] (topologies/cmesh.c), BookSim2's
 * concentrated mesh. Expected terminal places and routes are worked by hand
 * from BookSim2's networks/cmesh.cpp: NodeToRouter and NodeToPort on the
 * terminal grid of (A*CX) x (B*CY), the local ports first, then +x, -x, +y,
 * -y, and dor_no_express (x, then y, then the destination's local port). */
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

/* cmesh:4x4: 16 routers of 4 terminals on a terminal grid of 8 x 8. */
static void test_places(void **state)
{
    (void)state;
    noc_topo_t *t = make("cmesh:4x4");
    const noc_graph_t *g = noc_topo_graph(t);
    assert_int_equal(noc_topo_nodes(t), 16);
    assert_int_equal(noc_topo_terminals(t), 64);
    /* degrees: corners 2, edges 3, the middle 4; 4 local ports each */
    static const int deg[16] = {2, 3, 3, 2, 3, 4, 4, 3, 3, 4, 4, 3, 2, 3, 3, 2};
    for (int v = 0; v < 16; v++) {
        assert_int_equal(noc_topo_locals(t, v), 4);
        assert_int_equal(noc_topo_degree(t, v), deg[v]);
    }
    /* terminal (tx, ty) = ty*8 + tx on router (tx/2, ty/2), port (ty%2)*2 + tx%2 */
    static const int term[6] = {0, 8, 9, 10, 47, 63}, router[6] = {0, 0, 0, 1, 11, 15},
                     port[6] = {0, 2, 3, 2, 3, 3};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(noc_graph_term_node(g, term[i]), router[i]);
        assert_int_equal(noc_graph_term_gport(g, term[i]) - t->port_base[router[i]], port[i]);
        assert_int_equal(noc_graph_term_at(g, router[i], port[i]), term[i]);
    }
    /* router 0 (0,0): +x port 4, +y port 5; router 1 (1,0): +x 4, -x 5, +y 6 */
    assert_int_equal(far_router(t, 0, 4), 1);
    assert_int_equal(far_router(t, 0, 5), 4);
    assert_int_equal(t->peer[t->port_base[0] + 4], t->port_base[1] + 5);
    assert_int_equal(far_router(t, 1, 6), 5);
    assert_int_equal(noc_topo_link_class(t, t->port_base[0] + 4), 0);
    assert_int_equal(noc_topo_link_class(t, t->port_base[0] + 5), 1);
    char label[16];
    noc_topo_label(t, 6, label, sizeof label);
    assert_string_equal(label, "(2,1)");
    noc_topo_destroy(t);
}

/* dor_no_express: from router 0 to terminal 63 (router 15, (3,3)): +x to
 * (3,0), then +y (router 3: -x 4, +y 5), then local port 3; 6 hops. */
static void test_routes(void **state)
{
    (void)state;
    noc_topo_t *t = make("cmesh:4x4");
    noc_route_t r;
    noc_topo_route(t, 0, 0, 63, &r);
    assert_int_equal(r.port, 4);
    noc_topo_route(t, 3, 0, 63, &r);
    assert_int_equal(r.port, 5);
    noc_topo_route(t, 15, 0, 63, &r);
    assert_int_equal(r.port, 3);
    noc_topo_route(t, 5, 0, 0, &r); /* (1,1) to (0,0): -x first (ports 4..7: +x -x +y -y) */
    assert_int_equal(r.port, 5);
    assert_int_equal(r.vclass, 0);
    assert_int_equal(noc_topo_route_hops(t, 0, 63), 6);
    assert_int_equal(noc_topo_route_hops(t, 0, 9), 0);
    assert_int_equal(noc_topo_route_hops(t, 10, 0), 1);
    noc_topo_destroy(t);
    /* 3x2 routers of 1x2 terminals: terminal grid 3 x 4 */
    t = make("cmesh:3x2:1x2");
    assert_int_equal(noc_topo_terminals(t), 12);
    assert_int_equal(noc_graph_term_node(noc_topo_graph(t), 11), 5); /* (2,3): router (2,1) */
    assert_int_equal(noc_graph_term_gport(noc_topo_graph(t), 11) - t->port_base[5], 1);
    assert_int_equal(noc_topo_route_hops(t, 0, 11), 3);
    noc_topo_destroy(t);
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {"cmesh:4", "cmesh:4x", "cmesh:4x4:3x3", "cmesh:1x1", "cmesh:4x4:2",
                                      "cmesh:4x4:0x2", "cmesh:4x4:2x2x", "cmesh:x4"};
    expect_refused(bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_places),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
