/* embed.c: Stout's and Ziavras's embeddings of the pyramid P_n into the
 * hypercube H_2n, and their expansion, dilation and congestion (embed.h).
 * The pyramid generators (gen_pyramid.c) place their ranks with
 * noc_embed_node; the measures walk every pyramid edge along the e-cube
 * routes the hypercube fabric uses (lowest differing bit first). */
#include "traffic/embed.h"
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[NOC_EMBED_KINDS] = { "stout", "ziavras" };

const char *noc_embed_name(noc_embed_kind_t k)
{
    return (unsigned)k < NOC_EMBED_KINDS ? names[k] : "?";
}

noc_embed_kind_t noc_embed_parse(const char *name)
{
    for (int k = 0; k < NOC_EMBED_KINDS; k++)
        if (strcmp(names[k], name) == 0)
            return (noc_embed_kind_t)k;
    return NOC_EMBED_KINDS;
}

static int gray(int i) { return i ^ (i >> 1); }

int noc_embed_node(const noc_embed_t *e, int level, int row, int col)
{
    int rg = gray(row) << level, cg = gray(col) << level;
    if (e->kind == NOC_EMBED_ZIAVRAS && level >= 1)
        cg |= (1 << (level - 1)) - 1; /* the parent beside its children, mirrored */
    if (level >= 1) { /* another pyramid on the same base */
        rg ^= e->copy & 1;
        cg ^= (e->copy >> 1) & 1;
    }
    return e->row_high ? (rg << e->n) | cg : (cg << e->n) | rg;
}

/* ---- walking the pyramid's edges ---- */

typedef void (*edge_fn)(void *ctx, int u, int v);

/* The edges of level k: its mesh edges (lateral = 1), or those to its
 * children (lateral = 0, k >= 1); fn gets their ends' hypercube nodes. */
static void level_edges(const noc_embed_t *e, int k, int lateral, edge_fn fn, void *ctx)
{
    int s = 1 << (e->n - k);
    for (int r = 0; r < s; r++)
        for (int c = 0; c < s; c++) {
            int u = noc_embed_node(e, k, r, c);
            if (lateral) {
                if (c + 1 < s)
                    fn(ctx, u, noc_embed_node(e, k, r, c + 1));
                if (r + 1 < s)
                    fn(ctx, u, noc_embed_node(e, k, r + 1, c));
                continue;
            }
            for (int i = 0; i < 4; i++)
                fn(ctx, u, noc_embed_node(e, k - 1, 2 * r + (i >> 1), 2 * c + (i & 1)));
        }
}

static void longest(void *ctx, int u, int v)
{
    int *d = ctx, h = __builtin_popcount((unsigned)(u ^ v));
    if (h > *d)
        *d = h;
}

/* Directed links as node * dims + bit (the link leaving node across bit). */
typedef struct load {
    int dims;
    uint16_t *count;
    int max;
} load_t;

static void walk(load_t *l, int from, int to)
{
    for (int b = 0, x = from; b < l->dims; b++)
        if (((x ^ to) >> b) & 1) {
            uint16_t *c = &l->count[(size_t)x * (size_t)l->dims + (size_t)b];
            if (*c < UINT16_MAX)
                (*c)++;
            if (*c > l->max)
                l->max = *c;
            x ^= 1 << b;
        }
}

static void both_ways(void *ctx, int u, int v)
{
    walk(ctx, u, v);
    walk(ctx, v, u);
}

static void load_reset(load_t *l)
{
    memset(l->count, 0, ((size_t)1 << l->dims) * (size_t)l->dims * sizeof *l->count);
    l->max = 0;
}

/* Nodes per PE: the most on one PE, and PEs holding two of levels >= 1. */
static void occupancy(const noc_embed_t *e, noc_embed_cost_t *c)
{
    uint8_t *all = noc_xcalloc((size_t)c->cube_nodes, 1, "embedding");
    uint8_t *upper = noc_xcalloc((size_t)c->cube_nodes, 1, "embedding");
    for (int k = 0; k <= e->n; k++)
        for (int r = 0; r < 1 << (e->n - k); r++)
            for (int col = 0; col < 1 << (e->n - k); col++) {
                int x = noc_embed_node(e, k, r, col);
                if (++all[x] > c->load)
                    c->load = all[x];
                if (k >= 1 && ++upper[x] == 2)
                    c->upper_shared++;
            }
    free(all);
    free(upper);
}

int noc_embed_measure(const noc_embed_t *e, noc_embed_cost_t *c)
{
    memset(c, 0, sizeof *c);
    if (e->n < 1 || e->n > NOC_EMBED_MAX_N || (unsigned)e->kind >= NOC_EMBED_KINDS)
        return -1;
    c->cube_nodes = 1 << (2 * e->n);
    c->pyramid_nodes = ((1 << (2 * e->n + 2)) - 1) / 3;
    occupancy(e, c);
    load_t l = { 2 * e->n, NULL, 0 };
    l.count = noc_xcalloc((size_t)c->cube_nodes * (size_t)l.dims, sizeof *l.count, "embedding");
    for (int k = 0; k <= e->n; k++) {
        level_edges(e, k, 1, longest, &c->dilation_lateral);
        if (k == 0)
            continue;
        level_edges(e, k, 0, longest, &c->dilation_level[k]);
        if (c->dilation_level[k] > c->dilation)
            c->dilation = c->dilation_level[k];
        load_reset(&l);
        level_edges(e, k, 0, both_ways, &l);
        c->congestion_level[k] = l.max;
        if (l.max > c->congestion)
            c->congestion = l.max;
        level_edges(e, k - 1, 1, both_ways, &l);
        c->congestion_siblings[k] = l.max;
    }
    if (c->dilation_lateral > c->dilation)
        c->dilation = c->dilation_lateral;
    load_reset(&l);
    for (int k = 0; k <= e->n; k++) {
        level_edges(e, k, 1, both_ways, &l);
        if (k > 0)
            level_edges(e, k, 0, both_ways, &l);
    }
    c->congestion_all = l.max;
    free(l.count);
    return 0;
}

int noc_embed_multilevel(const noc_embed_t *e, const int *m, int levels, int *dil, int *cong)
{
    int top = 0;
    for (int i = 0; i < levels; i++) {
        if (m[i] < 1)
            return -1;
        top += m[i];
    }
    if (e->n < 1 || e->n > NOC_EMBED_MAX_N || (unsigned)e->kind >= NOC_EMBED_KINDS || levels < 1 || top > e->n)
        return -1;
    load_t l = { 2 * e->n, NULL, 0 };
    l.count = noc_xcalloc((size_t)1 << l.dims, (size_t)l.dims * sizeof *l.count, "embedding");
    for (int i = 1, lo = 0; i <= levels; lo += m[i - 1], i++) {
        int hi = lo + m[i - 1], s = 1 << (e->n - hi), w = 1 << m[i - 1];
        dil[i] = 0;
        load_reset(&l);
        for (int r = 0; r < s; r++)
            for (int c = 0; c < s; c++) {
                int u = noc_embed_node(e, hi, r, c);
                for (int a = 0; a < w * w; a++) {
                    int v = noc_embed_node(e, lo, r * w + a / w, c * w + a % w);
                    longest(&dil[i], u, v);
                    both_ways(&l, u, v);
                }
            }
        cong[i] = l.max;
    }
    free(l.count);
    return 0;
}

void noc_embed_facts(const noc_embed_t *e, char *buf, size_t len)
{
    noc_embed_cost_t c;
    if (noc_embed_measure(e, &c) != 0)
        return;
    noc_gen_appendf(buf, len, "embedding = %s\n", noc_embed_name(e->kind));
    noc_gen_appendf(buf, len, "embedded = P_%d (%d nodes) onto H_%d (%d nodes)\n", e->n, c.pyramid_nodes,
            2 * e->n, c.cube_nodes);
    noc_gen_appendf(buf, len, "expansion = %.3f\n", (double)c.cube_nodes / (double)c.pyramid_nodes);
    noc_gen_appendf(buf, len, "load = %d\n", c.load);
    noc_gen_appendf(buf, len, "upper_shared = %d\n", c.upper_shared);
    noc_gen_appendf(buf, len, "dilation = %d\n", c.dilation);
    noc_gen_appendf(buf, len, "dilation_lateral = %d\n", c.dilation_lateral);
    noc_gen_appendf(buf, len, "congestion = %d\n", c.congestion);
    noc_gen_appendf(buf, len, "congestion_all = %d\n", c.congestion_all);
    for (int k = 1; k <= e->n; k++)
        noc_gen_appendf(buf, len, "levels %d-%d = dilation %d, congestion %d (%d with level %d's mesh edges)\n",
                k - 1, k, c.dilation_level[k], c.congestion_level[k], c.congestion_siblings[k], k - 1);
}
