/* gen_bsn.c: Wei and Xiao's basic communication algorithms on the
 * biswapped network Σ(Ω) (ICCS 2008, section 3): broadcast (Table 1, four
 * steps), prefix sum (Table 2, eight steps), data sum (Table 3, five steps);
 * and the group-level building blocks (gen_fabric.h) that they and the OTIS
 * algorithms of gen_otis.c are made of: a dataflow builder over memory
 * slots, and broadcast, all-reduce and prefix sum inside one copy of Ω.
 *
 * Node <g,p,c> is rank c·n² + g·n + p (n = |Ω|), group g of part c is the
 * ranks c·n² + g·n + q, its swap link goes to <p,g,1-c>. Combine ops cost
 * nothing (the paper counts moves only). docs/algorithms/bsn.md gives the
 * steps, how the extracted formulas read, and the measured cycles. */
#include "traffic/gen_fabric.h"
#include "topologies/basis.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the dataflow builder ---- */

/* A read of a slot since its last write: the op, and whether a later
 * writer waits only for its start (a send). */
typedef struct reader {
    uint32_t op;
    int32_t next;
    uint8_t start;
} reader_t;

/* A combine op held back (gen_fabric.h): dst (kind)= src. */
typedef struct held {
    int32_t next;
    uint8_t kind;
    uint8_t cost;       /* cycles (0: free, as the papers count arithmetic) */
    int16_t dst, src;
} held_t;

struct noc_gen_flow {
    noc_program_t *p;
    int n_nodes;
    uint32_t words;
    int n_slots;           /* slots in use (0, zero and scratch included) */
    int max_slots;         /* NOC_GEN_MAX_SLOTS + the landing slots */
    int32_t tag;           /* next unused message tag */
    uint32_t *writer;      /* [cell(v, s)]: last op that wrote it, NOC_GEN_NONE */
    int32_t *readers;      /* [cell(v, s)]: its reads since, a list in rd[], -1 */
    reader_t *rd;
    uint32_t rd_n, rd_cap;
    int32_t *held_first, *held_last; /* per rank: its held combine ops, in order */
    held_t *hd;
    uint32_t hd_n, hd_cap;
    int32_t hd_free;       /* recycled entries of hd[] */
    int32_t *tmp;          /* before(): a rank's held entries, in order */
    uint32_t tmp_cap;
    uint8_t *mark;         /* before(): per slot, read (1) / written (2) by what goes first */
    noc_gen_tree_t centre; /* tree_sum(): Ω's BFS tree from a centre, built on first use */
};

static size_t cell(const noc_gen_flow_t *f, int v, int s)
{
    return (size_t)v * (size_t)f->max_slots + (size_t)s;
}

static int32_t addr_of(const noc_gen_flow_t *f, int s) { return (int32_t)((uint32_t)s * f->words); }

static void *grow(void *a, uint32_t *cap, size_t size)
{
    *cap = *cap ? 2 * *cap : 1024;
    void *b = realloc(a, (size_t)*cap * size);
    if (!b) {
        noc_oom("program generator", 0);
    }
    return b;
}

noc_gen_flow_t *noc_gen_flow_new(noc_program_t *p, uint32_t words, const noc_topo_t *omega)
{
    noc_gen_flow_t *f = noc_xcalloc(1, sizeof *f, "program generator");
    f->p = p;
    f->n_nodes = p->n_ranks;
    f->words = words;
    f->n_slots = NOC_GEN_FIRST_SLOT;
    f->max_slots = NOC_GEN_MAX_SLOTS + (noc_gen_is(omega, "complete") ? omega->n_nodes
                                                                      : omega->max_degree);
    size_t cells = cell(f, f->n_nodes, 0);
    f->writer = noc_xcalloc(cells, sizeof *f->writer, "program generator");
    f->readers = noc_xcalloc(cells, sizeof *f->readers, "program generator");
    for (size_t i = 0; i < cells; i++) {
        f->writer[i] = NOC_GEN_NONE;
        f->readers[i] = -1;
    }
    f->held_first = noc_xcalloc((size_t)f->n_nodes, sizeof *f->held_first, "program generator");
    f->held_last = noc_xcalloc((size_t)f->n_nodes, sizeof *f->held_last, "program generator");
    for (int v = 0; v < f->n_nodes; v++)
        f->held_first[v] = f->held_last[v] = -1;
    f->hd_free = -1;
    f->mark = noc_xcalloc((size_t)f->max_slots, 1, "program generator");
    return f;
}

int noc_gen_flow_slot(noc_gen_flow_t *f)
{
    if (f->n_slots >= NOC_GEN_MAX_SLOTS) {
        fprintf(stderr, "noctua: program generator: more than %d memory slots\n", NOC_GEN_MAX_SLOTS);
        abort();
    }
    return f->n_slots++;
}

int32_t noc_gen_flow_tags(noc_gen_flow_t *f, int k)
{
    int32_t t = f->tag;
    f->tag += k;
    return t;
}

/* Op `op` of rank v reads slot s: it waits for the slot's writer, and the
 * slot's next writer waits for it (for its start if `start`). */
static void reads(noc_gen_flow_t *f, int v, int s, uint32_t op, int start)
{
    size_t c = cell(f, v, s);
    if (f->writer[c] != NOC_GEN_NONE)
        noc_prog_dep(f->p, op, f->writer[c], 0);
    if (f->rd_n == f->rd_cap)
        f->rd = grow(f->rd, &f->rd_cap, sizeof *f->rd);
    f->rd[f->rd_n] = (reader_t){ op, f->readers[c], (uint8_t)start };
    f->readers[c] = (int32_t)f->rd_n++;
}

/* Op `op` of rank v writes slot s: after the last writer and every reader
 * since. */
static void writes(noc_gen_flow_t *f, int v, int s, uint32_t op)
{
    size_t c = cell(f, v, s);
    if (f->writer[c] != NOC_GEN_NONE)
        noc_prog_dep(f->p, op, f->writer[c], 0);
    for (int32_t r = f->readers[c]; r >= 0; r = f->rd[r].next)
        if (f->rd[r].op != op)
            noc_prog_dep(f->p, op, f->rd[r].op, f->rd[r].start);
    f->readers[c] = -1;
    f->writer[c] = op;
}

/* Add held entry h of rank v to the program and recycle it. */
static void emit_held(noc_gen_flow_t *f, int v, int32_t h)
{
    const held_t *x = &f->hd[h];
    noc_op_t o;
    memset(&o, 0, sizeof o);
    o.kind = x->kind;
    o.words = f->words;
    o.addr = addr_of(f, x->dst);
    o.src = addr_of(f, x->src);
    o.cost = x->cost;
    uint32_t op = noc_prog_add(f->p, v, &o);
    reads(f, v, x->src, op, 0);
    writes(f, v, x->dst, op);
    f->hd[h].next = f->hd_free;
    f->hd_free = h;
}

/* Add all of rank v's held ops, in order. */
static void release_all(noc_gen_flow_t *f, int v)
{
    for (int32_t h = f->held_first[v], next; h >= 0; h = next) {
        next = f->hd[h].next;
        emit_held(f, v, h);
    }
    f->held_first[v] = f->held_last[v] = -1;
}

/* Rank v is about to read (is_write 0) or write slot s: first add the held
 * ops that op depends on, directly or through other held ops, in order;
 * the others stay held (they touch nothing that those touch in a way that
 * orders them, so the new op and the released ones may go first). */
static void before(noc_gen_flow_t *f, int v, int s, int is_write)
{
    int n = 0;
    for (int32_t h = f->held_first[v]; h >= 0; h = f->hd[h].next) {
        if (n == (int)f->tmp_cap)
            f->tmp = grow(f->tmp, &f->tmp_cap, sizeof *f->tmp);
        f->tmp[n++] = h;
    }
    if (n == 0)
        return;
    memset(f->mark, 0, (size_t)f->max_slots);
    f->mark[s] = is_write ? 2 : 1; /* bit 0: read by what goes first, bit 1: written */
    int any = 0;
    for (int i = n - 1; i >= 0; i--) {
        held_t *x = &f->hd[f->tmp[i]];
        if (!f->mark[x->dst] && !(f->mark[x->src] & 2)) {
            f->tmp[i] = -1;
            continue;
        }
        f->mark[x->src] |= 1;
        f->mark[x->dst] |= 3;
        any = 1;
    }
    if (!any)
        return;
    int32_t first = -1, last = -1;
    for (int32_t h = f->held_first[v], i = 0, next; h >= 0; h = next, i++) {
        next = f->hd[h].next;
        if (f->tmp[i] >= 0) {
            emit_held(f, v, h);
            continue;
        }
        f->hd[h].next = -1;
        if (last >= 0)
            f->hd[last].next = h;
        else
            first = h;
        last = h;
    }
    f->held_first[v] = first;
    f->held_last[v] = last;
}

void noc_gen_flow_step(noc_gen_flow_t *f, const char *name)
{
    for (int v = 0; v < f->n_nodes; v++) {
        noc_prog_step(f->p, v, name);
        release_all(f, v);
    }
}

void noc_gen_flow_send(noc_gen_flow_t *f, int v, int to, int32_t tag, int s)
{
    before(f, v, s, 0);
    reads(f, v, s, noc_prog_send(f->p, v, to, tag, f->words, addr_of(f, s)), 1);
}

void noc_gen_flow_recv(noc_gen_flow_t *f, int v, int from, int32_t tag, int s)
{
    before(f, v, s, 1);
    writes(f, v, s, noc_prog_recv(f->p, v, from, tag, f->words, addr_of(f, s)));
}

void noc_gen_flow_op(noc_gen_flow_t *f, int v, noc_op_kind_t kind, int dst, int src)
{
    noc_gen_flow_op_cost(f, v, kind, dst, src, 0);
}

void noc_gen_flow_op_cost(noc_gen_flow_t *f, int v, noc_op_kind_t kind, int dst, int src, int cost)
{
    int32_t h = f->hd_free;
    if (h >= 0) {
        f->hd_free = f->hd[h].next;
    } else {
        if (f->hd_n == f->hd_cap)
            f->hd = grow(f->hd, &f->hd_cap, sizeof *f->hd);
        h = (int32_t)f->hd_n++;
    }
    f->hd[h] = (held_t){ -1, (uint8_t)kind, (uint8_t)cost, (int16_t)dst, (int16_t)src };
    if (f->held_last[v] >= 0)
        f->hd[f->held_last[v]].next = h;
    else
        f->held_first[v] = h;
    f->held_last[v] = h;
}

void noc_gen_flow_done(noc_gen_flow_t *f)
{
    for (int v = 0; v < f->n_nodes; v++)
        release_all(f, v);
    free(f->writer);
    free(f->readers);
    free(f->rd);
    free(f->held_first);
    free(f->held_last);
    free(f->hd);
    free(f->tmp);
    free(f->mark);
    if (f->centre.parent)
        noc_gen_tree_free(&f->centre);
    free(f);
}

/* ---- inside one group ---- */

/* Scratch slots of the group steps, between the zero slot and the first
 * slot noc_gen_flow_slot hands out: reused from call to call (the builder
 * orders the reuse). */
#define SCRATCH(k) (NOC_GEN_ZERO_SLOT + 1 + (k))
/* Landing slots, above all others: one per processor of a complete basis
 * (exchanges) or per child in a tree (reductions), so that every receive
 * of one step is posted before its message arrives. */
#define LAND(j) (NOC_GEN_MAX_SLOTS + (j))
_Static_assert(NOC_GEN_ZERO_SLOT + 1 + 9 < NOC_GEN_FIRST_SLOT, "scratch slots overlap");

static int is_grid(const noc_topo_t *o)
{
    return noc_gen_is(o, "ring") || noc_gen_is(o, "mesh") || noc_gen_is(o, "torus") ||
           noc_gen_is(o, "hypercube");
}

/* Processor `delta` steps from q along dimension d of a grid basis (round
 * the ring if `wrap` and the basis wraps), or -1 past the end of the line. */
static int along(const noc_topo_t *o, int q, int d, int delta, int wrap)
{
    int k = o->k[d], c = (q / o->stride[d]) % k, c2 = c + delta;
    if (c2 < 0 || c2 >= k) {
        if (!wrap || !o->wrap)
            return -1;
        c2 = (c2 + k) % k;
    }
    return q + (c2 - c) * o->stride[d];
}

void noc_gen_group_bcast(noc_gen_flow_t *f, const noc_gen_tree_t *tr, int base, int s)
{
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int i = 0; i < tr->n; i++) {
        int q = tr->order[i];
        if (tr->parent[q] >= 0)
            noc_gen_flow_recv(f, base + q, base + tr->parent[q], tag, s);
        for (int k = tr->child_start[q]; k < tr->child_start[q + 1]; k++)
            noc_gen_flow_send(f, base + q, base + tr->child[k], tag, s);
    }
}

/* out = the sum along each line of dimension d (no wraparound): a sweep
 * each way, P up from the low end, Q down from the high end; out adds what
 * comes from below (lp) and from above (lq). */
static void line_sum(noc_gen_flow_t *f, const noc_topo_t *o, int base, int d, int out)
{
    const int P = SCRATCH(0), Q = SCRATCH(1), lp = SCRATCH(2), lq = SCRATCH(3);
    int32_t tag = noc_gen_flow_tags(f, 2);
    for (int q = 0; q < o->n_nodes; q++) {
        int v = base + q, lo = along(o, q, d, -1, 0), hi = along(o, q, d, +1, 0);
        if (lo >= 0)
            noc_gen_flow_recv(f, v, base + lo, tag, lp);
        if (hi >= 0) {
            noc_gen_flow_op(f, v, NOC_OP_COPY, P, out);
            if (lo >= 0)
                noc_gen_flow_op(f, v, NOC_OP_ADD, P, lp);
            noc_gen_flow_send(f, v, base + hi, tag, P);
            noc_gen_flow_recv(f, v, base + hi, tag + 1, lq);
        }
        if (lo >= 0) {
            noc_gen_flow_op(f, v, NOC_OP_COPY, Q, out);
            if (hi >= 0)
                noc_gen_flow_op(f, v, NOC_OP_ADD, Q, lq);
            noc_gen_flow_send(f, v, base + lo, tag + 1, Q);
            noc_gen_flow_op(f, v, NOC_OP_ADD, out, lp);
        }
        if (hi >= 0)
            noc_gen_flow_op(f, v, NOC_OP_ADD, out, lq);
    }
}

/* out = the sum round each ring of dimension d: every value travels
 * ceil((k-1)/2) hops up and floor((k-1)/2) down, one hop a step, and every
 * processor adds what passes: floor(k/2) steps. The message of round t
 * carries tag + 2t (up) or tag + 2t + 1 (down): a processor that holds its
 * own value late may pass on its neighbour's first. */
static void ring_sum(noc_gen_flow_t *f, const noc_topo_t *o, int base, int d, int out)
{
    const int l = SCRATCH(0), r = SCRATCH(1);
    int k = o->k[d], up = k / 2, down = (k - 1) / 2;
    int32_t tag = noc_gen_flow_tags(f, 2 * (up + 1));
    for (int q = 0; q < o->n_nodes; q++) {
        int v = base + q, lo = base + along(o, q, d, -1, 1), hi = base + along(o, q, d, +1, 1);
        noc_gen_flow_send(f, v, hi, tag + 2, out);
        if (down > 0)
            noc_gen_flow_send(f, v, lo, tag + 3, out);
        for (int t = 1; t <= up; t++) {
            noc_gen_flow_recv(f, v, lo, tag + 2 * t, l);
            if (t < up)
                noc_gen_flow_send(f, v, hi, tag + 2 * t + 2, l);
            if (t <= down) {
                noc_gen_flow_recv(f, v, hi, tag + 2 * t + 1, r);
                if (t < down)
                    noc_gen_flow_send(f, v, lo, tag + 2 * t + 3, r);
            }
            noc_gen_flow_op(f, v, NOC_OP_ADD, out, l);
            if (t <= down)
                noc_gen_flow_op(f, v, NOC_OP_ADD, out, r);
        }
    }
}

/* out = the sum over a complete basis: everyone sends to everyone. */
static void exchange_sum(noc_gen_flow_t *f, int n, int base, int out)
{
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++)
        for (int j = 0; j < n; j++)
            if (j != q)
                noc_gen_flow_send(f, base + q, base + j, tag, out);
    for (int q = 0; q < n; q++)
        for (int j = 0; j < n; j++)
            if (j != q) {
                noc_gen_flow_recv(f, base + q, base + j, tag, LAND(j));
                noc_gen_flow_op(f, base + q, NOC_OP_ADD, out, LAND(j));
            }
}

/* A centre of Ω: least eccentricity, lowest number first. */
static int centre(const noc_topo_t *o)
{
    int n = o->n_nodes, best = 0, best_ecc = -1;
    uint16_t *d = noc_basis_distances(o);
    for (int a = 0; a < n; a++) {
        int ecc = 0;
        for (int b = 0; b < n; b++)
            if (d[(size_t)a * (size_t)n + (size_t)b] > ecc)
                ecc = d[(size_t)a * (size_t)n + (size_t)b];
        if (best_ecc < 0 || ecc < best_ecc) {
            best = a;
            best_ecc = ecc;
        }
    }
    free(d);
    return best;
}

/* out = the sum over any basis: up a BFS tree from a centre, and down. */
static void tree_sum(noc_gen_flow_t *f, const noc_topo_t *o, int base, int out)
{
    if (!f->centre.parent)
        noc_gen_tree_bfs(o, centre(o), &f->centre);
    const noc_gen_tree_t *tr = &f->centre;
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < o->n_nodes; q++) {
        for (int k = tr->child_start[q]; k < tr->child_start[q + 1]; k++) {
            int l = LAND(k - tr->child_start[q]);
            noc_gen_flow_recv(f, base + q, base + tr->child[k], tag, l);
            noc_gen_flow_op(f, base + q, NOC_OP_ADD, out, l);
        }
        if (tr->parent[q] >= 0)
            noc_gen_flow_send(f, base + q, base + tr->parent[q], tag, out);
    }
    noc_gen_group_bcast(f, tr, base, out);
}

void noc_gen_group_allreduce(noc_gen_flow_t *f, const noc_topo_t *o, int base, int in, int out)
{
    for (int q = 0; q < o->n_nodes && in != out; q++)
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, out, in);
    if (noc_gen_is(o, "complete"))
        exchange_sum(f, o->n_nodes, base, out);
    else if (is_grid(o))
        for (int d = 0; d < o->dims; d++) {
            if (o->wrap)
                ring_sum(f, o, base, d, out);
            else
                line_sum(f, o, base, d, out);
        }
    else
        tree_sum(f, o, base, out);
}

/* Prefix sums along every line of dimension d, in the direction dir (+1:
 * rising coordinate): inc up to and including, exc before (zero at the
 * line's first processor). */
static void line_prefix(noc_gen_flow_t *f, const noc_topo_t *o, int base, int d, int dir, int in,
                        int inc, int exc)
{
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < o->n_nodes; q++) {
        int v = base + q, prev = along(o, q, d, -dir, 0), next = along(o, q, d, dir, 0);
        noc_gen_flow_op(f, v, NOC_OP_COPY, inc, in);
        if (prev < 0) {
            noc_gen_flow_op(f, v, NOC_OP_COPY, exc, NOC_GEN_ZERO_SLOT);
        } else {
            noc_gen_flow_recv(f, v, base + prev, tag, exc);
            noc_gen_flow_op(f, v, NOC_OP_ADD, inc, exc);
        }
        if (next >= 0)
            noc_gen_flow_send(f, v, base + next, tag, inc);
    }
}

/* Row-major prefix sums on a 2-D grid (x = dimension 0 fastest), in
 * (kx - 1) + (ky - 1) steps: C = the column sums above (a sweep down every
 * column), then along every row a sweep right of Z = value + C and a
 * sweep left of C: exc = Z before + C + C after, inc = Z up to + C after. */
static void grid2_prefix(noc_gen_flow_t *f, const noc_topo_t *o, int base, int in, int inc,
                         int exc)
{
    const int ci = SCRATCH(0), c = SCRATCH(1), z = SCRATCH(2), zi = SCRATCH(3), ze = SCRATCH(4),
              si = SCRATCH(5), se = SCRATCH(6);
    line_prefix(f, o, base, 1, +1, in, ci, c);
    for (int q = 0; q < o->n_nodes; q++) {
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, z, in);
        noc_gen_flow_op(f, base + q, NOC_OP_ADD, z, c);
    }
    line_prefix(f, o, base, 0, +1, z, zi, ze);
    line_prefix(f, o, base, 0, -1, c, si, se);
    for (int q = 0; q < o->n_nodes; q++) {
        int v = base + q;
        noc_gen_flow_op(f, v, NOC_OP_COPY, inc, zi);
        noc_gen_flow_op(f, v, NOC_OP_ADD, inc, se);
        noc_gen_flow_op(f, v, NOC_OP_COPY, exc, ze);
        noc_gen_flow_op(f, v, NOC_OP_ADD, exc, c);
        noc_gen_flow_op(f, v, NOC_OP_ADD, exc, se);
    }
}

/* Prefix sums on a complete basis: every processor sends to all after it. */
static void exchange_prefix(noc_gen_flow_t *f, int n, int base, int in, int inc, int exc)
{
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++) {
        int v = base + q;
        for (int j = q + 1; j < n; j++)
            noc_gen_flow_send(f, v, base + j, tag, in);
        noc_gen_flow_op(f, v, NOC_OP_COPY, exc, NOC_GEN_ZERO_SLOT);
        for (int i = 0; i < q; i++) {
            noc_gen_flow_recv(f, v, base + i, tag, LAND(i));
            noc_gen_flow_op(f, v, NOC_OP_ADD, exc, LAND(i));
        }
        noc_gen_flow_op(f, v, NOC_OP_COPY, inc, exc);
        noc_gen_flow_op(f, v, NOC_OP_ADD, inc, in);
    }
}

/* Prefix sums on a hypercube by recursive doubling: across dimension d
 * swap subcube totals; the upper half adds the lower half's. */
static void cube_prefix(noc_gen_flow_t *f, const noc_topo_t *o, int base, int in, int inc, int exc)
{
    const int tot = SCRATCH(0), l = SCRATCH(1);
    for (int q = 0; q < o->n_nodes; q++) {
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, inc, in);
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, tot, in);
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, exc, NOC_GEN_ZERO_SLOT);
    }
    for (int d = 0; d < o->dims; d++) {
        int32_t tag = noc_gen_flow_tags(f, 1);
        for (int q = 0; q < o->n_nodes; q++) {
            int v = base + q, u = base + (q ^ (1 << d));
            noc_gen_flow_send(f, v, u, tag, tot);
            noc_gen_flow_recv(f, v, u, tag, l);
            if ((q >> d) & 1) {
                noc_gen_flow_op(f, v, NOC_OP_ADD, inc, l);
                noc_gen_flow_op(f, v, NOC_OP_ADD, exc, l);
            }
            noc_gen_flow_op(f, v, NOC_OP_ADD, tot, l);
        }
    }
}

int noc_gen_group_prefix_ok(const noc_topo_t *o, char *why, size_t whylen)
{
    if (noc_gen_is(o, "complete") || noc_gen_is(o, "hypercube") || noc_gen_is(o, "ring"))
        return 0;
    if ((noc_gen_is(o, "mesh") || noc_gen_is(o, "torus")) && o->dims <= 2)
        return 0;
    snprintf(why, whylen,
             "the basis %s has no node order its groups can sum along (supported: ring, mesh or "
             "torus of 1 or 2 dimensions, hypercube, complete)",
             o->spec);
    return -1;
}

void noc_gen_group_prefix(noc_gen_flow_t *f, const noc_topo_t *o, int base, int in, int inc,
                          int exc)
{
    if (inc < 0)
        inc = SCRATCH(8);
    if (exc < 0)
        exc = SCRATCH(9);
    if (noc_gen_is(o, "complete"))
        exchange_prefix(f, o->n_nodes, base, in, inc, exc);
    else if (noc_gen_is(o, "hypercube"))
        cube_prefix(f, o, base, in, inc, exc);
    else if (o->dims == 1)
        line_prefix(f, o, base, 0, +1, in, inc, exc);
    else
        grid2_prefix(f, o, base, in, inc, exc);
}

/* ---- the BSN algorithms ---- */

static int node(int n, int c, int g, int p) { return c * n * n + g * n + p; }

/* The swap partner of rank v: <g,p,c> - <p,g,1-c>. */
static int swap_of(int n, int v)
{
    int c = v / (n * n), g = (v % (n * n)) / n, p = v % n;
    return node(n, 1 - c, p, g);
}

static int check(const noc_topo_t *t, const noc_gen_args_t *a, const char *prog, char *err,
                 size_t errlen)
{
    if (!noc_gen_is(t, "bsn") || !t->basis) {
        snprintf(err, errlen, "%s: this is the BSN algorithm of Wei and Xiao; %s is not a bsn:BASIS "
                              "fabric",
                 prog, t->spec);
        return -1;
    }
    if (a->words < 1) {
        snprintf(err, errlen, "%s: --words %d: a PE needs at least 1 word", prog, a->words);
        return -1;
    }
    return 0;
}

/* Every PE's words at 0 (from --seed), and the program with its steps. */
static noc_program_t *start(const noc_topo_t *t, const noc_gen_args_t *a, const char *name,
                            const char *const *steps)
{
    noc_program_t *p = noc_prog_new(t->n_nodes, name);
    for (int v = 0; v < t->n_nodes; v++)
        for (int k = 0; k < a->words; k++)
            noc_prog_init(p, v, (uint32_t)k, noc_gen_value(a->seed, v, k));
    for (; *steps; steps++)
        noc_prog_declare_step(p, *steps);
    return p;
}

/* A broadcast from the root u = <g0,p0,c0> (c1 = 1 - c0), and Ω's BFS
 * trees from p0 and from g0. */
typedef struct bcast {
    int n, c0, g0, p0, c1;
    noc_gen_tree_t tp, tg;
} bcast_t;

/* Steps 1 and 2: u to v = <p0,g0,c1>; u over its group, v over its own. */
static void bcast_in(noc_gen_flow_t *f, const bcast_t *b, const char *const *steps)
{
    int n = b->n, u = node(n, b->c0, b->g0, b->p0);
    noc_gen_flow_step(f, steps[0]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    noc_gen_flow_send(f, u, swap_of(n, u), tag, 0);
    noc_gen_flow_recv(f, swap_of(n, u), u, tag, 0);
    noc_gen_flow_step(f, steps[1]);
    noc_gen_group_bcast(f, &b->tp, node(n, b->c0, b->g0, 0), 0);
    noc_gen_group_bcast(f, &b->tg, node(n, b->c1, b->p0, 0), 0);
}

/* Steps 3 and 4: those two groups out over their swap links (reaching
 * processor p0 of every group of part c0 and g0 of every group of part
 * c1), then over every other group from there. */
static void bcast_out(noc_gen_flow_t *f, const bcast_t *b, const char *const *steps)
{
    int n = b->n;
    noc_gen_flow_step(f, steps[2]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++) {
        int from[2] = { q != b->p0 ? node(n, b->c0, b->g0, q) : -1,
                        q != b->g0 ? node(n, b->c1, b->p0, q) : -1 };
        for (int i = 0; i < 2; i++)
            if (from[i] >= 0) {
                noc_gen_flow_send(f, from[i], swap_of(n, from[i]), tag, 0);
                noc_gen_flow_recv(f, swap_of(n, from[i]), from[i], tag, 0);
            }
    }
    noc_gen_flow_step(f, steps[3]);
    for (int g = 0; g < n; g++) {
        if (g != b->g0)
            noc_gen_group_bcast(f, &b->tp, node(n, b->c0, g, 0), 0);
        if (g != b->p0)
            noc_gen_group_bcast(f, &b->tg, node(n, b->c1, g, 0), 0);
    }
}

noc_program_t *noc_gen_bsn_broadcast(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                     size_t errlen)
{
    static const char *const steps[] = { "1:swap", "2:group-bcast", "3:swap", "4:group-bcast",
                                         NULL };
    if (check(t, a, "broadcast", err, errlen) != 0)
        return NULL;
    if (a->root < 0 || a->root >= t->n_nodes) {
        snprintf(err, errlen, "broadcast: root %d is not a node of %s (0 .. %d)", a->root,
                 t->spec, t->n_nodes - 1);
        return NULL;
    }
    const noc_topo_t *o = t->basis;
    bcast_t b;
    b.n = o->n_nodes;
    b.c0 = a->root / (b.n * b.n);
    b.g0 = (a->root % (b.n * b.n)) / b.n;
    b.p0 = a->root % b.n;
    b.c1 = 1 - b.c0;
    noc_program_t *p = noc_prog_new(t->n_nodes, "bsn-broadcast");
    for (int k = 0; k < a->words; k++) {
        int64_t x = noc_gen_value(a->seed, a->root, k);
        noc_prog_init(p, a->root, (uint32_t)k, x);
        for (int v = 0; v < t->n_nodes; v++)
            noc_prog_expect(p, v, (uint32_t)k, x);
    }
    for (int i = 0; steps[i]; i++)
        noc_prog_declare_step(p, steps[i]);
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    noc_gen_tree_bfs(o, b.p0, &b.tp);
    noc_gen_tree_bfs(o, b.g0, &b.tg);
    bcast_in(f, &b, steps);
    bcast_out(f, &b, steps);
    noc_gen_tree_free(&b.tp);
    noc_gen_tree_free(&b.tg);
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}

/* Every PE sends slot s to its swap partner, which receives it into d. */
static void swap_all(noc_gen_flow_t *f, int n, int s, int d)
{
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int v = 0; v < f->n_nodes; v++) {
        noc_gen_flow_send(f, v, swap_of(n, v), tag, s);
        noc_gen_flow_recv(f, v, swap_of(n, v), tag, d);
    }
}

noc_program_t *noc_gen_bsn_data_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                    size_t errlen)
{
    static const char *const steps[] = { "1:group-sum", "2:swap", "3:group-sum", "4:swap",
                                         "5:add", NULL };
    if (check(t, a, "data-sum", err, errlen) != 0)
        return NULL;
    const noc_topo_t *o = t->basis;
    int n = o->n_nodes;
    noc_program_t *p = start(t, a, "bsn-data-sum", steps);
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0;
        for (int v = 0; v < t->n_nodes; v++)
            sum += noc_gen_value(a->seed, v, k);
        for (int v = 0; v < t->n_nodes; v++)
            noc_prog_expect(p, v, (uint32_t)k, sum);
    }
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    int s1 = noc_gen_flow_slot(f), s2 = noc_gen_flow_slot(f), s3 = noc_gen_flow_slot(f),
        s4 = noc_gen_flow_slot(f);

    noc_gen_flow_step(f, steps[0]); /* s1: the sum of my group */
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_allreduce(f, o, grp * n, 0, s1);
    noc_gen_flow_step(f, steps[1]); /* s2: the sum of my swap partner's group */
    swap_all(f, n, s1, s2);
    noc_gen_flow_step(f, steps[2]); /* s3: the sum of the other part */
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_allreduce(f, o, grp * n, s2, s3);
    noc_gen_flow_step(f, steps[3]); /* s4: the sum of my own part */
    swap_all(f, n, s3, s4);
    noc_gen_flow_step(f, steps[4]);
    /* the paper counts Step 5's sum as one time unit (Step 1 and 3's group
     * sums cost one each: the exchange); variant paper charges it so */
    int paper = a->variant && strcmp(a->variant, "paper") == 0;
    for (int v = 0; v < t->n_nodes; v++) {
        noc_gen_flow_op(f, v, NOC_OP_COPY, 0, s3);
        noc_gen_flow_op_cost(f, v, NOC_OP_ADD, 0, s4, paper);
    }
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}

/* The prefix sum's slots: local prefix, the group totals received (A),
 * the modified (exclusive) prefix of A (E), what step 4 brings, the part-0
 * total, SD for the part-1 groups, and SD received. */
typedef struct prefix_slots {
    int ls, a, e, r4, x, sdn, sd;
} prefix_slots_t;

/* Steps 2 to 4 (Table 2): the group totals to the groups n-1 (part 0)
 * and 2n-1 (part 1, g = n-1 there), their modified prefix sums, and the
 * swap between their processors n-1. */
static void prefix_totals(noc_gen_flow_t *f, const noc_topo_t *o, const prefix_slots_t *s,
                          const char *const *steps)
{
    int n = o->n_nodes, last = n - 1;
    noc_gen_flow_step(f, steps[1]); /* totals: part 0 to group 2n-1, part 1 to group n-1 */
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int g = 0; g < n; g++)
        for (int c = 0; c < 2; c++) {
            int v = node(n, c, g, last);
            if (c == 1 && g == last)
                continue;
            noc_gen_flow_send(f, v, swap_of(n, v), tag, s->ls);
            noc_gen_flow_recv(f, swap_of(n, v), v, tag, s->a);
        }
    noc_gen_flow_step(f, steps[2]); /* modified prefix sums of A */
    noc_gen_group_prefix(f, o, node(n, 0, last, 0), s->a, -1, s->e);
    noc_gen_group_prefix(f, o, node(n, 1, last, 0), s->a, -1, s->e);
    noc_gen_flow_step(f, steps[3]); /* processors n-1 of groups n-1 and 2n-1 swap them */
    int u = node(n, 0, last, last), w = node(n, 1, last, last);
    tag = noc_gen_flow_tags(f, 1);
    noc_gen_flow_send(f, u, w, tag, s->e);
    noc_gen_flow_send(f, w, u, tag, s->e);
    noc_gen_flow_recv(f, u, w, tag, s->r4);
    noc_gen_flow_recv(f, w, u, tag, s->r4);
}

/* Steps 5 and 6: the part-0 total over group n-1, plus E there: the SD of
 * every part-1 group; then SD to processor n-1 of every group. */
static void prefix_offsets(noc_gen_flow_t *f, const noc_topo_t *o, const prefix_slots_t *s,
                           const char *const *steps)
{
    int n = o->n_nodes, last = n - 1, u = node(n, 0, last, last);
    noc_gen_flow_step(f, steps[4]);
    noc_gen_flow_op(f, u, NOC_OP_COPY, s->x, s->r4);
    noc_gen_flow_op(f, u, NOC_OP_ADD, s->x, s->ls);
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(o, last, &tr);
    noc_gen_group_bcast(f, &tr, node(n, 0, last, 0), s->x);
    noc_gen_tree_free(&tr);
    for (int q = 0; q < n; q++) {
        noc_gen_flow_op(f, node(n, 0, last, q), NOC_OP_COPY, s->sdn, s->x);
        noc_gen_flow_op(f, node(n, 0, last, q), NOC_OP_ADD, s->sdn, s->e);
    }
    noc_gen_flow_step(f, steps[5]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++) {
        int from[2] = { node(n, 0, last, q), node(n, 1, last, q) };
        int what[2] = { s->sdn, s->e };
        for (int i = 0; i < 2; i++) {
            noc_gen_flow_send(f, from[i], swap_of(n, from[i]), tag, what[i]);
            noc_gen_flow_recv(f, swap_of(n, from[i]), from[i], tag, s->sd);
        }
    }
}

noc_program_t *noc_gen_bsn_prefix_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                      size_t errlen)
{
    static const char *const steps[] = { "1:local-prefix", "2:totals", "3:group-prefix",
                                         "4:swap", "5:part0-total", "6:offsets",
                                         "7:group-bcast", "8:add", NULL };
    char why[256];
    if (check(t, a, "prefix-sum", err, errlen) != 0)
        return NULL;
    const noc_topo_t *o = t->basis;
    if (noc_gen_group_prefix_ok(o, why, sizeof why) != 0) {
        snprintf(err, errlen, "prefix-sum on %s: %s", t->spec, why);
        return NULL;
    }
    int n = o->n_nodes;
    noc_program_t *p = start(t, a, "bsn-prefix-sum", steps);
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0; /* in node order, which is the paper's */
        for (int v = 0; v < t->n_nodes; v++) {
            sum += noc_gen_value(a->seed, v, k);
            noc_prog_expect(p, v, (uint32_t)k, sum);
        }
    }
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    prefix_slots_t s;
    s.ls = noc_gen_flow_slot(f);
    s.a = noc_gen_flow_slot(f);
    s.e = noc_gen_flow_slot(f);
    s.r4 = noc_gen_flow_slot(f);
    s.x = noc_gen_flow_slot(f);
    s.sdn = noc_gen_flow_slot(f);
    s.sd = noc_gen_flow_slot(f);

    noc_gen_flow_step(f, steps[0]);
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_prefix(f, o, grp * n, 0, s.ls, -1);
    prefix_totals(f, o, &s, steps);
    prefix_offsets(f, o, &s, steps);
    noc_gen_flow_step(f, steps[6]); /* SD from processor n-1 over each group */
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(o, n - 1, &tr);
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_bcast(f, &tr, grp * n, s.sd);
    noc_gen_tree_free(&tr);
    noc_gen_flow_step(f, steps[7]); /* PS = SD + LS */
    for (int v = 0; v < t->n_nodes; v++) {
        noc_gen_flow_op(f, v, NOC_OP_COPY, 0, s.ls);
        noc_gen_flow_op(f, v, NOC_OP_ADD, 0, s.sd);
    }
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}
