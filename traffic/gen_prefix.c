/* gen_prefix.c: `prefix-sum`: PE i ends with the sum of the values of PEs
 * 0 .. i (inclusive prefix, in node order: row-major on meshes and tori,
 * the bit-string value on hypercubes).
 *   hypercube: the standard algorithm (Grama et al. 4.3): per dimension k,
 *     swap the running total with the neighbour across k; both add it to
 *     their total, and the upper one also to its prefix;
 *   mesh, torus, ring (one or two dimensions): a prefix along every row
 *     (a chain along dimension 0), a prefix of the row totals down the last
 *     column (a chain along dimension 1), and each row's offset sent back
 *     along the row and added;
 *   BSN: the eight-step algorithm of the BSN paper (traffic/gen_bsn.c);
 *   OTIS: the same on OTIS's one part, six steps (traffic/gen_otis.c).
 * Every PE has W words (--words W, a vector), summed element-wise. Memory,
 * in slots of W words (slot k at words k*W .. k*W+W-1): 0 the value, then
 * the result; 1 landing area; 2 the offset; 3 a running total. */
#include "traffic/gen_fabric.h"
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const noc_generator_t noc_gen_prefix_sum;

static noc_program_t *start(const noc_topo_t *t, const noc_gen_args_t *a)
{
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "prefix-sum");
    for (int k = 0; k < a->words; k++) {
        int64_t run = 0;
        for (int n = 0; n < noc_topo_nodes(t); n++) {
            int64_t v = noc_gen_value(a->seed, n, k);
            run += v;
            noc_prog_init(p, n, (uint32_t)k, v);
            noc_prog_expect(p, n, (uint32_t)k, run);
        }
    }
    return p;
}

/* Where slot k (a W-word vector) starts in memory. */
static int32_t slot(int k, uint32_t w) { return (int32_t)((uint32_t)k * w); }

static void hypercube(noc_program_t *p, const noc_topo_t *t, uint32_t w)
{
    int n = noc_topo_nodes(t);
    /* 0: prefix, 3: running total (starts as the value), 1: landing */
    uint32_t *last = noc_xcalloc((size_t)n, sizeof(uint32_t), "prefix-sum");
    for (int k = 0; k < noc_topo_dims(t); k++) {
        char step[16];
        snprintf(step, sizeof step, "dim%d", k);
        noc_prog_declare_step(p, step);
    }
    for (int v = 0; v < n; v++) {
        noc_prog_step(p, v, "dim0");
        last[v] = noc_prog_combine(p, v, NOC_OP_COPY, w, slot(3, w), 0);
        for (int k = 0; k < noc_topo_dims(t); k++) {
            char step[16];
            snprintf(step, sizeof step, "dim%d", k);
            noc_prog_step(p, v, step);
            int u = v ^ (1 << k);
            uint32_t sd = noc_prog_send(p, v, u, k, w, slot(3, w));
            uint32_t rv = noc_prog_recv(p, v, u, k, w, slot(1, w));
            noc_prog_dep(p, sd, last[v], 0);
            noc_prog_dep(p, rv, last[v], 0);
            uint32_t tot = noc_prog_combine(p, v, NOC_OP_ADD, w, slot(3, w), slot(1, w));
            noc_prog_dep(p, tot, rv, 0);
            noc_prog_dep(p, tot, sd, 1); /* the send copied the old total */
            last[v] = tot;
            if (u < v) {
                uint32_t pre = noc_prog_combine(p, v, NOC_OP_ADD, w, 0, slot(1, w));
                noc_prog_dep(p, pre, rv, 0);
                noc_prog_dep(p, tot, pre, 0); /* keep the landing word until both read it */
            }
        }
    }
    free(last);
}

/* One or two dimensions: rows along dimension 0, the column along 1. */
static void grid(noc_program_t *p, const noc_topo_t *t, uint32_t w)
{
    int n = noc_topo_nodes(t), kx = noc_topo_k(t, 0), ky = noc_topo_dims(t) > 1 ? noc_topo_k(t, 1) : 1;
    noc_prog_declare_step(p, "rows");
    noc_prog_declare_step(p, "column");
    noc_prog_declare_step(p, "offsets");
    for (int v = 0; v < n; v++) {
        int x = noc_topo_coord(t, v, 0), y = noc_topo_dims(t) > 1 ? noc_topo_coord(t, v, 1) : 0;
        /* rows: the prefix along the row (word 0), from the left */
        noc_prog_step(p, v, "rows");
        uint32_t row = NOC_GEN_HAS; /* the op that last wrote word 0 */
        uint32_t row_send = NOC_GEN_NONE;
        if (x > 0) {
            uint32_t rv = noc_prog_recv(p, v, v - 1, 0, w, slot(1, w));
            row = noc_prog_combine(p, v, NOC_OP_ADD, w, 0, slot(1, w));
            noc_prog_dep(p, row, rv, 0);
        }
        if (x < kx - 1) {
            row_send = noc_prog_send(p, v, v + 1, 0, w, 0);
            if (row != NOC_GEN_HAS)
                noc_prog_dep(p, row_send, row, 0);
        }
        if (ky == 1 || (y == 0 && x < kx - 1))
            continue; /* no offset to add */
        uint32_t off; /* the op after which word 2 holds the row's offset */
        if (x == kx - 1) {
            /* column: the prefix of the row totals above (word 2); pass on
             * offset + own total (word 3) */
            noc_prog_step(p, v, "column");
            off = y > 0 ? noc_prog_recv(p, v, v - kx, 1, w, slot(2, w)) : NOC_GEN_NONE;
            if (y < ky - 1) {
                uint32_t cp = noc_prog_combine(p, v, NOC_OP_COPY, w, slot(3, w), 0);
                if (row != NOC_GEN_HAS)
                    noc_prog_dep(p, cp, row, 0);
                uint32_t last = cp;
                if (off != NOC_GEN_NONE) {
                    last = noc_prog_combine(p, v, NOC_OP_ADD, w, slot(3, w), slot(2, w));
                    noc_prog_dep(p, last, cp, 0);
                    noc_prog_dep(p, last, off, 0);
                }
                uint32_t sd = noc_prog_send(p, v, v + kx, 1, w, slot(3, w));
                noc_prog_dep(p, sd, last, 0);
            }
            if (y == 0)
                continue;
            noc_prog_step(p, v, "offsets");
        } else {
            noc_prog_step(p, v, "offsets");
            off = noc_prog_recv(p, v, v + 1, 2, w, slot(2, w));
        }
        /* offsets: add the row's offset; pass it on to the left */
        uint32_t mine = noc_prog_combine(p, v, NOC_OP_ADD, w, 0, slot(2, w));
        noc_prog_dep(p, mine, off, 0);
        if (row != NOC_GEN_HAS)
            noc_prog_dep(p, mine, row, 0);
        if (row_send != NOC_GEN_NONE)
            noc_prog_dep(p, mine, row_send, 1); /* the row send has read word 0 */
        if (x > 0) {
            uint32_t sd = noc_prog_send(p, v, v - 1, 2, w, slot(2, w));
            noc_prog_dep(p, sd, off, 0);
        }
    }
}

static noc_program_t *make(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    if (!noc_gen_variant(&noc_gen_prefix_sum, a, err, errlen))
        return NULL;
    if (noc_gen_is(t, "bsn"))
        return noc_gen_bsn_prefix_sum(t, a, err, errlen);
    if (noc_gen_is(t, "otis"))
        return noc_gen_otis_prefix_sum(t, a, err, errlen);
    if (a->words < 1 || a->words > NOC_PROG_MAX_MEM / 4) {
        snprintf(err, errlen, "prefix-sum: --words %d out of range (1 .. %d words per PE)", a->words,
                 NOC_PROG_MAX_MEM / 4);
        return NULL;
    }
    noc_program_t *p = start(t, a);
    if (noc_gen_is(t, "hypercube"))
        hypercube(p, t, (uint32_t)a->words);
    else if (noc_gen_is_grid(t) && noc_topo_dims(t) <= 2)
        grid(p, t, (uint32_t)a->words);
    else {
        noc_prog_free(p);
        snprintf(err, errlen, "prefix-sum runs on hypercubes, one- and two-dimensional meshes and tori, "
                 "rings, BSNs and OTIS networks, not on %s", noc_topo_spec(t));
        return NULL;
    }
    return noc_gen_finish(p, err, errlen);
}

const noc_generator_t noc_gen_prefix_sum = {
    .name = "prefix-sum",
    .summary = "PE i ends with the sum of the values of PEs 0..i (node order)",
    .args_help = "  --words W      words per PE, a vector summed element-wise (default 1)\n"
                 "  --seed S       the data values\n"
                 "  fabrics: hypercube (by dimension), mesh/torus/ring in one or two dimensions\n"
                 "           (rows, then the last column, then the offsets), bsn (the paper's 8 steps),\n"
                 "           otis (the same on one part: 6 steps)\n",
    .variants = NULL,
    .make = make,
};
