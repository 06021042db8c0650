/* test_graphfile.c: graph:FILE (topologies/graphfile.c): a good file with
 * classes and latencies, named nodes, as BSN and OTIS bases; every rejected
 * fault with its FILE:LINE; the sample files of examples/graphs. Facts by
 * the independent BFS of fabric_check.h, routes checked as for every
 * fabric. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topologies/fabrics.h"
#include "topologies/topo_internal.h"

#include "fabric_check.h"

static char tmpdir[256];

static void write_graph(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The Petersen graph: 10 nodes, 15 links, 3-regular, diameter 2, with
 * classes and latencies; and as a BSN and an OTIS basis. */
static void check_petersen(void)
{
    char path[512], spec[600];
    write_graph("petersen.txt",
                "# Petersen graph\nnodes 10\n0 1\n1 2\n2 3\n3 4\n4 0  # outer\n"
                "0 5 spoke\n1 6 spoke\n2 7 spoke\n3 8 spoke\n4 9 spoke 3\n"
                "5 7 inner\n7 9 inner\n9 6 inner\n6 8 inner\n8 5 inner 2\n",
                path, sizeof path);
    snprintf(spec, sizeof spec, "graph:%s", path);
    noc_topo_t *t = make(spec);
    assert_string_equal(t->ops->kind, "graph");
    expect(spec, measure(t), 10, 15, 3, 3, 2);
    assert_int_equal(t->n_classes, 3);
    assert_string_equal(t->class_name[0], "link");
    assert_string_equal(t->class_name[1], "spoke");
    assert_string_equal(t->class_name[2], "inner");
    /* latencies: 4 - 9 has 3, 8 - 5 has 2, the rest none */
    int lat3 = 0, lat2 = 0, lat0 = 0;
    for (int g = 0; g < t->n_ports; g++) {
        int l = t->link_latency ? t->link_latency[g] : 0;
        lat3 += l == 3;
        lat2 += l == 2;
        lat0 += l == 0 && t->peer[g] >= 0;
    }
    assert_int_equal(lat3, 2);
    assert_int_equal(lat2, 2);
    assert_int_equal(lat0, 26);
    assert_true(check_routes(spec, t));
    noc_topo_destroy(t);
    /* as a basis */
    snprintf(spec, sizeof spec, "bsn:graph:%s", path);
    t = make(spec);
    expect(spec, measure(t), 200, 2 * 10 * 15 + 100, 4, 4, 6);
    assert_true(check_routes(spec, t));
    noc_topo_destroy(t);
    snprintf(spec, sizeof spec, "otis:graph:%s", path);
    t = make(spec);
    expect(spec, measure(t), 100, 10 * 15 + 45, 3, 4, 5);
    assert_true(check_routes(spec, t));
    noc_topo_destroy(t);
}

/* Names: labels are the names, numbered in order of first appearance. */
static void check_named_nodes(void)
{
    char path[512], spec[600];
    write_graph("names.txt",
                "cpu0 cpu1 # a\ncpu1 mem\nmem cpu0\nmem io.0 slow 4\nio.0 io-1 12\n", path,
                sizeof path);
    snprintf(spec, sizeof spec, "graph:%s", path);
    noc_topo_t *t = make(spec);
    expect(spec, measure(t), 5, 5, 1, 3, 3);
    char l[64];
    noc_topo_label(t, 2, l, sizeof l);
    assert_string_equal(l, "mem");
    assert_int_equal(noc_topo_find_label(t, "io-1"), 4);
    assert_int_equal(noc_topo_find_label(t, "cpu0"), 0);
    assert_true(check_routes(spec, t));
    noc_topo_destroy(t);
}

/* Errors, each with FILE:LINE. */
static void check_bad_files(void)
{
    char path[512], spec[600], err[800];
    static const struct {
        const char *text;
        int line;
        const char *says;
    } bad[] = {
        {"0 1\n1 1\n", 2, "self loop"},
        {"0 1\n1 2\n# x\n2 1\n", 4, "repeats the link of line 2"},
        {"a b\nb c\nb a x\n", 3, "repeats the link of line 1"},
        {"nodes 4\n0 1\n1 2\n", 1, "node 3 has no links"},
        {"0 1\n2 3\n1 2\n0 4\n1 6\n", 5, "node 5 has no links"},
        {"0 1\n1 2\n3 4\n", 0, "not connected"},
        {"0 1\n1 x2\n", 2, "is a name"},
        {"a b\nb 7\n", 2, "is a number"},
        {"0 1\n1 -2\n", 2, "bad node number"},
        {"0 1\n1 2y\n", 2, "bad node number"},
        {"nodes 3\n0 1\n1 3\n", 3, "out of range (0 .. 2)"},
        {"0 1\nnodes 3\n", 2, "before the first link"},
        {"nodes 3\nnodes 3\n", 2, "second"},
        {"nodes x\n", 1, "nodes N"},
        {"0 1 fast 0\n", 1, "bad latency"},
        {"0 1 fast 65\n", 1, "bad latency"},
        {"0 1 fast 3 9\n", 1, "expected a link"},
        {"0\n", 1, "expected a link"},
        {"0 1 5 6\n", 1, "is a number"},
        {"0 1 averyveryverylongclass\n", 1, "bad link class"},
        {"# nothing\n\n", 2, "no links"},
        {"nodes 3\na b\nb c\nc d\n", 4, "one more than 3 nodes"},
        {"nodes 4\na b\nb c\n", 1, "only 3"},
        {"a b\n$ c\n", 2, "bad node name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32], where[600];
        snprintf(name, sizeof name, "bad%zu.txt", i);
        write_graph(name, bad[i].text, path, sizeof path);
        snprintf(spec, sizeof spec, "graph:%s", path);
        assert_null(noc_topo_create(spec, 0, err, sizeof err));
        if (bad[i].line)
            snprintf(where, sizeof where, "%s:%d: ", path, bad[i].line);
        else
            snprintf(where, sizeof where, "%s: ", path);
        if (!strstr(err, where) || !strstr(err, bad[i].says))
            print_error("case %zu: \"%s\" (expected %s ... %s)\n", i, err, where, bad[i].says);
        assert_non_null(strstr(err, where));
        assert_non_null(strstr(err, bad[i].says));
    }
}

static void test_graph_files(void **state)
{
    (void)state;
    check_petersen();
    check_named_nodes();
    check_bad_files();
}

/* The sample graph files of examples/graphs build and route. */
static void test_example_graphs(void **state)
{
    (void)state;
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    static const struct {
        const char *file;
        int nodes, links, diameter;
    } ex[] = {
        {"petersen.txt", 10, 15, 2},
        {"heawood.txt", 14, 21, 3},
        {"soc.txt", 12, 17, 5},
    };
    if (!src)
        src = ".";
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        char spec[600];
        snprintf(spec, sizeof spec, "graph:%s/examples/graphs/%s", src, ex[i].file);
        noc_topo_t *t = make(spec);
        facts_t f = measure(t);
        assert_int_equal(f.nodes, ex[i].nodes);
        assert_int_equal(f.links, ex[i].links);
        assert_int_equal(f.diameter, ex[i].diameter);
        assert_true(check_routes(spec, t));
        noc_topo_destroy(t);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/noctua_fabrics_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph_files),
        cmocka_unit_test(test_example_graphs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
