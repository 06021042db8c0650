/* gen_group.c: the group-level steps of the fabric generators
 * (gen_fabric.h), each inside one copy of the basis Ω, through the dataflow
 * builder (gen_flow.c): broadcast down a BFS tree; all-reduce dimension by
 * dimension on rings, meshes, tori and hypercubes, by one exchange on a
 * complete graph, up and down a tree from a centre on any other basis; and
 * prefix sums along lines, 2-D grids, hypercubes and complete graphs. The
 * BSN (gen_bsn.c) and OTIS (gen_otis.c) algorithms are made of them. */
#include "traffic/gen_flow_internal.h"
#include "topologies/basis.h"
#include <stdio.h>
#include <stdlib.h>

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
    int k = noc_topo_k(o, d), c = (q / noc_topo_stride(o, d)) % k, c2 = c + delta;
    if (c2 < 0 || c2 >= k) {
        if (!wrap || !noc_topo_wrap(o))
            return -1;
        c2 = (c2 + k) % k;
    }
    return q + (c2 - c) * noc_topo_stride(o, d);
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
    for (int q = 0; q < noc_topo_nodes(o); q++) {
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
    int k = noc_topo_k(o, d), up = k / 2, down = (k - 1) / 2;
    int32_t tag = noc_gen_flow_tags(f, 2 * (up + 1));
    for (int q = 0; q < noc_topo_nodes(o); q++) {
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
    int n = noc_topo_nodes(o), best = 0, best_ecc = -1;
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
    for (int q = 0; q < noc_topo_nodes(o); q++) {
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

int noc_gen_group_allreduce_steps(const noc_topo_t *o)
{
    int n = noc_topo_nodes(o), diam = 0, rad = -1;
    uint16_t *d = noc_basis_distances(o);
    for (int a = 0; a < n; a++) {
        int ecc = 0;
        for (int b = 0; b < n; b++)
            if (d[(size_t)a * (size_t)n + (size_t)b] > ecc)
                ecc = d[(size_t)a * (size_t)n + (size_t)b];
        diam = ecc > diam ? ecc : diam;
        rad = rad < 0 || ecc < rad ? ecc : rad;
    }
    free(d);
    return noc_gen_is(o, "complete") || is_grid(o) ? diam : 2 * rad;
}

void noc_gen_group_allreduce(noc_gen_flow_t *f, const noc_topo_t *o, int base, int in, int out)
{
    for (int q = 0; q < noc_topo_nodes(o) && in != out; q++)
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, out, in);
    if (noc_gen_is(o, "complete"))
        exchange_sum(f, noc_topo_nodes(o), base, out);
    else if (is_grid(o))
        for (int d = 0; d < noc_topo_dims(o); d++) {
            if (noc_topo_wrap(o))
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
    for (int q = 0; q < noc_topo_nodes(o); q++) {
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
    for (int q = 0; q < noc_topo_nodes(o); q++) {
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, z, in);
        noc_gen_flow_op(f, base + q, NOC_OP_ADD, z, c);
    }
    line_prefix(f, o, base, 0, +1, z, zi, ze);
    line_prefix(f, o, base, 0, -1, c, si, se);
    for (int q = 0; q < noc_topo_nodes(o); q++) {
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
    for (int q = 0; q < noc_topo_nodes(o); q++) {
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, inc, in);
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, tot, in);
        noc_gen_flow_op(f, base + q, NOC_OP_COPY, exc, NOC_GEN_ZERO_SLOT);
    }
    for (int d = 0; d < noc_topo_dims(o); d++) {
        int32_t tag = noc_gen_flow_tags(f, 1);
        for (int q = 0; q < noc_topo_nodes(o); q++) {
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
    if ((noc_gen_is(o, "mesh") || noc_gen_is(o, "torus")) && noc_topo_dims(o) <= 2)
        return 0;
    snprintf(why, whylen,
             "the basis %s has no node order its groups can sum along (supported: ring, mesh or "
             "torus of 1 or 2 dimensions, hypercube, complete)",
             noc_topo_spec(o));
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
        exchange_prefix(f, noc_topo_nodes(o), base, in, inc, exc);
    else if (noc_gen_is(o, "hypercube"))
        cube_prefix(f, o, base, in, inc, exc);
    else if (noc_topo_dims(o) == 1)
        line_prefix(f, o, base, 0, +1, in, inc, exc);
    else
        grid2_prefix(f, o, base, in, inc, exc);
}
