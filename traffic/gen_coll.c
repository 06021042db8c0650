/* gen_coll.c: generic collectives for any fabric, each PE talking to the
 * others directly through the fabric's routing:
 *   alltoall:  PE i sends its W-word block j (at address j*W) to PE j, and
 *              ends with block i of every PE j at address j*W (its own
 *              stays in place);
 *   allgather: PE i's W words (at address i*W) reach every PE, at i*W;
 *   allreduce: every PE ends with the combination (variant add, min or
 *              max) of all PEs' W words at address 0: a reduction up a BFS
 *              spanning tree from --root and a broadcast back down.
 * In alltoall and allgather PE i sends to i+1, i+2, ... (mod p) in turn,
 * so that no PE is everyone's first destination. One step ("exchange"),
 * or two for allreduce ("reduce", "broadcast"). */
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const noc_generator_t noc_gen_alltoall, noc_gen_allgather, noc_gen_allreduce;

/* Block k of PE i's data for PE j (alltoall) or its own (allgather). */
static int64_t block_value(const noc_gen_args_t *a, int i, int j, int k)
{
    return noc_gen_value(a->seed, i, j * a->words + k);
}

static noc_program_t *exchange(const noc_topo_t *t, const noc_gen_args_t *a, int personal,
                               char *err, size_t errlen)
{
    int n = noc_topo_nodes(t);
    uint32_t w = (uint32_t)a->words;
    if ((uint64_t)n * w > NOC_PROG_MAX_MEM / 2) {
        snprintf(err, errlen, "%s: %d PEs x %u words do not fit a PE's memory",
                 personal ? "alltoall" : "allgather", n, w);
        return NULL;
    }
    noc_program_t *p = noc_prog_new(n, personal ? "alltoall" : "allgather");
    noc_prog_declare_step(p, "exchange");
    /* alltoall: PE i's outgoing blocks at j*w, incoming ones at (n + j)*w */
    for (int i = 0; i < n; i++) {
        noc_prog_step(p, i, "exchange");
        for (int j = 0; j < n; j++)
            for (uint32_t k = 0; k < w; k++) {
                uint32_t at = (uint32_t)j * w + k;
                if (personal) {
                    noc_prog_init(p, i, at, block_value(a, i, j, (int)k));
                    noc_prog_expect(p, i, (uint32_t)(n + j) * w + k,
                                    j == i ? 0 : block_value(a, j, i, (int)k));
                } else {
                    if (j == i)
                        noc_prog_init(p, i, at, block_value(a, i, i, (int)k));
                    noc_prog_expect(p, i, at, block_value(a, j, j, (int)k));
                }
            }
        for (int d = 1; d < n; d++) {
            int j = (i + d) % n, from = (i - d + n) % n;
            noc_prog_send(p, i, j, 0, w, (int32_t)((uint32_t)(personal ? j : i) * w));
            noc_prog_recv(p, i, from, 0, w, (int32_t)((uint32_t)(personal ? n + from : from) * w));
        }
    }
    return noc_gen_finish(p, err, errlen);
}

static noc_program_t *make_alltoall(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    if (!noc_gen_variant(&noc_gen_alltoall, a, err, errlen))
        return NULL;
    return exchange(t, a, 1, err, errlen);
}

static noc_program_t *make_allgather(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    if (!noc_gen_variant(&noc_gen_allgather, a, err, errlen))
        return NULL;
    return exchange(t, a, 0, err, errlen);
}

static const char *const reduce_ops[] = { "add", "min", "max", NULL };

static noc_program_t *make_allreduce(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    const char *v = noc_gen_variant(&noc_gen_allreduce, a, err, errlen);
    if (!v)
        return NULL;
    noc_op_kind_t kind = strcmp(v, "min") == 0 ? NOC_OP_MIN : strcmp(v, "max") == 0 ? NOC_OP_MAX : NOC_OP_ADD;
    int n = noc_topo_nodes(t);
    uint32_t w = (uint32_t)a->words;
    noc_program_t *p = noc_prog_new(n, "allreduce");
    for (uint32_t k = 0; k < w; k++) {
        int64_t acc = 0;
        for (int i = 0; i < n; i++) {
            int64_t x = noc_gen_value(a->seed, i, (int)k);
            noc_prog_init(p, i, k, x);
            if (i == 0)
                acc = x;
            else
                acc = kind == NOC_OP_ADD ? acc + x : kind == NOC_OP_MIN ? (x < acc ? x : acc) : (x > acc ? x : acc);
        }
        for (int i = 0; i < n; i++)
            noc_prog_expect(p, i, k, acc);
    }
    noc_prog_declare_step(p, "reduce");
    noc_prog_declare_step(p, "broadcast");
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, a->root, &tr);
    uint32_t *last = noc_xcalloc((size_t)n, sizeof(uint32_t), "allreduce");
    for (int i = 0; i < n; i++)
        last[i] = NOC_GEN_HAS;
    noc_gen_forest_reduce(p, n, tr.parent, kind, w, 0, 0, "reduce", last);
    noc_gen_forest_step(p, n, tr.parent, w, 0, 1, "broadcast", last);
    free(last);
    noc_gen_tree_free(&tr);
    return noc_gen_finish(p, err, errlen);
}

/* alltoall, allgather: every PE expects a block of W words from each
 * other PE, p (p - 1) W values, and starts with its own block (allgather:
 * p W values) or one for each other PE (alltoall: p (p - 1) W); 0 for
 * sizes exchange refuses. */
static uint64_t volume(int personal, const noc_topo_t *t, const noc_gen_args_t *a)
{
    uint64_t n = (uint64_t)noc_topo_nodes(t), w = a->words > 0 ? (uint64_t)a->words : 0;
    return w && n * w <= NOC_PROG_MAX_MEM / 2 ? n * (n - 1) * w + (personal ? n * (n - 1) * w : n * w) : 0;
}

static uint64_t volume_alltoall(const noc_topo_t *t, const noc_gen_args_t *a) { return volume(1, t, a); }
static uint64_t volume_allgather(const noc_topo_t *t, const noc_gen_args_t *a) { return volume(0, t, a); }

const noc_generator_t noc_gen_alltoall = {
    .name = "alltoall",
    .summary = "every PE sends a distinct block to every other PE (personalised all-to-all)",
    .args_help = "  --words W      words per block (default 1)\n"
                 "  --seed S       the data values\n"
                 "  any fabric: each PE sends straight to the others, PE i to i+1, i+2, ... in turn\n",
    .make = make_alltoall,
    .volume = volume_alltoall,
};

const noc_generator_t noc_gen_allgather = {
    .name = "allgather",
    .summary = "every PE's block reaches every PE",
    .args_help = "  --words W      words per PE (default 1)\n"
                 "  --seed S       the data values\n"
                 "  any fabric: each PE sends its block straight to the others, to i+1, i+2, ... in turn\n",
    .make = make_allgather,
    .volume = volume_allgather,
};

const noc_generator_t noc_gen_allreduce = {
    .name = "allreduce",
    .summary = "every PE ends with the combination of all PEs' words (add, min or max)",
    .args_help = "  --words W      words per PE, combined word by word (default 1)\n"
                 "  --root LABEL   the root of the spanning tree (default node 0)\n"
                 "  --seed S       the data values\n"
                 "  variants: add (default), min, max; any fabric: reduce up a BFS tree, broadcast down\n",
    .variants = reduce_ops,
    .make = make_allreduce,
    .volume = noc_gen_volume_twice, /* every PE starts with W words and expects W */
};
