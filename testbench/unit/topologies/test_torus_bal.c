/* test_torus_bal.c: dor_bal_booksim (NOC_TOPO_F_BAL_CLASS, topologies/grid.c),
 * BookSim2's dim_order_bal_torus. Every route of torus:8x8 and torus:5x5x3
 * for 16 packet words: dimension order, shortest, and in each dimension the
 * class the rule written out here gives (1 where the path wraps, 0 where it
 * crosses the ring's middle link from floor((k-1)/2) to the next, else
 * drawn: one class along the dimension, both classes over the words; a
 * tie of the two ways drawn, both ways about evenly); the
 * channel dependencies of all of them acyclic. */
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

/* The coordinate of node v in dimension d. */
static int coord(const noc_topo_t *t, int v, int d)
{
    for (int e = 0; e < d; e++)
        v /= t->k[e];
    return v % t->k[d];
}

static void check_fabric(const char *spec)
{
    noc_topo_t *t = noc_topo_create(spec, NOC_TOPO_F_BAL_CLASS, NULL, 0);
    assert_non_null(t);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_non_null(g->route_rand);
    assert_int_equal(t->n_vclasses, 2);
    int n = t->n_nodes, V = 2, drawn[2] = {0, 0}, tie[2] = {0, 0};
    int *owner = owners(t);
    cdg_t cg = {t->n_ports * V, 0, 0, NULL};
    for (uint32_t salt = 0; salt < 16; salt++)
        for (int s = 0; s < n; s++)
            for (int dst = 0; dst < n; dst++) {
                int cur = s, prev = -1, hops = 0, last_d = -1, cls = -1;
                for (;;) {
                    noc_route_t r;
                    g->route_rand(t, cur, s, dst, salt * 2654435761u, hops, &r);
                    if (r.port == 0) {
                        assert_int_equal(cur, dst);
                        break;
                    }
                    int d = (r.port - 1) / 2, plus = !((r.port - 1) & 1), k = t->k[d];
                    int sc = coord(t, s, d), dc = coord(t, dst, d), mid = (k - 1) / 2;
                    assert_true(d >= last_d); /* dimension order */
                    int delta = ((dc - sc) % k + k) % k;
                    assert_true(plus ? 2 * delta <= k : 2 * delta >= k); /* the shorter way */
                    if (2 * delta == k && d != last_d)
                        tie[plus]++; /* k/2 apart: either way, drawn */
                    int wraps = plus ? sc > dc : sc < dc;
                    int middle = plus ? sc <= mid && dc > mid : sc > mid && dc <= mid;
                    if (wraps)
                        assert_int_equal(r.vclass, 1);
                    else if (middle)
                        assert_int_equal(r.vclass, 0);
                    else if (d != last_d)
                        drawn[r.vclass]++;
                    if (d == last_d)
                        assert_int_equal(r.vclass, cls); /* one class along the dimension */
                    last_d = d;
                    cls = r.vclass;
                    int gp = t->port_base[cur] + r.port, ch = gp * V + r.vclass;
                    if (prev >= 0)
                        cdg_add(&cg, prev, ch);
                    prev = ch;
                    cur = owner[t->peer[gp]];
                    assert_true(++hops <= n);
                }
                assert_int_equal(hops, noc_topo_route_hops(t, s, dst));
            }
    assert_true(cdg_acyclic(&cg));
    /* the ties (k even) both ways, about evenly */
    if (t->k[0] % 2 == 0) {
        double p = (double)tie[1] / (double)(tie[0] + tie[1]);
        assert_true(p > 0.45 && p < 0.55);
    }
    /* the drawn classes: both, about evenly */
    assert_true(drawn[0] > 0 && drawn[1] > 0);
    double f = (double)drawn[0] / (double)(drawn[0] + drawn[1]);
    assert_true(f > 0.45 && f < 0.55);
    free(cg.edge);
    free(owner);
    noc_topo_destroy(t);
}

static void test_torus_8x8(void **state)
{
    (void)state;
    check_fabric("torus:8x8");
}

static void test_torus_5x5x3(void **state)
{
    (void)state;
    check_fabric("torus:5x5x3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus_8x8),
        cmocka_unit_test(test_torus_5x5x3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
