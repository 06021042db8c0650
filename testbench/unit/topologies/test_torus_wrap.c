/* test_torus_wrap.c: dor_booksim (NOC_TOPO_F_WRAP_CLASS, topologies/grid.c),
 * what BookSim2 files get for its dim_order_torus. BookSim2's
 * dor_next_torus (routefunc.cpp) breaks a tie of the two ways (k even,
 * distance k/2) with RandomInt(1) for each packet when it turns into the
 * dimension, and keeps the way and the partition (class 1 when the path in
 * that dimension wraps) to the dimension's last hop. Cases worked by hand
 * on ring:8 and torus:8x8 from that code; then every route of some tori
 * for many packet words: dimension order, shortest, the class of the rule,
 * one way and one class along a dimension, ties both ways about evenly,
 * and channel dependencies acyclic. */
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

enum { WORDS = 64 };

/* The packet word of draw i (spread over the 32 bits, as the NI's are). */
static uint32_t word(uint32_t i) { return i * 2654435761u; }

/* The coordinate of node v in dimension d. */
static int coord(const noc_topo_t *t, int v, int d)
{
    for (int e = 0; e < d; e++)
        v /= t->k[e];
    return v % t->k[d];
}

/* Route the packet with word w from s to dst hop by hop on t (its own
 * random routing): the ports taken into ports[] (the hops), their classes
 * into cls[]. Returns the hop count. */
static int walk(const noc_topo_t *t, const int *owner, int s, int dst, uint32_t w, int *ports, int *cls)
{
    const noc_graph_t *g = noc_topo_graph(t);
    int cur = s, hops = 0;
    for (;;) {
        noc_route_t r;
        g->route_rand(t, cur, s, dst, w, hops, &r);
        if (r.port == 0) {
            assert_int_equal(cur, dst);
            return hops;
        }
        ports[hops] = r.port;
        cls[hops] = r.vclass;
        cur = owner[t->peer[t->port_base[cur] + r.port]];
        assert_true(++hops <= t->n_nodes);
    }
}

/* ring:8 by hand. Port 1 is the + way (to c + 1), port 2 the - way. */
static void test_ring8_by_hand(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("ring:8", NOC_TOPO_F_WRAP_CLASS);
    assert_non_null(noc_topo_graph(t)->route_rand); /* the routing draws */
    int *owner = owners(t), ports[16], cls[16], way[2][2] = {{0, 0}, {0, 0}};
    for (uint32_t i = 0; i < WORDS; i++) {
        /* 6 -> 1: 3 hops the + way over the wrap (7, 0, 1): class 1
         * throughout, whatever the word */
        assert_int_equal(walk(t, owner, 6, 1, word(i), ports, cls), 3);
        for (int h = 0; h < 3; h++) {
            assert_int_equal(ports[h], 1);
            assert_int_equal(cls[h], 1);
        }
        /* 1 -> 3: + without a wrap, class 0 */
        assert_int_equal(walk(t, owner, 1, 3, word(i), ports, cls), 2);
        assert_int_equal(ports[0], 1);
        assert_int_equal(cls[0] + cls[1], 0);
        /* the ties 0 -> 4 (even source) and 1 -> 5 (odd): 4 hops either
         * way; + from 0 is 1, 2, 3, 4 (no wrap: class 0), - is 7, 6, 5, 4
         * (wraps: 0 < 4, class 1); from 1: + is 2..5 (class 0), - is 0, 7,
         * 6, 5 (class 1). One way and one class all along. */
        for (int s = 0; s < 2; s++) {
            assert_int_equal(walk(t, owner, s, s + 4, word(i), ports, cls), 4);
            int plus = ports[0] == 1;
            for (int h = 0; h < 4; h++) {
                assert_int_equal(ports[h], plus ? 1 : 2);
                assert_int_equal(cls[h], plus ? 0 : 1);
            }
            way[s][plus]++;
        }
    }
    /* BookSim2 draws: both ways from either source, about evenly (the
     * parity of the source would send every tie of 0 one way, of 1 the
     * other) */
    for (int s = 0; s < 2; s++) {
        assert_true(way[s][0] >= WORDS / 4);
        assert_true(way[s][1] >= WORDS / 4);
    }
    free(owner);
    noc_topo_destroy(t);
}

/* torus:8x8: 0 -> (4, 4), node 36, ties in both dimensions, drawn apart:
 * over the words all four pairs of ways come up; the x way's class is 0
 * for + (0 to 4), 1 for - (0, 7, 6, 5, 4), and likewise y's. */
static void test_torus8x8_two_ties(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("torus:8x8", NOC_TOPO_F_WRAP_CLASS);
    assert_non_null(noc_topo_graph(t)->route_rand);
    int *owner = owners(t), ports[32], cls[32], seen[2][2] = {{0, 0}, {0, 0}};
    for (uint32_t i = 0; i < WORDS; i++) {
        assert_int_equal(walk(t, owner, 0, 36, word(i), ports, cls), 8);
        /* ports 1, 2: x + and -; 3, 4: y + and - */
        int xp = ports[0] == 1, yp = ports[4] == 3;
        for (int h = 0; h < 4; h++) {
            assert_int_equal(ports[h], xp ? 1 : 2);
            assert_int_equal(cls[h], !xp);
            assert_int_equal(ports[4 + h], yp ? 3 : 4);
            assert_int_equal(cls[4 + h], !yp);
        }
        seen[xp][yp]++;
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            assert_true(seen[a][b] > 0);
    free(owner);
    noc_topo_destroy(t);
}

/* Every route of spec for 4 * WORDS words: dimension order, shortest,
 * class 1 exactly where the path in that dimension wraps, one way and one
 * class along a dimension, ties about evenly both ways (a word draws one
 * way per dimension for every pair: 256 draws, within 0.4 .. 0.6, 3
 * standard deviations), channel dependencies (over directed link and
 * class) acyclic. */
static void check_fabric(const char *spec)
{
    noc_topo_t *t = make_flags(spec, NOC_TOPO_F_WRAP_CLASS);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_rand);
    int n = t->n_nodes, V = 2, tie[2] = {0, 0};
    int *owner = owners(t);
    cdg_t cg = {t->n_ports * V, 0, 0, NULL};
    for (uint32_t i = 0; i < 4 * WORDS; i++)
        for (int s = 0; s < n; s++)
            for (int dst = 0; dst < n; dst++) {
                int cur = s, prev = -1, hops = 0, last_d = -1, last_port = -1;
                for (;;) {
                    noc_route_t r;
                    g->route_rand(t, cur, s, dst, word(i), hops, &r);
                    if (r.port == 0) {
                        assert_int_equal(cur, dst);
                        break;
                    }
                    int d = (r.port - 1) / 2, plus = !((r.port - 1) & 1), k = t->k[d];
                    int sc = coord(t, s, d), dc = coord(t, dst, d);
                    assert_true(d >= last_d); /* dimension order */
                    int delta = ((dc - sc) % k + k) % k;
                    assert_true(plus ? 2 * delta <= k : 2 * delta >= k); /* the shorter way */
                    if (2 * delta == k && d != last_d)
                        tie[plus]++;
                    if (d == last_d)
                        assert_int_equal(r.port, last_port); /* one way along the dimension */
                    assert_int_equal(r.vclass, plus ? sc > dc : sc < dc); /* 1: the path wraps */
                    last_d = d;
                    last_port = r.port;
                    int gp = t->port_base[cur] + r.port, ch = gp * V + r.vclass;
                    if (prev >= 0)
                        cdg_add(&cg, prev, ch);
                    prev = ch;
                    cur = owner[t->peer[gp]];
                    assert_true(++hops <= n);
                }
                int dist = 0; /* the torus distance: the shorter way in each dimension */
                for (int d = 0; d < t->dims; d++) {
                    int delta = ((coord(t, dst, d) - coord(t, s, d)) % t->k[d] + t->k[d]) % t->k[d];
                    dist += 2 * delta <= t->k[d] ? delta : t->k[d] - delta;
                }
                assert_int_equal(hops, dist);
            }
    assert_true(cdg_acyclic(&cg));
    if (tie[0] + tie[1] > 0) {
        double p = (double)tie[1] / (double)(tie[0] + tie[1]);
        assert_true(p > 0.4 && p < 0.6);
    }
    free(cg.edge);
    free(owner);
    noc_topo_destroy(t);
}

static void test_tori(void **state)
{
    (void)state;
    static const char *const tori[] = {"ring:8", "ring:5", "torus:8x8", "torus:4x4", "torus:5x3", "torus:4x3x6"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++)
        check_fabric(tori[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring8_by_hand),
        cmocka_unit_test(test_torus8x8_two_ties),
        cmocka_unit_test(test_tori),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
