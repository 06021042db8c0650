/* qtree.c: the K-ary tree qtree:K:N, BookSim2's qtree (networks/qtree.cpp,
 * which asserts K = 4, N = 3) with its nca routing (routefunc.cpp,
 * qtree_nca); docs/fabrics/trees.md.
 *
 * N levels, level h (0 the root) of K^h routers; router (h, pos) is number
 * K^0 + .. + K^(h-1) + pos (BookSim2's _RouterIndex). The leaves (level
 * N-1) hold the K^N terminals, terminal t on leaf t/K at local port t%K.
 * Ports, in BookSim2's order: K down ports (a leaf's: its terminals), then
 * one up port, K, except at the root. Down port j of (h, pos) leads to
 * (h+1, K*pos + j), at its up port.
 *
 * Routing (BookSim2's qtree_nca): a router whose subtree holds the
 * destination sends the packet down the port of the destination's branch,
 * any other up: one path, up then down, one VC class. */
#include "topologies/fabrics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QT_MAX_K 62 /* K + 1 ports, at most 63 (model/sim_internal.h) */
#define QT_MAX_N 16

typedef struct qtree {
    int k, n;
    int pow[QT_MAX_N + 1];   /* K^i */
    int first[QT_MAX_N + 1]; /* the number of level h's first router */
} qtree_t;

static int level_of(const qtree_t *q, int v)
{
    int h = 0;
    while (h + 1 < q->n && v >= q->first[h + 1])
        h++;
    return h;
}

static void qt_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const qtree_t *q = t->priv;
    (void)src;
    int h = level_of(q, cur), pos = cur - q->first[h];
    int a = dst / q->pow[q->n - 1 - h]; /* the destination's router (terminal at a leaf) a level below */
    r->vclass = 0;
    r->port = (uint8_t)(pos == a / q->k ? a % q->k : q->k);
}

static void qt_label(const noc_topo_t *t, int v, char *buf, size_t len)
{
    const qtree_t *q = t->priv;
    int h = level_of(q, v);
    snprintf(buf, len, "(%d,%d)", h, v - q->first[h]);
}

static const noc_topo_ops_t qt_ops = { "qtree", qt_route, qt_label, noc_fab_free_priv };

/* "K:N" into q; 0, or -1 with why. */
static int parse(const char *arg, qtree_t *q, char *why, size_t whylen)
{
    int rc = arg ? noc_fab_read_kn(arg, QT_MAX_K, QT_MAX_N, &q->k, &q->n) : -1;
    if (rc == -1)
        snprintf(why, whylen, "expected qtree:K:N (a K-ary tree: N levels, K^h routers at level h, K down ports and "
                              "one up port each, K terminals on each leaf, K^N in all; BookSim2's qtree is "
                              "qtree:4:3; K up to %d, N up to %d)", QT_MAX_K, QT_MAX_N);
    else if (rc == -2)
        snprintf(why, whylen, "K >= 2 (children of a router) and N >= 1 (levels), please");
    else if (rc == -3)
        snprintf(why, whylen, "more than %d terminals or routers", NOC_TOPO_MAX_NODES);
    if (rc != 0)
        return -1;
    q->pow[0] = 1;
    q->first[0] = 0;
    for (int i = 1; i <= q->n; i++) {
        q->pow[i] = q->pow[i - 1] * q->k;
        q->first[i] = q->first[i - 1] + q->pow[i - 1];
    }
    return 0;
}

int noc_topo_build_qtree(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                         size_t whylen)
{
    (void)kind;
    (void)flags;
    qtree_t q;
    if (parse(arg, &q, why, whylen) != 0)
        return -1;
    t->priv = noc_xmalloc(sizeof q, "topology");
    memcpy(t->priv, &q, sizeof q);
    t->ops = &qt_ops;
    int K = q.k, routers = q.first[q.n], leaves = q.first[q.n - 1];
    noc_topo_alloc_nodes(t, routers);
    for (int v = 0; v < routers; v++) /* the root has no up port */
        t->port_base[v + 1] = t->port_base[v] + (v == 0 ? K : K + 1);
    noc_topo_alloc_ports(t);
    int terms = q.pow[q.n];
    int *locals = noc_xcalloc((size_t)routers, sizeof *locals, "topology");
    int *list = noc_xcalloc((size_t)terms, sizeof *list, "topology");
    for (int e = 0; e < terms; e++)
        list[e] = e;
    for (int v = leaves; v < routers; v++)
        locals[v] = K;
    noc_topo_set_terminals(t, terms, locals, list);
    free(locals);
    free(list);
    for (int h = 0; h + 1 < q.n; h++)
        for (int pos = 0; pos < q.pow[h]; pos++)
            for (int j = 0; j < K; j++) {
                int down = t->port_base[q.first[h] + pos] + j;
                int up = t->port_base[q.first[h + 1] + K * pos + j] + K;
                t->peer[down] = up;
                t->peer[up] = down;
            }
    t->n_classes = 1;
    memcpy(t->class_name[0], "tree", 5);
    t->n_vclasses = 1;
    /* drawing: level h on row h, the leaves evenly spread, a parent above
     * the middle of its children */
    t->pos = noc_xcalloc((size_t)routers * 2, sizeof *t->pos, "topology");
    for (int h = q.n - 1; h >= 0; h--)
        for (int pos = 0; pos < q.pow[h]; pos++) {
            int v = q.first[h] + pos;
            float x = (float)(2 * pos);
            if (h + 1 < q.n) {
                int c0 = q.first[h + 1] + K * pos;
                x = (t->pos[2 * c0] + t->pos[2 * (c0 + K - 1)]) / 2.0f;
            }
            t->pos[2 * v] = x;
            t->pos[2 * v + 1] = (float)(3 * h);
        }
    return 0;
}
