/* gen_broadcast.c: `broadcast`: the root's words reach every PE.
 *
 * Variants: `auto` (the default) picks the fabric's own algorithm, `tree`
 * the generic one:
 *   hypercube: the spanning binomial tree, one step per dimension (step k:
 *     every PE that holds the words sends them across dimension k);
 *   mesh, torus, ring: dimension by dimension (step d: along dimension d,
 *     from the line through every PE that holds the words, each PE passing
 *     them on away from it; on a torus both ways round, the far half from
 *     the other side);
 *   BSN: the four steps of Wei & Xiao (gen_bsn.c), 2*D(basis) + 2 cycles;
 *   OTIS: within the group, across, within the group (gen_otis.c);
 *   any other fabric (and `tree`): a BFS spanning tree from the root,
 *     every PE forwarding to all its children at once.
 * Words: --words W (default 1) at address 0; the root's values come from
 * --seed. Every PE must end with the root's words at address 0. */
#include "traffic/gen_fabric.h"
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = { "auto", "tree", NULL };
extern const noc_generator_t noc_gen_broadcast;

/* The program with the root's data and everyone's expected result. */
static noc_program_t *start(const noc_topo_t *t, const noc_gen_args_t *a, const char *name)
{
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), name);
    for (int k = 0; k < a->words; k++) {
        int64_t v = noc_gen_value(a->seed, a->root, k);
        noc_prog_init(p, a->root, (uint32_t)k, v);
        for (int n = 0; n < noc_topo_nodes(t); n++)
            noc_prog_expect(p, n, (uint32_t)k, v);
    }
    return p;
}

static void tree(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, a->root, &tr);
    uint32_t *have = noc_xcalloc((size_t)noc_topo_nodes(t), sizeof(uint32_t), "broadcast");
    for (int n = 0; n < noc_topo_nodes(t); n++)
        have[n] = n == a->root ? NOC_GEN_HAS : NOC_GEN_NONE;
    noc_gen_forest_step(p, noc_topo_nodes(t), tr.parent, (uint32_t)a->words, 0, 0, "tree", have);
    free(have);
    noc_gen_tree_free(&tr);
}

static void hypercube(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    int n = noc_topo_nodes(t);
    int *parent = noc_xcalloc((size_t)n, sizeof(int), "broadcast");
    uint32_t *have = noc_xcalloc((size_t)n, sizeof(uint32_t), "broadcast");
    for (int v = 0; v < n; v++)
        have[v] = v == a->root ? NOC_GEN_HAS : NOC_GEN_NONE;
    for (int k = 0; k < noc_topo_dims(t); k++) {
        char step[16];
        snprintf(step, sizeof step, "dim%d", k);
        for (int v = 0; v < n; v++) {
            int rel = v ^ a->root;
            parent[v] = (rel >> k) == 1 ? v ^ (1 << k) : -1; /* highest bit of rel is k */
        }
        noc_gen_forest_step(p, n, parent, (uint32_t)a->words, 0, 0, step, have);
    }
    free(parent);
    free(have);
}

/* Coordinate d of node v, and the node one step from v along d (dir +1 or
 * -1, wrapping on tori). */
static int along(const noc_topo_t *t, int v, int d, int dir)
{
    int c = noc_topo_coord(t, v, d), k = noc_topo_k(t, d);
    int c2 = (c + dir + k) % k;
    return v + (c2 - c) * noc_topo_stride(t, d);
}

/* Parent of v in a line broadcast along d from coordinate c0: the neighbour
 * one step closer to c0 (on a ring, the way round that is shorter from c0,
 * ties going up). */
static int line_parent(const noc_topo_t *t, int v, int d, int c0)
{
    int c = noc_topo_coord(t, v, d), k = noc_topo_k(t, d);
    if (c == c0)
        return -1;
    if (!noc_topo_wrap(t))
        return along(t, v, d, c > c0 ? -1 : +1);
    int up = (c - c0 + k) % k; /* distance going up from c0 */
    return along(t, v, d, up <= k - up ? -1 : +1);
}

static void grid(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    int n = noc_topo_nodes(t);
    int *parent = noc_xcalloc((size_t)n, sizeof(int), "broadcast");
    uint32_t *have = noc_xcalloc((size_t)n, sizeof(uint32_t), "broadcast");
    for (int v = 0; v < n; v++)
        have[v] = v == a->root ? NOC_GEN_HAS : NOC_GEN_NONE;
    for (int d = 0; d < noc_topo_dims(t); d++) {
        char step[16];
        snprintf(step, sizeof step, "dim%d", d);
        for (int v = 0; v < n; v++) {
            /* v takes part if its coordinates above d are the root's */
            int in = 1;
            for (int e = d + 1; e < noc_topo_dims(t); e++)
                in &= noc_topo_coord(t, v, e) == noc_topo_coord(t, a->root, e);
            parent[v] = in ? line_parent(t, v, d, noc_topo_coord(t, a->root, d)) : -1;
        }
        noc_gen_forest_step(p, n, parent, (uint32_t)a->words, 0, 0, step, have);
    }
    free(parent);
    free(have);
}

static noc_program_t *make(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    const char *v = noc_gen_variant(&noc_gen_broadcast, a, err, errlen);
    if (!v)
        return NULL;
    int own = strcmp(v, "auto") == 0;
    if (own && noc_gen_is(t, "bsn"))
        return noc_gen_bsn_broadcast(t, a, err, errlen);
    if (own && noc_gen_is(t, "otis"))
        return noc_gen_otis_broadcast(t, a, err, errlen);
    noc_program_t *p = start(t, a, "broadcast");
    if (own && noc_gen_is(t, "hypercube"))
        hypercube(p, t, a);
    else if (own && noc_gen_is_grid(t))
        grid(p, t, a);
    else
        tree(p, t, a);
    return noc_gen_finish(p, err, errlen);
}

const noc_generator_t noc_gen_broadcast = {
    .name = "broadcast",
    .summary = "the root's words reach every PE",
    .args_help = "  --root LABEL   the root (default node 0)\n"
                 "  --words W      words to broadcast (default 1)\n"
                 "  --seed S       the root's data values\n"
                 "  variants: auto (hypercube: binomial tree by dimension; mesh, torus, ring:\n"
                 "            dimension by dimension; BSN: the paper's four steps; OTIS: group,\n"
                 "            swap, group; others: BFS tree), tree (BFS tree anywhere)\n",
    .variants = variants,
    .make = make,
    .volume = noc_gen_volume_each, /* every PE expects the W words */
};
