/* dragonfly.c: the dragonfly, dragonfly:P: BookSim2's dragonflynew
 * (networks/dragonfly.cpp) with k = P and n = 1 (docs/fabrics/dragonfly.md).
 *
 * P terminals on every router, a = 2P routers in a group, joined all to
 * all by local links, P global links on every router, g = aP + 1 groups,
 * every pair of groups joined by exactly one global link. Router r is
 * router i = r % a of group G = r / a; terminal t sits on router t / P at
 * local port t % P (BookSim2's numbering). A router's ports: its P local
 * ports, then 2P - 1 local links (port P + m toward router m of its group
 * when m < i, router m + 1 when m >= i), then P global links (port 3P - 1 + c
 * is the group's global link x = iP + c, toward group x when x < G, group
 * x + 1 otherwise). BookSim2 pairs every output channel with the input
 * channel of the same index from the same neighbour, so each port is one
 * two-way link here. Link classes: `local` and `global` (BookSim2 gives
 * them 10 and 100 cycles; the BookSim2 file translation sets them, the
 * SPEC alone takes the class latencies).
 *
 * Routing: BookSim2's min_dragonflynew: in the destination's group, to its
 * router; elsewhere to the router of this group that holds the global link
 * toward the destination's group, then across it: at most local, global,
 * local. VC classes as its phases: class 0 in the source's group, class 1
 * on the global link and after it (so the route needs the source). Class 0
 * channels lead only to class 0 local links of the same group once, or to
 * class 1; class 1 local links lead only to ejection: no cycle. A packet
 * also ejects on a VC of its phase's class (eject_vclass), as BookSim2's
 * min_dragonflynew asks for VC ph at the ejection port too.
 *
 * With NOC_TOPO_F_UGAL, BookSim2's ugal_dragonflynew (3 VCs, VC c = class
 * c): a route set read by the vc router. At the source's router a packet
 * for its own group takes the minimal way on VC 2 (phase 2); for another
 * group, a router m is drawn from its word (BookSim2: a terminal of the
 * whole network); if m is in this group, the minimal way (phase 1), else
 * the router keeps the minimal way (phase 1) when its port's used credits
 * are at most 2 times those of the port toward m plus 30, else the way
 * toward m (phase 0, on VC 0, local, global, local, until m, then phase
 * 1). In phase 1 a global hop and all after it go on phase 2. Each hop and
 * the ejection on VC phase. Later routers read the phase from the VC the
 * head came in on. BookSim2 claims no freedom from deadlock for it and the
 * channel dependencies of phase 0 do close cycles (a local hop before a
 * global one in one group is the last local hop of another packet's way to
 * its m there; ctest topologies.dragonfly_ugal shows one): noctua's
 * detector reports one if it happens. */
#include "topologies/fabrics.h"
#include "model/rng.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A router has 4P - 1 ports, at most 63 (model/sim_internal.h). */
#define DFLY_MAX_P 16

typedef struct dfly {
    int p, a, g; /* terminals (and global links) per router, routers per group, groups */
} dfly_t;

/* The global link index x (0 .. aP - 1) of group `from` toward group `to`. */
static int global_index(int from, int to)
{
    return to < from ? to : to - 1;
}

/* The port of router i of a group toward router j of the same group. */
static int local_port(const dfly_t *d, int i, int j)
{
    return d->p + (j < i ? j : j - 1);
}

static void dfly_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const dfly_t *d = t->priv;
    int grp = cur / d->a, dgrp = dst / (d->a * d->p), sgrp = src / (d->a * d->p);
    int phase = sgrp != grp; /* 1 once the packet has crossed its global link */
    if (dst / d->p == cur) {
        r->port = (uint8_t)(dst % d->p);
        r->vclass = (uint8_t)phase;
        return;
    }
    int target = dst / d->p, x = 0;
    if (dgrp != grp) { /* toward the router of this group with the global link */
        x = global_index(grp, dgrp);
        target = grp * d->a + x / d->p;
    }
    if (target == cur) {
        r->port = (uint8_t)(3 * d->p - 1 + x % d->p);
        r->vclass = 1;
    } else {
        r->port = (uint8_t)local_port(d, cur % d->a, target % d->a);
        r->vclass = (uint8_t)phase;
    }
}

/* BookSim2's dragonfly_port: router cur's port toward terminal t (or, with
 * t = -1 - m, toward router m: never its local port); *global set when it
 * is a global link. */
static int port_to(const dfly_t *d, int cur, int t, int *global)
{
    int grp = cur / d->a, router = t >= 0 ? t / d->p : -1 - t, tgrp = router / d->a;
    *global = 0;
    if (router == cur)
        return t % d->p;
    int target = router, x = 0;
    if (tgrp != grp) {
        x = global_index(grp, tgrp);
        target = grp * d->a + x / d->p;
    }
    if (target == cur) {
        *global = 1;
        return 3 * d->p - 1 + x % d->p;
    }
    return local_port(d, cur % d->a, target % d->a);
}

static void cand(noc_route_set_t *rs, int port, int vc)
{
    noc_route_cand_t *c = &rs->c[rs->n++];
    c->port = (uint8_t)port;
    c->lo = (uint8_t)vc;
    c->hi = (uint8_t)(vc + 1);
    c->pri = 0;
    c->empty = 0;
}

/* The phase-1 candidate toward dst: phase 2 from a global hop on. */
static void toward_dst(const dfly_t *d, int cur, int dst, int ph, noc_route_set_t *rs)
{
    int global, port = port_to(d, cur, dst, &global);
    cand(rs, port, ph == 1 && global ? 2 : ph);
}

static void dfly_ugal_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V, int in_vc,
                          noc_route_set_t *rs)
{
    const dfly_t *d = ((const noc_topo_t *)ctx)->priv;
    int grp = cur / d->a, dgrp = dst / (d->a * d->p), global;
    int m = (int)(noc_rng_mix(salt) % (uint64_t)(d->a * d->g));
    (void)src, (void)hops, (void)V;
    rs->n = rs->pick = rs->pick_bit = 0;
    if (in_vc < 0) {
        if (dgrp == grp || m / d->a == grp) {
            toward_dst(d, cur, dst, dgrp == grp ? 2 : 1, rs);
            return;
        }
        toward_dst(d, cur, dst, 1, rs);
        cand(rs, port_to(d, cur, -1 - m, &global), 0);
        rs->pick = 2;
        rs->pick_w[0] = 1;
        rs->pick_w[1] = 2;
        rs->pick_thr = 30;
        return;
    }
    if (in_vc == 0 && cur != m)
        cand(rs, port_to(d, cur, -1 - m, &global), 0);
    else
        toward_dst(d, cur, dst, in_vc == 0 ? 1 : in_vc, rs);
}

static void dfly_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    const dfly_t *d = t->priv;
    snprintf(buf, len, "(%d,%d)", n / d->a, n % d->a);
}

static const noc_topo_ops_t dfly_ops = { "dragonfly", dfly_route, dfly_label, noc_fab_free_priv };

/* "P" into d; 0, or -1 with why. */
static int parse(const char *arg, dfly_t *d, char *why, size_t whylen)
{
    const char *p = arg ? arg : "";
    long v = noc_fab_read_num(p, 1L << 20, &p);
    if (v < 0 || *p) {
        snprintf(why, whylen, "expected dragonfly:P (P terminals and P global links on every router, "
                              "2P routers in a group, 2P*P + 1 groups: BookSim2's dragonflynew with k = P, "
                              "n = 1)");
        return -1;
    }
    if (v < 1 || v > DFLY_MAX_P) {
        snprintf(why, whylen, "P from 1 to %d (a router has 4P - 1 ports, at most 63)", DFLY_MAX_P);
        return -1;
    }
    d->p = (int)v;
    d->a = 2 * d->p;
    d->g = d->a * d->p + 1;
    return 0;
}

/* Drawing: the groups on a circle, each group's routers on a small circle
 * around its place. */
static void layout(noc_topo_t *t, const dfly_t *d)
{
    const double pi = 3.14159265358979323846;
    double rg = d->a / (2 * sin(pi / d->a)) + 1.0;   /* a group's radius: routers one unit apart */
    double big = d->g * (2 * rg + 1.0) / (2 * pi); /* groups' circle: groups a unit apart */
    t->pos = noc_xcalloc((size_t)t->n_nodes * 2, sizeof *t->pos, "topology");
    for (int v = 0; v < t->n_nodes; v++) {
        double ag = 2 * pi * (v / d->a) / d->g, ar = 2 * pi * (v % d->a) / d->a;
        t->pos[2 * v] = (float)(big + rg + big * cos(ag) + (rg - 1.0) * cos(ar));
        t->pos[2 * v + 1] = (float)(big + rg + big * sin(ag) + (rg - 1.0) * sin(ar));
    }
}

int noc_topo_build_dragonfly(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                             size_t whylen)
{
    (void)kind;
    dfly_t d;
    if (parse(arg, &d, why, whylen) != 0)
        return -1;
    t->priv = noc_xmalloc(sizeof d, "topology");
    memcpy(t->priv, &d, sizeof d);
    t->ops = &dfly_ops;
    int P = d.p, n = d.a * d.g, ports = 4 * P - 1;
    noc_topo_alloc_nodes(t, n);
    for (int v = 0; v < n; v++)
        t->port_base[v + 1] = t->port_base[v] + ports;
    noc_topo_alloc_ports(t);
    int *locals = noc_xcalloc((size_t)n, sizeof *locals, "topology");
    int *list = noc_xcalloc((size_t)n * (size_t)P, sizeof *list, "topology");
    for (int v = 0; v < n; v++) {
        locals[v] = P;
        for (int i = 0; i < P; i++)
            list[v * P + i] = v * P + i;
    }
    noc_topo_set_terminals(t, n * P, locals, list);
    free(locals);
    free(list);
    for (int v = 0; v < n; v++) {
        int grp = v / d.a, i = v % d.a, base = t->port_base[v];
        for (int j = 0; j < d.a; j++) { /* local links */
            if (j == i)
                continue;
            int u = grp * d.a + j;
            t->peer[base + local_port(&d, i, j)] = t->port_base[u] + local_port(&d, j, i);
            t->link_class[base + local_port(&d, i, j)] = 0;
        }
        for (int c = 0; c < P; c++) { /* global links */
            int x = i * P + c, h = x < grp ? x : x + 1, y = global_index(h, grp);
            int u = h * d.a + y / P;
            t->peer[base + 3 * P - 1 + c] = t->port_base[u] + 3 * P - 1 + y % P;
            t->link_class[base + 3 * P - 1 + c] = 1;
        }
    }
    t->n_classes = 2;
    memcpy(t->class_name[0], "local", 6);
    memcpy(t->class_name[1], "global", 7);
    t->n_vclasses = 2;
    t->route_needs_src = 1;
    t->eject_vclass = 1; /* BookSim2 ejects on VC ph, as it routes */
    if (flags & NOC_TOPO_F_UGAL) {
        t->n_vclasses = 3;
        t->route_set = dfly_ugal_set; /* ops->route: minimal, its escape */
    }
    layout(t, &d);
    return 0;
}
