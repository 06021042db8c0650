/* test_topo.c: topology construction: SPEC parsing and its error messages,
 * port numbering and peer symmetry, degrees and link classes, labels and
 * label lookup, BFS distances (topologies/topo.c, topologies/grid.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topo_internal.h"

static const char *const good_specs[] = {
    "ring:3", "ring:5", "ring:8", "mesh:2", "mesh:8", "mesh:4x4", "mesh:3x5", "mesh:2x3x4",
    "torus:4x4", "torus:5x3", "torus:3x3x3", "torus:8x8", "torus:3x4x5", "hypercube:1",
    "hypercube:2", "hypercube:3", "hypercube:4", "hypercube:5", "hypercube:6",
};
#define N_GOOD (sizeof good_specs / sizeof good_specs[0])

static noc_topo_t *make(const char *spec, unsigned flags)
{
    char err[512] = "";
    noc_topo_t *t = noc_topo_create(spec, flags, err, sizeof err);
    if (!t)
        print_error("%s: %s\n", spec, err);
    assert_non_null(t);
    assert_string_equal(err, "");
    return t;
}

static int coord(const noc_topo_t *t, int n, int d) { return (n / t->stride[d]) % t->k[d]; }

/* Shapes, sizes and per-kind facts. */
static void test_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *kind;
        int nodes, dims, max_degree, n_ports, vclasses;
    } cases[] = {
        {"ring:16", "ring", 16, 1, 2, 48, 2},
        {"mesh:8", "mesh", 8, 1, 2, 8 + 14, 1},
        {"mesh:8x8", "mesh", 64, 2, 4, 64 + 2 * 2 * 8 * 7, 1},
        {"mesh:2x3x4", "mesh", 24, 3, 5, 24 + 2 * (12 * 1 + 8 * 2 + 6 * 3), 1},
        {"torus:8x8", "torus", 64, 2, 4, 64 * 5, 2},
        {"torus:4x4x4", "torus", 64, 3, 6, 64 * 7, 2},
        {"hypercube:6", "hypercube", 64, 6, 6, 64 * 7, 1},
        {"hypercube:1", "hypercube", 2, 1, 1, 4, 1},
        {" mesh:4X4 ", "mesh", 16, 2, 4, 16 + 48, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_topo_t *t = make(cases[i].spec, 0);
        assert_string_equal(t->ops->kind, cases[i].kind);
        assert_int_equal(t->n_nodes, cases[i].nodes);
        assert_int_equal(t->dims, cases[i].dims);
        assert_int_equal(t->max_degree, cases[i].max_degree);
        assert_int_equal(t->n_ports, cases[i].n_ports);
        assert_int_equal(t->port_base[t->n_nodes], t->n_ports);
        assert_int_equal(t->n_vclasses, cases[i].vclasses);
        assert_int_equal(t->n_classes, t->dims);
        assert_int_equal(t->dateline, cases[i].vclasses == 2);
        assert_int_equal(t->wrap, strcmp(cases[i].kind, "torus") == 0 ||
                                      strcmp(cases[i].kind, "ring") == 0);
        for (int d = 0; d < t->dims; d++) {
            char name[16];
            snprintf(name, sizeof name, "dim%d", d);
            assert_string_equal(t->class_name[d], name);
        }
        noc_topo_destroy(t);
    }
    /* The spec kept is the trimmed one. */
    noc_topo_t *t = make("  torus:4x4\n", 0);
    assert_string_equal(t->spec, "torus:4x4");
    noc_topo_destroy(t);
    /* Without the dateline a torus needs (and gets) one class only. */
    t = make("torus:4x4", NOC_TOPO_F_NO_DATELINE);
    assert_int_equal(t->n_vclasses, 1);
    assert_int_equal(t->dateline, 0);
    noc_topo_destroy(t);
    /* The largest hypercube and a big mesh build. */
    t = make("hypercube:20", 0);
    assert_int_equal(t->n_nodes, 1 << 20);
    assert_int_equal(t->dims, 20);
    noc_topo_destroy(t);
    t = make("mesh:2048x2048", 0);
    assert_int_equal(t->n_nodes, 1 << 22);
    noc_topo_destroy(t);
}

/* (a) peer symmetry, local ports, degrees, link classes, and that every link
 * joins nodes one step apart in exactly the dimension of its class. */
static void test_ports(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_GOOD; i++) {
        noc_topo_t *t = make(good_specs[i], 0);
        int max_deg = 0;
        for (int n = 0; n < t->n_nodes; n++) {
            int deg = noc_topo_degree(t, n), expect = 0;
            for (int d = 0; d < t->dims; d++) {
                int c = coord(t, n, d);
                expect += (t->wrap || c < t->k[d] - 1) + (t->wrap || c > 0);
            }
            assert_int_equal(deg, expect);
            if (deg > max_deg)
                max_deg = deg;
            int g0 = noc_topo_gport(t, n, 0);
            assert_int_equal(t->peer[g0], -1);
            assert_int_equal(noc_topo_port_node(t, g0), n);
            int seen_up[NOC_TOPO_MAX_DIMS] = {0}, seen_down[NOC_TOPO_MAX_DIMS] = {0};
            int last_class = 0;
            for (int port = 1; port <= deg; port++) {
                int g = noc_topo_gport(t, n, port);
                int p = t->peer[g];
                assert_int_equal(noc_topo_port_node(t, g), n);
                assert_true(p >= 0 && p < t->n_ports);
                assert_int_equal(t->peer[p], g);
                int m = noc_topo_port_node(t, p);
                assert_int_not_equal(m, n);
                assert_int_not_equal(p, noc_topo_gport(t, m, 0));
                int d = t->link_class[g];
                assert_true(d < t->n_classes);
                assert_int_equal(t->link_class[p], d);
                assert_true(d >= last_class); /* ports grouped by dimension */
                last_class = d;
                for (int e = 0; e < t->dims; e++)
                    if (e != d)
                        assert_int_equal(coord(t, m, e), coord(t, n, e));
                int k = t->k[d], step = (coord(t, m, d) - coord(t, n, d) + k) % k;
                if (step == 1) {
                    /* + comes before - within a dimension */
                    assert_int_equal(seen_down[d], 0);
                    seen_up[d]++;
                } else {
                    assert_int_equal(step, k - 1);
                    seen_down[d]++;
                }
                if (!t->wrap)
                    assert_int_equal(abs(coord(t, m, d) - coord(t, n, d)), 1);
            }
            for (int d = 0; d < t->dims; d++) {
                /* No duplicate links: one neighbour each way at most, and
                 * for k = 2 only one in all. */
                assert_true(seen_up[d] <= 1 && seen_down[d] <= 1);
                if (t->k[d] == 2)
                    assert_int_equal(seen_up[d] + seen_down[d], 1);
            }
        }
        assert_int_equal(t->max_degree, max_deg);
        noc_topo_destroy(t);
    }
}

/* The numbering documented in topo.h and grid.c, checked on examples. */
static void test_port_numbering(void **state)
{
    (void)state;
    /* torus: + at 1 + 2d, - at 2 + 2d */
    noc_topo_t *t = make("torus:4x4x4", 0);
    for (int n = 0; n < t->n_nodes; n++)
        for (int d = 0; d < 3; d++) {
            int up = noc_topo_port_node(t, t->peer[noc_topo_gport(t, n, 1 + 2 * d)]);
            int down = noc_topo_port_node(t, t->peer[noc_topo_gport(t, n, 2 + 2 * d)]);
            assert_int_equal(coord(t, up, d), (coord(t, n, d) + 1) % 4);
            assert_int_equal(coord(t, down, d), (coord(t, n, d) + 3) % 4);
        }
    noc_topo_destroy(t);

    /* mesh:3x3: corner (0,0) has +x=1, +y=2; centre (1,1) +x,-x,+y,-y;
     * (2,1) has -x=1, +y=2, -y=3. */
    t = make("mesh:3x3", 0);
    assert_int_equal(noc_topo_degree(t, 0), 2);
    assert_int_equal(noc_topo_port_node(t, t->peer[noc_topo_gport(t, 0, 1)]), 1);
    assert_int_equal(noc_topo_port_node(t, t->peer[noc_topo_gport(t, 0, 2)]), 3);
    assert_int_equal(noc_topo_degree(t, 4), 4);
    static const int centre[] = {5, 3, 7, 1};
    for (int port = 1; port <= 4; port++)
        assert_int_equal(noc_topo_port_node(t, t->peer[noc_topo_gport(t, 4, port)]),
                         centre[port - 1]);
    assert_int_equal(noc_topo_degree(t, 5), 3);
    static const int right[] = {4, 8, 2};
    for (int port = 1; port <= 3; port++)
        assert_int_equal(noc_topo_port_node(t, t->peer[noc_topo_gport(t, 5, port)]),
                         right[port - 1]);
    noc_topo_destroy(t);

    /* hypercube: port d + 1 flips bit d; same wiring as mesh:2x2x...x2 */
    t = make("hypercube:5", 0);
    noc_topo_t *m = make("mesh:2x2x2x2x2", 0);
    assert_int_equal(t->n_ports, m->n_ports);
    for (int n = 0; n < t->n_nodes; n++) {
        assert_int_equal(noc_topo_degree(t, n), 5);
        for (int d = 0; d < 5; d++) {
            int g = noc_topo_gport(t, n, d + 1);
            assert_int_equal(noc_topo_port_node(t, t->peer[g]), n ^ (1 << d));
            assert_int_equal(t->peer[g], noc_topo_gport(t, n ^ (1 << d), d + 1));
            assert_int_equal(t->link_class[g], d);
        }
    }
    assert_memory_equal(t->peer, m->peer, (size_t)t->n_ports * sizeof *t->peer);
    noc_topo_destroy(m);
    noc_topo_destroy(t);

    /* ring: 1 is +1, 2 is -1 */
    t = make("ring:5", 0);
    for (int n = 0; n < 5; n++) {
        assert_int_equal(noc_topo_port_node(t, t->peer[noc_topo_gport(t, n, 1)]), (n + 1) % 5);
        assert_int_equal(noc_topo_port_node(t, t->peer[noc_topo_gport(t, n, 2)]), (n + 4) % 5);
    }
    noc_topo_destroy(t);
}

static void test_port_node(void **state)
{
    (void)state;
    noc_topo_t *t = make("mesh:3x5", 0);
    for (int n = 0; n < t->n_nodes; n++)
        for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++)
            assert_int_equal(noc_topo_port_node(t, g), n);
    assert_int_equal(noc_topo_port_node(t, -1), -1);
    assert_int_equal(noc_topo_port_node(t, t->n_ports), -1);
    noc_topo_destroy(t);
}

/* (e) labels: the notation, and the round trip through find_label. */
static void test_labels(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int node;
        const char *label;
    } cases[] = {
        {"mesh:4x4", 6, "(2,1)"},     {"mesh:4x4", 0, "(0,0)"},
        {"torus:4x4x4", 57, "(1,2,3)"}, {"ring:16", 5, "(5)"},
        {"mesh:8", 7, "(7)"},         {"hypercube:6", 22, "010110"},
        {"hypercube:1", 1, "1"},      {"torus:5x3", 14, "(4,2)"},
        {"mesh:16x16", 255, "(15,15)"},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_topo_t *t = make(cases[i].spec, 0);
        noc_topo_label(t, cases[i].node, buf, sizeof buf);
        assert_string_equal(buf, cases[i].label);
        assert_int_equal(noc_topo_find_label(t, cases[i].label), cases[i].node);
        noc_topo_destroy(t);
    }

    for (size_t i = 0; i < N_GOOD; i++) {
        noc_topo_t *t = make(good_specs[i], 0);
        for (int n = 0; n < t->n_nodes; n++) {
            noc_topo_label(t, n, buf, sizeof buf);
            assert_int_equal(noc_topo_find_label(t, buf), n);
            /* all labels distinct follows from the round trip */
        }
        noc_topo_destroy(t);
    }

    noc_topo_t *t = make("mesh:4x4", 0);
    assert_int_equal(noc_topo_find_label(t, "(2, 1)"), 6);
    assert_int_equal(noc_topo_find_label(t, " ( 2 ,1 ) "), 6);
    assert_int_equal(noc_topo_find_label(t, "6"), 6);
    assert_int_equal(noc_topo_find_label(t, "15"), 15);
    assert_int_equal(noc_topo_find_label(t, "16"), -1);
    assert_int_equal(noc_topo_find_label(t, "(4,0)"), -1);
    assert_int_equal(noc_topo_find_label(t, "(1,1,1)"), -1);
    assert_int_equal(noc_topo_find_label(t, "(1)"), -1);
    assert_int_equal(noc_topo_find_label(t, "(1,1"), -1);
    assert_int_equal(noc_topo_find_label(t, "-1"), -1);
    assert_int_equal(noc_topo_find_label(t, ""), -1);
    assert_int_equal(noc_topo_find_label(t, "x"), -1);
    assert_int_equal(noc_topo_find_label(t, NULL), -1);
    /* a small buffer still gets a terminated prefix */
    noc_topo_label(t, 6, buf, 3);
    assert_string_equal(buf, "(2");
    noc_topo_label(t, 6, buf, 1);
    assert_string_equal(buf, "");
    noc_topo_destroy(t);

    /* a label wins over a number of the same digits */
    t = make("hypercube:2", 0);
    assert_int_equal(noc_topo_find_label(t, "10"), 2);
    assert_int_equal(noc_topo_find_label(t, "11"), 3);
    assert_int_equal(noc_topo_find_label(t, "3"), 3);
    assert_int_equal(noc_topo_find_label(t, "2"), 2);
    assert_int_equal(noc_topo_find_label(t, "12"), -1);
    noc_topo_label(t, 2, buf, 2);
    assert_string_equal(buf, "1");
    noc_topo_destroy(t);

    /* lookups in a big fabric are direct, not a scan */
    t = make("torus:2048x2048", 0);
    assert_int_equal(noc_topo_find_label(t, "(2047, 1)"), 2047 + 2048);
    assert_int_equal(noc_topo_find_label(t, "4194303"), 4194303);
    noc_topo_destroy(t);
}

/* (f) bad specs: NULL, and a message quoting the spec. */
static void test_bad_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "foo:3",       "mesh",          "mesh:",       "mesh:8x",      "mesh:x8",
        "mesh:8xx8",   "mesh:0x4",      "mesh:1",      "mesh:4x1",     "mesh:-4",
        "mesh:8y8",    "mesh:8x8 junk", "torus:abc",   "torus:2x4",    "torus:4x2",
        "torus:2",     "torus:4x4x",    "ring:2",      "ring:1",       "ring:0",
        "ring:4x4",    "ring",          "ring:",       "hypercube:0",  "hypercube:21",
        "hypercube:",  "hypercube:abc", "hypercube:3x3", "mesh:4096x4096",
        "mesh:99999999999999999999999", "torus:3x3x3x3x3x3x3x3x3x3x3x3x3x3",
        "mesh:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2", "8x8", ":8x8", "Mesh:8x8",
        "mesh;8x8",
    };
    char err[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(err, 'z', sizeof err);
        err[sizeof err - 1] = '\0';
        noc_topo_t *t = noc_topo_create(bad[i], 0, err, sizeof err);
        if (t)
            print_error("accepted bad spec \"%s\"\n", bad[i]);
        assert_null(t);
        char quoted[160];
        snprintf(quoted, sizeof quoted, "\"%s\"", bad[i]);
        if (!strstr(err, quoted))
            print_error("message for \"%s\" does not quote it: %s\n", bad[i], err);
        assert_non_null(strstr(err, quoted));
    }
    /* what is expected is said */
    noc_topo_create("torus:2x4", 0, err, sizeof err);
    assert_non_null(strstr(err, "hypercube"));
    assert_non_null(strstr(err, "mesh"));
    noc_topo_create("ring:2", 0, err, sizeof err);
    assert_non_null(strstr(err, "at least 3"));
    noc_topo_create("foo:3", 0, err, sizeof err);
    assert_non_null(strstr(err, "unknown kind"));
    assert_non_null(strstr(err, noc_topo_spec_help()));
    noc_topo_create("mesh:4096x4096", 0, err, sizeof err);
    assert_non_null(strstr(err, "nodes"));
    noc_topo_create("mesh:0x4", 0, err, sizeof err);
    assert_non_null(strstr(err, "mesh:AxB"));

    /* empty, blank, NULL, too long; small or absent err buffers */
    assert_null(noc_topo_create("", 0, err, sizeof err));
    assert_non_null(strstr(err, "\"\""));
    assert_null(noc_topo_create("   ", 0, err, sizeof err));
    assert_null(noc_topo_create(NULL, 0, err, sizeof err));
    assert_true(strlen(err) > 0);
    static char longspec[NOC_TOPO_SPEC_MAX + 2];
    memset(longspec, '8', sizeof longspec);
    memcpy(longspec, "mesh:", 5);
    longspec[sizeof longspec - 1] = '\0';
    assert_null(noc_topo_create(longspec, 0, err, sizeof err));
    assert_non_null(strstr(err, "longer than 4200 characters"));
    assert_null(noc_topo_create("mesh:8x", 0, NULL, 0));
    assert_null(noc_topo_create("mesh:8x", 0, err, 4));
    assert_int_equal(strlen(err), 3);
    noc_topo_destroy(NULL);
}

/* Hops of the route from a to b, walked: the routing function at every
 * node (with a as the source), the link's far end, until b. */
static int walk_hops(const noc_topo_t *t, int a, int b)
{
    int cur = a, hops = 0;
    while (cur != b && hops <= noc_topo_nodes(t)) {
        noc_route_t r;
        noc_topo_route(t, cur, a, b, &r);
        cur = noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, cur, r.port)));
        hops++;
    }
    return hops;
}

/* The grids' closed form of route hops (model/graph.h's hops: what the
 * ideal router ranks flits by) equals walking every route, ties of even
 * tori and BookSim2's classes included. */
static void test_grid_hops_walk(void **state)
{
    (void)state;
    static const struct { const char *spec; unsigned flags; } g[] = {
        { "mesh:5x4", 0 },  { "torus:5x4", 0 }, { "torus:4x6", 0 },       { "torus:4x6", NOC_TOPO_F_WRAP_CLASS },
        { "torus:3x3x3", 0 }, { "ring:7", 0 },  { "ring:8", NOC_TOPO_F_NO_DATELINE }, { "hypercube:4", 0 },
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        char err[256];
        noc_topo_t *t = noc_topo_create(g[i].spec, g[i].flags, err, sizeof err);
        assert_non_null(t);
        int n = noc_topo_nodes(t), far = 0;
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                int h = noc_topo_route_hops(t, a, b);
                assert_int_equal(h, walk_hops(t, a, b));
                far = h > far ? h : far;
            }
        assert_true(far > 1);
        noc_topo_destroy(t);
    }
}

static void test_distance(void **state)
{
    (void)state;
    noc_topo_t *t = make("torus:8x8", 0);
    assert_int_equal(noc_topo_distance(t, 0, 0), 0);
    assert_int_equal(noc_topo_distance(t, 0, 4 + 4 * 8), 8);
    assert_int_equal(noc_topo_distance(t, 0, 7 + 7 * 8), 2);
    assert_int_equal(noc_topo_distance(t, 0, 64), -1);
    assert_int_equal(noc_topo_distance(t, -1, 3), -1);
    noc_topo_destroy(t);
    t = make("mesh:4x4", 0);
    assert_int_equal(noc_topo_distance(t, 0, 15), 6);
    assert_int_equal(noc_topo_distance(t, 3, 12), 6);
    assert_int_equal(noc_topo_distance(t, 5, 6), 1);
    noc_topo_destroy(t);
    t = make("hypercube:6", 0);
    for (int b = 0; b < 64; b++)
        assert_int_equal(noc_topo_distance(t, 0x15, b), __builtin_popcount((unsigned)(b ^ 0x15)));
    noc_topo_destroy(t);
}

static void test_help(void **state)
{
    (void)state;
    const char *h = noc_topo_spec_help();
    assert_non_null(h);
    assert_null(strchr(h, '\n'));
    assert_non_null(strstr(h, "ring:"));
    assert_non_null(strstr(h, "mesh:"));
    assert_non_null(strstr(h, "torus:"));
    assert_non_null(strstr(h, "hypercube:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),     cmocka_unit_test(test_ports),
        cmocka_unit_test(test_grid_hops_walk),
        cmocka_unit_test(test_port_numbering), cmocka_unit_test(test_port_node),
        cmocka_unit_test(test_labels),     cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_distance),   cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
