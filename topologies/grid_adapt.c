/* grid_adapt.c: adaptive routing on meshes, as route sets (model/graph.h's
 * noc_route_set_t) that the routers choose among by the state of their
 * outputs:
 *
 * - min_adapt (NOC_TOPO_F_MIN_ADAPT): minimal adaptive with Duato's escape.
 *   VC 0 of every port is the escape channel, routed in dimension order at
 *   priority 0; a packet not in it (or just injected) may also take VCs
 *   1 .. V-1 of any productive port (one per dimension that differs) at
 *   priority 1, each only while its buffer downstream is empty (atomic
 *   allocation: with a VC shared by packets, a head could hold an adaptive
 *   VC whose buffer is full of packets that wait on it, a cycle the escape
 *   cannot break). Once in the escape VC a packet stays there. Deadlock-free:
 *   the escape VCs alone are dimension order, acyclic, and every head can
 *   always ask for one.
 * - min_adapt_booksim (NOC_TOPO_F_MIN_ADAPT_BS): BookSim2's min_adapt_mesh
 *   as BookSim2 runs it. Its routing function adds the escape VC and an
 *   adaptive range for every productive port, but its OutputSet is a
 *   std::set ordered by priority alone, so of the adaptive ranges (all of
 *   priority 1) only the first, the lowest differing dimension's, is kept:
 *   VC 0 and VCs 1 .. V-1 of the dimension-order port, no atomic rule
 *   (BookSim2 28f4329, outputset.hpp operator<, routefunc.cpp
 *   min_adapt_mesh). What BookSim2 files with min_adapt get.
 * - planar_adapt_booksim (NOC_TOPO_F_PLANAR_BS): BookSim2's planar_adapt_mesh
 *   as BookSim2 runs it without faults: of its two entries for the
 *   adaptive plane (the lowest differing dimension d_i on VCs 2*(V/3) ..
 *   V-1, then d_i+1 on a third below), both of priority 0, its set keeps
 *   the first, so every packet goes in dimension order on the upper third
 *   of the VCs (all VCs where V < 3); its misroutes happen only around
 *   faulty channels, which BookSim2 files set with fault keys noctua
 *   refuses. One candidate: deterministic, through the adaptive path for
 *   its VC range.
 * - adaptive_xy_yx (NOC_TOPO_F_ADAPT_XY_YX, BookSim2's adaptive_xy_yx_mesh):
 *   at its source's router a packet takes x first on the lower half of the
 *   VCs or y first (highest dimension first) on the upper half, whichever
 *   port has fewer flits sent downstream and not credited back, a tie
 *   drawn from the packet's random word; at every later router the half
 *   of its VC says its order. Each order on its own half is acyclic. (With
 *   an odd V the upper half has the extra VC; BookSim2's halves share one
 *   there, and BookSim2 files with an odd num_vcs are refused.)
 *
 * At the destination's router all eject on any VC. ops->route stays
 * dimension order (the escape route: of the same length as every route
 * taken, for hop counts). */
#include "topologies/topo_internal.h"
#include <stdio.h>

/* Coordinates of n, dimension 0 first. */
static void coords(const noc_topo_t *t, int n, int *c)
{
    for (int d = 0; d < t->dims; d++) {
        c[d] = n % t->k[d];
        n /= t->k[d];
    }
}

/* Node cur's port (coordinates cc) toward decreasing (down = 1) or
 * increasing coordinates in dimension d: port 0 is local, then each
 * dimension's + port (unless at k-1) and - port (unless at 0). */
static int mesh_port(const noc_topo_t *t, const int *cc, int d, int down)
{
    int port = 1;
    for (int e = 0; e < d; e++)
        port += (cc[e] < t->k[e] - 1) + (cc[e] > 0);
    return port + (down && cc[d] < t->k[d] - 1);
}

/* The first (lowest, or highest with high = 1) dimension where cc and dc
 * differ, -1 for none. */
static int first_diff(const noc_topo_t *t, const int *cc, const int *dc, int high)
{
    for (int i = 0; i < t->dims; i++) {
        int d = high ? t->dims - 1 - i : i;
        if (cc[d] != dc[d])
            return d;
    }
    return -1;
}

/* An empty set, and the coordinates of cur and dst. */
static void start(const noc_topo_t *t, int cur, int dst, int *cc, int *dc, noc_route_set_t *rs)
{
    rs->n = 0;
    rs->pick = 0;
    rs->pick_bit = 0;
    coords(t, cur, cc);
    coords(t, dst, dc);
}

static void add(noc_route_set_t *rs, int port, int lo, int hi, int pri, int empty)
{
    noc_route_cand_t *c = &rs->c[rs->n++];
    c->port = (uint8_t)port;
    c->lo = (uint8_t)lo;
    c->hi = (uint8_t)hi;
    c->pri = (uint8_t)pri;
    c->empty = (uint8_t)empty;
}

/* min_adapt; booksim: BookSim2's set, the first adaptive range only. */
static void min_adapt(const noc_topo_t *t, int cur, int dst, int V, int in_vc, int booksim, noc_route_set_t *rs)
{
    int cc[NOC_TOPO_MAX_DIMS], dc[NOC_TOPO_MAX_DIMS];
    start(t, cur, dst, cc, dc, rs);
    int d = first_diff(t, cc, dc, 0);
    if (d < 0) {
        add(rs, 0, 0, V, 0, 0);
        return;
    }
    add(rs, mesh_port(t, cc, d, dc[d] < cc[d]), 0, 1, 0, 0); /* the escape VC, in dimension order */
    if (in_vc == 0)
        return; /* in the escape VC: stays there */
    for (int e = d; e < t->dims; e++) {
        if (cc[e] == dc[e])
            continue;
        add(rs, mesh_port(t, cc, e, dc[e] < cc[e]), 1, V, 1, !booksim);
        if (booksim)
            return;
    }
}

static void min_adapt_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V, int in_vc,
                          noc_route_set_t *rs)
{
    (void)src, (void)salt, (void)hops;
    min_adapt(ctx, cur, dst, V, in_vc, 0, rs);
}

static void min_adapt_booksim_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V,
                                  int in_vc, noc_route_set_t *rs)
{
    (void)src, (void)salt, (void)hops;
    min_adapt(ctx, cur, dst, V, in_vc, 1, rs);
}

static void planar_booksim_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V,
                               int in_vc, noc_route_set_t *rs)
{
    const noc_topo_t *t = ctx;
    int cc[NOC_TOPO_MAX_DIMS], dc[NOC_TOPO_MAX_DIMS];
    (void)src, (void)salt, (void)hops, (void)in_vc;
    start(t, cur, dst, cc, dc, rs);
    int d = first_diff(t, cc, dc, 0);
    if (d < 0)
        add(rs, 0, 0, V, 0, 0);
    else
        add(rs, mesh_port(t, cc, d, dc[d] < cc[d]), 2 * (V / 3), V, 0, 0);
}

static void adapt_xy_yx_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V, int in_vc,
                            noc_route_set_t *rs)
{
    const noc_topo_t *t = ctx;
    int cc[NOC_TOPO_MAX_DIMS], dc[NOC_TOPO_MAX_DIMS];
    (void)src, (void)hops;
    start(t, cur, dst, cc, dc, rs);
    int dx = first_diff(t, cc, dc, 0), half = V / 2;
    if (dx < 0) {
        add(rs, 0, 0, V, 0, 0);
        return;
    }
    int dy = first_diff(t, cc, dc, 1);
    int px = mesh_port(t, cc, dx, dc[dx] < cc[dx]), py = mesh_port(t, cc, dy, dc[dy] < cc[dy]);
    if (in_vc < 0) { /* at the source's router: the less used of the two */
        add(rs, px, 0, half, 0, 0);
        add(rs, py, half, V, 0, 0);
        rs->pick = 1;
        rs->pick_bit = !(salt & 1u);
    } else if (in_vc < half) {
        add(rs, px, 0, half, 0, 0);
    } else {
        add(rs, py, half, V, 0, 0);
    }
}

int noc_topo_grid_adapt(noc_topo_t *t, unsigned flags, char *why, size_t whylen)
{
    unsigned which =
        flags & (NOC_TOPO_F_MIN_ADAPT | NOC_TOPO_F_MIN_ADAPT_BS | NOC_TOPO_F_ADAPT_XY_YX | NOC_TOPO_F_PLANAR_BS);
    if (!which)
        return 0;
    if (which & NOC_TOPO_F_MIN_ADAPT && t->dims + 1 > NOC_ROUTE_SET_MAX) {
        snprintf(why, whylen, "min_adapt takes meshes of up to %d dimensions (%d given)", NOC_ROUTE_SET_MAX - 1,
                 t->dims);
        return -1;
    }
    t->route_set = which & NOC_TOPO_F_MIN_ADAPT      ? min_adapt_set
                   : which & NOC_TOPO_F_MIN_ADAPT_BS ? min_adapt_booksim_set
                   : which & NOC_TOPO_F_PLANAR_BS    ? planar_booksim_set
                                                     : adapt_xy_yx_set;
    t->route_needs_src = 1; /* the header's salt (adaptive_xy_yx's ties) */
    t->n_vclasses = which & NOC_TOPO_F_PLANAR_BS ? 1 : 2; /* (escape and adaptive; or the two halves) */
    return 0;
}
