/* test_trees.c: BookSim2's trees, qtree:K:N (topologies/qtree.c) and tree4
 * (topologies/tree4.c). The wiring against BookSim2's own construction
 * (networks/qtree.cpp, networks/tree4.cpp: each router's ports numbered in
 * the order its channels are added), written out here apart from the
 * builders; routes against nca worked by hand; every route walked (up
 * then down, as many hops as the nearest common ancestor says); tree4's
 * draws counted. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "topologies/topo_internal.h"

#include "fabric_check.h"

/* qtree.cpp's _RouterIndex for K = 4: 4^0 + .. + 4^(h-1) + pos. */
static int qt_index(int h, int pos)
{
    static const int first[3] = { 0, 1, 5 };
    return first[h] + pos;
}

/* qtree:4:3: 21 routers; _BuildNet adds a leaf's 4 injection channels
 * first, then, for every router, its K children's channels in order and
 * last its parent's: a child's port j leads to (h+1, 4 pos + j), which
 * sees its parent on port 4. */
static void test_qtree_wiring(void **state)
{
    (void)state;
    noc_topo_t *t = make("qtree:4:3");
    assert_int_equal(noc_topo_nodes(t), 21);
    assert_int_equal(noc_topo_terminals(t), 64);
    const noc_graph_t *g = noc_topo_graph(t);
    for (int h = 0; h < 3; h++)
        for (int pos = 0; pos < (1 << (2 * h)); pos++) {
            int v = qt_index(h, pos);
            assert_int_equal(t->port_base[v + 1] - t->port_base[v], h == 0 ? 4 : 5);
            for (int j = 0; h < 2 && j < 4; j++) {
                int c = qt_index(h + 1, 4 * pos + j);
                assert_int_equal(next_of(t, v, j), c);
                assert_int_equal(t->peer[t->port_base[v] + j], t->port_base[c] + 4);
            }
        }
    for (int term = 0; term < 64; term++) { /* terminal t on leaf t/4, local port t%4 */
        assert_int_equal(noc_graph_term_node(g, term), qt_index(2, term / 4));
        assert_int_equal(noc_graph_term_gport(g, term), t->port_base[qt_index(2, term / 4)] + term % 4);
    }
    noc_topo_destroy(t);
}

/* 0 -> 63 by hand: leaf (2,0) up (port 4) to (1,0), up to the root, down
 * port 3 (63 / 16) to (1,3), down port 3 (63 / 4 % 4) to leaf (2,15), out
 * at local port 3. 0 -> 5: up to (1,0), down port 1 to (2,1), port 1. */
static void test_qtree_routes(void **state)
{
    (void)state;
    noc_topo_t *t = make("qtree:4:3");
    noc_route_t r;
    int path[] = { qt_index(2, 0), qt_index(1, 0), 0, qt_index(1, 3), qt_index(2, 15) };
    int ports[] = { 4, 4, 3, 3, 3 };
    for (int i = 0; i < 5; i++) {
        t->ops->route(t, path[i], 0, 63, &r);
        assert_int_equal(r.port, ports[i]);
        assert_int_equal(r.vclass, 0);
        if (i < 4)
            assert_int_equal(next_of(t, path[i], r.port), path[i + 1]);
    }
    t->ops->route(t, qt_index(2, 0), 0, 5, &r);
    assert_int_equal(r.port, 4);
    t->ops->route(t, qt_index(1, 0), 0, 5, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(next_of(t, qt_index(1, 0), 1), qt_index(2, 1));
    t->ops->route(t, qt_index(2, 1), 0, 5, &r);
    assert_int_equal(r.port, 1);
    noc_topo_destroy(t);
}

/* Walk every route of a tree from terminal a to b: 2 (N - 1 - l) hops for
 * a common ancestor at level l (lca), up then only down, out at b's port.
 * route_rand trees walk each salt; others the one route. */
static void walk(noc_topo_t *t, int a, int b, uint32_t salt, int levels_of_hops, int (*level)(int))
{
    const noc_graph_t *g = noc_topo_graph(t);
    int cur = noc_graph_term_node(g, a), hops = 0, down = 0;
    noc_route_t r, r2;
    for (;;) {
        if (g->route_rand) {
            g->route_rand(t, cur, a, b, salt, 0, &r);
            g->route_rand(t, cur, a, b, salt, 0, &r2);
            assert_int_equal(r.port, r2.port); /* the same salt, the same draw */
        } else {
            t->ops->route(t, cur, a, b, &r);
        }
        assert_int_equal(r.vclass, 0);
        if (t->port_base[cur] + r.port == noc_graph_term_gport(g, b))
            break;
        int next = next_of(t, cur, r.port);
        if (level(next) > level(cur))
            down = 1;
        else
            assert_false(down); /* never up after down */
        cur = next;
        assert_true(++hops <= 4);
    }
    assert_int_equal(hops, levels_of_hops);
}

static int qt_level(int v)
{
    return v < 1 ? 0 : v < 5 ? 1 : 2;
}

static int t4_level(int v)
{
    return v < 4 ? 0 : v < 12 ? 1 : 2;
}

/* Every pair: same leaf 0 hops, same subtree of a level-1 router (qtree)
 * or group (tree4) 2, else 4. */
static void test_walks(void **state)
{
    (void)state;
    noc_topo_t *q = make("qtree:4:3"), *t4 = make("tree4");
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            int hops = a / 4 == b / 4 ? 0 : a / 16 == b / 16 ? 2 : 4;
            walk(q, a, b, 0, hops, qt_level);
            assert_int_equal(noc_topo_route_hops(q, a, b), hops);
            for (uint32_t salt = 0; salt < 8; salt++)
                walk(t4, a, b, salt * 977u, hops, t4_level);
        }
    noc_topo_destroy(q);
    noc_topo_destroy(t4);
}

/* tree4.cpp's _BuildNet replayed: per router an output and an input
 * counter, each channel's two ends recorded as tree4.cpp adds them
 * (AddOutputChannel at one router, AddInputChannel at the other). Every
 * network output must lead where noctua's port leads, into the input
 * port BookSim2 numbers the same as the reverse channel's output. */
static void test_tree4_wiring(void **state)
{
    (void)state;
    noc_topo_t *t = make("tree4");
    assert_int_equal(noc_topo_nodes(t), 28);
    assert_int_equal(noc_topo_terminals(t), 64);
    int first[3] = { 0, 4, 12 }, outs[28] = {0};
    int to[28][8]; /* router, output port -> router */
    for (int p = 0; p < 16; p++) /* the injection and ejection channels come first at a leaf */
        outs[first[2] + p] = 4;
    for (int pp = 0; pp < 8; pp++) /* middle router pp and leaf 4 (pp / 2) + port */
        for (int port = 0; port < 4; port++) {
            int m = first[1] + pp, l = first[2] + 4 * (pp / 2) + port;
            to[m][outs[m]++] = l;
            to[l][outs[l]++] = m;
        }
    for (int rt = 0; rt < 4; rt++) /* root rt and middle router port */
        for (int port = 0; port < 8; port++) {
            int r = first[0] + rt, m = first[1] + port;
            to[r][outs[r]++] = m;
            to[m][outs[m]++] = r;
        }
    for (int v = 0; v < 28; v++) {
        int deg = t->port_base[v + 1] - t->port_base[v];
        assert_int_equal(deg, outs[v]);
        for (int o = v >= first[2] ? 4 : 0; o < deg; o++)
            assert_int_equal(next_of(t, v, o), to[v][o]);
    }
    noc_topo_destroy(t);
}

/* tree4_nca's draws, over 8,000 salts toward terminal 63 (leaf 15, group
 * 3): leaf 0's up ports 4 and 5 half each; middle router 0's up ports
 * 4..7 a quarter each; root 0's down ports 6 and 7 (group 3's middle
 * routers) half each; each within 4 standard deviations. */
static void test_tree4_draws(void **state)
{
    (void)state;
    noc_topo_t *t = make("tree4");
    const noc_graph_t *g = noc_topo_graph(t);
    int leaf[2] = {0}, mid[4] = {0}, root[2] = {0};
    for (uint32_t salt = 0; salt < 8000; salt++) {
        noc_route_t r;
        g->route_rand(t, 12, 0, 63, salt, 0, &r);
        leaf[r.port - 4]++;
        g->route_rand(t, 4, 0, 63, salt, 0, &r);
        mid[r.port - 4]++;
        g->route_rand(t, 0, 0, 63, salt, 0, &r);
        assert_true(r.port == 6 || r.port == 7);
        root[r.port - 6]++;
    }
    for (int i = 0; i < 2; i++) {
        assert_in_range(leaf[i], 4000 - 180, 4000 + 180);
        assert_in_range(root[i], 4000 - 180, 4000 + 180);
    }
    for (int i = 0; i < 4; i++)
        assert_in_range(mid[i], 2000 - 155, 2000 + 155);
    noc_topo_destroy(t);
}

/* tree4 with anca as BookSim2 runs it: going up, always the first up
 * port (a leaf's port 4, a middle router's port 4, root 0); a root still
 * draws between the destination group's two middle routers; routes as
 * long as nca's. */
static void test_tree4_anca(void **state)
{
    (void)state;
    noc_topo_t *t = noc_topo_create("tree4", NOC_TOPO_F_ANCA, NULL, 0);
    assert_non_null(t);
    const noc_graph_t *g = noc_topo_graph(t);
    int root[2] = {0};
    for (uint32_t salt = 0; salt < 400; salt++) {
        noc_route_t r;
        g->route_rand(t, 12, 0, 63, salt, 0, &r);
        assert_int_equal(r.port, 4);
        g->route_rand(t, 4, 0, 63, salt, 0, &r);
        assert_int_equal(r.port, 4);
        g->route_rand(t, 12, 0, 2, salt, 0, &r); /* its own terminal: out */
        assert_int_equal(r.port, 2);
        g->route_rand(t, 0, 0, 63, salt, 0, &r);
        root[r.port - 6]++;
        for (int b = 0; b < 64; b += 7)
            walk(t, 5, b, salt, 5 / 4 == b / 4 ? 0 : 5 / 16 == b / 16 ? 2 : 4, t4_level);
    }
    assert_true(root[0] > 150 && root[1] > 150);
    noc_topo_destroy(t);
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {"qtree:4", "qtree:1:3", "qtree:4:0", "qtree:63:2", "qtree:x:2", "tree4:4:3"};
    expect_refused(bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qtree_wiring), cmocka_unit_test(test_qtree_routes), cmocka_unit_test(test_walks),
        cmocka_unit_test(test_tree4_wiring), cmocka_unit_test(test_tree4_draws), cmocka_unit_test(test_tree4_anca),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
