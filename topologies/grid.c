/* grid.c: k-ary n-dimensional grids: ring:N, mesh:AxBx..., torus:AxBx... and
 * hypercube:D, with their labels and dimension-order routing.
 *
 * Shape. Node n has coordinate c_i = (n / stride[i]) % k[i], dimension 0
 * varying fastest. A ring is a one-dimensional torus. A hypercube is a mesh
 * with k = 2 in every dimension (one link per dimension: a torus of size 2
 * would double every link, so tori need k >= 3).
 *
 * Ports. Port 0 is local. Then, for each dimension d in order, the + port (to
 * c_d + 1) and the - port (to c_d - 1), each only where the neighbour exists:
 *   torus, ring:  + at 1 + 2d, - at 2 + 2d, at every node;
 *   mesh:         as many ports as neighbours; a node at an edge of
 *                 dimension d has one port there, and the ports of higher
 *                 dimensions move down to close the gap;
 *   hypercube:    port d + 1 flips bit d (every k = 2 dimension of a mesh
 *                 gives a node exactly one port).
 * Links of dimension d have link class d, named "dim<d>".
 *
 * Routing: dimension order, lowest dimension first, minimal.
 *   mesh, hypercube (e-cube): one VC class.
 *   torus, ring: per dimension the shorter way round; at a tie (k even, the
 *   + distance exactly k/2) the + way from an even source coordinate and
 *   the - way from an odd one (the packet entered the dimension at its
 *   source's coordinate, so this is fixed for the packet). Along the chosen
 *   way the distance only shrinks, so the choice holds along the path. Two VC classes with a dateline at the wraparound link, balanced:
 *     class 0  while the rest of the path in this dimension still crosses
 *              the wraparound link (+ way: c > dst; - way: c < dst);
 *     class 1  after it crossed it (the packet entered the dimension at its
 *              source's coordinate s, so: + way: s > dst >= c);
 *     dst & 1  (either class, fixed by the destination coordinate) for a
 *              packet whose path in this dimension never wraps.
 *   Using both classes for packets that never wrap doubles the VCs they can
 *   use on most links; the source makes the rule a function of (current,
 *   source, destination), so it still travels one router ahead.
 *
 * Why this is deadlock-free: take one ring of dimension d and one direction,
 * say +. A packet's class never goes from 1 to 0 within the ring: a packet
 * that wraps is class 0 up to and over the wraparound link and class 1 after
 * it; one that never wraps keeps one class. Class 1 channels never include
 * the wraparound link (a class 1 packet has wrapped already, or never
 * wraps), so class 1 dependencies go from position c to c+1 without closing
 * a cycle. Class 0 channels: packets that never wrap do not reach the
 * wraparound link; packets that wrap climb to it and leave class 0 on it;
 * so class 0 dependencies also run from c to c+1 with the wraparound link
 * last, from where they only lead into class 1. With no edge from class 1
 * back to class 0, and dimension order taking dimensions in increasing
 * order, the channel dependency graph is ordered by (dimension, class,
 * position) and has no cycle (Dally and Seitz). With NOC_TOPO_F_NO_DATELINE
 * everything is class 0 and the rings are cyclic: kept to test the deadlock
 * detector.
 *
 * With NOC_TOPO_F_WRAP_CLASS (routing_function = dor_booksim, what BookSim2
 * files get for its dim_order_torus, routefunc.cpp) the classes are
 * BookSim2's instead: in each dimension, class 1 for a packet whose path
 * there wraps (+ way: s > dst; - way: s < dst), from its first hop in the
 * dimension to its last, and class 0 for one whose path does not. Also
 * deadlock-free: class 0 never takes a wraparound link, and on the + way
 * the class 1 paths of minimal routing run from s > dst around to dst with
 * s - dst >= k/2, so the link from floor(k/2) - 1 to floor(k/2) (one past
 * every such dst, short of every such s) carries none of them and the
 * class 1 dependencies cannot close the ring (the - way likewise). A tie
 * (k even, distance k/2) is drawn for the packet and the dimension, as
 * BookSim2 draws it (RandomInt(1) where the packet turns into the
 * dimension), from the packet's random word (torus_wrap_route). The parity
 * rule above splits ties as evenly on average, but past saturation a torus
 * with it accepts 2-3% more than BookSim2 (docs/booksim.md, Parity).
 *
 * With NOC_TOPO_F_BAL_CLASS (routing_function = dor_bal_booksim, BookSim2's
 * dim_order_bal_torus: Cray's "partition" allocation, a second dateline in
 * the middle of each ring) a dimension's class is 1 when its path wraps, 0
 * when it crosses the link from floor((k-1)/2) to the next without
 * wrapping, and otherwise drawn for the packet and the dimension (from its
 * random word; BookSim2 draws when it turns into the dimension and keeps
 * the class there); a tie of the two ways is drawn the same way, as
 * BookSim2 draws it. Class 1 paths never cross the middle link (a + path
 * that wraps starts past the middle and ends short of it), class 0 never
 * the wraparound one: each class's ring is cut, no cycle.
 *
 * Drawing positions: rings on a circle, 3-D grids in oblique view, other
 * grids as grids, hypercubes in a recursive 2-D layout (grid_layout). */
#include "topologies/fabrics.h"
#include "topologies/topo_internal.h"
#include "model/rng.h"
#include <stdio.h>
#include <string.h>

/* ---- routing ------------------------------------------------------------- */

int noc_topo_grid_hops(const noc_topo_t *t, int a, int b)
{
    int hops = 0;
    for (int d = 0; d < t->dims && a != b; d++) {
        int k = t->k[d], diff = a % k - b % k;
        a /= k;
        b /= k;
        if (diff < 0)
            diff = -diff;
        hops += t->wrap && 2 * diff > k ? k - diff : diff;
    }
    return hops;
}

/* Every routing function walks the dimensions with quotients: at step d,
 * cur % k[d] is the coordinate and cur / k[d] the rest. It stops at the
 * first dimension that differs, so all lower ones are equal. */

static void mesh_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    (void)src;
    int port = 1;
    r->vclass = 0;
    for (int d = 0; cur != dst; d++) {
        int k = t->k[d], cc, dc;
        if (!(k & (k - 1))) { /* (a power of two: the same by mask and shift, cur and dst >= 0, without
                                 the divisions, on a fabric too large for the route table) */
            int sh = __builtin_ctz((unsigned)k);
            cc = cur & (k - 1);
            dc = dst & (k - 1);
            cur >>= sh;
            dst >>= sh;
        } else {
            cc = cur % k;
            dc = dst % k;
            cur /= k;
            dst /= k;
        }
        if (cc != dc) {
            /* The - port follows the + port, which exists unless c = k-1. */
            r->port = (uint8_t)(port + (dc < cc && cc < k - 1));
            return;
        }
        port += (cc < k - 1) + (cc > 0);
    }
    r->port = 0;
}

/* xy_yx (NOC_TOPO_F_XY_YX, BookSim2's xy_yx_mesh): the packet's random
 * word picks the order once for its whole path, lowest dimension first
 * (bit 0 clear: mesh_route's route, class 0) or highest first (class 1).
 * Each order alone is acyclic on its class, so the pair is too. */
static void mesh_xy_yx_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    (void)hops;
    if (!(salt & 1u)) {
        mesh_route(ctx, cur, src, dst, r);
        return;
    }
    int cc[NOC_TOPO_MAX_DIMS], dc[NOC_TOPO_MAX_DIMS], d;
    for (d = 0; d < t->dims; d++) {
        cc[d] = cur % t->k[d];
        dc[d] = dst % t->k[d];
        cur /= t->k[d];
        dst /= t->k[d];
    }
    for (d = t->dims - 1; d >= 0 && cc[d] == dc[d]; d--)
        ;
    r->vclass = d >= 0;
    if (d < 0) {
        r->port = 0;
        return;
    }
    int port = 1;
    for (int e = 0; e < d; e++) /* the ports of the lower dimensions */
        port += (cc[e] < t->k[e] - 1) + (cc[e] > 0);
    r->port = (uint8_t)(port + (dc[d] < cc[d] && cc[d] < t->k[d] - 1));
}

static void torus_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    for (int d = 0; cur != dst; d++) {
        int k = t->k[d];
        int cc = cur % k, dc = dst % k, sc = src % k;
        cur /= k;
        dst /= k;
        src /= k;
        if (cc != dc) {
            int delta = dc - cc;
            if (delta < 0)
                delta += k;
            /* the shorter way; a tie (k even, delta = k/2) goes + from an
             * even source coordinate and - from an odd one, so that both
             * directions share it; either way it holds along the path */
            int plus = 2 * delta < k || (2 * delta == k && !(sc & 1));
            /* Dimension order: the packet entered this dimension at its
             * source's coordinate sc and keeps one direction in it. */
            int crosses = plus ? cc > dc : cc < dc;      /* wrap link still ahead */
            int wrapped = plus ? sc > dc : sc < dc;      /* its path has one */
            r->port = (uint8_t)(1 + 2 * d + !plus);
            if (!t->dateline)
                r->vclass = 0;
            else if (t->dateline == 2)
                r->vclass = (uint8_t)wrapped; /* BookSim2: the whole dimension */
            else if (crosses)
                r->vclass = 0;
            else if (wrapped)
                r->vclass = 1;
            else
                r->vclass = (uint8_t)(dc & 1); /* never wraps: either class, fixed by dst */
            return;
        }
    }
    r->port = 0;
    r->vclass = 0;
}

/* The dimension-order step of a packet with random word salt at cur, on
 * the way from src to dst, for the tori's routings that draw: the first
 * dimension d where cur and dst differ, the way (plus: the + port), taking
 * the shorter one and drawing a tie (k even, k/2 apart: only where the
 * packet enters the dimension, at its source's coordinate sc) for the
 * packet and the dimension as BookSim2 draws it, with the draw h; 0 at dst. */
typedef struct torus_step {
    int d, plus, k, sc, dc;
    uint64_t h;
} torus_step_t;

static int torus_drawn_step(const noc_topo_t *t, int cur, int src, int dst, uint32_t salt, torus_step_t *st)
{
    for (int d = 0; cur != dst; d++) {
        int k = t->k[d], cc = cur % k, dc = dst % k, sc = src % k;
        cur /= k;
        dst /= k;
        src /= k;
        if (cc == dc)
            continue;
        uint64_t h = noc_rng_mix((uint64_t)salt << 8 | (uint64_t)d);
        int delta = (dc - cc + k) % k;
        *st = (torus_step_t){ d, 2 * delta < k || (2 * delta == k && (h >> 1 & 1u)), k, sc, dc, h };
        return 1;
    }
    return 0;
}

/* dor_bal_booksim: dimension order, the shorter way, a tie drawn
 * (torus_drawn_step), and BookSim2's dim_order_bal_torus class (the top of
 * the file), drawn from the same word where the rule leaves it open. */
static void torus_bal_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    torus_step_t st;
    (void)hops;
    if (!torus_drawn_step(ctx, cur, src, dst, salt, &st)) {
        r->port = 0;
        r->vclass = 0;
        return;
    }
    int mid = (st.k - 1) / 2, sc = st.sc, dc = st.dc;
    r->port = (uint8_t)(1 + 2 * st.d + !st.plus);
    if (st.plus ? sc > dc : sc < dc)
        r->vclass = 1; /* its path wraps */
    else if (st.plus ? sc <= mid && dc > mid : sc > mid && dc <= mid)
        r->vclass = 0; /* it crosses the middle */
    else
        r->vclass = (uint8_t)(st.h & 1u);
}

/* dor_booksim: BookSim2's dim_order_torus (the top of the file): dimension
 * order, the shorter way, a tie drawn (torus_drawn_step), class 1 for a
 * dimension whose path wraps. */
static void torus_wrap_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    torus_step_t st;
    (void)hops;
    if (!torus_drawn_step(ctx, cur, src, dst, salt, &st)) {
        r->port = 0;
        r->vclass = 0;
        return;
    }
    r->port = (uint8_t)(1 + 2 * st.d + !st.plus);
    r->vclass = (uint8_t)(st.plus ? st.sc > st.dc : st.sc < st.dc); /* its path wraps */
}

static int lowest_bit(unsigned x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

static void hypercube_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    (void)ctx;
    (void)src;
    unsigned diff = (unsigned)cur ^ (unsigned)dst;
    r->vclass = 0;
    r->port = diff ? (uint8_t)(lowest_bit(diff) + 1) : 0;
}

/* valiant and romm (NOC_TOPO_F_VALIANT, _ROMM; BookSim2's valiant_mesh and
 * romm_mesh): dimension order to a node m drawn from the packet's random
 * word, then from m to the destination, each leg routed as the fabric
 * routes (on a torus the leg's start stands in for the source for ties and
 * datelines). The phase needs no state: the first leg is a shortest path of
 * dist(src, m) hops, so a head that has crossed that many links is past m
 * (BookSim2 sets a phase bit in the flit at m). Classes: the phase on a
 * mesh; on a torus or ring 2 w + phase, w the leg's dateline class
 * (BookSim2's VC quarters: ring part major, phase minor). Each leg is
 * acyclic on its classes and packets go from phase 0 to 1 only. Out at the
 * destination any VC (a packet passing it on the way to m keeps its class:
 * that is a hop). valiant draws m uniformly over the fabric; romm (meshes)
 * each coordinate uniformly between the source's and the destination's
 * (both ends included), so its routes stay minimal. */
static void two_legs(const noc_topo_t *t, int cur, int src, int dst, int m, int hops, noc_route_t *r)
{
    int phase = hops >= noc_topo_grid_hops(t, src, m);
    int from = phase ? m : src, to = phase ? dst : m;
    if (t->wrap)
        torus_route(t, cur, from, to, r);
    else
        mesh_route(t, cur, from, to, r);
    if (r->port == 0)
        r->vclass = 0;
    else
        r->vclass = (uint8_t)(t->wrap && t->dateline ? 2 * r->vclass + phase : phase);
}

static void valiant_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    two_legs(t, cur, src, dst, (int)(noc_rng_mix(salt) % (uint64_t)t->n_nodes), hops, r);
}

static void romm_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    int m = 0;
    for (int d = 0, a = src, b = dst; d < t->dims; d++) {
        int k = t->k[d], lo = a % k < b % k ? a % k : b % k, span = (a % k - b % k) * (a % k < b % k ? -1 : 1) + 1;
        m += t->stride[d] * (lo + (int)(noc_rng_mix((uint64_t)salt << 8 | (uint64_t)d) % (uint64_t)span));
        a /= k;
        b /= k;
    }
    two_legs(t, cur, src, dst, m, hops, r);
}


/* ---- labels -------------------------------------------------------------- */

static void grid_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int d = 0; d <= t->dims; d++) {
        int w = d < t->dims
                    ? snprintf(buf + at, len - at, "%c%d", d ? ',' : '(', (n / t->stride[d]) % t->k[d])
                    : snprintf(buf + at, len - at, ")");
        if (w < 0 || (size_t)w >= len - at)
            return; /* truncated, but NUL-terminated */
        at += (size_t)w;
    }
}

static void hypercube_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    size_t at = 0;
    for (int d = t->dims - 1; d >= 0 && at + 1 < len; d--)
        buf[at++] = (char)('0' + ((n >> d) & 1));
    buf[at] = '\0';
}

static const noc_topo_ops_t ring_ops = {"ring", torus_route, grid_label, NULL};
static const noc_topo_ops_t mesh_ops = {"mesh", mesh_route, grid_label, NULL};
static const noc_topo_ops_t torus_ops = {"torus", torus_route, grid_label, NULL};
static const noc_topo_ops_t hypercube_ops = {"hypercube", hypercube_route, hypercube_label, NULL};

/* ---- drawing positions --------------------------------------------------- */

/* A 3-D grid in oblique view: dimension 0 across, dimension 1 into the
 * page (each step OBL_DX across and OBL_DY up), the planes of dimension 2
 * stacked upward with a gap, so that a dimension-2 link is a short vertical
 * line between the same node of neighbouring planes (hypercube:3 is the
 * textbook cube). With the slant 0.4 no node of a plane lies straight above
 * another of its plane closer than 5 steps into the page. */
#define OBL_DX 0.4f
#define OBL_DY 0.55f
static void oblique_layout(noc_topo_t *t)
{
    float plane = (float)(t->k[1] - 1) * OBL_DY + 1.2f; /* a plane's height and the gap */
    t->pos = noc_xcalloc((size_t)t->n_nodes * 2, sizeof *t->pos, "topology");
    for (int n = 0; n < t->n_nodes; n++) {
        int c[3];
        for (int d = 0; d < 3; d++)
            c[d] = (n / t->stride[d]) % t->k[d];
        t->pos[2 * n] = (float)c[0] + OBL_DX * (float)c[1];
        t->pos[2 * n + 1] = -(OBL_DY * (float)c[1] + plane * (float)c[2]); /* y grows downward */
    }
}

/* Rings (one wrapped dimension) on a circle; 3-D grids in oblique view
 * (oblique_layout). Every other grid as a grid:
 * dimension 0 along x, dimension 1 along y; each higher dimension repeats
 * the drawing so far, even dimensions side by side along x, odd ones along
 * y, with one empty unit between the copies. A hypercube thus gets the
 * recursive 2-D layout (bits 0, 2, 4, ... along x; 1, 3, 5, ... along y). */
static void grid_layout(noc_topo_t *t)
{
    float unit[NOC_TOPO_MAX_DIMS], extent[2] = {0.0f, 0.0f};
    if (t->wrap && t->dims == 1) {
        noc_fab_layout_circle(t);
        return;
    }
    if (t->dims == 3) {
        oblique_layout(t);
        return;
    }
    for (int d = 0; d < t->dims; d++) {
        int axis = d & 1;
        unit[d] = d < 2 ? 1.0f : extent[axis] + 2.0f;
        extent[axis] += unit[d] * (float)(t->k[d] - 1);
    }
    t->pos = noc_xcalloc((size_t)t->n_nodes * 2, sizeof *t->pos, "topology");
    for (int n = 0; n < t->n_nodes; n++)
        for (int d = 0; d < t->dims; d++)
            t->pos[2 * n + (d & 1)] += unit[d] * (float)((n / t->stride[d]) % t->k[d]);
}

/* ---- building ------------------------------------------------------------ */

/* Fill t as a grid of the given shape; sizes already checked. */
static void build(noc_topo_t *t, const noc_topo_ops_t *ops, int dims, const int *k, int wrap,
                  int dateline)
{
    int c[NOC_TOPO_MAX_DIMS] = {0};
    int n_nodes = 1;

    t->ops = ops;
    t->dims = dims;
    t->wrap = wrap;
    t->route_needs_src = wrap; /* tori: dateline classes and k/2 ties */
    t->dateline = dateline;
    t->n_vclasses = dateline ? 2 : 1;
    t->n_classes = dims;
    for (int d = 0; d < dims; d++) {
        t->k[d] = k[d];
        t->stride[d] = n_nodes;
        n_nodes *= k[d];
        snprintf(t->class_name[d], sizeof t->class_name[d], "dim%d", d);
    }

    noc_topo_alloc_nodes(t, n_nodes);
    for (int n = 0; n < n_nodes; n++) {
        int ports = 1;
        for (int d = 0; d < dims; d++)
            ports += (wrap || c[d] < k[d] - 1) + (wrap || c[d] > 0);
        t->port_base[n + 1] = t->port_base[n] + ports;
        for (int d = 0; d < dims && ++c[d] == k[d]; d++)
            c[d] = 0;
    }
    noc_topo_alloc_ports(t);

    /* A node and its neighbour in dimension d agree below d, so a port's
     * offset p before dimension d's ports is the same at both ends. */
    for (int n = 0; n < n_nodes; n++) {
        const int *base = t->port_base;
        int p = 1;
        for (int d = 0; d < dims; d++) {
            int kd = k[d], s = t->stride[d];
            int has_plus = wrap || c[d] < kd - 1, has_minus = wrap || c[d] > 0;
            if (has_plus) {
                int up = c[d] + 1 == kd ? 0 : c[d] + 1;
                int m = n + (up - c[d]) * s;
                int g = base[n] + p;
                t->peer[g] = base[m] + p + (wrap || up < kd - 1);
                t->link_class[g] = (uint8_t)d;
            }
            if (has_minus) {
                int down = c[d] == 0 ? kd - 1 : c[d] - 1;
                int m = n + (down - c[d]) * s;
                int g = base[n] + p + has_plus;
                t->peer[g] = base[m] + p;
                t->link_class[g] = (uint8_t)d;
            }
            p += has_plus + has_minus;
        }
        for (int d = 0; d < dims && ++c[d] == k[d]; d++)
            c[d] = 0;
    }
    grid_layout(t);
}

/* Read "AxBx..." into k; returns dims, or -1 with the reason in why. */
static int parse_sizes(const char *arg, int *k, const char *form, char *why, size_t whylen)
{
    const char *p = arg;
    long long nodes = 1;
    int dims = 0;

    if (!arg || !*arg) {
        snprintf(why, whylen, "missing size; expected %s", form);
        return -1;
    }
    for (;;) {
        const char *start = p;
        long long v = 0;
        while (*p >= '0' && *p <= '9') {
            if (v <= NOC_TOPO_MAX_NODES)
                v = v * 10 + (*p - '0');
            p++;
        }
        if (p == start) {
            if (*p == '\0' || *p == 'x' || *p == 'X')
                snprintf(why, whylen, "a size is missing%s; expected %s",
                         dims ? " after an 'x'" : "", form);
            else
                snprintf(why, whylen, "\"%s\" is not a whole number; expected %s", start, form);
            return -1;
        }
        if (*p != '\0' && *p != 'x' && *p != 'X') {
            snprintf(why, whylen, "\"%s\" is not a whole number; expected %s", start, form);
            return -1;
        }
        if (dims == NOC_TOPO_MAX_DIMS) {
            snprintf(why, whylen, "more than %d dimensions; expected %s", NOC_TOPO_MAX_DIMS,
                     form);
            return -1;
        }
        if (v > NOC_TOPO_MAX_NODES || (nodes *= v) > NOC_TOPO_MAX_NODES) {
            snprintf(why, whylen, "more than %d nodes (the most noctua builds)",
                     NOC_TOPO_MAX_NODES);
            return -1;
        }
        k[dims++] = (int)v;
        if (*p == '\0')
            return dims;
        p++;
    }
}

int noc_topo_build_grid(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                        char *why, size_t whylen)
{
    static const char ring_form[] = "ring:N with N >= 3 nodes, e.g. ring:16";
    static const char mesh_form[] =
        "mesh:AxBx... with sizes >= 2 (one per dimension), e.g. mesh:8x8";
    static const char torus_form[] =
        "torus:AxBx... with sizes >= 3 (one per dimension), e.g. torus:8x8";
    static const char cube_form[] = "hypercube:D with 1 <= D <= 20, e.g. hypercube:6";
    int k[NOC_TOPO_MAX_DIMS];
    int dims;
    int dateline = (flags & NOC_TOPO_F_NO_DATELINE) ? 0 : (flags & (NOC_TOPO_F_WRAP_CLASS | NOC_TOPO_F_BAL_CLASS)) ? 2 : 1;

    if (strcmp(kind, "hypercube") == 0) {
        if (parse_sizes(arg, k, cube_form, why, whylen) < 0)
            return -1;
        if (arg[strcspn(arg, "xX")] != '\0' || k[0] < 1 || k[0] > 20) {
            snprintf(why, whylen, "expected %s", cube_form);
            return -1;
        }
        dims = k[0];
        if ((1L << dims) > NOC_TOPO_MAX_NODES) {
            snprintf(why, whylen, "more than %d nodes (the most noctua builds)", NOC_TOPO_MAX_NODES);
            return -1;
        }
        for (int d = 0; d < dims; d++)
            k[d] = 2;
        build(t, &hypercube_ops, dims, k, 0, 0);
        return 0;
    }

    if (strcmp(kind, "ring") == 0) {
        if ((dims = parse_sizes(arg, k, ring_form, why, whylen)) < 0)
            return -1;
        if (dims != 1) {
            snprintf(why, whylen, "a ring has one size; for %d dimensions use torus:%s", dims,
                     arg);
            return -1;
        }
        if (k[0] < 3) {
            snprintf(why, whylen, "a ring needs at least 3 nodes%s; expected %s",
                     k[0] == 2 ? " (ring:2 would have two links between the same two nodes: "
                                 "use mesh:2 or hypercube:1)"
                               : "",
                     ring_form);
            return -1;
        }
        build(t, &ring_ops, 1, k, 1, dateline);
        if (flags & NOC_TOPO_F_BAL_CLASS)
            t->route_rand = torus_bal_route;
        if (flags & NOC_TOPO_F_WRAP_CLASS)
            t->route_rand = torus_wrap_route;
        if (flags & NOC_TOPO_F_VALIANT) {
            t->route_rand = valiant_route;
            t->n_vclasses *= 2;
        }
        return 0;
    }

    int is_torus = strcmp(kind, "torus") == 0;
    const char *form = is_torus ? torus_form : mesh_form;
    if ((dims = parse_sizes(arg, k, form, why, whylen)) < 0)
        return -1;
    for (int d = 0; d < dims; d++) {
        if (k[d] < 2) {
            snprintf(why, whylen, "size %d in dimension %d is too small; expected %s", k[d], d,
                     form);
            return -1;
        }
        if (is_torus && k[d] == 2) {
            snprintf(why, whylen,
                     "size 2 in dimension %d is too small for a torus (its wraparound link "
                     "would double the other link); expected %s; for size-2 dimensions use "
                     "mesh, or hypercube:D if all are 2",
                     d, form);
            return -1;
        }
    }
    if (is_torus) {
        build(t, &torus_ops, dims, k, 1, dateline);
        if (flags & NOC_TOPO_F_BAL_CLASS)
            t->route_rand = torus_bal_route;
        if (flags & NOC_TOPO_F_WRAP_CLASS)
            t->route_rand = torus_wrap_route;
        if (flags & NOC_TOPO_F_VALIANT) {
            t->route_rand = valiant_route;
            t->n_vclasses *= 2;
        }
    } else {
        build(t, &mesh_ops, dims, k, 0, 0);
        t->route_rand = flags & NOC_TOPO_F_XY_YX     ? mesh_xy_yx_route
                        : flags & NOC_TOPO_F_VALIANT ? valiant_route
                        : flags & NOC_TOPO_F_ROMM    ? romm_route
                                                     : NULL;
        if (t->route_rand) {
            t->route_needs_src = 1; /* the header's salt */
            t->n_vclasses = 2;
        }
        if (noc_topo_grid_adapt(t, flags, why, whylen) != 0)
            return -1;
    }
    return 0;
}

int noc_topo_grid_shape(const char *kind, const char *arg, unsigned flags, noc_topo_shape_t *sh)
{
    int k[NOC_TOPO_MAX_DIMS], dims, wrap = strcmp(kind, "torus") == 0 || strcmp(kind, "ring") == 0;
    char why[8];
    if ((dims = parse_sizes(arg, k, "", why, sizeof why)) < 0)
        return -1;
    if (strcmp(kind, "hypercube") == 0) {
        if (dims != 1 || k[0] < 1 || k[0] > 20 || (1L << k[0]) > NOC_TOPO_MAX_NODES)
            return -1;
        dims = k[0];
        for (int d = 0; d < dims; d++)
            k[d] = 2;
    } else if (strcmp(kind, "ring") == 0 && (dims != 1 || k[0] < 3)) {
        return -1;
    }
    memset(sh, 0, sizeof *sh);
    int64_t nodes = 1, ports = 0;
    for (int d = 0; d < dims; d++) {
        if (k[d] < (wrap ? 3 : 2))
            return -1;
        nodes *= k[d];
    }
    for (int d = 0; d < dims; d++) { /* each dimension's directed links */
        ports += wrap ? 2 * nodes : 2 * (nodes / k[d]) * (k[d] - 1);
        sh->max_degree += wrap || k[d] > 2 ? 2 : 1;
        snprintf(sh->class_name[d], sizeof sh->class_name[d], "dim%d", d);
    }
    ports += nodes;
    if (ports > INT32_MAX)
        return -1;
    sh->n_nodes = (int)nodes;
    sh->n_ports = (int)ports;
    sh->n_classes = dims;
    int xy_yx = strcmp(kind, "mesh") == 0 && (flags & (NOC_TOPO_F_XY_YX | NOC_TOPO_F_VALIANT | NOC_TOPO_F_ROMM |
                                                        NOC_TOPO_F_MIN_ADAPT | NOC_TOPO_F_MIN_ADAPT_BS |
                                                        NOC_TOPO_F_ADAPT_XY_YX | NOC_TOPO_F_PLANAR_BS));
    sh->n_vclasses = (wrap && !(flags & NOC_TOPO_F_NO_DATELINE)) || xy_yx ? 2 : 1;
    if (wrap && (flags & NOC_TOPO_F_VALIANT))
        sh->n_vclasses *= 2; /* the phase too */
    /* port_base, pos (x, y), peer and link_class, as build allocates them,
     * and the route cache of topo.c for a small mesh or hypercube */
    sh->bytes = sizeof(noc_topo_t) + (uint64_t)(nodes + 1) * sizeof(int) + (uint64_t)nodes * 2 * sizeof(float) +
                (uint64_t)ports * (sizeof(int) + sizeof(uint8_t));
    if (!wrap && !xy_yx && nodes <= NOC_TOPO_ROUTE_CACHE_NODES)
        sh->bytes += (uint64_t)(nodes * nodes) * sizeof(noc_route_t);
    return 0;
}
