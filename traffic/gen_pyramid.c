/* gen_pyramid.c: the pyramid algorithms of Ziavras, "Mapping single and
 * multiple multilevel structures onto the hypercube" (section 4), run on the
 * pyramid itself or on a hypercube that emulates it:
 *   pyramid-sum: bottom-up perimeter counting. Every base PE holds a pixel
 *     flag of a binary image (1 for a boundary pixel of the 1-region: a 1
 *     with a 0 or the image's edge among its four neighbours; the paper
 *     "assumes that the boundary pixels are known"); level by level, every
 *     node adds up its children's partial counts, and the apex ends with
 *     the perimeter (the number of boundary pixels). A step per level.
 *   pyramid-broadcast: top-down, the apex's words reach every node, a step
 *     per level.
 * Fabrics: pyramid:N and multilevel:N:m,... (variant direct: pyramid node =
 * fabric node; a multilevel node has 4^m children; a top level that is a
 * mesh, not an apex, first/last runs a reduction and broadcast across it,
 * steps "top-reduce"/"top-broadcast" and "top"), and hypercube:2N, onto
 * which P_N is embedded (traffic/embed.h; variants stout and ziavras). The
 * embeddings are many-to-one (4^N PEs for (4^(N+1)-1)/3 pyramid nodes), so
 * a rank (hypercube PE) runs the ops of every pyramid node it holds, each
 * with its own memory region (level k at k * slot words); a message between
 * two nodes of one PE is a local op of cost 0, other messages take the
 * hypercube's e-cube routes.
 * Variants ending in -cost add the paper's cost model as ops: a load of 2
 * cycles on every base PE (sum), a setup of 1 before every send and every
 * receive, adds of 1 per word (docs/algorithms/pyramid.md; the transmit
 * time of 2 is link_latency = 2 in examples/ziavras_cost.ini). The sum's
 * -sf variants count as the paper's Table 1 does: every hop a message
 * between neighbouring PEs, each PE setting up the reception after the
 * arrival and then the transmission (store-and-forward); -lockstep also
 * gives every level the mapping's largest dilation; -pipe runs the W
 * words as W objects through all levels at once. */
#include "traffic/embed.h"
#include "traffic/gen_util.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const noc_generator_t noc_gen_pyramid_sum, noc_gen_pyramid_broadcast;

static const char *const variants[] = { "auto",        "direct",     "stout",        "ziavras",
                                        "direct-cost", "stout-cost", "ziavras-cost", NULL };
/* pyramid-sum also: the store-and-forward readings of Table 1 */
static const char *const sum_variants[] = { "auto",           "direct",       "stout",
                                            "ziavras",        "direct-cost",  "stout-cost",
                                            "ziavras-cost",   "direct-sf",    "stout-sf",
                                            "ziavras-sf",     "stout-lockstep", "ziavras-lockstep",
                                            "direct-pipe",    "stout-pipe",   "ziavras-pipe",
                                            NULL };

#define LOAD_CYCLES 2  /* the paper's cost model: loading a pixel */
#define SETUP_CYCLES 1 /* setting up a transmission or a reception */
#define ADD_CYCLES 1   /* adding two values */
#define TRANSMIT_CYCLES 2 /* transmitting a value one hop (link_latency = 2 in the runs) */

/* How the program's pyramid sits on the fabric. */
typedef struct place {
    int direct;                 /* 1: the fabric is the pyramid; 0: embedded in a hypercube */
    noc_embed_t emb;            /* the embedding (direct = 0) */
    int cost;                   /* add the cost model's ops */
    int sf;                     /* store-and-forward: every hop is a message between neighbours, with
                                   the cost model's setups at both ends (after the arrival) */
    int lockstep;               /* sf, and every level padded to the mapping's largest dilation */
    int pipe;                   /* sf, each of the W words (objects) its own stream of messages */
    int pad[NOC_TOPO_MAX_LEVELS + 1]; /* lockstep: idle cycles before level k's sends */
    int *relays;                /* sf: per rank, relay buffers used so far */
    int top;                    /* levels 0 .. top */
    int side[NOC_TOPO_MAX_LEVELS];
    int first[NOC_TOPO_MAX_LEVELS + 1];
    int shift[NOC_TOPO_MAX_LEVELS]; /* level k's node has 4^shift[k] children */
    int n_nodes, n_ranks;
    int *rank;                  /* per pyramid node: the rank (PE) that holds it */
    uint32_t words;             /* W */
    uint32_t slot;              /* words of a node's region: W * (most children) */
} place_t;

static int is_op(uint32_t x) { return x != NOC_GEN_HAS && x != NOC_GEN_NONE; }

static void after(noc_program_t *p, uint32_t op, uint32_t dep)
{
    if (is_op(dep))
        noc_prog_dep(p, op, dep, 0);
}

static int node_at(const place_t *P, int k, int r, int c) { return P->first[k] + r * P->side[k] + c; }

/* Child i (row-major in its block) of node (k, r, c). */
static int child_at(const place_t *P, int k, int r, int c, int i)
{
    int m = P->shift[k];
    return node_at(P, k - 1, (r << m) + (i >> m), (c << m) + (i & ((1 << m) - 1)));
}

static int n_children(const place_t *P, int k) { return 1 << (2 * P->shift[k]); }

/* First word of level k's region on a rank. */
static int32_t region(const place_t *P, int k) { return P->direct ? 0 : k * (int32_t)P->slot; }

static int ilog2(int x)
{
    int b = 0;
    while ((1 << (b + 1)) <= x)
        b++;
    return b;
}

/* ---- fabric and variant ---- */

static int on_pyramid(place_t *P, const noc_topo_t *t, const char *name, const char *how,
                      const char *variant, char *err, size_t errlen)
{
    if (strcmp(how, "stout") == 0 || strcmp(how, "ziavras") == 0) {
        snprintf(err, errlen, "%s: variant %s embeds P_N into a hypercube: run it on hypercube:2N, "
                 "not on %s (there, use variant direct)", name, variant, noc_topo_spec(t));
        return -1;
    }
    P->direct = 1;
    P->top = noc_topo_levels(t) - 1;
    for (int k = 0; k <= P->top; k++) {
        P->side[k] = noc_topo_level_side(t, k);
        P->first[k] = noc_topo_level_first(t, k);
        P->shift[k] = k ? ilog2(noc_topo_level_side(t, k - 1) / noc_topo_level_side(t, k)) : 0;
    }
    P->first[P->top + 1] = noc_topo_level_first(t, P->top + 1);
    return 0;
}

static int on_hypercube(place_t *P, const noc_topo_t *t, const char *name, const char *how,
                        const char *variant, char *err, size_t errlen)
{
    if (strcmp(how, "direct") == 0) {
        snprintf(err, errlen, "%s: variant %s needs a pyramid or multilevel fabric; on %s use "
                 "stout or ziavras", name, variant, noc_topo_spec(t));
        return -1;
    }
    if (noc_topo_dims(t) % 2 != 0 || noc_topo_dims(t) / 2 > NOC_EMBED_MAX_N) {
        snprintf(err, errlen, "%s: %s: the embeddings map P_N onto H_2N, an even dimension from 2 to "
                 "%d (pyramid:N <-> hypercube:2N)", name, noc_topo_spec(t), 2 * NOC_EMBED_MAX_N);
        return -1;
    }
    P->emb.kind = strcmp(how, "stout") == 0 ? NOC_EMBED_STOUT : NOC_EMBED_ZIAVRAS;
    P->emb.n = noc_topo_dims(t) / 2;
    P->emb.row_high = 0;
    P->top = P->emb.n;
    P->first[0] = 0;
    for (int k = 0; k <= P->top; k++) {
        P->side[k] = 1 << (P->top - k);
        P->shift[k] = k ? 1 : 0;
        P->first[k + 1] = P->first[k] + P->side[k] * P->side[k];
    }
    return 0;
}

/* Resolve fabric, variant and words into P (no allocation). */
static int resolve(place_t *P, const noc_generator_t *g, const noc_topo_t *t,
                   const noc_gen_args_t *a, char *err, size_t errlen)
{
    memset(P, 0, sizeof *P);
    const char *v = noc_gen_variant(g, a, err, errlen);
    if (!v)
        return -1;
    char how[16];
    size_t len = strcspn(v, "-");
    snprintf(how, sizeof how, "%.*s", (int)len, v);
    const char *suffix = v + len; /* the list of variants holds only these */
    P->lockstep = strcmp(suffix, "-lockstep") == 0;
    P->pipe = strcmp(suffix, "-pipe") == 0;
    P->sf = P->lockstep || P->pipe || strcmp(suffix, "-sf") == 0;
    P->cost = P->sf || strcmp(suffix, "-cost") == 0;
    int rc;
    if (noc_gen_is(t, "pyramid") || noc_gen_is(t, "multilevel"))
        rc = on_pyramid(P, t, g->name, how, v, err, errlen);
    else if (noc_gen_is(t, "hypercube"))
        rc = on_hypercube(P, t, g->name, how, v, err, errlen);
    else {
        snprintf(err, errlen, "%s: runs on pyramid:N, multilevel:N:m,... or hypercube:2N (P_N "
                 "embedded), not on %s", g->name, noc_topo_spec(t));
        return -1;
    }
    if (rc != 0)
        return -1;
    if (P->pipe && P->side[P->top] > 1) {
        snprintf(err, errlen, "%s: variant %s pipelines the objects up to an apex; the top of %s is a "
                 "%dx%d mesh", g->name, v, noc_topo_spec(t), P->side[P->top], P->side[P->top]);
        return -1;
    }
    P->n_nodes = P->first[P->top + 1];
    P->n_ranks = noc_topo_nodes(t);
    int most = 1;
    for (int k = 1; k <= P->top; k++)
        if (n_children(P, k) > most)
            most = n_children(P, k);
    if (a->words < 1 || (int64_t)a->words * most * (P->top + 1) > NOC_PROG_MAX_MEM) {
        snprintf(err, errlen, "%s: --words %d: must be at least 1 and fit a PE's memory", g->name,
                 a->words);
        return -1;
    }
    P->words = (uint32_t)a->words;
    P->slot = P->words * (uint32_t)most;
    return 0;
}

static void lockstep_pads(place_t *P);

static void place_ranks(place_t *P)
{
    P->rank = noc_xcalloc((size_t)P->n_nodes, sizeof(int), "pyramid");
    P->relays = noc_xcalloc((size_t)P->n_ranks, sizeof(int), "pyramid");
    for (int k = 0; k <= P->top; k++)
        for (int r = 0; r < P->side[k]; r++)
            for (int c = 0; c < P->side[k]; c++) {
                int v = node_at(P, k, r, c);
                P->rank[v] = P->direct ? v : noc_embed_node(&P->emb, k, r, c);
            }
    lockstep_pads(P);
}

/* Every rank's next ops belong to step `name`. */
static void all_in_step(noc_program_t *p, const place_t *P, const char *name)
{
    for (int r = 0; r < P->n_ranks; r++)
        noc_prog_step(p, r, name);
}

/* The cost model's setup before an op of rank r that waits for `dep`:
 * returns what that op must wait for. */
static uint32_t setup(noc_program_t *p, const place_t *P, int r, uint32_t dep)
{
    if (!P->cost)
        return dep;
    uint32_t s = noc_prog_calc(p, r, SETUP_CYCLES);
    after(p, s, dep);
    return s;
}

/* ---- store-and-forward (-sf, -lockstep) ---- */

/* The value at `addr` on rank `from`, there after op `dep`, goes to rank
 * `to` (word `dst`) hop by hop along the e-cube route (lowest differing
 * bit first, as the fabric routes): each PE on the way sets up the
 * transmission (1), the link carries the value (link_latency: 2 in the
 * paper's model), and the next PE sets up the reception (1) once it has
 * arrived; a PE in the middle keeps it in a relay buffer of its own and
 * passes it on. `tag` tells the step's messages apart; `words`: the
 * message's (W, or 1 for -pipe's one object). *src_setup (if not NULL):
 * the source's setup. The reception setup at `to` also waits for op
 * dst_after (NOC_GEN_NONE: nothing). Returns the op
 * after which `to` holds the value. */
static uint32_t sf_path(noc_program_t *p, const place_t *P, int from, int to, int tag, uint32_t words,
                        int32_t addr, int32_t dst, uint32_t dep, uint32_t *src_setup, uint32_t dst_after)
{
    int32_t relay_base = (P->top + 1) * (int32_t)P->slot;
    for (int at = from; at != to;) {
        int diff = at ^ to, next = P->direct ? to : at ^ (diff & -diff);
        uint32_t s = noc_prog_calc(p, at, SETUP_CYCLES);
        after(p, s, dep);
        if (at == from && src_setup)
            *src_setup = s;
        uint32_t sd = noc_prog_send(p, at, next, tag, words, addr);
        after(p, sd, s);
        int32_t land = next == to ? dst : relay_base + (int32_t)words * P->relays[next]++;
        uint32_t rv = noc_prog_recv(p, next, at, tag, words, land);
        dep = noc_prog_calc(p, next, SETUP_CYCLES);
        after(p, dep, rv);
        if (next == to)
            after(p, dep, dst_after);
        at = next;
        addr = land;
    }
    return dep;
}

/* Hops between the PEs of a level-k node and of its child i. */
static int edge_hops(const place_t *P, int k, int r, int c, int i)
{
    int a = P->rank[node_at(P, k, r, c)], b = P->rank[child_at(P, k, r, c, i)];
    return a == b ? 0 : P->direct ? 1 : __builtin_popcount((unsigned)(a ^ b));
}

/* Lockstep: level k's transfers last as long as those of the level with
 * the largest dilation D (the mapping's): pad[k] = (D - D_k) idle hops of
 * setup + transmit 2 + setup before the level's sends. */
static void lockstep_pads(place_t *P)
{
    int dil[NOC_TOPO_MAX_LEVELS + 1] = { 0 }, most = 0;
    for (int k = 1; k <= P->top; k++) {
        for (int r = 0; r < P->side[k]; r++)
            for (int c = 0; c < P->side[k]; c++)
                for (int i = 0; i < n_children(P, k); i++) {
                    int d = edge_hops(P, k, r, c, i);
                    dil[k] = d > dil[k] ? d : dil[k];
                }
        most = dil[k] > most ? dil[k] : most;
    }
    for (int k = 1; k <= P->top; k++)
        P->pad[k] = P->lockstep ? (most - dil[k]) * (2 * SETUP_CYCLES + TRANSMIT_CYCLES) : 0;
}

/* An idle wait of pad[k] cycles on rank r after `dep` (none: dep). */
static uint32_t pad_wait(noc_program_t *p, const place_t *P, int k, int r, uint32_t dep)
{
    if (P->pad[k] <= 0)
        return dep;
    uint32_t w = noc_prog_calc(p, r, P->pad[k]);
    after(p, w, dep);
    return w;
}

/* A combine op; cost < 0: the default (compute_cycles per word). */
static uint32_t combine_n(noc_program_t *p, const place_t *P, int r, noc_op_kind_t kind, uint32_t words,
                          int32_t dst, int32_t src, int64_t cost)
{
    return noc_prog_combine_cost(p, r, kind, words, dst, src,
                                 cost >= 0 ? cost : P->cost ? ADD_CYCLES * (int64_t)words : NOC_PROG_DEFAULT_COST);
}

/* The same on the node's W words. */
static uint32_t combine(noc_program_t *p, const place_t *P, int r, noc_op_kind_t kind, int32_t dst,
                        int32_t src, int64_t cost)
{
    return combine_n(p, P, r, kind, P->words, dst, src, cost);
}

/* The node one step toward (0,0) of the top mesh: left along the row, then
 * up column 0 (-1 elsewhere and at the corner). Direct fabrics only. */
static void top_tree(const place_t *P, int *parent)
{
    int k = P->top, s = P->side[k];
    for (int v = 0; v < P->n_nodes; v++)
        parent[v] = -1;
    for (int r = 0; r < s; r++)
        for (int c = 0; c < s; c++)
            if (c > 0)
                parent[node_at(P, k, r, c)] = node_at(P, k, r, c - 1);
            else if (r > 0)
                parent[node_at(P, k, r, c)] = node_at(P, k, r - 1, 0);
}

/* ---- pyramid-sum ---- */

/* Image k's pixel (r, c), 1 with probability 3/4; a boundary pixel is a 1
 * with a 0 or the image's edge among its four neighbours. */
static int pixel(uint64_t seed, int s, int r, int c, int k)
{
    return noc_gen_value(seed, r * s + c, k) % 4 != 0;
}

static int boundary(uint64_t seed, int s, int r, int c, int k)
{
    if (!pixel(seed, s, r, c, k))
        return 0;
    if (r == 0 || c == 0 || r == s - 1 || c == s - 1)
        return 1;
    return !pixel(seed, s, r - 1, c, k) || !pixel(seed, s, r + 1, c, k) ||
           !pixel(seed, s, r, c - 1, k) || !pixel(seed, s, r, c + 1, k);
}

/* Base flags, and every node's expected count (its subtree's; on a top
 * mesh, the total). */
static void sum_data(noc_program_t *p, const place_t *P, uint64_t seed)
{
    uint32_t w = P->words;
    int64_t *sum = noc_xcalloc((size_t)P->n_nodes * w, sizeof(int64_t), "pyramid-sum");
    int s0 = P->side[0];
    for (int r = 0; r < s0; r++)
        for (int c = 0; c < s0; c++)
            for (uint32_t k = 0; k < w; k++) {
                int v = node_at(P, 0, r, c);
                sum[(size_t)v * w + k] = boundary(seed, s0, r, c, (int)k);
                noc_prog_init(p, P->rank[v], (uint32_t)region(P, 0) + k, sum[(size_t)v * w + k]);
            }
    for (int k = 1; k <= P->top; k++)
        for (int r = 0; r < P->side[k]; r++)
            for (int c = 0; c < P->side[k]; c++) {
                int v = node_at(P, k, r, c);
                for (int i = 0; i < n_children(P, k); i++)
                    for (uint32_t j = 0; j < w; j++)
                        sum[(size_t)v * w + j] += sum[(size_t)child_at(P, k, r, c, i) * w + j];
            }
    int top = P->top, ft = P->first[top];
    for (int v = ft + 1; v < P->n_nodes; v++) /* a top mesh ends with the total */
        for (uint32_t j = 0; j < w; j++)
            sum[(size_t)ft * w + j] += sum[(size_t)v * w + j];
    for (int v = 0; v < P->n_nodes; v++) {
        int k = 0;
        while (v >= P->first[k + 1])
            k++;
        const int64_t *x = &sum[(size_t)(k == top ? ft : v) * w];
        for (uint32_t j = 0; j < w; j++)
            noc_prog_expect(p, P->rank[v], (uint32_t)region(P, k) + j, x[j]);
    }
    free(sum);
}

/* Node v (level k, on rank pv) folds its children's counts into its
 * region: the ones on its own PE in place, the others as they arrive (a
 * receive from any child, tag k, in arrival order: the first into the
 * count itself, the rest into landing words, each then added). last[] per
 * node: its last op on its count. */
static void sum_node(noc_program_t *p, const place_t *P, int k, int r, int c, uint32_t *last)
{
    int v = node_at(P, k, r, c), pv = P->rank[v];
    int32_t acc = region(P, k), from = region(P, k - 1), w = (int32_t)P->words;
    uint32_t prev = NOC_GEN_NONE;
    int remote = 0;
    for (int i = 0; i < n_children(P, k); i++) {
        int ch = child_at(P, k, r, c, i), pc = P->rank[ch];
        if (pc != pv) {
            uint32_t sd = noc_prog_send(p, pc, pv, k, P->words, from);
            after(p, sd, setup(p, P, pc, last[ch]));
            remote++;
            continue;
        }
        uint32_t op = is_op(prev) ? combine(p, P, pv, NOC_OP_ADD, acc, from, -1)
                                  : combine(p, P, pv, NOC_OP_COPY, acc, from, 0);
        after(p, op, last[ch]);
        after(p, op, prev);
        prev = op;
    }
    int land = is_op(prev); /* first landing word: the count is taken */
    for (int j = 0; j < remote; j++) {
        uint32_t pre = setup(p, P, pv, NOC_GEN_NONE);
        if (!is_op(prev)) {
            prev = noc_prog_recv(p, pv, NOC_PROG_ANY, k, P->words, acc);
            after(p, prev, pre);
            land = 1;
            continue;
        }
        int32_t at = acc + w * land++;
        uint32_t rv = noc_prog_recv(p, pv, NOC_PROG_ANY, k, P->words, at);
        after(p, rv, pre);
        uint32_t add = combine(p, P, pv, NOC_OP_ADD, acc, at, -1);
        after(p, add, rv);
        after(p, add, prev);
        prev = add;
    }
    last[v] = prev;
}

/* Store-and-forward (-sf, -lockstep, -pipe): node v's children's counts
 * come nearest first (the order they arrive in), each along sf_path; the
 * one on v's own PE is copied in (cost 0); the first count taken goes
 * straight into v's count, each later one into a landing word and is
 * added (1). -pipe: object j's word only (tag child * W + j), last[] per
 * node and object; else all W words (j = 0). */
static void sum_node_sf(noc_program_t *p, const place_t *P, int k, int r, int c, int j, uint32_t *last)
{
    int v = node_at(P, k, r, c), pv = P->rank[v], far = 0, lanes = P->pipe ? (int)P->words : 1;
    uint32_t words = P->pipe ? 1 : P->words;
    int32_t acc = region(P, k) + j, from = region(P, k - 1) + j, w = (int32_t)P->words;
    for (int i = 0; i < n_children(P, k); i++) {
        int d = edge_hops(P, k, r, c, i);
        far = d > far ? d : far;
    }
    uint32_t prev = NOC_GEN_NONE;
    /* -pipe: v takes object j once it is done with object j - 1 */
    uint32_t in_order = j ? last[v * lanes + j - 1] : NOC_GEN_NONE;
    int land = 0;
    for (int d = 0; d <= far; d++)
        for (int i = 0; i < n_children(P, k); i++) {
            if (edge_hops(P, k, r, c, i) != d)
                continue;
            int ch = child_at(P, k, r, c, i), pc = P->rank[ch];
            uint32_t ready = last[ch * lanes + j], got;
            if (P->pipe && k == 1) { /* load object j once object j - 1 is sent */
                ready = noc_prog_calc(p, pc, LOAD_CYCLES);
                after(p, ready, j ? last[ch * lanes + j - 1] : NOC_GEN_NONE);
            }
            int32_t dst = is_op(prev) ? acc + w * ++land : acc;
            if (d == 0) {
                got = combine_n(p, P, pv, NOC_OP_COPY, words, dst, from, 0);
                after(p, got, ready);
                after(p, got, in_order);
                if (k == 1)
                    last[ch * lanes + j] = got;
            } else {
                got = sf_path(p, P, pc, pv, ch * lanes + j, words, from, dst, pad_wait(p, P, k, pc, ready),
                              k == 1 ? &last[ch * lanes + j] : NULL, in_order);
            }
            if (dst == acc) {
                prev = got;
                continue;
            }
            uint32_t add = combine_n(p, P, pv, NOC_OP_ADD, words, acc, dst, -1);
            after(p, add, got);
            after(p, add, prev);
            prev = add;
        }
    last[v * lanes + j] = prev;
}

static void sum_top_mesh(noc_program_t *p, const place_t *P, uint32_t *last)
{
    int *parent = noc_xcalloc((size_t)P->n_nodes, sizeof(int), "pyramid-sum");
    top_tree(P, parent);
    noc_gen_forest_reduce(p, P->n_nodes, parent, NOC_OP_ADD, P->words, 0, P->top + 1, "top-reduce",
                          last);
    noc_gen_forest_step(p, P->n_nodes, parent, P->words, 0, P->top + 2, "top-broadcast", last);
    free(parent);
}

static noc_program_t *make_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    place_t P;
    if (resolve(&P, &noc_gen_pyramid_sum, t, a, err, errlen) != 0)
        return NULL;
    place_ranks(&P);
    noc_program_t *p = noc_prog_new(P.n_ranks, "pyramid-sum");
    int mesh_top = P.side[P.top] > 1;
    if (P.cost && !P.pipe)
        noc_prog_declare_step(p, "load");
    for (int k = 1; k <= P.top; k++) {
        char step[16];
        snprintf(step, sizeof step, "level%d", k);
        noc_prog_declare_step(p, step);
    }
    if (mesh_top) {
        noc_prog_declare_step(p, "top-reduce");
        noc_prog_declare_step(p, "top-broadcast");
    }
    sum_data(p, &P, a->seed);
    int lanes = P.pipe ? (int)P.words : 1; /* -pipe: each object its own ops */
    uint32_t *last = noc_xcalloc((size_t)P.n_nodes * (size_t)lanes, sizeof(uint32_t), "pyramid-sum");
    for (int v = 0; v < P.n_nodes * lanes; v++)
        last[v] = NOC_GEN_HAS;
    if (P.cost && !P.pipe) { /* -pipe: each object's load comes with level 1 */
        all_in_step(p, &P, "load");
        for (int v = 0; v < P.first[1] * lanes; v++)
            last[v] = noc_prog_calc(p, P.rank[v / lanes], LOAD_CYCLES);
    }
    for (int k = 1; k <= P.top; k++) {
        char step[16];
        snprintf(step, sizeof step, "level%d", k);
        all_in_step(p, &P, step);
        for (int j = 0; j < lanes; j++)
            for (int r = 0; r < P.side[k]; r++)
                for (int c = 0; c < P.side[k]; c++)
                    if (P.sf)
                        sum_node_sf(p, &P, k, r, c, j, last);
                    else
                        sum_node(p, &P, k, r, c, last);
    }
    if (mesh_top)
        sum_top_mesh(p, &P, last);
    free(last);
    free(P.rank);
    free(P.relays);
    return noc_gen_finish(p, err, errlen);
}

/* ---- pyramid-broadcast ---- */

/* Hops between two ranks on the fabric (pyramid neighbours: 1). */
static int hops(const place_t *P, int a, int b)
{
    if (a == b)
        return 0;
    return P->direct ? 1 : __builtin_popcount((unsigned)(a ^ b));
}

/* Node (k, r, c) passes its words to its children: a local copy (cost 0)
 * to a child on its own PE, a message (tag k) to the others, the farthest
 * first (the all-port NI feeds each link in the order of the sends, so a
 * longer route that shares its first link with a shorter one should lead).
 * have[] per node: the op after which it holds the words. */
static void bcast_node(noc_program_t *p, const place_t *P, int k, int r, int c, uint32_t *have)
{
    int v = node_at(P, k, r, c), pv = P->rank[v], far = 0;
    for (int i = 0; i < n_children(P, k); i++) {
        int d = hops(P, pv, P->rank[child_at(P, k, r, c, i)]);
        far = d > far ? d : far;
    }
    for (int d = far; d >= 0; d--)
        for (int i = 0; i < n_children(P, k); i++) {
            int ch = child_at(P, k, r, c, i), pc = P->rank[ch];
            if (hops(P, pv, pc) != d)
                continue;
            if (pc == pv) {
                have[ch] = combine(p, P, pv, NOC_OP_COPY, region(P, k - 1), region(P, k), 0);
                after(p, have[ch], have[v]);
                continue;
            }
            uint32_t sd = noc_prog_send(p, pv, pc, k, P->words, region(P, k));
            after(p, sd, setup(p, P, pv, have[v]));
            uint32_t pre = setup(p, P, pc, NOC_GEN_NONE);
            have[ch] = noc_prog_recv(p, pc, pv, k, P->words, region(P, k - 1));
            after(p, have[ch], pre);
        }
}

static noc_program_t *make_broadcast(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                     size_t errlen)
{
    place_t P;
    if (resolve(&P, &noc_gen_pyramid_broadcast, t, a, err, errlen) != 0)
        return NULL;
    place_ranks(&P);
    noc_program_t *p = noc_prog_new(P.n_ranks, "pyramid-broadcast");
    int mesh_top = P.side[P.top] > 1, root = P.first[P.top];
    if (mesh_top)
        noc_prog_declare_step(p, "top");
    for (int k = P.top - 1; k >= 0; k--) {
        char step[16];
        snprintf(step, sizeof step, "level%d", k);
        noc_prog_declare_step(p, step);
    }
    for (uint32_t j = 0; j < P.words; j++) {
        int64_t x = noc_gen_value(a->seed, root, (int)j);
        noc_prog_init(p, P.rank[root], (uint32_t)region(&P, P.top) + j, x);
        for (int k = 0; k <= P.top; k++)
            for (int v = P.first[k]; v < P.first[k + 1]; v++)
                noc_prog_expect(p, P.rank[v], (uint32_t)region(&P, k) + j, x);
    }
    uint32_t *have = noc_xcalloc((size_t)P.n_nodes, sizeof(uint32_t), "pyramid-broadcast");
    for (int v = 0; v < P.n_nodes; v++)
        have[v] = v == root ? NOC_GEN_HAS : NOC_GEN_NONE;
    if (mesh_top) {
        int *parent = noc_xcalloc((size_t)P.n_nodes, sizeof(int), "pyramid-broadcast");
        top_tree(&P, parent);
        noc_gen_forest_step(p, P.n_nodes, parent, P.words, 0, P.top + 1, "top", have);
        free(parent);
    }
    for (int k = P.top; k >= 1; k--) {
        char step[16];
        snprintf(step, sizeof step, "level%d", k - 1);
        all_in_step(p, &P, step);
        for (int r = 0; r < P.side[k]; r++)
            for (int c = 0; c < P.side[k]; c++)
                bcast_node(p, &P, k, r, c, have);
    }
    free(have);
    free(P.rank);
    free(P.relays);
    return noc_gen_finish(p, err, errlen);
}

/* ---- facts ---- */

static int place_facts(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a,
                       char *buf, size_t len)
{
    place_t P;
    char err[256];
    if (resolve(&P, g, t, a, err, sizeof err) != 0)
        return -1;
    if (P.direct)
        noc_gen_appendf(buf, len, "embedding = direct\nexpansion = 1\ndilation = 1\ncongestion = 1\n");
    else
        noc_embed_facts(&P.emb, buf, len);
    const char *model = P.pipe ? "store-and-forward, pipelined: each of the W objects its own messages; "
                                 "load 2; a hop setup 1 + transmit 2 + setup 1; add 1"
                      : P.lockstep ? "store-and-forward, lockstep: load 2; a hop setup 1 + transmit 2 + "
                                     "setup 1, every level as many hops as the largest dilation; add 1"
                      : P.sf ? "store-and-forward: load 2; a hop setup 1 + transmit 2 + setup 1; add 1"
                      : P.cost ? "load 2, setup 1, add 1 as ops; transmit 2 is link_latency = 2"
                      : "off";
    noc_gen_appendf(buf, len, "level_steps = %d\ncost_model = %s\n", P.top, model);
    return 0;
}

static void sum_facts(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    if (place_facts(&noc_gen_pyramid_sum, t, a, buf, len) != 0)
        return;
    int s = noc_topo_levels(t) ? noc_topo_level_side(t, 0) : 1 << (noc_topo_dims(t) / 2), perimeter = 0;
    for (int r = 0; r < s; r++)
        for (int c = 0; c < s; c++)
            perimeter += boundary(a->seed, s, r, c, 0);
    noc_gen_appendf(buf, len, "perimeter = %d\nimage = %dx%d, seed %llu: the apex's word 0 counts its "
            "boundary pixels\n", perimeter, s, s, (unsigned long long)a->seed);
}

static void bcast_facts(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    (void)place_facts(&noc_gen_pyramid_broadcast, t, a, buf, len);
}

#define PYR_ARGS                                                                               \
    "  --words W      words per PE (default 1)\n"                                              \
    "  --seed S       the data\n"                                                              \
    "  fabrics: pyramid:N, multilevel:N:m,... (variant direct), hypercube:2N (P_N embedded:\n"  \
    "           variants stout, ziavras)\n"                                                    \
    "  variants: auto (direct on a pyramid, ziavras on a hypercube), direct, stout, ziavras;\n" \
    "            NAME-cost adds the paper's cost model (load 2, setup 1, add 1) as ops: run\n"  \
    "            with --config examples/ziavras_cost.ini (transmit 2)\n"

/* On a pyramid or multilevel fabric every node expects W words (its
 * subtree's counts, or the apex's words): p W values, and for the sum the
 * base's W flags a node besides. 0 for the embedding in a hypercube (whose
 * ranks are not all the pyramid's) and for a W that resolve refuses for a
 * pyramid (4 children a node). */
static uint64_t volume(const noc_topo_t *t, const noc_gen_args_t *a, int sum)
{
    uint64_t w = a->words > 0 ? (uint64_t)a->words : 0, side = (uint64_t)noc_topo_level_side(t, 0);
    uint64_t base = side * side;
    if (noc_topo_levels(t) <= 0 || !w || w * 4 * (uint64_t)noc_topo_levels(t) > NOC_PROG_MAX_MEM)
        return 0;
    return (uint64_t)noc_topo_nodes(t) * w + (sum ? base * w : 0);
}

static uint64_t volume_sum(const noc_topo_t *t, const noc_gen_args_t *a) { return volume(t, a, 1); }
static uint64_t volume_broadcast(const noc_topo_t *t, const noc_gen_args_t *a) { return volume(t, a, 0); }

const noc_generator_t noc_gen_pyramid_sum = {
    .name = "pyramid-sum",
    .summary = "perimeter counting: the base's boundary-pixel flags summed up the pyramid",
    .args_help = "  every base PE holds W boundary flags (W images from --seed); every node ends\n"
                 "  with its subtree's count, the apex with the perimeter\n" PYR_ARGS
                 "  pyramid-sum only: NAME-sf (direct, stout, ziavras) sends every value hop by\n"
                 "            hop, each PE on the way setting up the reception and the\n"
                 "            transmission (store-and-forward); NAME-lockstep (stout, ziavras)\n"
                 "            also gives every level the mapping's largest dilation: the\n"
                 "            paper's Table 1 plus 1 (docs/algorithms/pyramid.md); NAME-pipe\n"
                 "            (direct, stout, ziavras) pipelines the W words as W objects\n"
                 "            through the levels, all active at once (run with sync_steps=0)\n",
    .variants = sum_variants,
    .make = make_sum,
    .facts = sum_facts,
    .volume = volume_sum,
};

const noc_generator_t noc_gen_pyramid_broadcast = {
    .name = "pyramid-broadcast",
    .summary = "the apex's words reach every pyramid node, level by level down",
    .args_help = "  the apex's W words (from --seed) reach every node; --root is not used\n" PYR_ARGS,
    .variants = variants,
    .make = make_broadcast,
    .facts = bcast_facts,
    .volume = volume_broadcast,
};
