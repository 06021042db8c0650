/* fattree.c: the k-ary n-tree, fattree:K:N: BookSim2's fattree
 * (networks/fattree.cpp) with its nca routing; docs/fabrics/fattree.md.
 *
 * N levels of K^(N-1) routers, level 0 at the top; router (level l,
 * position p) is number l*K^(N-1) + p (BookSim2's). The leaves (level N-1)
 * hold the K^N terminals, terminal t on leaf t/K at local port t%K. Ports:
 * a leaf's K locals then K up ports; a middle router's K down ports then K
 * up ports; a top router's K down ports. Down port j of router (l, p)
 * leads to router (l+1, q) = (l+1, b*R + j*B + p%B) at its up port K +
 * (p%R)/B, where R = K^(N-1-l) routers share a subtree at level l, B =
 * K^(N-2-l), b = p/R (BookSim2's channel numbering of both ends, which pairs
 * every output with the input from the same neighbour: one two-way link).
 *
 * Routing (BookSim2's nca): toward the nearest common ancestor, then down.
 * A router whose subtree holds the destination sends the packet down the
 * port of the destination's branch (at a leaf: its local port); any other
 * sends it up a port drawn at random, uniformly over the K, independently
 * at every router: BookSim2 draws at every routing step; here the draw is
 * a fixed function of the packet's random word and the router (graph.h's
 * route_rand), so that a packet's route is the same wherever it is worked
 * out. Up then down: no cycle, one VC class. Every draw gives a route of
 * the same length, 2 (N-1-l) for a common ancestor at level l.
 *
 * With NOC_TOPO_F_ANCA (routing_function = anca, BookSim2's anca_fattree):
 * going up, two up ports are drawn (independently, from the packet's word
 * and the router) and the router keeps the one whose output has fewer
 * flits sent and not credited back, the first on a tie (its route set's
 * pick, BookSim2's GetUsedCredit); down as nca. */
#include "topologies/fabrics.h"
#include "model/rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_MAX_K 31 /* 2K ports, at most 63 (model/sim_internal.h) */
#define FT_MAX_N 16

typedef struct ftree {
    int k, n, per_level; /* per_level: K^(N-1) routers in a level */
    int pow[FT_MAX_N + 1]; /* K^i */
} ftree_t;

static void ft_route_rand(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const ftree_t *f = t->priv;
    (void)src;
    (void)hops;
    int level = cur / f->per_level, pos = cur % f->per_level;
    int cover = f->pow[f->n - level], first = pos / f->pow[f->n - 1 - level] * cover;
    r->vclass = 0;
    if (dst >= first && dst < first + cover) /* down: a leaf's local ports are its first */
        r->port = (uint8_t)(level == f->n - 1 ? dst % f->k : (dst - first) / f->pow[f->n - 1 - level]);
    else
        r->port = (uint8_t)(f->k + (int)(noc_rng_mix((uint64_t)salt << 32 | (uint32_t)cur) % (uint64_t)f->k));
}

/* anca: the candidates; the router picks the less used up port. */
static void ft_route_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V, int in_vc,
                         noc_route_set_t *rs)
{
    const noc_topo_t *t = ctx;
    const ftree_t *f = t->priv;
    noc_route_t r;
    (void)in_vc;
    ft_route_rand(ctx, cur, src, dst, salt, hops, &r);
    rs->n = 1;
    rs->pick = 0;
    rs->pick_bit = 0;
    rs->c[0] = (noc_route_cand_t){ r.port, 0, (uint8_t)V, 0, 0 };
    if (r.port >= f->k) { /* up: the first draw is nca's, a second apart */
        uint64_t key = ((uint64_t)salt << 32 | (uint32_t)cur) ^ 0x9e3779b97f4a7c15ull;
        rs->c[1] = (noc_route_cand_t){ (uint8_t)(f->k + (int)(noc_rng_mix(key) % (uint64_t)f->k)), 0, (uint8_t)V, 0, 0 };
        rs->n = 2;
        rs->pick = 1;
    }
}

static void ft_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    ft_route_rand(ctx, cur, src, dst, 0, 0, r);
}

static void ft_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    const ftree_t *f = t->priv;
    snprintf(buf, len, "(%d,%d)", n / f->per_level, n % f->per_level);
}

static const noc_topo_ops_t ft_ops = { "fattree", ft_route, ft_label, noc_fab_free_priv };

/* "K:N" into f; 0, or -1 with why. */
static int parse(const char *arg, ftree_t *f, char *why, size_t whylen)
{
    int rc = noc_fab_read_kn(arg, FT_MAX_K, FT_MAX_N, &f->k, &f->n);
    if (rc == -1)
        snprintf(why, whylen, "expected fattree:K:N (a K-ary N-tree: N levels of K^(N-1) routers, K down and K "
                              "up ports each, K^N terminals; BookSim2's fattree with k = K, n = N; K up to %d, N "
                              "up to %d)", FT_MAX_K, FT_MAX_N);
    else if (rc == -2)
        snprintf(why, whylen, "K >= 2 (down ports of a router) and N >= 1 (levels), please");
    else if (rc == -3)
        snprintf(why, whylen, "more than %d terminals or routers", NOC_TOPO_MAX_NODES);
    if (rc != 0)
        return -1;
    f->pow[0] = 1;
    for (int i = 1; i <= f->n; i++)
        f->pow[i] = f->pow[i - 1] * f->k;
    f->per_level = f->pow[f->n - 1];
    return 0;
}

/* The leaves' terminals: K on each, in order. */
static void set_terminals(noc_topo_t *t, const ftree_t *f)
{
    int routers = f->n * f->per_level, terms = f->per_level * f->k;
    int *locals = noc_xcalloc((size_t)routers, sizeof *locals, "topology");
    int *list = noc_xcalloc((size_t)terms, sizeof *list, "topology");
    for (int v = (f->n - 1) * f->per_level, e = 0; v < routers; v++)
        for (int i = 0; i < f->k; i++, e++) {
            locals[v] = f->k;
            list[e] = e;
        }
    noc_topo_set_terminals(t, terms, locals, list);
    free(locals);
    free(list);
}

int noc_topo_build_fattree(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                           size_t whylen)
{
    (void)kind;
    ftree_t f;
    if (parse(arg, &f, why, whylen) != 0)
        return -1;
    t->priv = noc_xmalloc(sizeof f, "topology");
    memcpy(t->priv, &f, sizeof f);
    t->ops = &ft_ops;
    int routers = f.n * f.per_level, K = f.k;
    noc_topo_alloc_nodes(t, routers);
    for (int v = 0; v < routers; v++) /* the top level has no up ports */
        t->port_base[v + 1] = t->port_base[v] + (v < f.per_level ? K : 2 * K);
    noc_topo_alloc_ports(t);
    set_terminals(t, &f);
    for (int l = 0; l + 1 < f.n; l++) {
        int R = f.pow[f.n - 1 - l], B = f.pow[f.n - 2 - l];
        for (int p = 0; p < f.per_level; p++)
            for (int j = 0; j < K; j++) {
                int q = p / R * R + j * B + p % B;
                int down = t->port_base[l * f.per_level + p] + j;
                int up = t->port_base[(l + 1) * f.per_level + q] + K + p % R / B;
                t->peer[down] = up;
                t->peer[up] = down;
            }
    }
    t->n_classes = 1;
    memcpy(t->class_name[0], "tree", 5);
    t->n_vclasses = 1;
    t->route_needs_src = 1; /* the salt */
    t->route_rand = ft_route_rand;
    if (flags & NOC_TOPO_F_ANCA)
        t->route_set = ft_route_set;
    /* drawing: level l on row l, a router's K children below it */
    t->pos = noc_xcalloc((size_t)routers * 2, sizeof *t->pos, "topology");
    for (int v = 0; v < routers; v++) {
        t->pos[2 * v] = (float)(2 * (v % f.per_level));
        t->pos[2 * v + 1] = (float)(3 * (v / f.per_level));
    }
    return 0;
}
