/* otis.c: the OTIS or swapped network OTIS(Ω) (Parhami; Day and Al-Ayyoub),
 * otis:BASIS, over any basis Ω that noctua builds (basis.h).
 *
 * Nodes (g,p) for g, p in V(Ω) (n nodes each): n^2 nodes, numbered g*n + p;
 * group g is a copy of Ω over p. Links: intra-group, (g,p1) - (g,p2) for
 * every link p1 - p2 of Ω (class 0, "intra"); inter-group, (g,p) - (p,g) for
 * g != p (class 1, "optical": the optical transpose links of an OTIS
 * machine; the swap links of the swapped network). Node (g,g) has none.
 *
 * Ports: 1 .. deg_Ω(p) are Ω's ports of p in Ω's order, then the optical
 * port deg_Ω(p) + 1 where g != p.
 *
 * Labels: "(g,p)" with g and p in Ω's notation (noc_basis_label), e.g.
 * "(3,5)" in otis:ring:8, "((0,1),(2,3))" in otis:mesh:4x4.
 *
 * Routing, minimal. For (g1,p1) -> (g2,p2) with g1 != g2 a shortest path
 * uses one optical link, A = d(p1,g2) + 1 + d(g1,p2), or two, B = d(p1,p2)
 * + d(g1,g2) + 2 (three or more are never shorter, by the triangle
 * inequality). The route takes two when B < A, which implies p2 is neither
 * g1 nor g2 (if p2 == g2 then A = d(p1,p2) + d(g1,p2) + 1 < B; if p2 == g1
 * then A = d(p1,g2) + 1 < B), so the optical links (g1,p2) - (p2,g1) and
 * (p2,g2) - (g2,p2) exist:
 *   g1 == g2:  Ω-route p1 -> p2;
 *   one:       Ω-route p1 -> g2 in group g1, optical to (g2,g1), Ω-route
 *              g1 -> p2 in group g2;
 *   two:       Ω-route p1 -> p2 in group g1, optical to (p2,g1), Ω-route
 *              g1 -> g2 in group p2, optical to (g2,p2), the destination.
 * Ω-routes are Ω's routing function with the node where the packet entered
 * the group as its source; the groups g1, g2 (and p2) are distinct, so the
 * phase (optical links taken so far) follows from (cur, src, dst). VC class
 * = phase * B + Ω's class on intra links, phase * B on optical links;
 * n_vclasses = 2B (B = Ω's VC classes). The choice uses a table of Ω's
 * distances (n^2 16-bit entries, built once).
 *
 * Deadlock freedom: as for BSN (bsn.c): order channels by (phase, intra
 * before optical); intra channels of one phase and group carry only
 * Ω-routes (acyclic by Ω's argument); every other dependency goes forward
 * (intra of phase k -> optical of phase k -> intra of phase k + 1). */
#include "topologies/basis.h"
#include "topologies/fabrics.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct otis {
    noc_topo_t *basis; /* Ω */
    int n;             /* |V(Ω)| */
    uint16_t *d;       /* Ω's distances, [a * n + b] */
} otis_t;

static void otis_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const otis_t *o = t->priv;
    int n = o->n, entry, target, phase;
    if (cur == dst) {
        r->port = 0;
        r->vclass = 0;
        return;
    }
    int cg = cur / n, cp = cur % n;
    int g1 = src / n, p1 = src % n, g2 = dst / n, p2 = dst % n;
    if (g1 == g2) {
        entry = p1;
        target = p2;
        phase = 0;
    } else {
        const uint16_t *d = o->d;
        size_t nz = (size_t)n;
        int one = d[(size_t)p1 * nz + (size_t)g2] + 1 + d[(size_t)g1 * nz + (size_t)p2];
        int two = d[(size_t)p1 * nz + (size_t)p2] + d[(size_t)g1 * nz + (size_t)g2] + 2;
        int twice = p2 != g1 && p2 != g2 && two < one;
        if (cg == g1) {
            entry = p1;
            target = twice ? p2 : g2;
            phase = 0;
        } else {
            entry = g1; /* in group g2 (one) or p2 (two) */
            target = twice ? g2 : p2;
            phase = 1;
        }
    }
    noc_basis_group_step(o->basis, cp, entry, target, phase, r);
}

static void otis_label(const noc_topo_t *t, int id, char *buf, size_t len)
{
    const otis_t *o = t->priv;
    char g[112], p[112];
    noc_basis_label(o->basis, id / o->n, g, sizeof g);
    noc_basis_label(o->basis, id % o->n, p, sizeof p);
    snprintf(buf, len, "(%s,%s)", g, p);
}

static void otis_destroy(noc_topo_t *t)
{
    otis_t *o = t->priv;
    if (o) {
        noc_topo_destroy(o->basis);
        free(o->d);
    }
    free(o);
    t->priv = NULL;
}

static const noc_topo_ops_t otis_ops = {"otis", otis_route, otis_label, otis_destroy};

/* Groups as blocks, each block where Ω draws node g (scaled by the block
 * size), every group laid out as Ω draws itself. */
static void otis_layout(noc_topo_t *t, const otis_t *o)
{
    float box[4];
    const float *bp = o->basis->pos;
    noc_fab_bbox(o->basis, box);
    float w = box[2] - box[0], h = box[3] - box[1];
    float gap = 1.0f + 0.25f * (w > h ? w : h);
    t->pos = noc_xcalloc((size_t)t->n_nodes * 2, sizeof *t->pos, "topology");
    for (int id = 0; id < t->n_nodes; id++) {
        int g = id / o->n, p = id % o->n;
        t->pos[2 * id] = (bp[2 * g] - box[0]) * (w + gap) + bp[2 * p] - box[0];
        t->pos[2 * id + 1] = (bp[2 * g + 1] - box[1]) * (h + gap) + bp[2 * p + 1] - box[1];
    }
}

int noc_topo_build_otis(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                        char *why, size_t whylen)
{
    (void)kind;
    noc_topo_t *basis = noc_basis_create(arg, "otis", flags, why, whylen);
    if (!basis)
        return -1;
    int n = basis->n_nodes;
    if ((long long)n * n > NOC_TOPO_MAX_NODES) {
        snprintf(why, whylen, "a basis of %d nodes gives %lld nodes, more than %d", n,
                 (long long)n * n, NOC_TOPO_MAX_NODES);
        noc_topo_destroy(basis);
        return -1;
    }
    if (2 * basis->n_vclasses > NOC_TOPO_MAX_CLASSES) {
        snprintf(why, whylen,
                 "the basis uses %d VC classes; OTIS needs twice as many, at most %d",
                 basis->n_vclasses, NOC_TOPO_MAX_CLASSES);
        noc_topo_destroy(basis);
        return -1;
    }
    otis_t *o = noc_xcalloc(1, sizeof *o, "topology");
    o->basis = basis;
    o->n = n;
    t->priv = o;
    t->basis = basis;
    t->ops = &otis_ops;
    o->d = noc_basis_distances(basis);
    t->n_vclasses = 2 * basis->n_vclasses;
    t->n_classes = 2;
    snprintf(t->class_name[0], sizeof t->class_name[0], "intra");
    snprintf(t->class_name[1], sizeof t->class_name[1], "optical");

    noc_topo_alloc_nodes(t, n * n);
    for (int id = 0; id < t->n_nodes; id++) {
        int g = id / n, p = id % n;
        t->port_base[id + 1] = t->port_base[id] + 1 + noc_topo_degree(basis, p) + (g != p);
    }
    noc_topo_alloc_ports(t);
    noc_basis_wire_groups(t, basis, 0, n, 0);
    for (int g = 0; g < n; g++)
        for (int p = g + 1; p < n; p++) {
            int a = g * n + p, z = p * n + g; /* (g,p) - (p,g) */
            int ga = t->port_base[a] + noc_topo_degree(basis, p) + 1;
            int gz = t->port_base[z] + noc_topo_degree(basis, g) + 1;
            t->peer[ga] = gz;
            t->peer[gz] = ga;
            t->link_class[ga] = t->link_class[gz] = 1;
        }
    otis_layout(t, o);
    return 0;
}
