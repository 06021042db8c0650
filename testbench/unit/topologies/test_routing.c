/* test_routing.c: the grid routing functions (topologies/grid.c): every
 * source reaches every destination along a minimal path, in dimension order,
 * with valid VC classes; the channel dependency graph over (link, VC class)
 * is acyclic, and the checker does find the cycle of a torus without
 * dateline classes. The CDG builder and checker below are self-contained so
 * they can move to a library later. */
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

static const char *const specs[] = {
    "ring:3", "ring:4", "ring:5", "ring:8", "mesh:8", "mesh:4x4", "mesh:3x5", "mesh:2x3x4",
    "torus:4x4", "torus:5x3", "torus:3x3x3", "torus:8x8", "torus:3x4x5", "torus:6x4",
    "hypercube:1", "hypercube:2", "hypercube:3", "hypercube:4", "hypercube:5", "hypercube:6",
};
#define N_SPECS (sizeof specs / sizeof specs[0])

static int coord(const noc_topo_t *t, int n, int d) { return (n / t->stride[d]) % t->k[d]; }

static int next_node(const noc_topo_t *t, int cur, int port)
{
    return noc_topo_port_node(t, t->peer[noc_topo_gport(t, cur, port)]);
}

/* ---- channel dependency graph ------------------------------------------- */

/* Walk every (src, dst) route and record consecutive channels. */
static void cdg_build(const noc_topo_t *t, cdg_t *g)
{
    memset(g, 0, sizeof *g);
    g->n = t->n_ports * t->n_vclasses;
    for (int s = 0; s < t->n_nodes; s++)
        for (int d = 0; d < t->n_nodes; d++) {
            int cur = s, prev = -1, hops = 0;
            while (cur != d) {
                noc_route_t r;
                t->ops->route(t, cur, s, d, &r);
                assert_true(r.port >= 1 && r.vclass < t->n_vclasses);
                int ch = noc_topo_gport(t, cur, r.port) * t->n_vclasses + r.vclass;
                if (prev >= 0)
                    cdg_add(g, prev, ch);
                prev = ch;
                cur = next_node(t, cur, r.port);
                assert_true(++hops <= t->n_nodes);
            }
        }
}

static void cdg_free(cdg_t *g)
{
    free(g->edge);
    memset(g, 0, sizeof *g);
}

/* ---- tests --------------------------------------------------------------- */

/* (b) reach, minimal (= BFS distance), in dimension order, bounded. */
static void test_reach_minimal(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_SPECS; i++) {
        noc_topo_t *t = make_flags(specs[i], 0);
        for (int s = 0; s < t->n_nodes; s++) {
            noc_route_t r = {99, 99};
            t->ops->route(t, s, s, s, &r);
            assert_int_equal(r.port, 0);
            assert_int_equal(r.vclass, 0);
            for (int d = 0; d < t->n_nodes; d++) {
                int cur = s, hops = 0, last_dim = 0;
                while (cur != d) {
                    t->ops->route(t, cur, s, d, &r);
                    assert_true(r.port >= 1 && r.port <= noc_topo_degree(t, cur));
                    assert_true(r.vclass < t->n_vclasses);
                    int dim = t->link_class[noc_topo_gport(t, cur, r.port)];
                    assert_true(dim >= last_dim);
                    /* lower dimensions are already right */
                    for (int e = 0; e < dim; e++)
                        assert_int_equal(coord(t, cur, e), coord(t, d, e));
                    assert_int_not_equal(coord(t, cur, dim), coord(t, d, dim));
                    last_dim = dim;
                    cur = next_node(t, cur, r.port);
                    assert_true(++hops <= t->n_nodes);
                }
                int bfs = noc_topo_distance(t, s, d);
                if (hops != bfs)
                    print_error("%s: %d -> %d takes %d hops, shortest %d\n", specs[i], s, d,
                                hops, bfs);
                assert_int_equal(hops, bfs);
                assert_int_equal(noc_topo_route_hops(t, s, d), hops);
            }
        }
        noc_topo_destroy(t);
    }
}

/* Closed-form distances on larger and uneven shapes, sampled pairs. */
static void test_minimal_large(void **state)
{
    (void)state;
    static const char *const big[] = {"torus:16x16", "torus:7x6x5", "mesh:3x5x2x4",
                                      "mesh:32x32", "ring:101", "ring:64", "hypercube:12",
                                      "torus:3x3x3x3x3x3"};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        noc_topo_t *t = make_flags(big[i], 0);
        unsigned x = 12345;
        for (int j = 0; j < 3000; j++) {
            x = x * 1103515245u + 12345u;
            int s = (int)((x >> 8) % (unsigned)t->n_nodes);
            x = x * 1103515245u + 12345u;
            int d = (int)((x >> 8) % (unsigned)t->n_nodes);
            int expect = 0;
            for (int e = 0; e < t->dims; e++) {
                int delta = abs(coord(t, s, e) - coord(t, d, e));
                if (t->wrap && t->k[e] - delta < delta)
                    delta = t->k[e] - delta;
                expect += delta;
            }
            assert_int_equal(noc_topo_route_hops(t, s, d), expect);
        }
        noc_topo_destroy(t);
    }
}

/* (c) every fabric's CDG is acyclic; (d) the torus without dateline is not. */
static void test_cdg(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_SPECS; i++) {
        noc_topo_t *t = make_flags(specs[i], 0);
        cdg_t g;
        cdg_build(t, &g);
        if (!cdg_acyclic(&g))
            print_error("%s: channel dependency cycle\n", specs[i]);
        assert_true(cdg_acyclic(&g));
        cdg_free(&g);
        noc_topo_destroy(t);
    }
}

static void test_cdg_no_dateline_cyclic(void **state)
{
    (void)state;
    /* (k = 4 has no cycle even so: its 2-hop routes are ties, split
     * between the two directions by source parity) */
    static const char *const cyclic[] = {"torus:6x6", "ring:6", "ring:5", "torus:5x5x3"};
    for (size_t i = 0; i < sizeof cyclic / sizeof cyclic[0]; i++) {
        noc_topo_t *t = make_flags(cyclic[i], NOC_TOPO_F_NO_DATELINE);
        assert_int_equal(t->n_vclasses, 1);
        cdg_t g;
        cdg_build(t, &g);
        assert_false(cdg_acyclic(&g));
        cdg_free(&g);
        /* still minimal */
        for (int s = 0; s < t->n_nodes; s++)
            for (int d = 0; d < t->n_nodes; d++)
                assert_int_equal(noc_topo_route_hops(t, s, d), noc_topo_distance(t, s, d));
        noc_topo_destroy(t);
    }
    /* The flag changes nothing where there is no wraparound. */
    noc_topo_t *t = make_flags("mesh:4x4", NOC_TOPO_F_NO_DATELINE);
    cdg_t g;
    cdg_build(t, &g);
    assert_true(cdg_acyclic(&g));
    cdg_free(&g);
    noc_topo_destroy(t);
}

/* A hand-made cycle and a hand-made chain, so the checker is checked. */
static void test_cdg_checker(void **state)
{
    (void)state;
    cdg_t g = {4, 0, 0, NULL};
    cdg_add(&g, 0, 1);
    cdg_add(&g, 1, 2);
    cdg_add(&g, 1, 2);
    cdg_add(&g, 2, 3);
    assert_true(cdg_acyclic(&g));
    cdg_add(&g, 3, 1);
    assert_false(cdg_acyclic(&g));
    cdg_free(&g);
    g.n = 1;
    cdg_add(&g, 0, 0);
    assert_false(cdg_acyclic(&g));
    cdg_free(&g);
}

/* Direction choice and dateline classes on a ring, by hand. */
static void test_torus_directions(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("ring:8", 0);
    noc_route_t r;
    /* 6 -> 1: + way (distance 3), crosses the wrap 7 -> 0: class 0 */
    t->ops->route(t, 6, 6, 1, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(r.vclass, 0);
    t->ops->route(t, 7, 6, 1, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(r.vclass, 0);
    /* after the wrap: class 1 */
    t->ops->route(t, 0, 6, 1, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(r.vclass, 1);
    /* 1 -> 6: - way, crosses 0 -> 7: class 0; then 7 -> 6 class 1 */
    t->ops->route(t, 1, 1, 6, &r);
    assert_int_equal(r.port, 2);
    assert_int_equal(r.vclass, 0);
    t->ops->route(t, 7, 1, 6, &r);
    assert_int_equal(r.port, 2);
    assert_int_equal(r.vclass, 1);
    /* a packet at (0) headed for (1) that started there never wraps: its
     * class follows the destination's parity, the same at every hop */
    t->ops->route(t, 0, 0, 1, &r);
    assert_int_equal(r.vclass, 1);
    t->ops->route(t, 2, 2, 4, &r);
    assert_int_equal(r.vclass, 0);
    t->ops->route(t, 3, 2, 4, &r);
    assert_int_equal(r.vclass, 0);
    /* a tie at k/2 = 4 goes + from an even source, - from an odd one, and
     * keeps that way at every hop */
    for (int s = 0; s < 8; s++) {
        int d = (s + 4) % 8, want = (s & 1) ? 2 : 1, cur = s;
        for (int h = 0; h < 4; h++) {
            t->ops->route(t, cur, s, d, &r);
            assert_int_equal(r.port, want);
            cur = (cur + (want == 1 ? 1 : 7)) % 8;
        }
        assert_int_equal(cur, d);
    }
    /* 2 -> 5: + without wrap, class of 5 = 1 */
    t->ops->route(t, 2, 2, 5, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(r.vclass, 1);
    noc_topo_destroy(t);

    /* torus:4x4: (0,0) -> (2,2) goes + in x first, then + in y */
    t = make_flags("torus:4x4", 0);
    t->ops->route(t, 0, 0, 2 + 2 * 4, &r);
    assert_int_equal(r.port, 1);
    t->ops->route(t, 2, 0, 2 + 2 * 4, &r);
    assert_int_equal(r.port, 3);
    /* (3,0) -> (0,3): + in x over the wrap (class 0), then - in y over the wrap */
    t->ops->route(t, 3, 3, 0 + 3 * 4, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(r.vclass, 0);
    t->ops->route(t, 0, 3, 0 + 3 * 4, &r);
    assert_int_equal(r.port, 4);
    assert_int_equal(r.vclass, 0);
    noc_topo_destroy(t);

    /* without the dateline everything is class 0 */
    t = make_flags("ring:8", NOC_TOPO_F_NO_DATELINE);
    for (int s = 0; s < 8; s++)
        for (int d = 0; d < 8; d++) {
            t->ops->route(t, s, s, d, &r);
            assert_int_equal(r.vclass, 0);
        }
    noc_topo_destroy(t);
}

/* BookSim2's dim_order_torus classes (NOC_TOPO_F_WRAP_CLASS, what its files
 * get): class 1 for the whole of a dimension whose path wraps, 0 for the
 * others; minimal, and the CDG stays acyclic. Cases worked by hand from
 * routefunc.cpp (dor_next_torus, partition). */
static void test_booksim_torus_classes(void **state)
{
    (void)state;
    noc_route_t r;
    noc_topo_t *t = make_flags("ring:8", NOC_TOPO_F_WRAP_CLASS);
    assert_int_equal(t->n_vclasses, 2);
    /* 6 -> 1 goes + over the wrap (3 hops): class 1 at 6, 7 and 0 */
    for (int cur = 6; cur != 1; cur = (cur + 1) % 8) {
        t->ops->route(t, cur, 6, 1, &r);
        assert_int_equal(r.port, 1);
        assert_int_equal(r.vclass, 1);
    }
    /* 1 -> 3 never wraps: class 0 (the dateline rule would say dst & 1 = 1) */
    t->ops->route(t, 1, 1, 3, &r);
    assert_int_equal(r.vclass, 0);
    t->ops->route(t, 2, 1, 3, &r);
    assert_int_equal(r.vclass, 0);
    /* 1 -> 6 goes - over the wrap: class 1 */
    t->ops->route(t, 1, 1, 6, &r);
    assert_int_equal(r.port, 2);
    assert_int_equal(r.vclass, 1);
    t->ops->route(t, 7, 1, 6, &r);
    assert_int_equal(r.vclass, 1);
    noc_topo_destroy(t);
    static const char *const tori[] = {"ring:5", "ring:8", "torus:4x4", "torus:8x8", "torus:5x3", "torus:3x4x5"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++) {
        t = make_flags(tori[i], NOC_TOPO_F_WRAP_CLASS);
        cdg_t g;
        cdg_build(t, &g);
        if (!cdg_acyclic(&g))
            print_error("%s: channel dependency cycle\n", tori[i]);
        assert_true(cdg_acyclic(&g));
        cdg_free(&g);
        for (int a = 0; a < t->n_nodes; a++)
            for (int b = 0; b < t->n_nodes; b++)
                assert_int_equal(noc_topo_route_hops(t, a, b), noc_topo_distance(t, a, b));
        noc_topo_destroy(t);
    }
}

/* e-cube: lowest differing bit first; meshes never leave class 0. */
static void test_ecube_mesh(void **state)
{
    (void)state;
    noc_topo_t *t = make_flags("hypercube:6", 0);
    noc_route_t r;
    for (int s = 0; s < 64; s++)
        for (int d = 0; d < 64; d++) {
            t->ops->route(t, s, s, d, &r);
            if (s == d) {
                assert_int_equal(r.port, 0);
                continue;
            }
            assert_int_equal(r.port, __builtin_ctz((unsigned)(s ^ d)) + 1);
            assert_int_equal(r.vclass, 0);
        }
    noc_topo_destroy(t);

    t = make_flags("mesh:3x3", 0);
    /* (2,1) -> (0,2): - in x is port 1 at the right edge */
    t->ops->route(t, 5, 5, 6, &r);
    assert_int_equal(r.port, 1);
    /* (1,1) -> (0,1): - in x is port 2 */
    t->ops->route(t, 4, 4, 3, &r);
    assert_int_equal(r.port, 2);
    /* (1,2) -> (1,0): - in y at the top edge: ports +x, -x, -y */
    t->ops->route(t, 7, 7, 1, &r);
    assert_int_equal(r.port, 3);
    for (int s = 0; s < 9; s++)
        for (int d = 0; d < 9; d++) {
            t->ops->route(t, s, s, d, &r);
            assert_int_equal(r.vclass, 0);
        }
    noc_topo_destroy(t);
}

/* A fabric that says its routing ignores the source must route the same
 * without it (routers then skip the packet table look-up). */
/* The dimension port p of node cur leads along (0 .. dims-1). */
static int port_dim(const noc_topo_t *t, int cur, int p)
{
    int nx = next_node(t, cur, p);
    for (int d = 0; d < t->dims; d++)
        if (coord(t, nx, d) != coord(t, cur, d))
            return d;
    return -1;
}

/* xy_yx (NOC_TOPO_F_XY_YX, BookSim2's xy_yx_mesh): an even salt routes in
 * dimension order lowest first on class 0, an odd one highest first on class
 * 1, minimal both; over both the CDG is acyclic, and it would not be with
 * one class (checked by building it with the classes merged). Hand case on
 * mesh:4x4, node 0 = (0,0) to 6 = (2,1): even: +x (port 1, class 0); odd: +y
 * (port 2: (0,0) has no -x port, class 1). */
static void test_xy_yx(void **state)
{
    (void)state;
    static const char *const meshes[] = {"mesh:4x4", "mesh:3x5", "mesh:2x3x4", "mesh:6"};
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; i++) {
        noc_topo_t *t = make_flags(meshes[i], NOC_TOPO_F_XY_YX);
        const noc_graph_t *gr = noc_topo_graph(t);
        assert_non_null(gr->route_rand);
        assert_int_equal(gr->n_vclasses, 2);
        assert_null(gr->route_cache);
        cdg_t g, one;
        memset(&g, 0, sizeof g);
        memset(&one, 0, sizeof one);
        g.n = t->n_ports * 2;
        one.n = t->n_ports;
        for (uint32_t salt = 0; salt < 4; salt++)
            for (int s = 0; s < t->n_nodes; s++)
                for (int d = 0; d < t->n_nodes; d++) {
                    int cur = s, prev = -1, prev1 = -1, hops = 0, last = salt & 1 ? t->dims : -1;
                    for (;;) {
                        noc_route_t r;
                        gr->route_rand(t, cur, s, d, salt, 0, &r);
                        if (r.port == 0)
                            break;
                        assert_int_equal(r.vclass, salt & 1);
                        int dim = port_dim(t, cur, r.port);
                        if (salt & 1)
                            assert_true(dim <= last);
                        else
                            assert_true(dim >= last);
                        last = dim;
                        int ch = noc_topo_gport(t, cur, r.port);
                        if (prev >= 0) {
                            cdg_add(&g, prev, ch * 2 + r.vclass);
                            cdg_add(&one, prev1, ch);
                        }
                        prev = ch * 2 + r.vclass;
                        prev1 = ch;
                        cur = next_node(t, cur, r.port);
                        assert_true(++hops <= t->n_nodes);
                    }
                    assert_int_equal(cur, d);
                    assert_int_equal(hops, noc_topo_distance(t, s, d));
                }
        assert_true(cdg_acyclic(&g));
        if (t->dims > 1)
            assert_false(cdg_acyclic(&one));
        cdg_free(&g);
        cdg_free(&one);
        noc_topo_destroy(t);
    }
    noc_topo_t *t = make_flags("mesh:4x4", NOC_TOPO_F_XY_YX);
    noc_route_t r;
    noc_topo_graph(t)->route_rand(t, 0, 0, 6, 2u, 0, &r);
    assert_int_equal(r.port, 1);
    assert_int_equal(r.vclass, 0);
    noc_topo_graph(t)->route_rand(t, 0, 0, 6, 7u, 0, &r);
    assert_int_equal(r.port, 2);
    assert_int_equal(r.vclass, 1);
    assert_int_equal(next_node(t, 0, 2), 4);
    noc_topo_destroy(t);
}

/* Walks the route of (s, d, salt) under valiant or romm: each hop's phase
 * (its class's lowest bit: 0 then 1, never back; a torus's dateline class
 * above it), m the node where phase 0 ends (s when there is none); both
 * legs shortest and in dimension order; the CDG edges into g (over the
 * fabric's classes). Returns m; *hops the route's length. */
static int walk_two_legs(const noc_topo_t *t, int s, int d, uint32_t salt, cdg_t *g, int *hops)
{
    const noc_graph_t *gr = noc_topo_graph(t);
    int cur = s, prev = -1, m = s, cls = 0, n = 0, last = -1, leg = 0;
    for (;;) {
        noc_route_t r;
        gr->route_rand(t, cur, s, d, salt, n, &r);
        if (r.port == 0)
            break;
        int ph = r.vclass & 1;
        assert_true(r.vclass < gr->n_vclasses);
        assert_true(ph >= cls); /* 0, then 1 */
        if (ph != cls) {
            assert_int_equal(leg, noc_topo_distance(t, s, cur)); /* the first leg: shortest */
            m = cur;
            leg = 0;
            last = -1;
        }
        cls = ph;
        int dim = port_dim(t, cur, r.port);
        assert_true(dim >= last); /* dimension order within a leg */
        last = dim;
        int ch = noc_topo_gport(t, cur, r.port) * gr->n_vclasses + r.vclass;
        if (prev >= 0)
            cdg_add(g, prev, ch);
        prev = ch;
        cur = next_node(t, cur, r.port);
        leg++;
        assert_true(++n <= 2 * t->n_nodes);
    }
    assert_int_equal(cur, d);
    if (cls == 0) /* the node drawn is d itself */
        m = d;
    else
        assert_int_equal(leg, noc_topo_distance(t, m, d));
    *hops = n;
    return m;
}

/* valiant and romm (BookSim2's valiant_mesh and romm_mesh): two shortest
 * dimension-order legs through a node m drawn per packet, class 0 then 1;
 * acyclic over all draws. romm: m in the box of s and d, every route
 * minimal, and over 16,000 salts each of the 16 nodes of the box of (0,0)
 * and (3,3) on mesh:4x4 drawn 1,000 times (within 4 standard deviations,
 * 125); valiant: each of the 16 nodes 1,000 times for 0 -> 5. */
static void test_valiant_romm(void **state)
{
    (void)state;
    static const char *const meshes[] = {"mesh:4x4", "mesh:3x5", "mesh:2x3x4"};
    for (int romm = 0; romm < 2; romm++) {
        for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; i++) {
            noc_topo_t *t = make_flags(meshes[i], romm ? NOC_TOPO_F_ROMM : NOC_TOPO_F_VALIANT);
            assert_int_equal(noc_topo_graph(t)->n_vclasses, 2);
            cdg_t g;
            memset(&g, 0, sizeof g);
            g.n = t->n_ports * 2;
            for (uint32_t salt = 0; salt < 24; salt++)
                for (int s = 0; s < t->n_nodes; s++)
                    for (int d = 0; d < t->n_nodes; d++) {
                        int hops, m = walk_two_legs(t, s, d, salt, &g, &hops);
                        if (romm) {
                            assert_int_equal(hops, noc_topo_distance(t, s, d));
                            assert_int_equal(noc_topo_distance(t, s, m) + noc_topo_distance(t, m, d), hops);
                        }
                    }
            assert_true(cdg_acyclic(&g));
            cdg_free(&g);
            noc_topo_destroy(t);
        }
        if (!romm) { /* tori and rings: 4 classes (dateline x phase), 2 without datelines */
            static const char *const tori[] = {"torus:4x4", "torus:5x3", "ring:6", "torus:3x3x3"};
            static const unsigned fl[] = {0, NOC_TOPO_F_WRAP_CLASS};
            for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++)
                for (int f = 0; f < 2; f++) {
                    noc_topo_t *t = make_flags(tori[i], NOC_TOPO_F_VALIANT | fl[f]);
                    assert_int_equal(noc_topo_graph(t)->n_vclasses, 4);
                    cdg_t g;
                    memset(&g, 0, sizeof g);
                    g.n = t->n_ports * 4;
                    for (uint32_t salt = 0; salt < 24; salt++)
                        for (int s = 0; s < t->n_nodes; s++)
                            for (int d = 0; d < t->n_nodes; d++) {
                                int hops, m = walk_two_legs(t, s, d, salt, &g, &hops);
                                assert_int_equal(noc_topo_distance(t, s, m) + noc_topo_distance(t, m, d), hops);
                            }
                    if (!cdg_acyclic(&g))
                        fail_msg("%s, flags %u: channel dependency cycle", tori[i], fl[f]);
                    cdg_free(&g);
                    noc_topo_destroy(t);
                }
        }
        noc_topo_t *t = make_flags("mesh:4x4", romm ? NOC_TOPO_F_ROMM : NOC_TOPO_F_VALIANT);
        int count[16] = {0}, d = romm ? 15 : 5;
        cdg_t g;
        memset(&g, 0, sizeof g);
        g.n = t->n_ports * 2;
        for (uint32_t salt = 0; salt < 16000; salt++) {
            int hops;
            count[walk_two_legs(t, 0, d, salt, &g, &hops)]++;
        }
        for (int n = 0; n < 16; n++)
            assert_in_range(count[n], 875, 1125);
        cdg_free(&g);
        noc_topo_destroy(t);
    }
}

static void test_route_needs_src(void **state)
{
    (void)state;
    int without = 0;
    for (size_t i = 0; i < N_SPECS; i++) {
        noc_topo_t *t = make_flags(specs[i], 0);
        if (!t->route_needs_src) {
            without++;
            for (int s = 0; s < t->n_nodes; s++)
                for (int d = 0; d < t->n_nodes; d++)
                    for (int cur = 0; cur < t->n_nodes; cur++) {
                        noc_route_t a, b;
                        t->ops->route(t, cur, s, d, &a);
                        t->ops->route(t, cur, -1, d, &b);
                        assert_int_equal(a.port, b.port);
                        assert_int_equal(a.vclass, b.vclass);
                    }
        }
        if (t->wrap)
            assert_true(t->route_needs_src);
        noc_topo_destroy(t);
    }
    assert_true(without > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_route_needs_src),
        cmocka_unit_test(test_reach_minimal),
        cmocka_unit_test(test_minimal_large),
        cmocka_unit_test(test_cdg_checker),
        cmocka_unit_test(test_cdg),
        cmocka_unit_test(test_cdg_no_dateline_cyclic),
        cmocka_unit_test(test_torus_directions),
        cmocka_unit_test(test_booksim_torus_classes),
        cmocka_unit_test(test_ecube_mesh),
        cmocka_unit_test(test_xy_yx),
        cmocka_unit_test(test_valiant_romm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
