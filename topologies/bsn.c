/* bsn.c: the biswapped network Σ(Ω) of Xiao et al. (Wei and Xiao, ICCS 2008,
 * Definition 1), bsn:BASIS, over any basis Ω that noctua builds (basis.h).
 *
 * Nodes <g,p,c> for g, p in V(Ω) (n nodes) and part c in {0,1}: 2n^2 nodes,
 * numbered c*n^2 + g*n + p. Group g of part c is a copy of Ω over p.
 * Links: intra-group, <g,p1,c> - <g,p2,c> for every link p1 - p2 of Ω
 * (class 0, "intra"); swap, <g,p,0> - <p,g,1> for all g, p including g == p
 * (class 1, "swap"). The definition's second swap set, (<g,p,1>, <p,g,0>),
 * names the same links from their other end. Degree deg(Ω) + 1.
 *
 * Ports: 1 .. deg_Ω(p) are Ω's ports of p in Ω's order, deg_Ω(p) + 1 is the
 * swap port.
 *
 * Labels: "<g,p,c>" with g and p in Ω's notation (noc_basis_label: a ring's
 * nodes as numbers, a mesh's as "(x,y)", a hypercube's as bit strings, a
 * graph file's names), e.g. "<3,5,0>" in bsn:ring:8, "<(0,1),(2,3),1>" in
 * bsn:mesh:4x4.
 *
 * Routing (minimal; distance d(p1,p2) in one group, d(p1,p2) + d(g1,g2) + 2
 * between groups of one part, d(p1,g2) + 1 + d(g1,p2) between parts):
 *   same part, same group:  Ω-route p1 -> p2 in the group;
 *   same part, g1 != g2:    Ω-route p1 -> p2 in group g1, swap to
 *                           <p2,g1,1-c>, Ω-route g1 -> g2 in group p2, swap
 *                           to <g2,p2,c>, the destination;
 *   other part:             Ω-route p1 -> g2 in group g1, swap to
 *                           <g2,g1,1-c>, Ω-route g1 -> p2 in group g2.
 * Every Ω-route is Ω's own routing function with the node where the packet
 * entered the group as its source. The phase (swaps taken so far, 0 or 1)
 * follows from (cur, src, dst): in the first case and in part c the packet
 * is in phase 0, in part 1-c in phase 1. VC class = phase * B + Ω's class
 * (B = Ω's VC classes) on intra links, phase * B on swap links; n_vclasses =
 * 2B.
 *
 * Deadlock freedom: order the channels by (phase, intra before swap); within
 * one phase and group the intra channels carry only Ω-routes, whose
 * dependency graph is acyclic by Ω's own argument (groups are disjoint
 * copies); an intra channel of phase k leads only to intra channels of
 * phase k in its group or to a swap channel of phase k, and a swap channel
 * of phase k only to intra channels of phase k + 1 (or to ejection). Every
 * dependency goes forward in this order or inside one acyclic Ω copy, so the
 * channel dependency graph is acyclic. */
#include "topologies/basis.h"
#include "topologies/fabrics.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bsn {
    noc_topo_t *basis; /* Ω */
    int n;             /* |V(Ω)| */
    int nn;            /* n * n: nodes per part */
} bsn_t;

static void bsn_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const bsn_t *b = t->priv;
    int n = b->n, nn = b->nn;
    int entry, target, phase;
    if (cur == dst) {
        r->port = 0;
        r->vclass = 0;
        return;
    }
    int cc = cur / nn, cp = cur % n;
    int sc = src / nn, sg = (src % nn) / n, sp = src % n;
    int dc = dst / nn, dg = (dst % nn) / n, dp = dst % n;
    if (sc == dc) {
        if (sg == dg || cc == sc) {
            entry = sp; /* in group sg, toward processor dp */
            target = dp;
            phase = 0;
        } else {
            entry = sg; /* in group dp of the other part, toward dg */
            target = dg;
            phase = 1;
        }
    } else if (cc == sc) {
        entry = sp; /* in group sg, toward processor dg */
        target = dg;
        phase = 0;
    } else {
        entry = sg; /* in group dg of the other part, toward dp */
        target = dp;
        phase = 1;
    }
    noc_basis_group_step(b->basis, cp, entry, target, phase, r);
}

static void bsn_label(const noc_topo_t *t, int id, char *buf, size_t len)
{
    const bsn_t *b = t->priv;
    char g[112], p[112];
    noc_basis_label(b->basis, (id % b->nn) / b->n, g, sizeof g);
    noc_basis_label(b->basis, id % b->n, p, sizeof p);
    snprintf(buf, len, "<%s,%s,%d>", g, p, id / b->nn);
}

static void bsn_destroy(noc_topo_t *t)
{
    bsn_t *b = t->priv;
    if (b)
        noc_topo_destroy(b->basis);
    free(b);
    t->priv = NULL;
}

static const noc_topo_ops_t bsn_ops = {"bsn", bsn_route, bsn_label, bsn_destroy};

/* Fig. 1 of the paper: part 0 above part 1, each part a row of its groups
 * (rows of up to 8 groups, wrapped into a block grid beyond), every group
 * laid out as Ω draws itself. */
static void bsn_layout(noc_topo_t *t, const bsn_t *b)
{
    float box[4];
    int n = b->n;
    noc_fab_bbox(b->basis, box);
    float w = box[2] - box[0], h = box[3] - box[1];
    float gap = 1.0f + 0.25f * (w > h ? w : h);
    int cols = n <= 8 ? n : (int)ceil(sqrt((double)n));
    int rows = (n + cols - 1) / cols;
    float bw = w + gap, bh = h + gap;
    float part_h = (float)rows * bh + 2.0f * gap; /* room for the swap links */
    t->pos = noc_xcalloc((size_t)t->n_nodes * 2, sizeof *t->pos, "topology");
    for (int id = 0; id < t->n_nodes; id++) {
        int c = id / b->nn, g = (id % b->nn) / n, p = id % n;
        t->pos[2 * id] = (float)(g % cols) * bw + b->basis->pos[2 * p] - box[0];
        t->pos[2 * id + 1] =
            (float)c * part_h + (float)(g / cols) * bh + b->basis->pos[2 * p + 1] - box[1];
    }
}

int noc_topo_build_bsn(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                       char *why, size_t whylen)
{
    (void)kind;
    noc_topo_t *basis = noc_basis_create(arg, "bsn", flags, why, whylen);
    if (!basis)
        return -1;
    int n = basis->n_nodes;
    if (2LL * n * n > NOC_TOPO_MAX_NODES) {
        snprintf(why, whylen, "a basis of %d nodes gives %lld nodes, more than %d", n,
                 2LL * n * n, NOC_TOPO_MAX_NODES);
        noc_topo_destroy(basis);
        return -1;
    }
    if (2 * basis->n_vclasses > NOC_TOPO_MAX_CLASSES) {
        snprintf(why, whylen, "the basis uses %d VC classes; BSN needs twice as many, at most %d",
                 basis->n_vclasses, NOC_TOPO_MAX_CLASSES);
        noc_topo_destroy(basis);
        return -1;
    }
    bsn_t *b = noc_xcalloc(1, sizeof *b, "topology");
    b->basis = basis;
    b->n = n;
    b->nn = n * n;
    t->priv = b;
    t->basis = basis;
    t->ops = &bsn_ops;
    t->n_vclasses = 2 * basis->n_vclasses;
    t->n_classes = 2;
    snprintf(t->class_name[0], sizeof t->class_name[0], "intra");
    snprintf(t->class_name[1], sizeof t->class_name[1], "swap");

    noc_topo_alloc_nodes(t, 2 * b->nn);
    for (int id = 0; id < t->n_nodes; id++)
        t->port_base[id + 1] = t->port_base[id] + 2 + noc_topo_degree(basis, id % n);
    noc_topo_alloc_ports(t);
    noc_basis_wire_groups(t, basis, 0, n, 0);
    noc_basis_wire_groups(t, basis, b->nn, n, 0);
    for (int g = 0; g < n; g++)
        for (int p = 0; p < n; p++) {
            int a = g * n + p, z = b->nn + p * n + g; /* <g,p,0> - <p,g,1> */
            int ga = t->port_base[a] + noc_topo_degree(basis, p) + 1;
            int gz = t->port_base[z] + noc_topo_degree(basis, g) + 1;
            t->peer[ga] = gz;
            t->peer[gz] = ga;
            t->link_class[ga] = t->link_class[gz] = 1;
        }
    bsn_layout(t, b);
    return 0;
}
