/* test_fabric_routing.c: routing on the fabrics beyond grids: every source
 * reaches every destination along a path as short as the BFS distance, with
 * VC classes below n_vclasses, and the channel dependency graph over
 * (directed link, VC class) is acyclic (fabric_check.h), on 43 fabrics of
 * several sizes; the VC classes each fabric needs; the group-level routes of
 * BSN and OTIS and the pyramid's up-across-down routes by hand. */
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

static const char *const route_specs[] = {
    "bsn:ring:4", "bsn:ring:5", "bsn:ring:8", "bsn:mesh:3x3", "bsn:mesh:2x3", "bsn:torus:3x3",
    "bsn:torus:4x3", "bsn:hypercube:2", "bsn:hypercube:3", "bsn:complete:4",
    "bsn:circulant:13:2,3", "bsn:mesh:4x4", "bsn:pyramid:1",
    "otis:ring:5", "otis:ring:8", "otis:mesh:4x4", "otis:mesh:2x3", "otis:torus:3x3",
    "otis:torus:4x4", "otis:hypercube:3", "otis:complete:5", "otis:circulant:13:2,3",
    "otis:bsn:ring:3",
    "pyramid:1", "pyramid:2", "pyramid:3", "pyramid:4", "multilevel:3:1", "multilevel:4:2,2",
    "multilevel:4:1,2", "multilevel:3:3", "multilevel:5:2,1,1",
    "circulant:12:1", "circulant:13:2,3", "circulant:25:3,4", "circulant:41:4,5",
    "circulant:10:5,1", "circulant:16:1,4", "circulant:30:1,7,11", "circulant:64:1,8",
    "complete:2", "complete:7", "complete:32",
};
#define N_ROUTE_SPECS (sizeof route_specs / sizeof route_specs[0])

static void test_routes(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROUTE_SPECS; i++) {
        noc_topo_t *t = make(route_specs[i]);
        assert_true(check_routes(route_specs[i], t));
        noc_topo_destroy(t);
    }
}

/* VC classes: BSN and OTIS need twice their basis's, the pyramid and the
 * complete graph one; table routing counts its up* / down* turns. */
static void test_vclasses(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int vclasses;
    } v[] = {
        {"bsn:ring:8", 4},      {"bsn:mesh:4x4", 2},   {"bsn:hypercube:3", 2},
        {"bsn:complete:5", 2},  {"bsn:torus:3x3", 4},  {"otis:mesh:4x4", 2},
        {"otis:ring:8", 4},     {"otis:hypercube:3", 2}, {"pyramid:4", 1},
        {"multilevel:4:2,2", 1}, {"complete:9", 1},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        noc_topo_t *t = make(v[i].spec);
        if (t->n_vclasses != v[i].vclasses)
            print_error("%s: %d VC classes\n", v[i].spec, t->n_vclasses);
        assert_int_equal(t->n_vclasses, v[i].vclasses);
        noc_topo_destroy(t);
    }
    /* table routing: a ring needs one turn at the far side from the root */
    noc_topo_t *t = make("circulant:12:1");
    assert_int_equal(t->n_vclasses, 2);
    noc_topo_destroy(t);
    /* a table-routed basis multiplies too */
    t = make("bsn:circulant:12:1");
    assert_int_equal(t->n_vclasses, 4);
    noc_topo_destroy(t);
}

/* Routing by hand: the group-level routes of the definitions. */
static void test_route_shapes(void **state)
{
    (void)state;
    noc_topo_t *t = make("bsn:ring:8");
    int *owner = owners(t);
    /* <1,2,0> -> <5,6,0>: in group 1 to processor 6 (4 hops, a tie on the
     * ring taken + from the even entry 2), swap to <6,1,1>, in group 6 to
     * processor 5 (4 hops, taken - from the odd entry 1), swap to <5,6,0> */
    int s = noc_topo_find_label(t, "<1,2,0>"), d = noc_topo_find_label(t, "<5,6,0>");
    const char *const path[] = {"<1,2,0>", "<1,3,0>", "<1,4,0>", "<1,5,0>", "<1,6,0>", "<6,1,1>",
                                "<6,0,1>", "<6,7,1>", "<6,6,1>", "<6,5,1>", "<5,6,0>"};
    int cur = s;
    for (size_t i = 0; i < sizeof path / sizeof path[0]; i++) {
        char l[64];
        noc_topo_label(t, cur, l, sizeof l);
        assert_string_equal(l, path[i]);
        noc_route_t r;
        t->ops->route(t, cur, s, d, &r);
        if (cur == d)
            break;
        int cls = t->link_class[t->port_base[cur] + r.port];
        /* swap links: phase * 2; intra links: phase * 2 + ring class */
        assert_true(i < 5 ? r.vclass < 2 : r.vclass >= 2);
        assert_int_equal(cls, i == 4 || i == 9);
        cur = owner[t->peer[t->port_base[cur] + r.port]];
    }
    assert_int_equal(cur, d);
    free(owner);
    noc_topo_destroy(t);

    /* OTIS over a ring of 8: (0,1) -> (4,3): one optical hop costs
     * d(1,4) + 1 + d(0,3) = 7, two cost d(1,3) + d(0,4) + 2 = 8: one */
    t = make("otis:ring:8");
    owner = owners(t);
    s = noc_topo_find_label(t, "(0,1)");
    d = noc_topo_find_label(t, "(4,3)");
    assert_int_equal(noc_topo_route_hops(t, s, d), 7);
    /* (0,1) -> (4,2): one costs d(1,4) + 1 + d(0,2) = 6, two cost
     * d(1,2) + d(0,4) + 2 = 7: one; (0,1) -> (1,2): one via (0,1)-(1,0):
     * 0 + 1 + d(0,2) = 3 */
    assert_int_equal(noc_topo_route_hops(t, s, noc_topo_find_label(t, "(4,2)")), 6);
    assert_int_equal(noc_topo_route_hops(t, s, noc_topo_find_label(t, "(1,2)")), 3);
    /* (0,3) -> (1,4): one costs d(3,1) + 1 + d(0,4) = 7, two cost d(3,4)
     * + d(0,1) + 2 = 4: through (0,4), (4,0), (4,1), (1,4) */
    s = noc_topo_find_label(t, "(0,3)");
    d = noc_topo_find_label(t, "(1,4)");
    const char *const p2[] = {"(0,3)", "(0,4)", "(4,0)", "(4,1)", "(1,4)"};
    cur = s;
    for (size_t i = 0; i < sizeof p2 / sizeof p2[0]; i++) {
        char l[64];
        noc_route_t r;
        noc_topo_label(t, cur, l, sizeof l);
        assert_string_equal(l, p2[i]);
        t->ops->route(t, cur, s, d, &r);
        if (cur == d)
            break;
        cur = owner[t->peer[t->port_base[cur] + r.port]];
    }
    assert_int_equal(cur, d);
    free(owner);
    noc_topo_destroy(t);

    /* pyramid:2: (0,0,0) -> (0,0,3): 3 lateral hops (up-across-down is 4) */
    t = make("pyramid:2");
    s = noc_topo_find_label(t, "(0,0,0)");
    assert_int_equal(noc_topo_route_hops(t, s, noc_topo_find_label(t, "(0,0,3)")), 3);
    /* (0,0,0) -> (0,3,3): 4 = up to level 2 and down (lateral would be 6) */
    assert_int_equal(noc_topo_route_hops(t, s, noc_topo_find_label(t, "(0,3,3)")), 4);
    noc_route_t r;
    t->ops->route(t, s, s, noc_topo_find_label(t, "(0,3,3)"), &r);
    assert_int_equal(t->link_class[t->port_base[s] + r.port], 1);
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_vclasses),
        cmocka_unit_test(test_route_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
