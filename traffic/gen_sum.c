/* gen_sum.c: `data-sum`: every PE ends with the sum of all PEs' words (the
 * semigroup computation).
 *
 * Variants: `auto` (the default) picks the fabric's own algorithm, `tree`
 * the generic one:
 *   hypercube: recursive doubling, one step per dimension (step k: every PE
 *     swaps its partial sum with its neighbour across dimension k and adds);
 *   mesh, torus, ring: dimension by dimension, a reduction along every line
 *     of dimension d toward coordinate 0 and a broadcast back;
 *   BSN: the five steps of Wei & Xiao (gen_bsn.c; variant `paper`
 *     charges Step 5's sum as long as a group data sum, as the paper
 *     counts it: 3 group sums + 2 swaps);
 *   OTIS: group sums and swaps (gen_otis.c);
 *   any other fabric (and `tree`): a reduction up a BFS spanning tree to
 *     the root (--root), then a broadcast down it.
 * Each PE starts with --words W values (from --seed) at address 0 and must
 * end with the W sums there. */
#include "traffic/gen_fabric.h"
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = { "auto", "tree", "paper", NULL };
extern const noc_generator_t noc_gen_data_sum;

static noc_program_t *start(const noc_topo_t *t, const noc_gen_args_t *a)
{
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "data-sum");
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0;
        for (int n = 0; n < noc_topo_nodes(t); n++) {
            int64_t v = noc_gen_value(a->seed, n, k);
            noc_prog_init(p, n, (uint32_t)k, v);
            sum += v;
        }
        for (int n = 0; n < noc_topo_nodes(t); n++)
            noc_prog_expect(p, n, (uint32_t)k, sum);
    }
    return p;
}

static uint32_t *fresh(int n)
{
    uint32_t *last = noc_xcalloc((size_t)n, sizeof(uint32_t), "data-sum");
    for (int v = 0; v < n; v++)
        last[v] = NOC_GEN_HAS;
    return last;
}

/* Reduce over the forest `parent`, then broadcast the roots' results back. */
static void reduce_and_back(noc_program_t *p, int n, const int *parent, uint32_t words,
                            const char *down, const char *up, uint32_t *last)
{
    noc_prog_declare_step(p, down);
    noc_prog_declare_step(p, up);
    noc_gen_forest_reduce(p, n, parent, NOC_OP_ADD, words, 0, 0, down, last);
    noc_gen_forest_step(p, n, parent, words, 0, 1, up, last);
}

static void tree(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, a->root, &tr);
    uint32_t *last = fresh(noc_topo_nodes(t));
    reduce_and_back(p, noc_topo_nodes(t), tr.parent, (uint32_t)a->words, "reduce", "broadcast", last);
    free(last);
    noc_gen_tree_free(&tr);
}

static void hypercube(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    int n = noc_topo_nodes(t);
    uint32_t w = (uint32_t)a->words;
    uint32_t *last = fresh(n);
    for (int k = 0; k < noc_topo_dims(t); k++) {
        char step[16];
        snprintf(step, sizeof step, "dim%d", k);
        noc_prog_declare_step(p, step);
        for (int v = 0; v < n; v++) {
            noc_prog_step(p, v, step);
            int u = v ^ (1 << k);
            uint32_t sd = noc_prog_send(p, v, u, k, w, 0);
            uint32_t rv = noc_prog_recv(p, v, u, k, w, (int32_t)w);
            uint32_t add = noc_prog_combine(p, v, NOC_OP_ADD, w, 0, (int32_t)w);
            if (last[v] != NOC_GEN_HAS) {
                noc_prog_dep(p, sd, last[v], 0);
                noc_prog_dep(p, rv, last[v], 0);
            }
            noc_prog_dep(p, add, rv, 0);
            noc_prog_dep(p, add, sd, 1); /* the send has copied the partial sum */
            last[v] = add;
        }
    }
    free(last);
}

static void grid(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    int n = noc_topo_nodes(t);
    int *parent = noc_xcalloc((size_t)n, sizeof(int), "data-sum");
    uint32_t *last = fresh(n);
    for (int d = 0; d < noc_topo_dims(t); d++) {
        int k = noc_topo_k(t, d);
        for (int v = 0; v < n; v++) {
            /* toward coordinate 0 along d, the shorter way round a ring */
            int c = noc_topo_coord(t, v, d), dir = -1;
            if (c == 0) {
                parent[v] = -1;
                continue;
            }
            if (noc_topo_wrap(t) && k - c < c)
                dir = +1;
            int c2 = (c + dir + k) % k;
            parent[v] = v + (c2 - c) * noc_topo_stride(t, d);
        }
        char down[24], up[24];
        snprintf(down, sizeof down, "dim%d-reduce", d);
        snprintf(up, sizeof up, "dim%d-back", d);
        reduce_and_back(p, n, parent, (uint32_t)a->words, down, up, last);
    }
    free(parent);
    free(last);
}

static noc_program_t *make(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    const char *v = noc_gen_variant(&noc_gen_data_sum, a, err, errlen);
    if (!v)
        return NULL;
    int own = strcmp(v, "auto") == 0;
    if (strcmp(v, "paper") == 0 && !noc_gen_is(t, "bsn")) {
        snprintf(err, errlen, "data-sum: variant paper (Step 5's sum charged as a group data sum) is for BSNs, not %s",
                 noc_topo_spec(t));
        return NULL;
    }
    if ((own || strcmp(v, "paper") == 0) && noc_gen_is(t, "bsn"))
        return noc_gen_bsn_data_sum(t, a, err, errlen);
    if (own && noc_gen_is(t, "otis"))
        return noc_gen_otis_data_sum(t, a, err, errlen);
    noc_program_t *p = start(t, a);
    if (own && noc_gen_is(t, "hypercube"))
        hypercube(p, t, a);
    else if (own && noc_gen_is_grid(t))
        grid(p, t, a);
    else
        tree(p, t, a);
    return noc_gen_finish(p, err, errlen);
}

const noc_generator_t noc_gen_data_sum = {
    .name = "data-sum",
    .summary = "every PE ends with the sum of all PEs' words",
    .args_help = "  --words W      words per PE, summed word by word (default 1)\n"
                 "  --root LABEL   the tree's root (variant tree and fabrics without their own)\n"
                 "  --seed S       the data values\n"
                 "  variants: auto (hypercube: recursive doubling; mesh, torus, ring: reduce and\n"
                 "            broadcast along each dimension; BSN: the paper's five steps; OTIS:\n"
                 "            group sums and swaps; others: BFS tree), tree, paper (BSN: Step 5's\n"
                 "            sum charged as a third group data sum, as the paper counts)\n",
    .variants = variants,
    .make = make,
    .volume = noc_gen_volume_twice, /* every PE starts with W words and expects W */
};
