/* test_anynet.c: anynet:FILE (topologies/anynet.c), BookSim2's anynet
 * network files. Expected routes are worked by hand from BookSim2's
 * networks/anynet.cpp: Dijkstra per source router over the file's
 * latencies, routers settled by (distance, number), the first predecessor
 * found kept, the route's first hop taken at every router. Also: nodes on
 * routers of other numbers, per-direction latencies, the latency a
 * BookSim2 run takes (noc_anynet_uniform_latency), every refused fault
 * with its FILE:LINE, the example file of examples/anynet, and several
 * nodes on a router or none (concentration). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topologies/anynet.h"
#include "topologies/fabrics.h"
#include "topologies/facts.h"
#include "topologies/topo_internal.h"

#include "fabric_check.h"

static char tmpdir[256];

static void write_file(const char *name, const char *text, char *spec, size_t len)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(spec, len, "anynet:%s", path);
}

/* The node at the far end of port `port` of node n. */
static int far_node(const noc_topo_t *t, int n, int port)
{
    return noc_topo_port_node(t, t->peer[t->port_base[n] + port]);
}

/* The node the route at cur toward dst goes to next (class 0 checked). */
static int next_node(const noc_topo_t *t, int cur, int dst)
{
    noc_route_t r = {99, 99};
    t->ops->route(t, cur, cur, dst, &r);
    assert_int_equal(r.vclass, 0);
    if (cur == dst) {
        assert_int_equal(r.port, 0);
        return cur;
    }
    assert_true(r.port >= 1 && r.port <= noc_topo_degree(t, cur));
    return far_node(t, cur, r.port);
}

/* A ring of 4: ports in increasing router number, the ties at distance 2
 * broken toward the router settled first (the lower number). */
static void test_ring(void **state)
{
    (void)state;
    char spec[500];
    write_file("ring4", "router 0 node 0 router 1\nrouter 1 node 1 router 2\n"
                        "router 2 node 2 router 3\nrouter 3 node 3 router 0\n", spec, sizeof spec);
    noc_topo_t *t = make(spec);
    assert_string_equal(t->ops->kind, "anynet");
    expect(spec, measure(t), 4, 4, 2, 2, 2);
    assert_int_equal(t->n_vclasses, 1); /* min_anynet: any VC */
    assert_null(t->link_latency);       /* no latency given */
    assert_int_equal(far_node(t, 0, 1), 1);
    assert_int_equal(far_node(t, 0, 2), 3);
    assert_int_equal(far_node(t, 3, 1), 0);
    assert_int_equal(far_node(t, 3, 2), 2);
    /* from 0: 1 and 3 at distance 1, 1 settled first, so 2's predecessor
     * is 1; from 1: 0 first, 3 via 0; from 2: 1 first; from 3: 0 first */
    assert_int_equal(next_node(t, 0, 2), 1);
    assert_int_equal(next_node(t, 1, 3), 0);
    assert_int_equal(next_node(t, 2, 0), 1);
    assert_int_equal(next_node(t, 3, 1), 0);
    assert_int_equal(next_node(t, 0, 3), 3);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            assert_int_equal(noc_topo_route_hops(t, a, b), noc_topo_distance(t, a, b));
    noc_topo_destroy(t);
    int lat = 0, nodes = 0;
    char why[600];
    assert_int_equal(noc_anynet_uniform_latency(spec + 7, &lat, &nodes, why, sizeof why), 0);
    assert_int_equal(lat, 1);
    assert_int_equal(nodes, 4);
}

/* BookSim2 keeps the predecessor settled first, not the lowest first hop:
 * 0 -> 4 has 0-1-3-4 and 0-5-2-4; from 0, 1 and 5 settle at 1, then 3
 * (via 1) and 2 (via 5) at 2; 2 settles before 3 and reaches 4 first, so
 * the route leaves 0 toward 5. From 4: 2 and 3 at 1, 5 (via 2) and 1 (via
 * 3) at 2; 1 settles first and reaches 0: 4 leaves toward 3. */
static void test_tie_break(void **state)
{
    (void)state;
    char spec[500];
    write_file("tie", "router 0 node 0 router 5 router 1\nrouter 1 node 1 router 3\n"
                      "router 5 node 5 router 2\nrouter 2 node 2 router 4\n"
                      "router 3 node 3 router 4\nrouter 4 node 4\n", spec, sizeof spec);
    noc_topo_t *t = make(spec);
    expect(spec, measure(t), 6, 6, 2, 2, 3);
    assert_int_equal(far_node(t, 0, 1), 1); /* ports by router number, not file order */
    assert_int_equal(far_node(t, 0, 2), 5);
    assert_int_equal(next_node(t, 0, 4), 5);
    assert_int_equal(next_node(t, 5, 4), 2);
    assert_int_equal(next_node(t, 4, 0), 3);
    assert_int_equal(next_node(t, 3, 0), 1);
    noc_topo_destroy(t);
}

/* Node i is noctua's node i, wherever its router is: routers 0 1 2 3 carry
 * nodes 2 0 3 1 on the ring 0-1-2-3-0, node lines included. */
static void test_node_numbers(void **state)
{
    (void)state;
    char spec[500];
    write_file("perm", "router 0 node 2 router 1\nrouter 1 router 2\nnode 0 router 1\n"
                       "router 2 node 3 router 3\nrouter 3 node 1 router 0\n", spec, sizeof spec);
    noc_topo_t *t = make(spec);
    /* node 0 (router 1): ports to routers 0 and 2, nodes 2 and 3 */
    assert_int_equal(far_node(t, 0, 1), 2);
    assert_int_equal(far_node(t, 0, 2), 3);
    /* node 2 (router 0): to routers 1 and 3, nodes 0 and 1 */
    assert_int_equal(far_node(t, 2, 1), 0);
    assert_int_equal(far_node(t, 2, 2), 1);
    /* router 0 -> router 2 goes via router 1: node 2 -> node 3 via node 0 */
    assert_int_equal(next_node(t, 2, 3), 0);
    noc_topo_destroy(t);
}

/* Latencies per direction: 0 -> 1 takes 5, 1 -> 0 the default; Dijkstra
 * weighs them: 0 reaches 1 via 2 (2 cycles), 1 reaches 0 directly. */
static void test_latencies(void **state)
{
    (void)state;
    char spec[500], why[600];
    int lat = 0, nodes = 0;
    write_file("tri", "router 0 node 0 router 1 5 router 2\nrouter 1 node 1 router 2\n"
                      "router 2 node 2\n", spec, sizeof spec);
    noc_topo_t *t = make(spec);
    assert_non_null(t->link_latency);
    int g01 = t->port_base[0] + 1, g10 = t->port_base[1] + 1;
    assert_int_equal(far_node(t, 0, 1), 1);
    assert_int_equal(far_node(t, 1, 1), 0);
    assert_int_equal(t->link_latency[g01], 5);
    assert_int_equal(t->link_latency[g10], 0); /* none given: the class's */
    assert_int_equal(next_node(t, 0, 1), 2);
    assert_int_equal(next_node(t, 1, 0), 0);
    noc_topo_destroy(t);
    /* as a BookSim2 run: 5 and 1 mixed, refused naming both */
    assert_int_equal(noc_anynet_uniform_latency(spec + 7, &lat, &nodes, why, sizeof why), -1);
    assert_non_null(strstr(why, "tri:1: the channel from router 0 to router 2 takes 1 cycle, the one "
                                "from router 0 to router 1 5"));
    /* a link named again takes its last latency (none: 1) */
    write_file("again", "router 0 node 0 router 1 5\nrouter 1 node 1\nrouter 0 router 1\n", spec,
               sizeof spec);
    assert_int_equal(noc_anynet_uniform_latency(spec + 7, &lat, &nodes, why, sizeof why), 0);
    assert_int_equal(lat, 1);
    /* the same latency both ways */
    write_file("three", "router 0 node 0 router 1 3\nrouter 1 node 1 router 0 3\n", spec,
               sizeof spec);
    assert_int_equal(noc_anynet_uniform_latency(spec + 7, &lat, &nodes, why, sizeof why), 0);
    assert_int_equal(lat, 3);
    write_file("half", "router 0 node 0 router 1 3\nrouter 1 node 1\n", spec, sizeof spec);
    assert_int_equal(noc_anynet_uniform_latency(spec + 7, &lat, &nodes, why, sizeof why), -1);
    assert_non_null(strstr(why, "half:1: "));
}

/* Every fault refused, with FILE:LINE (0: the file as a whole). */
static void test_bad_files(void **state)
{
    (void)state;
    char spec[500], err[800];
    static const struct {
        const char *text;
        int line;
        const char *says;
    } bad[] = {
        {"switch 0 node 0\n", 1, "a line starts with \"router\" or \"node\""},
        {"router 0 node 0 router 1\nrouter 1 node 1 router\n", 2, "\"router\" without its number"},
        {"router\n", 1, "without its number"},
        {"router 0 node 0 router x\n", 1, "bad router number \"x\""},
        {"router 0 node -1\n", 1, "bad node number \"-1\""},
        {"router 0 node 0 router 1 0\nrouter 1 node 1\n", 1, "bad latency \"0\""},
        {"router 0 node 0 router 1 65\nrouter 1 node 1\n", 1, "bad latency \"65\""},
        {"router 0 node 0 router 1 fast\nrouter 1 node 1\n", 1, "bad latency \"fast\""},
        {"router 0 node 0 router 1 2 3\nrouter 1 node 1\n", 1, "a second latency"},
        {"router 0 node 0 2 router 1\nrouter 1 node 1\n", 1, "after a node"},
        {"router 0 foo 1\n", 1, "expected \"router\" or \"node\" after \"router 0\""},
        {"router 0 node 0\nrouter 1 node 1 router 1\n", 2, "router 1 linked to itself"},
        {"node 0 node 1\n", 1, "nodes link to routers"},
        {"router 1 node 1 router 0\nnode 0 router 0 4\n", 2, "on a node's line"},
        {"router 0 node 0 router 1\nrouter 1 node 0\n", 2, "node 0 is on router 0 (line 1) and on router 1"},
        {"router 0 node 0 router 2\nrouter 2 node 1\n", 0, "router 1 is missing"},
        {"router 0 node 0 router 1\nrouter 1 node 2\n", 0, "node 1 is missing"},
        {"router 1 node 0 router 2\nrouter 2 node 1\nnode 0 router 1\n", 3,
         "router 0 has no node (BookSim2 makes a router of the number of this line's node)"},
        {"router 0 node 0\nrouter 1 node 1\n", 0, "routers 0 and 1 are not connected"},
        {"router 0 node 0\n", 1, "one router"},
        {"\n  \n", 2, "no routers"},
        {"router 0 router 1\nrouter 1\n", 2, "no nodes"},
        {"router 5000 node 0\n", 1, "at most 4096 routers"},
        {"router 0 node 0 router 11111111111111111111\n", 1, "bad router number \"1111"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32], where[600];
        snprintf(name, sizeof name, "bad%zu", i);
        write_file(name, bad[i].text, spec, sizeof spec);
        assert_null(noc_topo_create(spec, 0, err, sizeof err));
        if (bad[i].line)
            snprintf(where, sizeof where, "%s:%d: ", spec + 7, bad[i].line);
        else
            snprintf(where, sizeof where, "%s: ", spec + 7);
        if (!strstr(err, where) || !strstr(err, bad[i].says))
            print_error("case %zu: \"%s\" (expected %s ... %s)\n", i, err, where, bad[i].says);
        assert_non_null(strstr(err, where));
        assert_non_null(strstr(err, bad[i].says));
    }
    /* not a basis of the swapped fabrics, which are deadlock-free */
    write_file("ring4b", "router 0 node 0 router 1\nrouter 1 node 1 router 2\nrouter 2 node 2 router 0\n",
               spec, sizeof spec);
    char sw[600];
    snprintf(sw, sizeof sw, "bsn:%s", spec);
    assert_null(noc_topo_create(sw, 0, err, sizeof err));
    assert_non_null(strstr(err, "without deadlock avoidance"));
    snprintf(sw, sizeof sw, "otis:%s", spec);
    assert_null(noc_topo_create(sw, 0, err, sizeof err));
    assert_non_null(strstr(err, "without deadlock avoidance"));
    assert_null(noc_topo_create("anynet:", 0, err, sizeof err));
    assert_non_null(strstr(err, "missing file"));
    assert_null(noc_topo_create("anynet:/nonexistent/anynet", 0, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/anynet"));
}

/* Concentration: nodes 0 and 2 on router 0, 1 and 3 on router 1, none on
 * router 2 (a triangle). Routers are the file's, terminals its nodes, on
 * their router's first ports in node order (BookSim2's anynet.cpp adds the
 * injection and ejection channels first, in node order, then the links in
 * router order). */
static void test_concentration(void **state)
{
    (void)state;
    char spec[500];
    write_file("conc", "router 0 node 2 node 0 router 1\nrouter 1 node 3 node 1 router 2\nrouter 2 router 0\n",
               spec, sizeof spec);
    noc_topo_t *t = make(spec);
    const noc_graph_t *g = noc_topo_graph(t);
    assert_int_equal(noc_topo_nodes(t), 3);
    assert_int_equal(noc_topo_terminals(t), 4);
    static const int locals[3] = {2, 2, 0}, degree[3] = {2, 2, 2};
    for (int v = 0; v < 3; v++) {
        assert_int_equal(noc_topo_locals(t, v), locals[v]);
        assert_int_equal(noc_topo_degree(t, v), degree[v]);
    }
    /* terminal -> (router, local port): 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1) */
    static const int at_router[4] = {0, 1, 0, 1}, at_port[4] = {0, 0, 1, 1};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(noc_graph_term_node(g, k), at_router[k]);
        assert_int_equal(noc_graph_term_gport(g, k), t->port_base[at_router[k]] + at_port[k]);
        assert_int_equal(noc_graph_term_at(g, at_router[k], at_port[k]), k);
    }
    /* links after the local ports, in router order: router 0: 1, 2;
     * router 1: 0, 2; router 2 (no node): 0, 1 from port 0 */
    assert_int_equal(far_node(t, 0, 2), 1);
    assert_int_equal(far_node(t, 0, 3), 2);
    assert_int_equal(far_node(t, 1, 2), 0);
    assert_int_equal(far_node(t, 2, 0), 0);
    assert_int_equal(far_node(t, 2, 1), 1);
    noc_route_t r;
    noc_topo_route(t, 0, 0, 3, &r); /* to router 1 */
    assert_int_equal(r.port, 2);
    noc_topo_route(t, 1, 0, 3, &r); /* there: node 3's local port */
    assert_int_equal(r.port, 1);
    noc_topo_route(t, 0, 0, 2, &r);
    assert_int_equal(r.port, 1);
    noc_topo_route(t, 2, 0, 0, &r); /* a router without nodes passes on */
    assert_int_equal(r.port, 0);
    assert_int_equal(noc_topo_route_hops(t, 0, 3), 1);
    assert_int_equal(noc_topo_route_hops(t, 2, 1), 1);
    assert_int_equal(noc_topo_route_hops(t, 0, 2), 0);
    assert_int_equal(noc_topo_find_terminal(t, "t3"), 3);
    assert_int_equal(noc_topo_find_terminal(t, "2"), 2);
    assert_int_equal(noc_topo_find_terminal(t, "4"), -1);
    /* the facts count router 2's links although it has no local port */
    noc_facts_t f;
    char err[300];
    assert_int_equal(noc_facts_compute(t, NULL, &f, err, sizeof err), 0);
    assert_int_equal(f.nodes, 3);
    assert_int_equal(f.links, 3);
    assert_int_equal(f.degree_min, 2);
    assert_int_equal(f.diameter, 1);
    noc_topo_destroy(t);
}

/* examples/anynet/cube8.anynet: a cube (8 nodes, 12 links, degree 3,
 * diameter 3), routes minimal. */
static void test_example(void **state)
{
    (void)state;
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    char spec[600];
    snprintf(spec, sizeof spec, "anynet:%s/examples/anynet/cube8.anynet", src ? src : ".");
    noc_topo_t *t = make(spec);
    expect(spec, measure(t), 8, 12, 3, 3, 3);
    check_routes(spec, t); /* reach, ports, minimal (its channel graph may have cycles) */
    /* node 7 sits on router 3, node 3 on router 7 */
    assert_int_equal(far_node(t, 0, 2), 7);
    assert_int_equal(far_node(t, 7, 3), 3); /* router 3's links: 0, 2, 7 */
    noc_topo_destroy(t);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/noctua_anynet_XXXXXX");
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
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_tie_break),
        cmocka_unit_test(test_node_numbers),
        cmocka_unit_test(test_latencies),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_concentration),
        cmocka_unit_test(test_example),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
