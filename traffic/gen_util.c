/* gen_util.c: shared pieces of the program generators (gen_util.h). */
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t noc_gen_value(uint64_t seed, int node, int k)
{
    /* splitmix64 of (seed, node, k), folded to [1, 1000] */
    uint64_t z = seed * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)node * UINT64_C(0xbf58476d1ce4e5b9) +
                 (uint64_t)k * UINT64_C(0x94d049bb133111eb) + UINT64_C(0x632be59bd9b4e019);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return (int64_t)(z % 1000) + 1;
}

uint64_t noc_gen_volume_each(const noc_topo_t *t, const noc_gen_args_t *a)
{
    return a->words >= 1 && a->words <= NOC_PROG_MAX_MEM ? (uint64_t)noc_topo_nodes(t) * (uint64_t)a->words : 0;
}

uint64_t noc_gen_volume_twice(const noc_topo_t *t, const noc_gen_args_t *a)
{
    return 2 * noc_gen_volume_each(t, a);
}

int noc_gen_is(const noc_topo_t *t, const char *kind)
{
    return strcmp(noc_topo_kind(t), kind) == 0;
}

int noc_gen_is_grid(const noc_topo_t *t)
{
    return noc_gen_is(t, "mesh") || noc_gen_is(t, "torus") || noc_gen_is(t, "ring");
}

int noc_gen_neighbour(const noc_topo_t *t, int n, int p)
{
    if (p < 1 || p > noc_topo_degree(t, n))
        return -1;
    int g = noc_topo_gport(t, n, p);
    if (noc_topo_peer(t, g) < 0)
        return -1;
    return noc_topo_port_node(t, noc_topo_peer(t, g));
}

void noc_gen_tree_bfs(const noc_topo_t *t, int root, noc_gen_tree_t *tr)
{
    int n = noc_topo_nodes(t);
    tr->n = n;
    tr->parent = noc_xcalloc((size_t)n, sizeof(int), "spanning tree");
    tr->depth = noc_xcalloc((size_t)n, sizeof(int), "spanning tree");
    tr->order = noc_xcalloc((size_t)n, sizeof(int), "spanning tree");
    tr->child_start = noc_xcalloc((size_t)n + 1, sizeof(int), "spanning tree");
    tr->child = noc_xcalloc((size_t)n, sizeof(int), "spanning tree");
    for (int v = 0; v < n; v++)
        tr->depth[v] = -1;
    int head = 0, tail = 0;
    tr->order[tail++] = root;
    tr->depth[root] = 0;
    tr->parent[root] = -1;
    tr->height = 0;
    while (head < tail) {
        int v = tr->order[head++];
        for (int p = 1; p <= noc_topo_degree(t, v); p++) {
            int w = noc_gen_neighbour(t, v, p);
            if (w < 0 || tr->depth[w] >= 0)
                continue;
            tr->depth[w] = tr->depth[v] + 1;
            tr->parent[w] = v;
            if (tr->depth[w] > tr->height)
                tr->height = tr->depth[w];
            tr->order[tail++] = w;
        }
    }
    /* children in BFS order (a parent's children come in its port order) */
    for (int i = 1; i < tail; i++)
        tr->child_start[tr->parent[tr->order[i]] + 1]++;
    for (int v = 0; v < n; v++)
        tr->child_start[v + 1] += tr->child_start[v];
    int *fill = noc_xcalloc((size_t)n, sizeof(int), "spanning tree");
    for (int i = 1; i < tail; i++) {
        int w = tr->order[i], v = tr->parent[w];
        tr->child[tr->child_start[v] + fill[v]++] = w;
    }
    free(fill);
}

void noc_gen_tree_free(noc_gen_tree_t *tr)
{
    free(tr->parent);
    free(tr->depth);
    free(tr->order);
    free(tr->child_start);
    free(tr->child);
    memset(tr, 0, sizeof *tr);
}

/* The children of every node of a forest, in node order: those of v are
 * kids[start[v] .. start[v+1]) (the caller frees both). */
static void children(int n, const int *parent, int **start_out, int **kids_out)
{
    int *start = noc_xcalloc((size_t)n + 1, sizeof(int), "forest");
    int *kids = noc_xcalloc((size_t)n + 1, sizeof(int), "forest");
    int *fill = noc_xcalloc((size_t)n + 1, sizeof(int), "forest");
    for (int v = 0; v < n; v++)
        if (parent[v] >= 0)
            start[parent[v] + 1]++;
    for (int v = 0; v < n; v++)
        start[v + 1] += start[v];
    for (int v = 0; v < n; v++)
        if (parent[v] >= 0)
            kids[start[parent[v]] + fill[parent[v]]++] = v;
    free(fill);
    *start_out = start;
    *kids_out = kids;
}

void noc_gen_forest_step(noc_program_t *p, int n, const int *parent, uint32_t words, int32_t addr,
                         int tag, const char *step, uint32_t *have)
{
    int *start, *kids;
    children(n, parent, &start, &kids);
    for (int v = 0; v < n; v++) {
        if (parent[v] < 0 && start[v] == start[v + 1])
            continue;
        noc_prog_step(p, v, step);
        if (parent[v] >= 0) {
            uint32_t rv = noc_prog_recv(p, v, parent[v], tag, words, addr);
            if (have[v] != NOC_GEN_HAS && have[v] != NOC_GEN_NONE)
                noc_prog_dep(p, rv, have[v], 0);
            have[v] = rv;
        }
        for (int k = start[v]; k < start[v + 1]; k++) {
            uint32_t sd = noc_prog_send(p, v, kids[k], tag, words, addr);
            if (have[v] != NOC_GEN_HAS && have[v] != NOC_GEN_NONE)
                noc_prog_dep(p, sd, have[v], 0);
        }
    }
    free(start);
    free(kids);
}

static int is_op(uint32_t x) { return x != NOC_GEN_HAS && x != NOC_GEN_NONE; }

void noc_gen_forest_reduce(noc_program_t *p, int n, const int *parent, noc_op_kind_t kind,
                           uint32_t words, int32_t addr, int tag, const char *step, uint32_t *last)
{
    int *start, *kids;
    children(n, parent, &start, &kids);
    for (int v = 0; v < n; v++) {
        if (parent[v] < 0 && start[v] == start[v + 1])
            continue;
        noc_prog_step(p, v, step);
        uint32_t prev = last[v];
        for (int k = start[v]; k < start[v + 1]; k++) {
            int32_t land = addr + (int32_t)words * (1 + (k - start[v]));
            uint32_t rv = noc_prog_recv(p, v, kids[k], tag, words, land);
            uint32_t cb = noc_prog_combine(p, v, kind, words, addr, land);
            if (is_op(last[v]))
                noc_prog_dep(p, rv, last[v], 0);
            noc_prog_dep(p, cb, rv, 0);
            if (is_op(prev))
                noc_prog_dep(p, cb, prev, 0);
            prev = cb;
        }
        if (parent[v] >= 0) {
            uint32_t sd = noc_prog_send(p, v, parent[v], tag, words, addr);
            if (is_op(prev))
                noc_prog_dep(p, sd, prev, 0);
            prev = sd;
        }
        last[v] = prev;
    }
    free(start);
    free(kids);
}

noc_program_t *noc_gen_finish(noc_program_t *p, char *err, size_t errlen)
{
    if (noc_prog_finish(p, err, errlen) != 0) {
        noc_prog_free(p);
        return NULL;
    }
    return p;
}

void noc_gen_appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strnlen(buf, len);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}
