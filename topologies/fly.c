/* fly.c: the k-ary n-fly (butterfly), fly:K:N: BookSim2's fly
 * (networks/fly.cpp) with its dest_tag routing; docs/fabrics/fly.md.
 *
 * N stages of K^(N-1) routers of K inputs and K outputs; K^N terminals.
 * Router (stage s, address a) is number s*K^(N-1) + a (BookSim2's). Terminal
 * t injects at stage 0, router t/K, and ejects at stage N-1, router t/K, on
 * port t%K of each: the kernel's terminals with their two ways at two
 * routers (noc_topo_set_terminals_ways). Output p of router (s, a) leads to
 * router (s+1, a with its digit of weight K^(N-2-s) set to p), which takes
 * it on its input numbered by a's old digit there (BookSim2's _InChannel).
 *
 * noctua's links are pairs of channels, one each way; a butterfly's go one
 * way only, so each is built as a pair whose backward channel no route
 * takes. Ports: stage 0: locals 0..K-1 (injection), then the K outputs;
 * stage N-1: locals 0..K-1 (ejection), then the K inputs; the stages
 * between: the K inputs, then the K outputs. A fly:K:1 is one router of K
 * terminals. Routing (dest_tag): at stage s the output is the destination's
 * digit of weight K^(N-1-s), at the last stage its local port t%K; one VC
 * class (every route climbs the stages: no cycle). */
#include "topologies/fabrics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLY_MAX_K 127 /* 2K ports of a middle stage, within a port's 8 bits */
#define FLY_MAX_N 16

typedef struct fly {
    int k, n, per_stage; /* per_stage: K^(N-1) routers in a stage */
} fly_t;

static void fly_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const fly_t *f = t->priv;
    (void)src;
    int stage = cur / f->per_stage, d = dst;
    for (int s = stage; s < f->n - 1; s++)
        d /= f->k;
    r->vclass = 0;
    /* the last stage's local ports come first; elsewhere the outputs follow K ports */
    r->port = (uint8_t)(d % f->k + (stage == f->n - 1 ? 0 : f->k));
}

static void fly_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    const fly_t *f = t->priv;
    snprintf(buf, len, "(%d,%d)", n / f->per_stage, n % f->per_stage);
}

static const noc_topo_ops_t fly_ops = { "fly", fly_route, fly_label, noc_fab_free_priv };

/* "K:N" into f; 0, or -1 with why. */
static int parse(const char *arg, fly_t *f, char *why, size_t whylen)
{
    int rc = noc_fab_read_kn(arg, FLY_MAX_K, FLY_MAX_N, &f->k, &f->n);
    if (rc == -1)
        snprintf(why, whylen, "expected fly:K:N (a K-ary N-fly: N stages of K^(N-1) routers of K x K, "
                              "BookSim2's fly with k = K, n = N; K up to %d, N up to %d)", FLY_MAX_K, FLY_MAX_N);
    else if (rc == -2)
        snprintf(why, whylen, "K >= 2 (ports of a router) and N >= 1 (stages), please");
    else if (rc == -3)
        snprintf(why, whylen, "more than %d terminals or routers", NOC_TOPO_MAX_NODES);
    if (rc != 0)
        return -1;
    f->per_stage = 1;
    for (int i = 1; i < f->n; i++)
        f->per_stage *= f->k;
    return 0;
}

/* Terminals: stage 0's locals inject, stage N-1's eject (one router both
 * ways when N = 1). */
static void set_terminals(noc_topo_t *t, const fly_t *f)
{
    int routers = f->n * f->per_stage, terms = f->per_stage * f->k;
    int *locals = noc_xcalloc((size_t)routers, sizeof *locals, "topology");
    int *list = noc_xcalloc((size_t)terms * 2, sizeof *list, "topology");
    uint8_t *way = noc_xcalloc((size_t)terms * 2, 1, "topology");
    int e = 0;
    for (int v = 0; v < routers; v++) {
        int stage = v / f->per_stage, a = v % f->per_stage;
        if (stage != 0 && stage != f->n - 1)
            continue;
        locals[v] = f->k;
        for (int i = 0; i < f->k; i++, e++) {
            list[e] = a * f->k + i;
            way[e] = (uint8_t)((stage == 0 ? NOC_TOPO_INJECT : 0) | (stage == f->n - 1 ? NOC_TOPO_EJECT : 0));
        }
    }
    noc_topo_set_terminals_ways(t, terms, locals, list, way);
    free(locals);
    free(list);
    free(way);
}

int noc_topo_build_fly(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                       size_t whylen)
{
    (void)kind;
    (void)flags;
    fly_t f;
    if (parse(arg, &f, why, whylen) != 0)
        return -1;
    t->priv = noc_xmalloc(sizeof f, "topology");
    memcpy(t->priv, &f, sizeof f);
    t->ops = &fly_ops;
    int routers = f.n * f.per_stage, K = f.k;
    noc_topo_alloc_nodes(t, routers);
    for (int v = 0; v < routers; v++) /* K locals or inputs, K locals or outputs */
        t->port_base[v + 1] = t->port_base[v] + (f.n == 1 ? K : 2 * K);
    noc_topo_alloc_ports(t);
    set_terminals(t, &f);
    for (int s = 0, w = f.per_stage / K; s + 1 < f.n; s++, w /= K) { /* w: the digit output p sets */
        for (int a = 0; a < f.per_stage; a++) {
            int digit = (a / w) % K;
            for (int p = 0; p < K; p++) {
                int next = a - digit * w + p * w;
                int out = t->port_base[s * f.per_stage + a] + K + p;
                int in = t->port_base[(s + 1) * f.per_stage + next] + (s + 1 == f.n - 1 ? K : 0) + digit;
                t->peer[out] = in;
                t->peer[in] = out;
            }
        }
    }
    t->n_classes = 1;
    memcpy(t->class_name[0], "stage", 6);
    t->n_vclasses = 1;
    t->route_needs_src = 0;
    t->pos = noc_xcalloc((size_t)routers * 2, sizeof *t->pos, "topology");
    for (int v = 0; v < routers; v++) {
        t->pos[2 * v] = (float)(2 * (v / f.per_stage));
        t->pos[2 * v + 1] = (float)(v % f.per_stage);
    }
    return 0;
}
