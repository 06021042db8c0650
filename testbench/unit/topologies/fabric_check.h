/* fabric_check.h: shared by the fabric tests (test_fabrics.c,
 * test_fabric_routing.c, test_graphfile.c): an independent BFS over t->peer
 * for node and link counts, degrees and diameters, and a route walker that
 * checks reach, VC classes and minimality and builds the channel dependency
 * graph over (directed link, VC class), checked acyclic by Kahn's algorithm.
 * Include after cmocka.h. Nothing here calls the code under test except
 * noc_topo_create and the routing function being checked. */
#ifndef FABRIC_CHECK_H
#define FABRIC_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topo_internal.h"

static inline noc_topo_t *make_flags(const char *spec, unsigned flags)
{
    char err[600] = "";
    noc_topo_t *t = noc_topo_create(spec, flags, err, sizeof err);
    if (!t)
        print_error("%s: %s\n", spec, err);
    assert_non_null(t);
    return t;
}

static inline noc_topo_t *make(const char *spec) { return make_flags(spec, 0); }

/* ---- independent graph facts ---------------------------------------------- */

typedef struct facts {
    int nodes, links, deg_min, deg_max, diameter;
    int connected;
} facts_t;

/* owner[g]: the node of global port g, from port_base alone */
static inline int *owners(const noc_topo_t *t)
{
    int *owner = malloc((size_t)t->n_ports * sizeof *owner);
    assert_non_null(owner);
    for (int n = 0; n < t->n_nodes; n++)
        for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++)
            owner[g] = n;
    return owner;
}

/* dist from s to every node (n entries) */
static inline void bfs(const noc_topo_t *t, const int *owner, int s, int *dist, int *queue)
{
    int head = 0, tail = 0;
    for (int n = 0; n < t->n_nodes; n++)
        dist[n] = -1;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int n = queue[head++];
        for (int g = t->port_base[n] + 1; g < t->port_base[n + 1]; g++) {
            int m = owner[t->peer[g]];
            if (dist[m] < 0) {
                dist[m] = dist[n] + 1;
                queue[tail++] = m;
            }
        }
    }
}

static inline facts_t measure(const noc_topo_t *t)
{
    facts_t f = {t->n_nodes, 0, 1 << 30, 0, 0, 1};
    int *owner = owners(t);
    int *dist = malloc((size_t)t->n_nodes * sizeof *dist);
    int *queue = malloc((size_t)t->n_nodes * sizeof *queue);
    assert_true(dist && queue);
    for (int n = 0; n < t->n_nodes; n++) {
        int deg = t->port_base[n + 1] - t->port_base[n] - 1;
        f.links += deg;
        if (deg < f.deg_min)
            f.deg_min = deg;
        if (deg > f.deg_max)
            f.deg_max = deg;
        bfs(t, owner, n, dist, queue);
        for (int m = 0; m < t->n_nodes; m++) {
            if (dist[m] < 0)
                f.connected = 0;
            if (dist[m] > f.diameter)
                f.diameter = dist[m];
        }
    }
    f.links /= 2;
    free(owner);
    free(dist);
    free(queue);
    return f;
}

/* Basis facts, by closed forms. */
static inline void expect(const char *spec, facts_t f, int nodes, int links, int dmin, int dmax,
                   int diameter)
{
    if (f.nodes != nodes || f.links != links || f.deg_min != dmin || f.deg_max != dmax ||
        f.diameter != diameter || !f.connected)
        print_error("%s: measured %d nodes, %d links, degree %d..%d, diameter %d%s; "
                    "expected %d, %d, %d..%d, %d\n",
                    spec, f.nodes, f.links, f.deg_min, f.deg_max, f.diameter,
                    f.connected ? "" : " (disconnected)", nodes, links, dmin, dmax, diameter);
    assert_true(f.connected);
    assert_int_equal(f.nodes, nodes);
    assert_int_equal(f.links, links);
    assert_int_equal(f.deg_min, dmin);
    assert_int_equal(f.deg_max, dmax);
    assert_int_equal(f.diameter, diameter);
}

/* BSN: 2n^2 nodes, 2n|E| + n^2 links, degree deg(Ω) + 1, diameter 2D + 2.
 * OTIS: n^2 nodes, n|E| + n(n-1)/2 links, degree deg(Ω) .. deg(Ω) + 1,
 * diameter 2D + 1. */
/* The router through port p of router cur. */
static inline int next_of(const noc_topo_t *t, int cur, int p)
{
    return noc_topo_port_node(t, t->peer[t->port_base[cur] + p]);
}

/* Every SPEC of bad[0 .. n) is refused, its message naming it. */
static inline void expect_refused(const char *const *bad, size_t n)
{
    char err[600];
    for (size_t i = 0; i < n; i++) {
        assert_null(noc_topo_create(bad[i], 0, err, sizeof err));
        assert_non_null(strstr(err, bad[i]));
    }
}

/* ---- routing ------------------------------------------------------------- */

/* Channels (directed link g, VC class c) are g * n_vclasses + c; an edge a
 * -> b: some packet holds a while it asks for b. */
typedef struct cdg {
    int n, n_edges, cap;
    int (*edge)[2];
} cdg_t;

static inline void cdg_add(cdg_t *g, int a, int b)
{
    if (g->n_edges == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 4096;
        g->edge = realloc(g->edge, (size_t)g->cap * sizeof *g->edge);
        assert_non_null(g->edge);
    }
    g->edge[g->n_edges][0] = a;
    g->edge[g->n_edges][1] = b;
    g->n_edges++;
}

/* Kahn's algorithm: 1 if acyclic. */
static inline int cdg_acyclic(const cdg_t *g)
{
    int *indeg = calloc((size_t)g->n, sizeof *indeg);
    int *start = calloc((size_t)g->n + 1, sizeof *start);
    int *fill = calloc((size_t)g->n, sizeof *fill);
    int *adj = malloc((size_t)(g->n_edges ? g->n_edges : 1) * sizeof *adj);
    int *queue = malloc((size_t)(g->n ? g->n : 1) * sizeof *queue);
    int head = 0, tail = 0;
    assert_true(indeg && start && fill && adj && queue);
    for (int e = 0; e < g->n_edges; e++) {
        start[g->edge[e][0] + 1]++;
        indeg[g->edge[e][1]]++;
    }
    for (int v = 0; v < g->n; v++)
        start[v + 1] += start[v];
    for (int e = 0; e < g->n_edges; e++) {
        int a = g->edge[e][0];
        adj[start[a] + fill[a]++] = g->edge[e][1];
    }
    for (int v = 0; v < g->n; v++)
        if (indeg[v] == 0)
            queue[tail++] = v;
    while (head < tail) {
        int v = queue[head++];
        for (int i = start[v]; i < start[v + 1]; i++)
            if (--indeg[adj[i]] == 0)
                queue[tail++] = adj[i];
    }
    free(indeg);
    free(start);
    free(fill);
    free(adj);
    free(queue);
    return tail == g->n;
}

/* Follow every (src, dst) route: reach dst within n hops, valid ports and
 * classes, hop count equal to the BFS distance; record the channel
 * dependencies. Returns 1 if the dependency graph is acyclic. */
static inline int check_routes(const char *spec, const noc_topo_t *t)
{
    int n = t->n_nodes, V = t->n_vclasses;
    int *owner = owners(t);
    int *dist = malloc((size_t)n * sizeof *dist), *queue = malloc((size_t)n * sizeof *queue);
    cdg_t g = {t->n_ports * V, 0, 0, NULL};
    assert_true(dist && queue);
    assert_true(V >= 1 && V <= NOC_TOPO_MAX_CLASSES);
    for (int s = 0; s < n; s++) {
        bfs(t, owner, s, dist, queue);
        for (int d = 0; d < n; d++) {
            noc_route_t r = {99, 99};
            int cur = s, prev = -1, hops = 0;
            for (;;) {
                t->ops->route(t, cur, s, d, &r);
                if (cur == d) {
                    assert_int_equal(r.port, 0);
                    break;
                }
                if (!(r.port >= 1 && r.port <= noc_topo_degree(t, cur) && r.vclass < V))
                    print_error("%s: %d -> %d at %d: port %d class %d\n", spec, s, d, cur,
                                r.port, r.vclass);
                assert_true(r.port >= 1 && r.port <= noc_topo_degree(t, cur));
                assert_true(r.vclass < V);
                int gp = t->port_base[cur] + r.port, ch = gp * V + r.vclass;
                if (prev >= 0)
                    cdg_add(&g, prev, ch);
                prev = ch;
                cur = owner[t->peer[gp]];
                assert_true(++hops <= n);
            }
            if (hops != dist[d])
                print_error("%s: %d -> %d takes %d hops, shortest %d\n", spec, s, d, hops,
                            dist[d]);
            assert_int_equal(hops, dist[d]);
        }
    }
    int ok = cdg_acyclic(&g);
    if (!ok)
        print_error("%s: channel dependency cycle\n", spec);
    free(g.edge);
    free(owner);
    free(dist);
    free(queue);
    return ok;
}


#endif
