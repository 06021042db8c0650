/* test_flatfly.c: flatfly:K:N[:CXxCY[:X]] (topologies/flatfly.c), BookSim2's
 * flattened butterfly. The wiring of flatfly:3:2 worked by hand, then every
 * shape's wiring against BookSim2's own loop (networks/flatfly_onchip.cpp,
 * _BuildNet: for each dimension and each cnt, its `other` router and its
 * output (k-1)*dim + cnt + offset after the c ejection channels), written
 * out here apart from flatfly.c's; terminals against BookSim2's
 * flatfly_transformation; link lengths from the routers' places; routes
 * against min_flatfly worked by hand, and every route walked terminal to
 * terminal (hops = digits that differ, lowest dimension first, no cycle of
 * channels). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "topologies/topo_internal.h"

#include "fabric_check.h"

/* flatfly:3:2: 9 routers, one terminal each (port 0). Router 4 = digits
 * (1,1): port 1 toward digit 0 = 0 (router 3), 2 toward 2 (router 5), 3
 * toward digit 1 = 0 (router 1), 4 toward 2 (router 7). Router 3 = (0,1)
 * reaches router 4 on its port 1 (digit 0 = 1, above its own 0: 1 + 1 - 1),
 * router 5 = (2,1) on its port 2 (1 below its own 2: 1 + 1), router 1 =
 * (1,0) on port 3 + 1 - 1 = 3, router 7 = (1,2) on port 3 + 1 = 4. Router
 * 0: ports 1, 2 to routers 1, 2; ports 3, 4 to routers 3, 6, each reaching
 * back on its port 1 (dim 0) or 3 (dim 1). */
static void test_wiring_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make("flatfly:3:2");
    static const int r4[4][2] = {{3, 1}, {5, 2}, {1, 3}, {7, 4}}, r0[4][2] = {{1, 1}, {2, 1}, {3, 3}, {6, 3}};
    assert_int_equal(noc_topo_nodes(t), 9);
    assert_int_equal(noc_topo_terminals(t), 9);
    for (int p = 0; p < 4; p++) {
        assert_int_equal(t->peer[t->port_base[4] + 1 + p], t->port_base[r4[p][0]] + r4[p][1]);
        assert_int_equal(t->peer[t->port_base[0] + 1 + p], t->port_base[r0[p][0]] + r0[p][1]);
    }
    assert_int_equal(t->peer[t->port_base[4]], -1); /* the local port */
    noc_topo_destroy(t);
}

static int ipow(int b, int e)
{
    int v = 1;
    while (e-- > 0)
        v *= b;
    return v;
}

/* BookSim2's `other` for router node, dimension dim, cnt (n <= 4). */
static int bs_other(int k, int n, int node, int dim, int cnt)
{
    int xcurr = node % k, ycurr = node / k, curr3 = node % (k * k), curr4 = node / (k * k);
    int curr5 = node / (k * k * k), curr6 = node % (k * k * k);
    if (dim == 0)
        return ycurr * k + cnt;
    if (dim == 1) {
        int other = cnt * k + xcurr;
        if (n == 3)
            other += curr4 * k * k;
        if (n == 4)
            other += (curr4 % k) * k * k + curr5 * k * k * k;
        return other;
    }
    if (dim == 2)
        return cnt * k * k + curr3 + (n == 4 ? curr5 * k * k * k : 0);
    return cnt * k * k * k + curr6;
}

/* Every output of every router against BookSim2's loop: its port c + (k-1)
 * dim + cnt + offset leads to `other`, and other's port toward node (the
 * same loop run at other) leads back; the link's class is named by its
 * length xr|dx| + yr|dy| on the routers' places (x in a row). */
static void check_against_booksim(int k, int n, int cx, int cy, int x)
{
    char spec[64], name[16];
    snprintf(spec, sizeof spec, "flatfly:%d:%d:%dx%d:%d", k, n, cx, cy, x);
    noc_topo_t *t = make(spec);
    int routers = ipow(k, n), c = cx * cy;
    assert_int_equal(noc_topo_nodes(t), routers);
    assert_int_equal(noc_topo_terminals(t), routers * c);
    for (int node = 0; node < routers; node++) {
        assert_int_equal(noc_topo_locals(t, node), c);
        assert_int_equal(noc_topo_degree(t, node), (k - 1) * n);
        for (int dim = 0; dim < n; dim++)
            for (int cnt = 0; cnt < k; cnt++) {
                int other = bs_other(k, n, node, dim, cnt);
                if (other == node)
                    continue;
                int out = c + (k - 1) * dim + cnt + (node < other ? -1 : 0), back = -1;
                for (int j = 0; j < k; j++) /* other's output toward node */
                    if (bs_other(k, n, other, dim, j) == node)
                        back = c + (k - 1) * dim + j + (other < node ? -1 : 0);
                int g = t->port_base[node] + out;
                if (t->peer[g] != t->port_base[other] + back)
                    fail_msg("%s: output %d of router %d does not lead to port %d of router %d", spec, out, node, back,
                             other);
                int len = cx * abs(node % x - other % x) + cy * abs(node / x - other / x);
                snprintf(name, sizeof name, "len%d", len);
                assert_string_equal(t->class_name[t->link_class[g]], name);
            }
    }
    noc_topo_destroy(t);
}

static void test_wiring_against_booksim(void **state)
{
    (void)state;
    check_against_booksim(3, 2, 1, 1, 3);
    check_against_booksim(4, 2, 2, 2, 4);
    check_against_booksim(4, 2, 2, 2, 8);
    check_against_booksim(2, 4, 2, 2, 4);
    check_against_booksim(3, 3, 1, 2, 9);
    check_against_booksim(5, 1, 3, 3, 5);
    check_against_booksim(4, 4, 1, 1, 16);
}

/* Terminals against BookSim2's flatfly_transformation: terminal t is on
 * router t'/c at port t'%c, t' = (vertical*x + horizontal)*c + xr *
 * vertical_rem + horizontal_rem of t's column and row in the grid of
 * (x*xr) columns. By hand on flatfly:4:2:2x2 (8 columns): terminals 0, 1,
 * 8, 9 on router 0, ports 0-3; 2 on router 1; 18 (column 2, row 2) on
 * router 5 port 0; 63 on router 15 port 3. */
static void test_terminals(void **state)
{
    (void)state;
    static const char *const specs[] = {"flatfly:4:2:2x2", "flatfly:3:3:1x2:9", "flatfly:2:4:3x1", "flatfly:4:2:2x2:8"};
    static const int shape[4][3] = {{2, 2, 4}, {1, 2, 9}, {3, 1, 4}, {2, 2, 8}}; /* xr, yr, x */
    for (int s = 0; s < 4; s++) {
        noc_topo_t *t = make(specs[s]);
        const noc_graph_t *g = noc_topo_graph(t);
        int xr = shape[s][0], yr = shape[s][1], x = shape[s][2], c = xr * yr;
        for (int d = 0; d < noc_topo_terminals(t); d++) {
            int h = (d % (x * xr)) / xr, hr = (d % (x * xr)) % xr, v = (d / (x * xr)) / yr, vr = (d / (x * xr)) % yr;
            int tr = (v * x + h) * c + xr * vr + hr;
            assert_int_equal(noc_graph_term_node(g, d), tr / c);
            assert_int_equal(noc_graph_term_gport(g, d), t->port_base[tr / c] + tr % c);
        }
        if (s == 0) {
            static const int term[7] = {0, 1, 8, 9, 2, 18, 63}, at[7][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0},
                                                                             {5, 0}, {15, 3}};
            for (int i = 0; i < 7; i++)
                assert_int_equal(noc_graph_term_gport(g, term[i]), t->port_base[at[i][0]] + at[i][1]);
        }
        noc_topo_destroy(t);
    }
}

/* flatfly:4:2:2x2 (x = 4: router v at (v%4, v/4), its digits): links of
 * |dx| or |dy| = 1, 2, 3 are 2, 4, 6 long: in each of the 8 rows and
 * columns of 4 routers 3, 2 and 1 of them. flatfly:4:3:1x2 (x = 16): digit
 * 0 moves 1, 2, 3 columns (len1-3), digit 1 4, 8, 12 (len4, len8, len12),
 * digit 2 1-3 rows of 2 (len2, len4, len6). */
static void test_classes(void **state)
{
    (void)state;
    noc_topo_t *t = make("flatfly:4:2:2x2");
    static const char *const names[3] = {"len2", "len4", "len6"};
    static const int links[3] = {24, 16, 8};
    int count[3] = {0};
    assert_int_equal(t->n_classes, 3);
    for (int i = 0; i < 3; i++)
        assert_string_equal(t->class_name[i], names[i]);
    for (int gp = 0; gp < t->n_ports; gp++)
        if (t->peer[gp] >= 0)
            count[t->link_class[gp]]++;
    for (int i = 0; i < 3; i++)
        assert_int_equal(count[i], 2 * links[i]);
    assert_int_equal(t->link_class[t->port_base[0] + 6], 2); /* router 0 to 3: 3 columns */
    assert_int_equal(t->link_class[t->port_base[0] + 8], 1); /* router 0 to 8: 2 rows */
    assert_null(t->link_latency);
    noc_topo_destroy(t);
    t = make("flatfly:4:3:1x2");
    static const char *const names3[7] = {"len1", "len2", "len3", "len4", "len6", "len8", "len12"};
    assert_int_equal(t->n_classes, 7);
    for (int i = 0; i < 7; i++)
        assert_string_equal(t->class_name[i], names3[i]);
    noc_topo_destroy(t);
}

/* min_flatfly on flatfly:4:2:2x2 (c = 4): router 0 to terminal 63 (router
 * 15 = (3,3)): digit 0 first, port 4 + 3 - 1 = 6 to router 3; there digit
 * 1, port 4 + 3 + 3 - 1 = 9 to router 15; local port 3. Router 15 to
 * terminal 0: port 4 + 0 to router 12, port 4 + 3 + 0 = 7 to router 0, local
 * port 0. Router 5 = (1,1) to terminal 18 (router 5): local port 0. */
static void test_routes(void **state)
{
    (void)state;
    noc_topo_t *t = make("flatfly:4:2:2x2");
    static const int cur[6] = {0, 3, 15, 15, 12, 0}, dst[6] = {63, 63, 63, 0, 0, 0}, port[6] = {6, 9, 3, 4, 7, 0};
    noc_route_t r;
    for (int i = 0; i < 6; i++) {
        t->ops->route(t, cur[i], 0, dst[i], &r);
        assert_int_equal(r.port, port[i]);
        assert_int_equal(r.vclass, 0);
    }
    t->ops->route(t, 5, 0, 18, &r);
    assert_int_equal(r.port, 0);
    noc_topo_destroy(t);
}

/* Every route of a few shapes, terminal to terminal: it ends at the
 * destination's port after as many hops as the routers' digits differ,
 * each hop setting the lowest digit that differs to the destination's;
 * no cycle over (link, class). */
static void test_all_routes(void **state)
{
    (void)state;
    static const char *const specs[] = {"flatfly:3:2", "flatfly:4:2:2x2", "flatfly:2:4:1x2", "flatfly:3:3:2x1:9"};
    static const int kk[4] = {3, 4, 2, 3};
    for (size_t s = 0; s < 4; s++) {
        noc_topo_t *t = make(specs[s]);
        const noc_graph_t *g = noc_topo_graph(t);
        int T = noc_topo_terminals(t), k = kk[s], c = T / noc_topo_nodes(t);
        cdg_t dep = {t->n_ports, 0, 0, NULL};
        for (int src = 0; src < T; src++)
            for (int dst = 0; dst < T; dst++) {
                int cur = noc_graph_term_node(g, src), target = noc_graph_term_node(g, dst), prev = -1, hops = 0;
                int differ = 0;
                for (int a = cur, b = target; a || b; a /= k, b /= k)
                    differ += a % k != b % k;
                noc_route_t r;
                for (;;) {
                    t->ops->route(t, cur, src, dst, &r);
                    assert_int_equal(r.vclass, 0);
                    if (r.port < c)
                        break;
                    int gp = t->port_base[cur] + r.port, next = noc_topo_port_node(t, t->peer[gp]);
                    int low = 0, a = cur, b = target; /* the lowest differing digit, then next's digits */
                    while (a % k == b % k)
                        a /= k, b /= k, low++;
                    for (int d = 0, x = cur, y = next, z = target; d < 8; d++, x /= k, y /= k, z /= k)
                        assert_int_equal(y % k, d == low ? z % k : x % k);
                    if (prev >= 0)
                        cdg_add(&dep, prev, gp);
                    prev = gp;
                    cur = next;
                    assert_true(++hops <= differ);
                }
                assert_int_equal(cur, target);
                assert_int_equal(hops, differ);
                assert_int_equal(t->port_base[cur] + r.port, noc_graph_term_gport(g, dst));
            }
        assert_true(cdg_acyclic(&dep));
        free(dep.edge);
        noc_topo_destroy(t);
    }
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *says;
    } bad[] = {
        {"flatfly", "expected flatfly:K:N"},
        {"flatfly:4", "expected flatfly:K:N"},
        {"flatfly:4:2:2", "expected flatfly:K:N"},
        {"flatfly:4:2:2x2:4:1", "expected flatfly:K:N"},
        {"flatfly:1:2", "K >= 2"},
        {"flatfly:4:0", "N from 1"},
        {"flatfly:4:2:0x1", "CX and CY >= 1"},
        {"flatfly:4:2:2x2:3", "X = 3 routers in a row must divide the K^N = 16 routers"},
        {"flatfly:4:2:2x2:0", "X = 0"},
        {"flatfly:32:2:4x4", "78 ports, at most 63"},
        {"flatfly:62:1", "more than 32 lengths"},
    };
    char err[600];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(noc_topo_create(bad[i].spec, 0, err, sizeof err));
        if (!strstr(err, bad[i].spec) || !strstr(err, bad[i].says))
            fail_msg("%s: %s", bad[i].spec, err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wiring_by_hand),
        cmocka_unit_test(test_wiring_against_booksim),
        cmocka_unit_test(test_terminals),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_all_routes),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
