/* test_fattree.c: fattree:K:N (topologies/fattree.c), BookSim2's k-ary
 * n-tree. The wiring is checked against BookSim2's own channel numbering
 * (networks/fattree.cpp: every output channel numbered by its router and
 * port, every input channel by the interleaved formula of its router and
 * port), written out here apart from fattree.c's; routes against nca
 * worked by hand, every route walked for several salts, and the up ports'
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

static int ipow(int b, int e)
{
    int v = 1;
    while (e-- > 0)
        v *= b;
    return v;
}

/* BookSim2's channel into input `port` of router (level, pos): up = 0 for
 * the inputs from below (ports 0..K-1), 1 for those from above (K..2K-1). */
static int in_channel(int K, int N, int level, int pos, int port, int up)
{
    int per_dir = K * ipow(K, N - 1), per_level = 2 * per_dir;
    int rpn = up ? ipow(K, N - 1 - (level - 1)) : ipow(K, N - 1 - level);
    int rpb = up ? ipow(K, N - 1 - level) : ipow(K, N - 1 - (level + 1));
    int base = up ? (level - 1) * per_level : (level + 1) * per_level - per_dir;
    int nb = pos / rpn, npos = pos % rpn;
    return base + nb * rpn * K + port * rpb * K + (npos % rpb) * K + npos / rpb;
}

/* BookSim2's channel out of output `port` (down: 0..K-1, up: K..2K-1). */
static int out_channel(int K, int N, int level, int pos, int port)
{
    int per_dir = K * ipow(K, N - 1), per_level = 2 * per_dir;
    if (port < K)
        return level * per_level + pos * K + port;
    return level * per_level - per_dir + pos * K + port - K;
}

static void check_wiring(int K, int N)
{
    char spec[32];
    snprintf(spec, sizeof spec, "fattree:%d:%d", K, N);
    noc_topo_t *t = make(spec);
    int per = ipow(K, N - 1);
    assert_int_equal(noc_topo_nodes(t), N * per);
    assert_int_equal(noc_topo_terminals(t), per * K);
    /* every network output: the input that takes its channel must be the
     * same noctua port's other way, at the router it leads to */
    for (int l = 0; l < N; l++)
        for (int p = 0; p < per; p++)
            for (int o = 0; o < 2 * K; o++) {
                if ((l == 0 && o >= K) || (l == N - 1 && o < K))
                    continue; /* no up ports at the top; a leaf's down ports are its locals */
                int c = out_channel(K, N, l, p, o), found = -1;
                int ml = o < K ? l + 1 : l - 1, up = o < K; /* down: an input from above there */
                for (int q = 0; q < per && found < 0; q++)
                    for (int i = 0; i < K; i++)
                        if (in_channel(K, N, ml, q, i, up) == c)
                            found = t->port_base[ml * per + q] + (up ? K : 0) + i;
                assert_true(found >= 0);
                int g = t->port_base[l * per + p] + o;
                if (t->peer[g] != found)
                    fail_msg("%s: output %d of (%d,%d) leads to global port %d, BookSim2's channel %d to %d", spec,
                             o, l, p, t->peer[g], c, found);
            }
    noc_topo_destroy(t);
}

/* fattree:2:3: 3 levels of 4 routers; the leaves (8..11) hold 2 terminals
 * each, the top (0..3) has 2 ports, the rest 4. */
static void test_shape(void **state)
{
    (void)state;
    noc_topo_t *t = make("fattree:2:3");
    const noc_graph_t *g = noc_topo_graph(t);
    for (int v = 0; v < 12; v++) {
        assert_int_equal(noc_topo_locals(t, v), v >= 8 ? 2 : 0);
        assert_int_equal(noc_topo_degree(t, v), v < 4 ? 2 : v < 8 ? 4 : 2);
    }
    for (int k = 0; k < 8; k++) {
        assert_int_equal(noc_graph_term_node(g, k), 8 + k / 2);
        assert_int_equal(noc_graph_term_gport(g, k), t->port_base[8 + k / 2] + k % 2);
    }
    assert_non_null(g->route_rand);
    assert_int_equal(g->route_needs_src, 1);
    assert_null(g->route_cache);
    char label[16];
    noc_topo_label(t, 6, label, sizeof label);
    assert_string_equal(label, "(1,2)");
    noc_topo_destroy(t);
    t = make("fattree:3:1"); /* one router, its 3 terminals */
    assert_int_equal(noc_topo_nodes(t), 1);
    assert_int_equal(noc_topo_locals(t, 0), 3);
    assert_int_equal(noc_topo_degree(t, 0), 0);
    assert_int_equal(noc_topo_route_hops(t, 0, 2), 0);
    noc_topo_destroy(t);
}

static void test_wiring(void **state)
{
    (void)state;
    check_wiring(2, 2);
    check_wiring(2, 3);
    check_wiring(3, 3);
    check_wiring(4, 3);
    check_wiring(2, 5);
}

/* nca on fattree:2:3 by hand. Leaf (2,0) = 8's up ports 2 and 3 lead to
 * (1,0) = 4 and (1,1) = 5; (1,0)'s up ports to (0,0) = 0 and (0,2) = 2.
 * 0 -> 3: up from 8 to 4 or 5, which covers 0..3: down port 1 to (2,1) = 9,
 * local port 1. 0 -> 7: up twice, then from the top down port 1 (7 / 4) to
 * level 1, then down to (2,3) = 11, local port 1. */
static void test_routes(void **state)
{
    (void)state;
    noc_topo_t *t = make("fattree:2:3");
    const noc_graph_t *g = noc_topo_graph(t);
    noc_route_t r;
    assert_int_equal(next_of(t, 8, 2), 4);
    assert_int_equal(next_of(t, 8, 3), 5);
    assert_int_equal(next_of(t, 4, 2), 0);
    assert_int_equal(next_of(t, 4, 3), 2);
    g->route_rand(t, 8, 0, 1, 12345u, 0, &r); /* same leaf: out at once */
    assert_int_equal(r.port, 1);
    for (uint32_t salt = 0; salt < 64; salt++) {
        g->route_rand(t, 8, 0, 3, salt, 0, &r);
        assert_true(r.port == 2 || r.port == 3);
        int mid = next_of(t, 8, r.port);
        g->route_rand(t, mid, 0, 3, salt, 0, &r);
        assert_int_equal(r.port, 1);
        assert_int_equal(next_of(t, mid, 1), 9);
        g->route_rand(t, 9, 0, 3, salt, 0, &r);
        assert_int_equal(r.port, 1);
    }
    g->route_rand(t, 0, 0, 7, 7u, 0, &r); /* the top: down the branch of 7 / 4 */
    assert_int_equal(r.port, 1);
    assert_int_equal(next_of(t, 0, 1), 6); /* (1,2) */
    g->route_rand(t, 6, 0, 7, 7u, 0, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(next_of(t, 6, 1), 11);
    noc_topo_destroy(t);
}

/* Every route of fattree:3:3 for 8 salts: up while the subtree lacks the
 * destination, then down only, 2 (N - 1 - l) hops for a common ancestor at
 * level l, out at the destination's port; the same salt gives the same
 * route. */
static void test_walks(void **state)
{
    (void)state;
    noc_topo_t *t = make("fattree:3:3");
    const noc_graph_t *g = noc_topo_graph(t);
    for (uint32_t salt = 0; salt < 8; salt++)
        for (int a = 0; a < 27; a++)
            for (int b = 0; b < 27; b++) {
                int lca = a / 9 != b / 9 ? 0 : a / 3 != b / 3 ? 1 : 2;
                int cur = noc_graph_term_node(g, a), hops = 0, down = 0;
                noc_route_t r, r2;
                for (;;) {
                    g->route_rand(t, cur, a, b, salt, 0, &r);
                    g->route_rand(t, cur, a, b, salt, 0, &r2);
                    assert_int_equal(r.port, r2.port);
                    assert_int_equal(r.vclass, 0);
                    if (cur >= 18 && r.port < 3)
                        break;
                    int next = next_of(t, cur, r.port);
                    if (next / 9 > cur / 9)
                        down = 1;
                    else
                        assert_false(down); /* never up after down */
                    cur = next;
                    assert_true(++hops <= 4);
                }
                assert_int_equal(hops, 2 * (2 - lca));
                assert_int_equal(t->port_base[cur] + r.port, noc_graph_term_gport(g, b));
                assert_int_equal(noc_topo_route_hops(t, a, b), hops);
            }
    noc_topo_destroy(t);
}

/* The up port is uniform over the K and drawn apart at every router: over
 * 10,000 salts each of leaf 8's two up ports toward 7 comes 5,000 times
 * (within 4 standard deviations, 200), and each pair of (leaf's port, the
 * level-1 router's port) 2,500 times (within 200). */
static void test_draws(void **state)
{
    (void)state;
    noc_topo_t *t = make("fattree:2:3");
    const noc_graph_t *g = noc_topo_graph(t);
    int one[2] = {0, 0}, pair[2][2] = {{0, 0}, {0, 0}};
    for (uint32_t salt = 0; salt < 10000; salt++) {
        noc_route_t r, r2;
        g->route_rand(t, 8, 0, 7, salt, 0, &r);
        one[r.port - 2]++;
        g->route_rand(t, next_of(t, 8, r.port), 0, 7, salt, 0, &r2);
        assert_true(r2.port == 2 || r2.port == 3);
        pair[r.port - 2][r2.port - 2]++;
    }
    for (int i = 0; i < 2; i++) {
        assert_in_range(one[i], 4800, 5200);
        for (int j = 0; j < 2; j++)
            assert_in_range(pair[i][j], 2300, 2700);
    }
    noc_topo_destroy(t);
}

/* anca (BookSim2's anca_fattree): going down one candidate, nca's port
 * with all VCs; going up two, the first nca's draw, the second drawn
 * apart, both up ports with all VCs, and the router's pick of the less
 * used (a tie: the first, BookSim2's random1). Over 8,000 salts at leaf 8
 * of fattree:2:3 toward 7 each of the 4 (first, second) pairs comes about
 * 2,000 times (within 4 standard deviations, 155). */
static void test_anca_set(void **state)
{
    (void)state;
    noc_topo_t *t = noc_topo_create("fattree:2:3", NOC_TOPO_F_ANCA, NULL, 0);
    assert_non_null(t);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_set);
    int pair[2][2] = {{0, 0}, {0, 0}};
    for (uint32_t salt = 0; salt < 8000; salt++) {
        noc_route_set_t rs;
        noc_route_t r;
        g->route_set(t, 8, 0, 7, salt, 0, 4, -1, &rs);
        g->route_rand(t, 8, 0, 7, salt, 0, &r);
        assert_int_equal(rs.n, 2);
        assert_int_equal(rs.pick, 1);
        assert_int_equal(rs.pick_bit, 0);
        assert_int_equal(rs.c[0].port, r.port);
        for (int i = 0; i < 2; i++) {
            assert_true(rs.c[i].port == 2 || rs.c[i].port == 3);
            assert_int_equal(rs.c[i].lo, 0);
            assert_int_equal(rs.c[i].hi, 4);
            assert_int_equal(rs.c[i].pri, 0);
            assert_int_equal(rs.c[i].empty, 0);
        }
        pair[rs.c[0].port - 2][rs.c[1].port - 2]++;
        g->route_set(t, 0, 0, 7, salt, 0, 4, 0, &rs); /* the top: down, one way */
        assert_int_equal(rs.n, 1);
        assert_int_equal(rs.pick, 0);
        assert_int_equal(rs.c[0].port, 1);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            assert_in_range(pair[i][j], 2000 - 155, 2000 + 155);
    noc_topo_destroy(t);
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {"fattree:4", "fattree:1:3", "fattree:4:0", "fattree:4:2:1", "fattree:32:2",
                                      "fattree:x:2", "fattree:2:17", "fattree:16:6"};
    expect_refused(bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_wiring),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_walks),
        cmocka_unit_test(test_draws),
        cmocka_unit_test(test_anca_set),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
