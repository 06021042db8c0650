/* test_fabrics.c: the fabrics beyond grids (BSN, OTIS, pyramid, multilevel,
 * circulant, complete): node and link counts, degrees and diameters against
 * the papers' formulas, measured by an independent BFS over t->peer
 * (fabric_check.h), not by the code under test; the definitions link by
 * link; labels and their round trip; ports, classes and drawing positions;
 * bad SPECs. Routing: test_fabric_routing.c; graph files: test_graphfile.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topologies/fabrics.h"
#include "topologies/topo_internal.h"

#include "fabric_check.h"

typedef struct basis {
    const char *spec;
    int n, links, deg_min, deg_max, diameter;
} basis_t;

static const basis_t bases[] = {
    {"ring:4", 4, 4, 2, 2, 2},
    {"ring:5", 5, 5, 2, 2, 2},
    {"ring:8", 8, 8, 2, 2, 4},
    {"mesh:3x3", 9, 12, 2, 4, 4},
    {"mesh:2x3", 6, 7, 2, 3, 3},
    {"mesh:4x4", 16, 24, 2, 4, 6},
    {"torus:3x3", 9, 18, 4, 4, 2},
    {"torus:4x3", 12, 24, 4, 4, 3},
    {"hypercube:2", 4, 4, 2, 2, 2},
    {"hypercube:3", 8, 12, 3, 3, 3},
    {"hypercube:4", 16, 32, 4, 4, 4},
    {"complete:4", 4, 6, 3, 3, 1},
    {"complete:5", 5, 10, 4, 4, 1},
    {"circulant:13:2,3", 13, 26, 4, 4, 2},
};
#define N_BASES (sizeof bases / sizeof bases[0])

static void test_swapped_facts(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_BASES; i++) {
        const basis_t *b = &bases[i];
        char spec[64];
        snprintf(spec, sizeof spec, "bsn:%s", b->spec);
        noc_topo_t *t = make(spec);
        expect(spec, measure(t), 2 * b->n * b->n, 2 * b->n * b->links + b->n * b->n,
               b->deg_min + 1, b->deg_max + 1, 2 * b->diameter + 2);
        assert_string_equal(t->ops->kind, "bsn");
        noc_topo_destroy(t);

        snprintf(spec, sizeof spec, "otis:%s", b->spec);
        t = make(spec);
        expect(spec, measure(t), b->n * b->n, b->n * b->links + b->n * (b->n - 1) / 2,
               b->deg_min, b->deg_max + 1, 2 * b->diameter + 1);
        assert_string_equal(t->ops->kind, "otis");
        noc_topo_destroy(t);
    }
    /* the figures */
    noc_topo_t *t = make("bsn:ring:8");
    expect("bsn:ring:8", measure(t), 128, 192, 3, 3, 10);
    noc_topo_destroy(t);
    t = make("otis:mesh:4x4");
    expect("otis:mesh:4x4", measure(t), 256, 504, 2, 5, 13);
    noc_topo_destroy(t);
}

/* Pyramid P_N: (4^(N+1) - 1)/3 nodes, diameter 2N; multilevel structures
 * by their level sizes. */
static void test_pyramid_facts(void **state)
{
    (void)state;
    for (int n = 1; n <= 5; n++) {
        char spec[32];
        snprintf(spec, sizeof spec, "pyramid:%d", n);
        noc_topo_t *t = make(spec);
        int nodes = ((1 << (2 * (n + 1))) - 1) / 3, lateral = 0;
        for (int k = 0; k <= n; k++) {
            int s = 1 << (n - k);
            lateral += 2 * s * (s - 1);
        }
        /* base corners: 2 lateral + parent; inner nodes of level 1 and up:
         * 4 lateral + parent + 4 children (apex only 4 children) */
        expect(spec, measure(t), nodes, lateral + nodes - 1, 3, n == 1 ? 4 : n == 2 ? 7 : 9, 2 * n);
        noc_topo_destroy(t);
    }
    noc_topo_t *t = make("pyramid:3");
    expect("pyramid:3", measure(t), 85, 224, 3, 9, 6);
    noc_topo_destroy(t);
    /* multilevel:N:m...: base 2^N, sides shrink by 2^m; with an apex the
     * diameter is 2 * (levels - 1), else 2 * (levels - 1) + 2 * (top side - 1) */
    static const struct {
        const char *spec;
        int nodes, links, dmin, dmax, diameter;
    } ml[] = {
        {"multilevel:4:2,2", 256 + 16 + 1, 2 * 16 * 15 + 2 * 4 * 3 + 16 + 256, 3, 21, 4},
        {"multilevel:3:1", 64 + 16, 2 * 8 * 7 + 2 * 4 * 3 + 64, 3, 8, 8},
        {"multilevel:4:1,2", 256 + 64 + 4, 2 * 16 * 15 + 2 * 8 * 7 + 2 * 2 * 1 + 64 + 256, 3, 18,
         2 * 2 + 2},
        {"multilevel:3:3", 64 + 1, 2 * 8 * 7 + 64, 3, 64, 2},
        {"multilevel:1:1", 5, 4 + 4, 3, 4, 2},
    };
    for (size_t i = 0; i < sizeof ml / sizeof ml[0]; i++) {
        t = make(ml[i].spec);
        assert_string_equal(t->ops->kind, "multilevel");
        expect(ml[i].spec, measure(t), ml[i].nodes, ml[i].links, ml[i].dmin, ml[i].dmax,
               ml[i].diameter);
        noc_topo_destroy(t);
    }
    /* pyramid:N is multilevel:N:1,...,1 */
    noc_topo_t *a = make("pyramid:3"), *b = make("multilevel:3:1,1,1");
    assert_int_equal(a->n_ports, b->n_ports);
    assert_memory_equal(a->peer, b->peer, (size_t)a->n_ports * sizeof *a->peer);
    noc_topo_destroy(a);
    noc_topo_destroy(b);
}

static void test_circulant_complete_facts(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int nodes, links, deg, diameter;
    } c[] = {
        {"circulant:12:1", 12, 12, 2, 6},         /* a ring */
        {"circulant:13:2,3", 13, 26, 4, 2},       /* optimal 2D circulant, k = 2 */
        {"circulant:25:3,4", 25, 50, 4, 3},       /* k = 3: N = 2k^2 + 2k + 1 */
        {"circulant:41:4,5", 41, 82, 4, 4},       /* k = 4 */
        {"circulant:10:5,1", 10, 15, 3, 3},       /* 2s = N: one link per node */
        {"circulant:16:1,4", 16, 32, 4, 3},
        {"circulant:8:3", 8, 8, 2, 4},
        {"complete:2", 2, 1, 1, 1},
        {"complete:7", 7, 21, 6, 1},
        {"complete:64", 64, 64 * 63 / 2, 63, 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        noc_topo_t *t = make(c[i].spec);
        expect(c[i].spec, measure(t), c[i].nodes, c[i].links, c[i].deg, c[i].deg, c[i].diameter);
        noc_topo_destroy(t);
    }
    /* C(16; 1, 4): 8 = 4 + 4, 10 = -4 -1 -1, 7 = 4 + 4 - 1 */
    noc_topo_t *t = make("circulant:16:1,4");
    int *owner = owners(t), dist[16], queue[16];
    bfs(t, owner, 0, dist, queue);
    assert_int_equal(dist[10], 3);
    assert_int_equal(dist[8], 2);
    assert_int_equal(dist[7], 3);
    free(owner);
    noc_topo_destroy(t);
}

/* ---- definitions, link by link ------------------------------------------ */

/* Read "<a,b,c>" or "(a,b)" of plain numbers. */
static int parse3(const char *s, int *a, int *b, int *c)
{
    return sscanf(s, "<%d,%d,%d>", a, b, c) == 3;
}

/* BSN over rings: labels are numbers; intra links stay in <g,.,c> and
 * join ring neighbours; swap links join <g,p,c> and <p,g,1-c>. */
static void check_bsn_links(void)
{
    static const char *const bsn[] = {"bsn:ring:4", "bsn:ring:8", "bsn:complete:5"};
    for (size_t i = 0; i < sizeof bsn / sizeof bsn[0]; i++) {
        noc_topo_t *t = make(bsn[i]);
        int *owner = owners(t), swaps = 0, n = (int)lround(sqrt(t->n_nodes / 2.0));
        assert_int_equal(t->n_classes, 2);
        assert_string_equal(t->class_name[0], "intra");
        assert_string_equal(t->class_name[1], "swap");
        for (int v = 0; v < t->n_nodes; v++) {
            char l1[64], l2[64];
            int g, p, c, g2, p2, c2;
            noc_topo_label(t, v, l1, sizeof l1);
            assert_true(parse3(l1, &g, &p, &c));
            int swap_ports = 0;
            for (int gp = t->port_base[v] + 1; gp < t->port_base[v + 1]; gp++) {
                noc_topo_label(t, owner[t->peer[gp]], l2, sizeof l2);
                assert_true(parse3(l2, &g2, &p2, &c2));
                if (t->link_class[gp] == 1) {
                    assert_int_equal(g2, p);
                    assert_int_equal(p2, g);
                    assert_int_equal(c2, 1 - c);
                    swap_ports++;
                    swaps++;
                } else {
                    assert_int_equal(g2, g);
                    assert_int_equal(c2, c);
                    int diff = abs(p2 - p);
                    if (strstr(bsn[i], "ring"))
                        assert_true(diff == 1 || diff == n - 1);
                    else
                        assert_true(diff >= 1);
                }
            }
            assert_int_equal(swap_ports, 1);
            assert_int_equal(t->link_class[t->port_base[v] + noc_topo_degree(t, v)], 1);
        }
        assert_int_equal(swaps / 2, n * n);
        free(owner);
        noc_topo_destroy(t);
    }
}

/* OTIS over a ring: optical links join (g,p) and (p,g), g != p */
static void check_otis_links(void)
{
    noc_topo_t *t = make("otis:ring:5");
    int *owner = owners(t), optical = 0;
    assert_string_equal(t->class_name[1], "optical");
    for (int v = 0; v < t->n_nodes; v++) {
        char l1[64], l2[64];
        int g, p, g2, p2;
        noc_topo_label(t, v, l1, sizeof l1);
        assert_int_equal(sscanf(l1, "(%d,%d)", &g, &p), 2);
        for (int gp = t->port_base[v] + 1; gp < t->port_base[v + 1]; gp++) {
            noc_topo_label(t, owner[t->peer[gp]], l2, sizeof l2);
            assert_int_equal(sscanf(l2, "(%d,%d)", &g2, &p2), 2);
            if (t->link_class[gp] == 1) {
                assert_int_not_equal(g, p);
                assert_int_equal(g2, p);
                assert_int_equal(p2, g);
                optical++;
            } else {
                assert_int_equal(g2, g);
                assert_true(abs(p2 - p) == 1 || abs(p2 - p) == 4);
            }
        }
    }
    assert_int_equal(optical / 2, 5 * 4 / 2);
    free(owner);
    noc_topo_destroy(t);
}

/* pyramid: parent links join (k,r,c) and (k+1,r/2,c/2); lateral links
 * stay in a level and join mesh neighbours */
static void check_pyramid_links(void)
{
    noc_topo_t *t = make("pyramid:3");
    int *owner = owners(t);
    assert_string_equal(t->class_name[0], "lateral");
    assert_string_equal(t->class_name[1], "parent");
    for (int v = 0; v < t->n_nodes; v++) {
        char l1[64], l2[64];
        int k, r, c, k2, r2, c2, parents = 0, children = 0;
        noc_topo_label(t, v, l1, sizeof l1);
        assert_int_equal(sscanf(l1, "(%d,%d,%d)", &k, &r, &c), 3);
        for (int gp = t->port_base[v] + 1; gp < t->port_base[v + 1]; gp++) {
            noc_topo_label(t, owner[t->peer[gp]], l2, sizeof l2);
            assert_int_equal(sscanf(l2, "(%d,%d,%d)", &k2, &r2, &c2), 3);
            if (t->link_class[gp] == 0) {
                assert_int_equal(k2, k);
                assert_int_equal(abs(r2 - r) + abs(c2 - c), 1);
            } else if (k2 == k + 1) {
                assert_int_equal(r2, r / 2);
                assert_int_equal(c2, c / 2);
                parents++;
            } else {
                assert_int_equal(k2, k - 1);
                assert_int_equal(r2 / 2, r);
                assert_int_equal(c2 / 2, c);
                children++;
            }
        }
        assert_int_equal(parents, k < 3);
        assert_int_equal(children, k > 0 ? 4 : 0);
    }
    free(owner);
    noc_topo_destroy(t);
}

/* circulant: class j joins i and i +- s_j */
static void check_circulant_links(void)
{
    noc_topo_t *t = make("circulant:10:5,1");
    int *owner = owners(t);
    assert_int_equal(t->n_classes, 2);
    assert_string_equal(t->class_name[0], "s1");
    assert_string_equal(t->class_name[1], "s2");
    for (int v = 0; v < 10; v++)
        for (int gp = t->port_base[v] + 1; gp < t->port_base[v + 1]; gp++) {
            int w = owner[t->peer[gp]], s = t->link_class[gp] == 0 ? 5 : 1;
            assert_true(w == (v + s) % 10 || w == (v + 10 - s) % 10);
        }
    free(owner);
    noc_topo_destroy(t);
}

static void test_definitions(void **state)
{
    (void)state;
    check_bsn_links();
    check_otis_links();
    check_pyramid_links();
    check_circulant_links();
}

/* ---- labels, ports, positions --------------------------------------------- */

static const char *const all_specs[] = {
    "bsn:ring:4", "bsn:mesh:3x3", "bsn:hypercube:3", "bsn:complete:5", "bsn:torus:3x3",
    "otis:mesh:4x4", "otis:ring:8", "otis:hypercube:3", "otis:complete:4", "pyramid:1",
    "pyramid:3", "multilevel:4:2,2", "multilevel:3:1", "circulant:16:1,4", "circulant:10:5,1",
    "complete:2", "complete:9", "ring:6", "mesh:4x4", "mesh:5", "mesh:2x3x4", "torus:4x4",
    "torus:3x3x3", "hypercube:1", "hypercube:5", "bsn:bsn:ring:3",
};
#define N_ALL (sizeof all_specs / sizeof all_specs[0])

static void test_labels(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ALL; i++) {
        noc_topo_t *t = make(all_specs[i]);
        for (int v = 0; v < t->n_nodes; v++) {
            char l[256];
            noc_topo_label(t, v, l, sizeof l);
            assert_true(strlen(l) > 0);
            int back = noc_topo_find_label(t, l);
            if (back != v)
                print_error("%s: label \"%s\" of node %d finds %d\n", all_specs[i], l, v, back);
            assert_int_equal(back, v);
        }
        noc_topo_destroy(t);
    }
    static const struct {
        const char *spec, *label;
        int node;
    } named[] = {
        {"bsn:ring:8", "<3,5,0>", 3 * 8 + 5},
        {"bsn:ring:8", "< 3, 5, 1 >", 64 + 3 * 8 + 5},
        {"bsn:mesh:4x4", "<(1,0),(2,3),1>", 256 + 1 * 16 + 2 + 3 * 4},
        {"bsn:hypercube:3", "<110,001,0>", 6 * 8 + 1},
        {"otis:mesh:4x4", "((0,1),(2,3))", 4 * 16 + 14},
        {"otis:ring:8", "(7,2)", 7 * 8 + 2},
        {"pyramid:3", "(0,0,0)", 0},
        {"pyramid:3", "(1,2,3)", 64 + 2 * 4 + 3},
        {"pyramid:3", "(3,0,0)", 84},
        {"multilevel:4:2,2", "(2,0,0)", 272},
        {"circulant:16:1,4", "11", 11},
        {"complete:5", "4", 4},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        noc_topo_t *t = make(named[i].spec);
        assert_int_equal(noc_topo_find_label(t, named[i].label), named[i].node);
        noc_topo_destroy(t);
    }
}

static void test_ports_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ALL; i++) {
        noc_topo_t *t = make(all_specs[i]);
        int *per_class = calloc((size_t)t->n_classes, sizeof *per_class);
        assert_non_null(per_class);
        assert_true(t->n_classes >= 1 && t->n_classes <= NOC_TOPO_MAX_CLASSES);
        for (int c = 0; c < t->n_classes; c++)
            assert_true(strlen(t->class_name[c]) > 0);
        for (int v = 0; v < t->n_nodes; v++) {
            assert_int_equal(t->peer[t->port_base[v]], -1);
            for (int g = t->port_base[v] + 1; g < t->port_base[v + 1]; g++) {
                int p = t->peer[g];
                assert_true(p >= 0 && p < t->n_ports);
                assert_int_equal(t->peer[p], g);
                assert_int_equal(t->link_class[p], t->link_class[g]);
                assert_true(t->link_class[g] < t->n_classes);
                per_class[t->link_class[g]]++;
            }
        }
        for (int c = 0; c < t->n_classes; c++)
            assert_true(per_class[c] > 0);
        /* positions: present, finite, no two nodes on one spot */
        assert_non_null(t->pos);
        for (int v = 0; v < t->n_nodes; v++) {
            assert_true(isfinite(t->pos[2 * v]) && isfinite(t->pos[2 * v + 1]));
            for (int w = 0; w < v; w++)
                assert_true(fabsf(t->pos[2 * v] - t->pos[2 * w]) > 1e-3f ||
                            fabsf(t->pos[2 * v + 1] - t->pos[2 * w + 1]) > 1e-3f);
        }
        free(per_class);
        noc_topo_destroy(t);
    }
    /* BSN: part 0 above part 1; pyramid: apex above the base, centred */
    noc_topo_t *t = make("bsn:ring:4");
    for (int v = 0; v < 16; v++)
        assert_true(t->pos[2 * v + 1] < t->pos[2 * (v + 16) + 1]);
    noc_topo_destroy(t);
    /* pyramid:2 (base 0..15 row by row, level 1 16..19, apex 20): each
     * node above the middle of the base nodes under it (in x, the mean of
     * theirs: the view is linear), every level above the one below */
    t = make("pyramid:2");
    float base_x = 0.0f, base_top = t->pos[1];
    for (int v = 0; v < 16; v++) {
        base_x += t->pos[2 * v] / 16.0f;
        base_top = fminf(base_top, t->pos[2 * v + 1]);
    }
    assert_true(fabsf(t->pos[2 * 20] - base_x) < 1e-4f);
    for (int i = 0; i < 4; i++) {
        int r = i / 2, c = i % 2;
        float x = 0.0f;
        for (int d = 0; d < 4; d++)
            x += t->pos[2 * ((2 * r + d / 2) * 4 + 2 * c + d % 2)] / 4.0f;
        assert_true(fabsf(t->pos[2 * (16 + i)] - x) < 1e-4f);
        assert_true(t->pos[2 * (16 + i) + 1] < base_top);
        assert_true(t->pos[2 * 20 + 1] < t->pos[2 * (16 + i) + 1]);
    }
    noc_topo_destroy(t);
    /* grids: mesh coordinates are positions */
    t = make("mesh:4x4");
    assert_true(t->pos[2 * 6] == 2.0f && t->pos[2 * 6 + 1] == 1.0f);
    noc_topo_destroy(t);
    /* 3-D grids in oblique view (torus:3x4x5: node (x,y,z) = x + 3y + 12z):
     * a dimension-2 link is vertical, each plane lies wholly above the one
     * below it (y grows downward), a dimension-0 link is horizontal and a
     * dimension-1 link slants up and to the right */
    t = make("torus:3x4x5");
    for (int v = 0; v < t->n_nodes; v++) {
        int x = v % 3, y = v / 3 % 4, z = v / 12;
        if (z < 4) {
            assert_true(t->pos[2 * v] == t->pos[2 * (v + 12)]);
            assert_true(t->pos[2 * (v + 12) + 1] < t->pos[2 * v + 1]);
        }
        if (x < 2)
            assert_true(t->pos[2 * v + 1] == t->pos[2 * (v + 1) + 1] && t->pos[2 * v] < t->pos[2 * (v + 1)]);
        if (y < 3)
            assert_true(t->pos[2 * (v + 3)] > t->pos[2 * v] && t->pos[2 * (v + 3) + 1] < t->pos[2 * v + 1]);
    }
    for (int z = 0; z < 4; z++) /* the top row of plane z is below the bottom row of plane z + 1 */
        assert_true(t->pos[2 * (12 * z + 9) + 1] > t->pos[2 * (12 * (z + 1)) + 1]);
    noc_topo_destroy(t);
}

/* ---- bad SPECs ------------------------------------------------------------- */

static void test_bad_specs(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *says;
    } bad[] = {
        {"bsn:ring:1", "basis \"ring:1\""},
        {"bsn:ring:1", "at least 3"},
        {"bsn", "missing basis"},
        {"bsn:", "missing basis"},
        {"otis:foo:3", "unknown kind"},
        {"otis:", "otis:BASIS"},
        {"bsn:hypercube:11", "more than"},
        {"pyramid:-2", "\"-2\" is not a whole number"},
        {"pyramid:0", "out of range"},
        {"pyramid:11", "out of range"},
        {"pyramid", "missing size"},
        {"pyramid:3x", "not a whole number"},
        {"multilevel:4", "missing the reductions"},
        {"multilevel:4:", "not a whole number"},
        {"multilevel:4:2,3", "add up to more than"},
        {"multilevel:4:4", "out of range"},
        {"multilevel:4:0", "out of range"},
        {"multilevel:4:1,,1", "not a whole number"},
        {"circulant:8:0", "jump 0 is out of range"},
        {"circulant:8:8", "out of range"},
        {"circulant:8", "missing the jumps"},
        {"circulant:8:2,4", "not connected"},
        {"circulant:8:1,7", "repeats"},
        {"circulant:8:1,1", "repeats"},
        {"circulant:2:1", "out of range"},
        {"circulant:5000:1", "table routing"},
        {"circulant:x:1", "not a whole number"},
        {"circulant:8:1,a", "jump \"a\""},
        {"complete:1", "out of range"},
        {"complete:257", "out of range"},
        {"complete:", "missing size"},
        {"complete:4x", "not a whole number"},
        {"graph:/nonexistent/file.txt", "/nonexistent/file.txt: cannot read the graph file"},
        {"graph:/dev/zero", "/dev/zero: a character device, not a graph file"},
        {"graph:/", "/: a directory, not a graph file"},
        {"graph:", "missing file"},
        {"bsn:graph:/nonexistent", "cannot read the graph file"},
        {"bsn:cmesh:2x2", "basis \"cmesh:2x2\": its routers carry several terminals or none (cmesh)"},
        {"otis:fly:2:2", "basis \"fly:2:2\": its routers carry several terminals or none (fly)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[600] = "", quoted[160];
        assert_null(noc_topo_create(bad[i].spec, 0, err, sizeof err));
        snprintf(quoted, sizeof quoted, "topology \"%s\": ", bad[i].spec);
        if (strncmp(err, quoted, strlen(quoted)) != 0 || !strstr(err, bad[i].says))
            print_error("%s: \"%s\" (expected it to say %s)\n", bad[i].spec, err, bad[i].says);
        assert_int_equal(strncmp(err, quoted, strlen(quoted)), 0);
        assert_non_null(strstr(err, bad[i].says));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swapped_facts),
        cmocka_unit_test(test_pyramid_facts),
        cmocka_unit_test(test_circulant_complete_facts),
        cmocka_unit_test(test_definitions),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_ports_positions),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
