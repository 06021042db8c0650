/* flatfly.c: the flattened butterfly, flatfly:K:N[:CXxCY[:X]]: BookSim2's
 * flatfly (networks/flatfly_onchip.cpp) with its ran_min routing
 * (min_flatfly); docs/fabrics/flatfly.md.
 *
 * K^N routers; router v's base-K digits are its coordinates in N
 * dimensions (digit 0 the lowest), and it is joined to every router that
 * differs from it in one digit. CX x CY terminals on every router (default
 * 1x1, BookSim2's c = xr = yr = 1). Router v sits at (v % X, v / X) on the
 * chip, X routers in a row (default K^ceil(N/2): K for N = 2; X must
 * divide K^N); terminals tile a grid of (X*CX) x (K^N/X * CY): terminal
 * (tx, ty) is number ty*X*CX + tx, on router (tx/CX) + (ty/CY)*X, at local
 * port (ty%CY)*CX + tx%CX (BookSim2's injection channels and its
 * flatfly_transformation; cmesh.c's numbering). A router's ports: its
 * CX*CY local ports, then for each dimension d the K - 1 routers differing
 * in digit d, in increasing order of that digit, itself skipped: port
 * c + (K-1)d + (e < own ? e : e - 1) toward digit e (BookSim2's output
 * order; each port here is one two-way link, BookSim2's input order
 * differs: docs/fabrics/flatfly.md). A link is as long as BookSim2 makes
 * its channel with use_noc_latency, CX*|dx| + CY*|dy| for the routers'
 * places (dx, dy); its class is named by that length, `len2`, `len4`, ...
 * (the SPEC alone gives them all the class latencies, 1 cycle by default;
 * a BookSim2 file sets class_latency=len2:2,...).
 *
 * Routing: BookSim2's ran_min (min_flatfly), deterministic despite its
 * name: at the destination's router its local port, else toward the
 * destination's digit in the lowest dimension that differs. One VC class:
 * dimension order on a flattened butterfly is deadlock-free. With flags,
 * BookSim2's others (flatfly_onchip.cpp), two VC classes each, every
 * packet ejecting on any VC:
 * - NOC_TOPO_F_XY_YX (xyyx_flatfly): the order drawn from the packet's
 *   random word: lowest differing dimension first on class 0, or highest
 *   first (flatfly_outport_yx) on class 1;
 * - NOC_TOPO_F_ADAPT_XY_YX (adaptive_xyyx_flatfly): the same two, chosen at
 *   the source's router by the two outputs' flits not credited back (a tie
 *   drawn from the word), a route set with the router's pick; later
 *   routers read the order from the half of the VCs the head is in;
 * - NOC_TOPO_F_VALIANT (valiant_flatfly): lowest dimension first to a
 *   router drawn from the word on class 0, then on to the destination on
 *   class 1; a packet that meets its destination's router on the first leg
 *   leaves there (BookSim2 sets its phase there). The phase is known from
 *   the head's hop count: the first leg is the digits that differ between
 *   the source's router and the drawn one.
 * - NOC_TOPO_F_UGAL (ugal_flatfly): at the source's router, a router m
 *   drawn from the word in the box of the source's and destination's
 *   routers (find_ran_intm: in every dimension where they differ any
 *   digit, else theirs); the route set holds the minimal way on the upper
 *   half and the way toward m on the lower, and the router keeps the
 *   minimal one when H_min * used(min port) <= H_non * used(port to m) + 2
 *   (H: hops of each way; pick 2, model/graph.h); where m is the source's
 *   router, the minimal way alone. Later routers read the phase from the
 *   half the head is in: the lower goes on toward m, and from m (upper
 *   half) to the destination, lowest dimension first throughout;
 * - NOC_TOPO_F_UGAL_XY_YX (ugal_xyyx_flatfly): the same with the order of
 *   both ways drawn from the word at the source (lowest or highest
 *   dimension first), the order on a half of the VCs and the phase on a
 *   quarter: x-first toward m, x-first minimal, y-first toward m, y-first
 *   minimal on VCs [0, V/4), [V/4, V/2), [V/2, 3V/4), [3V/4, V).
 * Each order (each leg) alone is dimension order, acyclic, and a packet
 * moves from class 0 to 1 only (UGAL: toward m, then on), so all are
 * deadlock-free. */
#include "topologies/fabrics.h"
#include "model/rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FFLY_MAX_PORTS 63 /* model/sim_internal.h: a router's ports */
#define FFLY_MAX_N 16

typedef struct ffly {
    int k, n, cx, cy, x; /* radix, dimensions, terminals per router in x and y, routers in a row */
    int routers, c;       /* K^N, CX*CY */
    int len_class[];      /* per link length (0 .. longest), its class; -1 for none */
} ffly_t;

/* The port of router v toward the router whose digit d is e (e != v's). */
static int dim_port(const ffly_t *f, int own, int d, int e)
{
    return f->c + (f->k - 1) * d + (e < own ? e : e - 1);
}

static int link_length(const ffly_t *f, int v, int u)
{
    return f->cx * abs(v % f->x - u % f->x) + f->cy * abs(v / f->x - u / f->x);
}

static void ffly_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const ffly_t *f = t->priv;
    (void)src;
    int w = f->x * f->cx, tx = dst % w, ty = dst / w;
    int target = (ty / f->cy) * f->x + tx / f->cx;
    r->vclass = 0;
    if (target == cur) {
        r->port = (uint8_t)((ty % f->cy) * f->cx + tx % f->cx);
        return;
    }
    for (int d = 0, a = cur, b = target;; d++, a /= f->k, b /= f->k)
        if (a % f->k != b % f->k) {
            r->port = (uint8_t)dim_port(f, a % f->k, d, b % f->k);
            return;
        }
}

/* The router of terminal t and t's local port there (BookSim2's
 * flatfly_transformation). */
static int term_router(const ffly_t *f, int t, int *local)
{
    int w = f->x * f->cx, tx = t % w, ty = t / w;
    if (local)
        *local = (ty % f->cy) * f->cx + tx % f->cx;
    return (ty / f->cy) * f->x + tx / f->cx;
}

/* The first dimension (lowest, or highest with high = 1) in which routers a
 * and b differ, -1 for none. */
static int first_diff(const ffly_t *f, int a, int b, int high)
{
    int found = -1;
    for (int d = 0; d < f->n; d++, a /= f->k, b /= f->k)
        if (a % f->k != b % f->k) {
            found = d;
            if (!high)
                break;
        }
    return found;
}

/* Router cur's port toward router aim in dimension d. */
static int port_toward(const ffly_t *f, int cur, int aim, int d)
{
    int s = 1;
    for (int i = 0; i < d; i++)
        s *= f->k;
    return dim_port(f, (cur / s) % f->k, d, (aim / s) % f->k);
}

/* Dimensions in which routers a and b differ (the hops between them). */
static int distance(const ffly_t *f, int a, int b)
{
    int h = 0;
    for (int d = 0; d < f->n; d++, a /= f->k, b /= f->k)
        h += a % f->k != b % f->k;
    return h;
}

static void ffly_xy_yx_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    const ffly_t *f = ((const noc_topo_t *)ctx)->priv;
    int local, target = term_router(f, dst, &local), yx = (int)(salt & 1u);
    (void)src, (void)hops;
    r->vclass = (uint8_t)yx;
    r->port = (uint8_t)(target == cur ? local : port_toward(f, cur, target, first_diff(f, cur, target, yx)));
}

static void ffly_valiant_route(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    const ffly_t *f = ((const noc_topo_t *)ctx)->priv;
    int local, target = term_router(f, dst, &local);
    int mid = (int)(noc_rng_mix(salt) % (uint64_t)f->routers);
    int second = hops >= distance(f, term_router(f, src, NULL), mid), aim = second ? target : mid;
    r->vclass = (uint8_t)second;
    r->port = (uint8_t)(target == cur ? local : port_toward(f, cur, aim, first_diff(f, cur, aim, 0)));
}

static void add_cand(noc_route_set_t *rs, int port, int lo, int hi)
{
    noc_route_cand_t *c = &rs->c[rs->n++];
    c->port = (uint8_t)port;
    c->lo = (uint8_t)lo;
    c->hi = (uint8_t)hi;
    c->pri = 0;
    c->empty = 0;
}

static void ffly_adapt_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V, int in_vc,
                           noc_route_set_t *rs)
{
    const ffly_t *f = ((const noc_topo_t *)ctx)->priv;
    int local, target = term_router(f, dst, &local), half = V / 2;
    (void)src, (void)hops;
    rs->n = rs->pick = rs->pick_bit = 0;
    if (target == cur) {
        add_cand(rs, local, 0, V);
        return;
    }
    int px = port_toward(f, cur, target, first_diff(f, cur, target, 0));
    int py = port_toward(f, cur, target, first_diff(f, cur, target, 1));
    if (in_vc < 0) { /* at the source's router: the less used of the two */
        add_cand(rs, px, 0, half);
        add_cand(rs, py, half, V);
        rs->pick = 1;
        rs->pick_bit = (int)(salt & 1u);
    } else if (in_vc < half) {
        add_cand(rs, px, 0, half);
    } else {
        add_cand(rs, py, half, V);
    }
}

/* UGAL's router m for a packet from router s to router t with word salt:
 * in every dimension where s and t differ a digit drawn, else theirs. */
static int ugal_mid(const ffly_t *f, int s, int t, uint32_t salt)
{
    int m = 0;
    for (int d = 0, p = 1; d < f->n; d++, p *= f->k) {
        int sd = (s / p) % f->k, td = (t / p) % f->k;
        m += p * (sd == td ? sd : (int)(noc_rng_mix((uint64_t)salt << 8 | (uint64_t)(d + 1)) % (uint64_t)f->k));
    }
    return m;
}

/* The port from cur toward router aim, lowest (or, yx, highest) dimension
 * first. */
static int order_port(const ffly_t *f, int cur, int aim, int yx)
{
    return port_toward(f, cur, aim, first_diff(f, cur, aim, yx));
}

/* ugal (xy_yx 0) and ugal_xyyx (1): the VCs of a quarter (xy_yx) or a half
 * of them: the order's half (yx: upper), the phase's part of it (toward m:
 * lower). */
static void ugal(const ffly_t *f, int cur, int src, int dst, uint32_t salt, int V, int in_vc, int xy_yx,
                 noc_route_set_t *rs)
{
    int local, target = term_router(f, dst, &local), s = term_router(f, src, NULL);
    int m = ugal_mid(f, s, target, salt), part = xy_yx ? V / 4 : V / 2;
    rs->n = rs->pick = rs->pick_bit = 0;
    int yx = xy_yx && (in_vc < 0 ? (int)(salt & 1u) : in_vc >= V / 2), base = yx ? V / 2 : 0;
    int toward_m = in_vc >= 0 && in_vc - base < part && cur != m;
    if (target == cur && !toward_m) {
        add_cand(rs, local, 0, V);
        return;
    }
    if (toward_m) { /* on toward m */
        add_cand(rs, order_port(f, cur, m, yx), base, base + part);
        return;
    }
    add_cand(rs, order_port(f, cur, target, yx), base + part, yx || !xy_yx ? V : V / 2); /* minimal */
    if (in_vc >= 0 || m == cur)
        return;
    add_cand(rs, order_port(f, cur, m, yx), base, base + part);
    rs->pick = 2;
    rs->pick_w[0] = distance(f, cur, target);
    rs->pick_w[1] = distance(f, cur, m) + distance(f, m, target);
    rs->pick_thr = 2;
}

static void ffly_ugal_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V, int in_vc,
                          noc_route_set_t *rs)
{
    (void)hops;
    ugal(((const noc_topo_t *)ctx)->priv, cur, src, dst, salt, V, in_vc, 0, rs);
}

static void ffly_ugal_xy_yx_set(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V,
                                int in_vc, noc_route_set_t *rs)
{
    (void)hops;
    ugal(((const noc_topo_t *)ctx)->priv, cur, src, dst, salt, V, in_vc, 1, rs);
}

static void ffly_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    const ffly_t *f = t->priv;
    size_t w = 0;
    buf[0] = '\0';
    for (int d = 0, a = n; d < f->n && w < len; d++, a /= f->k)
        w += (size_t)snprintf(buf + w, len - w, "%s%d", d ? "," : "(", a % f->k);
    if (w < len)
        snprintf(buf + w, len - w, ")");
}

static const noc_topo_ops_t ffly_ops = { "flatfly", ffly_route, ffly_label, noc_fab_free_priv };

/* "K:N[:CXxCY[:X]]" into v[5] (K, N, CX, CY, X; X -2 when not given); 0, or
 * -1 when malformed. */
static int read_fields(const char *arg, long v[5])
{
    const char *p = arg ? arg : "";
    static const char sep[5] = { ':', ':', 'x', ':', '\0' };
    v[2] = v[3] = 1;
    v[4] = -2; /* not given */
    for (int i = 0; i < 5; i++) {
        v[i] = noc_fab_read_num(p, 1L << 30, &p);
        if (v[i] < 0)
            return -1;
        if (!*p)
            return i == 1 || i == 3 || i == 4 ? 0 : -1;
        if (*p != sep[i])
            return -1;
        p++;
    }
    return -1;
}

/* The SPEC's fields, checked; 0, or -1 with why. */
static int parse(const char *arg, ffly_t *f, char *why, size_t whylen)
{
    long v[5];
    if (read_fields(arg, v) != 0) {
        snprintf(why, whylen, "expected flatfly:K:N (K^N routers, each joined to the K - 1 others of every "
                              "dimension: BookSim2's flatfly with k = K, n = N), flatfly:K:N:CXxCY (CX x CY "
                              "terminals on a router, 1x1 by default) or flatfly:K:N:CXxCY:X (X routers in a row "
                              "of the chip, BookSim2's x; K^ceil(N/2) by default)");
        return -1;
    }
    if (v[0] < 2 || v[1] < 1 || v[1] > FFLY_MAX_N || v[2] < 1 || v[3] < 1) {
        snprintf(why, whylen, "K >= 2, N from 1 to %d, CX and CY >= 1, please", FFLY_MAX_N);
        return -1;
    }
    if (v[2] * v[3] + (v[0] - 1) * v[1] > FFLY_MAX_PORTS) {
        snprintf(why, whylen, "a router has CX*CY + (K-1)*N = %ld ports, at most %d", v[2] * v[3] + (v[0] - 1) * v[1],
                 FFLY_MAX_PORTS);
        return -1;
    }
    long long routers = 1, row = 1;
    for (int i = 0; i < v[1]; i++) {
        routers *= v[0];
        if (2 * i < v[1])
            row *= v[0];
    }
    if (routers * v[2] * v[3] > NOC_TOPO_MAX_NODES) {
        snprintf(why, whylen, "more than %d terminals", NOC_TOPO_MAX_NODES);
        return -1;
    }
    if (v[4] == -2)
        v[4] = row;
    if (v[4] < 1 || routers % v[4] != 0) {
        snprintf(why, whylen, "X = %ld routers in a row must divide the K^N = %lld routers (BookSim2 numbers "
                              "terminals past the last otherwise)", v[4], routers);
        return -1;
    }
    f->k = (int)v[0];
    f->n = (int)v[1];
    f->cx = (int)v[2];
    f->cy = (int)v[3];
    f->x = (int)v[4];
    f->routers = (int)routers;
    f->c = f->cx * f->cy;
    return 0;
}

/* Link classes, one per link length, in increasing length; 0, or -1 with
 * why when there are more than the kernel's classes. */
static int set_classes(noc_topo_t *t, ffly_t *f, int longest, char *why, size_t whylen)
{
    for (int l = 0; l <= longest; l++)
        f->len_class[l] = -1;
    for (int v = 0; v < f->routers; v++)
        for (int d = 0, s = 1; d < f->n; d++, s *= f->k)
            for (int e = 0; e < f->k; e++)
                if (e != (v / s) % f->k)
                    f->len_class[link_length(f, v, v + (e - (v / s) % f->k) * s)] = 0;
    int n = 0;
    for (int l = 0; l <= longest; l++) {
        if (f->len_class[l] < 0)
            continue;
        if (n == NOC_TOPO_MAX_CLASSES) {
            snprintf(why, whylen, "its links have more than %d lengths (one link class each)", NOC_TOPO_MAX_CLASSES);
            return -1;
        }
        snprintf(t->class_name[n], sizeof t->class_name[n], "len%d", l);
        f->len_class[l] = n++;
    }
    t->n_classes = n;
    return 0;
}

static void set_terminals(noc_topo_t *t, const ffly_t *f)
{
    int terms = f->routers * f->c, w = f->x * f->cx;
    int *locals = noc_xcalloc((size_t)f->routers, sizeof *locals, "topology");
    int *list = noc_xcalloc((size_t)terms, sizeof *list, "topology");
    for (int v = 0; v < f->routers; v++) {
        locals[v] = f->c;
        for (int i = 0; i < f->c; i++) /* local port i: (i % CX, i / CX) within the router's block */
            list[v * f->c + i] = ((v / f->x) * f->cy + i / f->cx) * w + (v % f->x) * f->cx + i % f->cx;
    }
    noc_topo_set_terminals(t, terms, locals, list);
    free(locals);
    free(list);
}

int noc_topo_build_flatfly(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                           size_t whylen)
{
    (void)kind;
    ffly_t shape;
    if (parse(arg, &shape, why, whylen) != 0)
        return -1;
    int longest = shape.cx * (shape.x - 1) + shape.cy * (shape.routers / shape.x - 1);
    ffly_t *f = noc_xmalloc(sizeof *f + (size_t)(longest + 1) * sizeof f->len_class[0], "topology");
    memcpy(f, &shape, sizeof shape);
    t->priv = f;
    t->ops = &ffly_ops;
    if (set_classes(t, f, longest, why, whylen) != 0)
        return -1;
    noc_topo_alloc_nodes(t, f->routers);
    for (int v = 0; v < f->routers; v++)
        t->port_base[v + 1] = t->port_base[v] + f->c + (f->k - 1) * f->n;
    noc_topo_alloc_ports(t);
    if (f->c > 1) /* one terminal a router: terminal v on router v's port 0, the kernel's default */
        set_terminals(t, f);
    for (int v = 0; v < f->routers; v++) {
        for (int d = 0, s = 1; d < f->n; d++, s *= f->k) {
            int own = (v / s) % f->k;
            for (int e = 0; e < f->k; e++) {
                if (e == own)
                    continue;
                int u = v + (e - own) * s, g = t->port_base[v] + dim_port(f, own, d, e);
                t->peer[g] = t->port_base[u] + dim_port(f, e, d, own);
                t->link_class[g] = (uint8_t)f->len_class[link_length(f, v, u)];
            }
        }
    }
    t->n_vclasses = 1;
    t->route_needs_src = 0;
    if (flags & (NOC_TOPO_F_XY_YX | NOC_TOPO_F_VALIANT | NOC_TOPO_F_ADAPT_XY_YX | NOC_TOPO_F_UGAL |
                 NOC_TOPO_F_UGAL_XY_YX)) {
        t->n_vclasses = flags & NOC_TOPO_F_UGAL_XY_YX ? 4 : 2;
        t->route_needs_src = 1; /* the header's salt (and UGAL's source) */
        /* adaptive: a route set; ops->route, dimension order, stays the escape */
        if (flags & (NOC_TOPO_F_ADAPT_XY_YX | NOC_TOPO_F_UGAL | NOC_TOPO_F_UGAL_XY_YX))
            t->route_set = flags & NOC_TOPO_F_UGAL        ? ffly_ugal_set
                           : flags & NOC_TOPO_F_UGAL_XY_YX ? ffly_ugal_xy_yx_set
                                                          : ffly_adapt_set;
        else
            t->route_rand = flags & NOC_TOPO_F_XY_YX ? ffly_xy_yx_route : ffly_valiant_route;
    }
    t->pos = noc_xcalloc((size_t)f->routers * 2, sizeof *t->pos, "topology");
    for (int v = 0; v < f->routers; v++) {
        t->pos[2 * v] = (float)(v % f->x);
        t->pos[2 * v + 1] = (float)(v / f->x);
    }
    return 0;
}
