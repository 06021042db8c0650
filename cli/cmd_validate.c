/* cmd_validate.c: `noctua validate [--markdown] [--only PROGRAM]`: runs
 * every validation case (a program on a fabric under a timing) in-process,
 * next to the count the papers' formula (or the algorithm's structure)
 * gives, computed from the fabric (diameters by BFS, degrees), and prints
 * the table that docs/validation.md holds. Exit status 1 if a case that
 * must agree does not. */
#include "cli/cli.h"
#include "cli/options.h"
#include "routers/registry.h"
#include "model/pe.h"
#include "traffic/gen.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { T_ROUTER = NOC_TIMING_ROUTER, T_UNIT = NOC_TIMING_UNIT, T_UNIT_SYNC = NOC_TIMING_UNIT_SYNC,
       T_COST = 100, /* unit, sync steps, link_latency 2: examples/ziavras_cost.ini */
       T_COST_PIPE /* the same without step barriers (multiple levels active) */ };
enum { R_EQ, R_LE, R_GT, R_INFO }; /* measured == formula, <= formula, > formula, just shown */
/* what is measured: cycles, the most flits on one link, cycles per word
 * ((cycles(2W) - cycles(W)) / W), or one step's messages or cycles (its
 * last op's end minus its first op's start): the steps of the
 * tarkov-planned scatter, step_metric[] below */
enum { M_CYCLES, M_LINK, M_PERIOD, M_SP_MESSAGES, M_SP_CYCLES, M_PP_MESSAGES, M_FP_MESSAGES, M_LOAD_CYCLES };
static const struct { const char *step; int messages; } step_metric[] = {
    [M_SP_MESSAGES] = { "plan-sp", 1 }, [M_SP_CYCLES] = { "plan-sp", 0 }, [M_PP_MESSAGES] = { "plan-pp", 1 },
    [M_FP_MESSAGES] = { "plan-fp", 1 }, [M_LOAD_CYCLES] = { "scatter", 0 },
};

typedef struct vcase {
    const char *program, *spec, *variant;
    int root, words;
    int64_t q;
    int timing;
    int relation;
    int metric;
    const char *formula;       /* as the paper writes it (or the structure gives it) */
    int64_t (*value)(const noc_topo_t *t, const struct vcase *c); /* the formula's value here */
    const char *source;
} vcase_t;

/* ---- the formulas' ingredients ---- */

static int ecc(const noc_topo_t *t, int v)
{
    int e = 0;
    for (int w = 0; w < noc_topo_nodes(t); w++) {
        int d = noc_topo_distance(t, v, w);
        if (d > e)
            e = d;
    }
    return e;
}

static int diameter(const noc_topo_t *t)
{
    int d = 0;
    for (int v = 0; v < noc_topo_nodes(t); v++) {
        int e = ecc(t, v);
        if (e > d)
            d = e;
    }
    return d;
}

static int64_t f_dims(const noc_topo_t *t, const vcase_t *c) { (void)c; return noc_topo_dims(t); }
static int64_t f_two_dims(const noc_topo_t *t, const vcase_t *c) { (void)c; return 2 * noc_topo_dims(t); }
static int64_t f_diameter(const noc_topo_t *t, const vcase_t *c) { (void)c; return diameter(t); }

/* dimension-wise broadcast: the sum over the dimensions of the farthest
 * coordinate from the root's along that line */
static int64_t f_line_radii(const noc_topo_t *t, const vcase_t *c)
{
    int64_t sum = 0;
    for (int d = 0; d < noc_topo_dims(t); d++) {
        int k = noc_topo_k(t, d), x = (c->root / noc_topo_stride(t, d)) % k;
        sum += noc_topo_wrap(t) ? k / 2 : (x > k - 1 - x ? x : k - 1 - x);
    }
    return sum;
}

static int64_t f_scatter(const noc_topo_t *t, const vcase_t *c)
{
    int deg = noc_topo_degree(t, c->root);
    return ((int64_t)noc_topo_nodes(t) - 1 + deg - 1) / deg * c->words;
}
static int64_t f_one(const noc_topo_t *t, const vcase_t *c) { (void)t; (void)c; return 1; }
static int64_t f_three(const noc_topo_t *t, const vcase_t *c) { (void)t; (void)c; return 3; }
static int64_t f_levels(const noc_topo_t *t, const vcase_t *c) { (void)c; return noc_topo_levels(t) - 1; }
static int64_t f_ziavras_bcast(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 3 * (noc_topo_dims(t) / 2) - 1; }

/* Gray-code shift, forward phases only: a phase per set bit of q, two
 * steps each but one for the 1-shift (Grama et al., Figure 4.23) */
static int64_t f_gray_forward(const noc_topo_t *t, const vcase_t *c)
{
    (void)t;
    int64_t steps = 0;
    for (int j = 0; j < 62; j++)
        if (c->q >> j & 1)
            steps += j ? 2 : 1;
    return steps;
}

/* ... with forward and backward phases: the least cost of q = sum e_j 2^j
 * mod p, e_j in {-1, 0, +1}, over all 3^d such forms (docs/algorithms/shift.md) */
static int64_t f_gray_mix(const noc_topo_t *t, const vcase_t *c)
{
    int d = noc_topo_dims(t), n = 1;
    int64_t p = (int64_t)1 << d, best = INT64_MAX;
    for (int j = 0; j < d; j++)
        n *= 3;
    for (int code = 0; code < n; code++) {
        int64_t sum = 0, cost = 0;
        for (int j = 0, k = code; j < d; j++, k /= 3) {
            sum += (int64_t)(k % 3 - 1) * ((int64_t)1 << j);
            cost += k % 3 == 1 ? 0 : j ? 2 : 1;
        }
        if (((sum - c->q) % p + p) % p == 0 && cost < best)
            best = cost;
    }
    return best;
}

static int64_t f_bsn_2d2(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 2 * diameter(noc_topo_basis(t)) + 2; }
static int64_t f_bsn_3d2(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 3 * diameter(noc_topo_basis(t)) + 2; }
/* hypercube prefix sum of W-word vectors: a copy, then per dimension an
 * exchange and two adds, W cycles each (compute_cycles = 1 a word) */
static int64_t f_cube_prefix(const noc_topo_t *t, const vcase_t *c)
{ return (int64_t)c->words * (3 * noc_topo_dims(t) + 1); }
static int64_t f_seven(const noc_topo_t *t, const vcase_t *c) { (void)t; (void)c; return 7; }
static int64_t f_array_prefix(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 4 * noc_topo_nodes(noc_topo_basis(t)) - 1; }
static int64_t f_otis_bcast(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 4 * noc_topo_k(noc_topo_basis(t), 0) - 3; }
static int64_t f_otis_prefix(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 8 * noc_topo_k(noc_topo_basis(t), 0) - 6; }
static int64_t f_otis_prefix_ours(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 6 * noc_topo_k(noc_topo_basis(t), 0) - 4; }
static int64_t f_otis_sum(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 8 * noc_topo_k(noc_topo_basis(t), 0) - 7; }

/* Ziavras, Table 1 (perimeter counting, one level active), read as
 * store-and-forward: the load (2), then per level the farthest child's D
 * hops of setup 1 + transmit 2 + setup 1 and an add (1): 2 + sum of
 * (4 D_k + 1); n = the cube's dimension / 2 (docs/algorithms/pyramid.md) */
static int64_t pyr_n(const noc_topo_t *t) { return noc_topo_dims(t) / 2; }
static int64_t f_table1_stout(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 2 + 9 * pyr_n(t); }
static int64_t f_table1_new(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 2 + 13 * pyr_n(t); }
static int64_t f_sf_new(const noc_topo_t *t, const vcase_t *c)
{ (void)c; return 2 + 9 + 13 * (pyr_n(t) - 1); }
/* pipelined (-pipe): the busiest PE's processor time per object */
static int64_t f_pipe_stout(const noc_topo_t *t, const vcase_t *c) { (void)c; return 2 + 6 * pyr_n(t); }
static int64_t f_pipe_new(const noc_topo_t *t, const vcase_t *c) { (void)c; return 4 * pyr_n(t) + 4; }
static int64_t f_eight(const noc_topo_t *t, const vcase_t *c) { (void)t; (void)c; return 8; }
/* Tarkov's planning phases (tarkov-planned): SP sends one message on
 * every arc of the fabric and ends one cycle after the farthest node's
 * first mark; PP and FP send one message on every arc of G(SP), the arcs
 * u -> w with dist(w) = dist(u) + 1 (distinct neighbours: two ports to one
 * node are one arc) */
static int64_t plan_arcs(const noc_topo_t *t, const vcase_t *c, int sp_only)
{
    int64_t arcs = 0;
    for (int v = 0; v < noc_topo_nodes(t); v++)
        for (int w = 0; w < noc_topo_nodes(t); w++)
            if (w != v && noc_topo_distance(t, v, w) == 1 &&
                (!sp_only || noc_topo_distance(t, c->root, w) == noc_topo_distance(t, c->root, v) + 1))
                arcs++;
    return arcs;
}
static int64_t f_all_arcs(const noc_topo_t *t, const vcase_t *c) { return plan_arcs(t, c, 0); }
static int64_t f_sp_arcs(const noc_topo_t *t, const vcase_t *c) { return plan_arcs(t, c, 1); }
static int64_t f_ecc_plus_one(const noc_topo_t *t, const vcase_t *c) { return ecc(t, c->root) + 1; }

static const vcase_t cases[] = {
    /* generic algorithms: what their structure gives */
    { "broadcast", "hypercube:6", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "d (one dimension a step)", f_dims,
      "binomial spanning tree" },
    { "broadcast", "torus:8x8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "sum of floor(k_i/2)", f_line_radii,
      "dimension by dimension" },
    { "broadcast", "mesh:8x8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "sum of (k_i - 1) from a corner",
      f_line_radii, "dimension by dimension" },
    { "broadcast", "mesh:8x8", NULL, 27, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "sum of the line radii from (3,3)",
      f_line_radii, "dimension by dimension" },
    { "broadcast", "bsn:ring:8", "tree", 0, 1, 0, T_UNIT, R_EQ, M_CYCLES, "diameter", f_diameter,
      "BFS spanning tree (its root's eccentricity is the BSN's diameter)" },
    { "data-sum", "hypercube:6", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "2d (d exchanges, d additions)",
      f_two_dims, "recursive doubling" },
    /* Wei & Xiao: the biswapped network (Table 4), and OTIS beside it */
    { "broadcast", "bsn:ring:8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "2D(basis)+2", f_bsn_2d2,
      "000, Table 1" },
    { "broadcast", "bsn:ring:8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "the BSN's diameter", f_diameter,
      "000: optimal" },
    { "broadcast", "bsn:mesh:4x4", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "2D(basis)+2", f_bsn_2d2,
      "000, Table 1" },
    { "broadcast", "bsn:complete:4", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "4 (2D(basis)+2)", f_bsn_2d2,
      "000, Table 4" },
    { "data-sum", "bsn:complete:4", "paper", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "5 = 3D(basis)+2 (3 sums + 2 swaps)",
      f_bsn_3d2, "000, Table 3 and 4" },
    { "data-sum", "bsn:mesh:8", "paper", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "3n-1 = 3D(basis)+2 (array basis)",
      f_bsn_3d2, "000, Table 4" },
    { "data-sum", "bsn:mesh:4x4", "paper", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "6m-4 = 3D(basis)+2 (mesh basis)",
      f_bsn_3d2, "000, Table 4" },
    { "data-sum", "bsn:complete:4", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES,
      "2D(basis)+2 (Step 5 a local add)", f_bsn_2d2, "000, Table 3 (docs/algorithms/bsn.md)" },
    { "prefix-sum", "hypercube:4", NULL, 0, 2, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "W(3d+1) (copy; exchange, 2 adds a dim)",
      f_cube_prefix, "by dimension, W-word vectors" },
    { "prefix-sum", "bsn:mesh:8", NULL, 0, 1, 0, T_UNIT_SYNC, R_LE, M_CYCLES, "at most 4n-1 (array basis)",
      f_array_prefix, "000, Table 4" },
    { "prefix-sum", "bsn:complete:4", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "7", f_seven,
      "000, Table 4" },
    { "broadcast", "otis:mesh:4x4", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "4m-3 (OTIS-Mesh)", f_otis_bcast,
      "000, Table 4, after [6]" },
    { "prefix-sum", "otis:mesh:4x4", NULL, 0, 1, 0, T_UNIT_SYNC, R_LE, M_CYCLES, "at most 8m-6 (OTIS-Mesh)",
      f_otis_prefix, "000, Table 4, after [6]" },
    { "prefix-sum", "otis:mesh:4x4", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES,
      "6m-4 (Table 2 on one part: 3 group ops + 2)", f_otis_prefix_ours, "000, Table 2 on OTIS (docs/algorithms/bsn.md)" },
    { "data-sum", "otis:mesh:4x4", NULL, 0, 1, 0, T_UNIT_SYNC, R_LE, M_CYCLES, "at most 8m-7 (OTIS-Mesh)",
      f_otis_sum, "000, Table 4, after [6]" },
    /* Tarkov & Tsarenko: data array input */
    { "scatter", "torus:8x8", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "ceil((N-1)/4)", f_scatter,
      "001, eq. (2), torus" },
    { "scatter", "torus:16x16", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "ceil((N-1)/4)", f_scatter,
      "001, eq. (2), torus" },
    { "scatter", "circulant:41:4,5", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "ceil((N-1)/4)", f_scatter,
      "001, optimal circulant" },
    { "scatter", "torus:8x8", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_SP_MESSAGES,
      "2|E| (an SP message on every arc)", f_all_arcs, "001, section 3" },
    { "scatter", "torus:8x8", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_SP_CYCLES,
      "ecc(root) + 1 (first marks in lockstep)", f_ecc_plus_one, "001, section 3" },
    { "scatter", "torus:8x8", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_PP_MESSAGES,
      "arcs of G(SP) (a PP message up each)", f_sp_arcs, "001, section 4" },
    { "scatter", "torus:8x8", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_FP_MESSAGES,
      "arcs of G(SP) (an FP message down each)", f_sp_arcs, "001, section 5" },
    { "scatter", "torus:8x8", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_LOAD_CYCLES,
      "ceil((N-1)/4) (the loading after the plan)", f_scatter, "001" },
    { "scatter", "circulant:41:4,5", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_SP_MESSAGES,
      "2|E| (an SP message on every arc)", f_all_arcs, "001, section 3" },
    { "scatter", "circulant:41:4,5", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_SP_CYCLES,
      "ecc(root) + 1 (first marks in lockstep)", f_ecc_plus_one, "001, section 3" },
    { "scatter", "circulant:41:4,5", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_PP_MESSAGES,
      "arcs of G(SP) (a PP message up each)", f_sp_arcs, "001, section 4" },
    { "scatter", "circulant:41:4,5", "tarkov-planned", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_LOAD_CYCLES,
      "ceil((N-1)/4) (the loading after the plan)", f_scatter, "001" },
    { "scatter", "torus:8x8", "naive", 0, 1, 0, T_UNIT_SYNC, R_GT, M_CYCLES, "more than ceil((N-1)/4)", f_scatter,
      "001: the direct scatter is slower" },
    /* Grama et al. 4.6: circular shift */
    { "shift", "torus:4x4", "rowcol", 0, 1, 5, T_UNIT_SYNC, R_EQ, M_CYCLES, "3 unit shifts (Fig. 4.22)", f_three,
      "002, wraparound mesh" },
    { "shift", "hypercube:3", "gray", 0, 1, 5, T_UNIT_SYNC, R_EQ, M_CYCLES, "3 steps (Fig. 4.23)", f_three,
      "002, hypercube, Gray code" },
    { "shift", "hypercube:3", "gray-forward", 0, 1, 6, T_UNIT_SYNC, R_EQ, M_CYCLES,
      "2 a set bit of q, 1 for bit 0 (forward only)", f_gray_forward, "002, Gray code, Eq. 4.11: 2 log p - 1" },
    { "shift", "hypercube:3", "gray", 0, 1, 6, T_UNIT_SYNC, R_EQ, M_CYCLES,
      "1 backward 2-shift (cheapest mix of +-2^j)", f_gray_mix, "002, Gray code, forward and backward" },
    { "shift", "hypercube:5", "gray", 0, 1, 27, T_UNIT_SYNC, R_EQ, M_CYCLES,
      "cheapest mix of +-2^j (-4-1)", f_gray_mix, "002, Gray code, forward and backward" },
    { "shift", "hypercube:5", "gray", 0, 1, 11, T_UNIT_SYNC, R_LE, M_CYCLES,
      "at most log p (mixed shifts)", f_dims, "002, Gray code, forward and backward" },
    { "shift", "hypercube:4", "ecube", 0, 1, 5, T_UNIT_SYNC, R_EQ, M_LINK, "1 message a link (congestion-free)",
      f_one, "002, E-cube routing" },
    { "shift", "hypercube:5", "ecube", 0, 1, 11, T_UNIT_SYNC, R_EQ, M_LINK, "1 message a link (congestion-free)",
      f_one, "002, E-cube routing" },
    /* Ziavras: pyramids and their embeddings */
    { "pyramid-broadcast", "pyramid:3", NULL, 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "N (a level a cycle)", f_levels,
      "003, on the pyramid" },
    { "pyramid-broadcast", "hypercube:6", "stout", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES, "2N (dilation 2)",
      f_dims, "003, Stout's embedding (2N = the cube's dimension)" },
    { "pyramid-broadcast", "hypercube:6", "ziavras", 0, 1, 0, T_UNIT_SYNC, R_EQ, M_CYCLES,
      "3N - 1 (dilation 2 at the base, 3 above)", f_ziavras_bcast, "003, the new embedding" },
    { "pyramid-sum", "hypercube:6", "stout-lockstep", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 9n (Table 1: 1 + 9n = 28)", f_table1_stout, "003, Table 1, Stout, store-and-forward" },
    { "pyramid-sum", "hypercube:8", "stout-lockstep", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 9n (Table 1: 1 + 9n = 37)", f_table1_stout, "003, Table 1, Stout, store-and-forward" },
    { "pyramid-sum", "hypercube:10", "stout-lockstep", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 9n (Table 1: 1 + 9n = 46)", f_table1_stout, "003, Table 1, Stout, store-and-forward" },
    { "pyramid-sum", "hypercube:6", "ziavras-lockstep", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 13n (Table 1: 1 + 13n = 40)", f_table1_new, "003, Table 1, new, dilation 3 every level" },
    { "pyramid-sum", "hypercube:8", "ziavras-lockstep", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 13n (Table 1: 1 + 13n = 53)", f_table1_new, "003, Table 1, new, dilation 3 every level" },
    { "pyramid-sum", "hypercube:10", "ziavras-lockstep", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 13n (Table 1: 1 + 13n = 66)", f_table1_new, "003, Table 1, new, dilation 3 every level" },
    { "pyramid-sum", "hypercube:6", "ziavras-sf", 0, 1, 0, T_COST, R_EQ, M_CYCLES,
      "2 + 9 + 13(n - 1) (dilation 2 at level 1)", f_sf_new, "003, the new mapping as claimed, store-and-forward" },
    { "pyramid-sum", "hypercube:6", "stout-pipe", 0, 16, 0, T_COST_PIPE, R_EQ, M_PERIOD,
      "2 + 6n (PE 0: a node of every level)", f_pipe_stout, "003, Table 1, multiple levels active (paper: none)" },
    { "pyramid-sum", "hypercube:6", "ziavras-pipe", 0, 16, 0, T_COST_PIPE, R_EQ, M_PERIOD,
      "4n + 4 (the apex's PE, relaying; paper: 14)", f_pipe_new, "003, Table 1, multiple levels active" },
    { "pyramid-sum", "pyramid:3", "direct-pipe", 0, 16, 0, T_COST_PIPE, R_EQ, M_PERIOD,
      "8 (a parent: 4 receptions, 3 adds, 1 send)", f_eight, "003, multiple levels active, on the pyramid" },
};

typedef struct outcome {
    int ok;
    uint64_t cycles;
    char err[512];
} outcome_t;

static outcome_t run_one(const vcase_t *c, const noc_topo_t *t);

/* M_PERIOD: (cycles with 2W words - cycles with W) / W; else one run. */
/* A step's messages or cycles (step_metric[c->metric]); o->ok = 0 if
 * the program has no such step. */
static uint64_t step_measure(const noc_pe_stats_t *st, const vcase_t *c, outcome_t *o)
{
    const char *step = step_metric[c->metric].step;
    for (int i = 0; i < st->n_steps; i++)
        if (st->steps[i].name && strcmp(st->steps[i].name, step) == 0)
            return step_metric[c->metric].messages ? st->steps[i].messages
                                                   : st->steps[i].last_end - st->steps[i].first_start;
    o->ok = 0;
    snprintf(o->err, sizeof o->err, "no step %s", step);
    return 0;
}

static outcome_t run_case(const vcase_t *c, const noc_topo_t *t)
{
    if (c->metric != M_PERIOD)
        return run_one(c, t);
    vcase_t twice = *c;
    twice.words = 2 * c->words;
    outcome_t a = run_one(c, t), b = run_one(&twice, t);
    if (!a.ok)
        return a;
    if (!b.ok)
        return b;
    b.cycles = (b.cycles - a.cycles) / (uint64_t)c->words;
    return b;
}

static outcome_t run_one(const vcase_t *c, const noc_topo_t *t)
{
    outcome_t o = { 0 };
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    int cost = c->timing == T_COST || c->timing == T_COST_PIPE;
    noc_config_timing(&cfg, c->timing == T_COST ? T_UNIT_SYNC : c->timing == T_COST_PIPE ? T_UNIT : c->timing);
    if (cost) { /* the paper's cost model: transmit 2; the ops carry the rest */
        cfg.link_latency = 2;
        cfg.compute_cycles = 1;
    }
    const noc_generator_t *g = noc_gen_find(c->program);
    if (!g) {
        snprintf(o.err, sizeof o.err, "no program %s", c->program);
        return o;
    }
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.root = c->root;
    a.words = c->words;
    a.q = c->q;
    a.variant = c->variant;
    noc_program_t *p = g->make(t, &a, o.err, sizeof o.err);
    if (!p)
        return o;
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, o.err, sizeof o.err);
    if (s && noc_pe_attach(s, p, o.err, sizeof o.err) == 0) {
        noc_run_status_t st = noc_pe_run(s);
        o.ok = st == NOC_RUN_OK && noc_pe_finished(noc_sim_pe(s), o.err, sizeof o.err) == 0 &&
               noc_pe_check(s, o.err, sizeof o.err) == 0;
        if (st != NOC_RUN_OK)
            snprintf(o.err, sizeof o.err, "the run stopped (status %d)", (int)st);
        o.cycles = noc_pe_stats(noc_sim_pe(s))->cycles;
        if (c->metric == M_LINK) {
            /* the most flits one network link carried, over the words of a
             * message: how many messages shared it */
            uint64_t most = 0;
            for (int ch = 0; ch < noc_sim_n_channels(s); ch++) {
                int from, to, local, cls;
                noc_sim_channel_ends(s, ch, &from, &to, &local, &cls);
                if (!local && noc_sim_link_stats(s, ch)->flits > most)
                    most = noc_sim_link_stats(s, ch)->flits;
            }
            o.cycles = (most + (uint64_t)c->words - 1) / (uint64_t)c->words;
        }
        if (c->metric >= M_SP_MESSAGES)
            o.cycles = step_measure(noc_pe_stats(noc_sim_pe(s)), c, &o);
    }
    noc_sim_destroy(s);
    noc_prog_free(p);
    return o;
}

static const char *timing_name(int t)
{
    return t == T_UNIT_SYNC ? "unit, sync steps" : t == T_UNIT ? "unit" : t == T_COST ? "cost model, sync steps"
           : t == T_COST_PIPE ? "cost model" : "vc router";
}

enum { O_MARKDOWN, O_ONLY, O_HELP };
static const noc_opt_t validate_opts[] = {
    [O_MARKDOWN] = { "markdown", 0, NULL, "the table as Markdown (docs/validation.md's)" },
    [O_ONLY] = { "only", 0, "PROGRAM", "only the cases of PROGRAM (broadcast, prefix-sum, ...)" },
    [O_HELP] = { "help", 'h', NULL, "this text" },
    { NULL, 0, NULL, NULL },
};

/* The command line: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, int *markdown, const char **only)
{
    noc_opts_t p;
    noc_opts_init(&p, "validate", validate_opts, argc, argv);
    int k;
    while ((k = noc_opts_next(&p)) >= 0) {
        if (k == O_MARKDOWN) {
            *markdown = 1;
        } else if (k == O_ONLY) {
            *only = p.value;
        } else {
            printf("usage: noctua validate [--markdown] [--only PROGRAM]\n\n"
                   "Runs every validation case (docs/validation.md): each program on its fabric\n"
                   "and timing, next to the count the formula gives. Exit status 1 if a case\n"
                   "that must agree (=, <=) does not.\n\n");
            noc_opts_usage(stdout, validate_opts);
            return NOC_EXIT_OK;
        }
    }
    if (k == -2)
        return NOC_EXIT_USAGE;
    if (p.next_positional < argc) {
        fprintf(stderr, "noctua validate: unknown argument '%s'\n", argv[p.next_positional]);
        return NOC_EXIT_USAGE;
    }
    if (*only && !noc_gen_find(*only)) {
        fprintf(stderr, "noctua validate: --only %s: no such program (noctua run --program list)\n", *only);
        return NOC_EXIT_USAGE;
    }
    return -1;
}

int noc_cmd_validate(int argc, char **argv)
{
    int markdown = 0;
    const char *only = NULL;
    int arc = parse_args(argc, argv, &markdown, &only);
    if (arc >= 0)
        return arc;
    if (markdown)
        printf("| program | fabric | timing | measure | formula | formula here | noctua | | where from | vc router |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n");
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vcase_t *c = &cases[i];
        if (only && strcmp(only, c->program) != 0)
            continue;
        char err[512];
        noc_topo_t *t = noc_topo_create(c->spec, 0, err, sizeof err);
        if (!t) {
            fprintf(stderr, "noctua validate: %s\n", err);
            return NOC_EXIT_INTERNAL;
        }
        outcome_t o = run_case(c, t);
        vcase_t cr = *c; /* the same program on the default router, for comparison */
        cr.timing = T_ROUTER;
        outcome_t orr = run_case(&cr, t);
        int64_t want = c->value ? c->value(t, c) : -1;
        int64_t got = (int64_t)o.cycles;
        int agrees = o.ok && (c->relation == R_INFO || (c->relation == R_EQ && got == want) ||
                              (c->relation == R_LE && got <= want) || (c->relation == R_GT && got > want));
        static const char *const rel[] = { "=", "<=", ">", "" };
        const char *mark = !o.ok ? "FAILED" : agrees ? rel[c->relation] : "DIFFERS";
        char args[96] = "";
        if (c->variant)
            snprintf(args + strlen(args), sizeof args - strlen(args), " %s", c->variant);
        if (c->root)
            snprintf(args + strlen(args), sizeof args - strlen(args), " root %d", c->root);
        if (c->words > 1)
            snprintf(args + strlen(args), sizeof args - strlen(args), " words %d", c->words);
        if (strcmp(c->program, "shift") == 0)
            snprintf(args + strlen(args), sizeof args - strlen(args), " q %lld", (long long)c->q);
        char what[64];
        if (c->metric >= M_SP_MESSAGES)
            snprintf(what, sizeof what, "%s %s", step_metric[c->metric].step,
                     step_metric[c->metric].messages ? "messages" : "cycles");
        else
            snprintf(what, sizeof what, "%s",
                     c->metric == M_LINK ? "messages/link" : c->metric == M_PERIOD ? "cycles/object" : "cycles");
        if (markdown)
            printf("| %s%s | %s | %s | %s | %s | %lld | %llu | %s | %s | %llu%s |\n", c->program, args, c->spec,
                   timing_name(c->timing), what, c->formula, (long long)want, (unsigned long long)o.cycles, mark,
                   c->source, (unsigned long long)orr.cycles, orr.ok ? "" : " (FAILED)");
        else
            printf("%-18s%-16s %-18s %-17s %-13s formula %5lld  noctua %5llu  %-7s vc router %5llu%s%s\n",
                   c->program, args, c->spec, timing_name(c->timing), what, (long long)want,
                   (unsigned long long)o.cycles, mark, (unsigned long long)orr.cycles, o.ok ? "" : ": ",
                   o.ok ? "" : o.err);
        if (!agrees || !orr.ok)
            bad = 1;
        noc_topo_destroy(t);
    }
    return bad ? NOC_EXIT_WRONG : NOC_EXIT_OK;
}
