/* pyramid.c: the pyramid pyramid:N and the multilevel structures
 * multilevel:N:m1,m2,... of Ziavras (IEE Proc., "Mapping single and multiple
 * multilevel structures onto the hypercube").
 *
 * Shape. Level 0 (the base) is a 2^N x 2^N mesh; level i is a mesh whose side
 * is 2^(m_i) times smaller than level i-1's: the reduction between
 * neighbouring levels i-1 and i is 2^(m_i) x 2^(m_i). Node (i,r,c) is linked
 * to its parent (i+1, r >> m_(i+1), c >> m_(i+1)), so a node above the base
 * has 4^(m_i) children. The pyramid P_N is multilevel:N:1,1,...,1 (N ones):
 * levels 0..N, level k a 2^(N-k) x 2^(N-k) mesh, (4^(N+1) - 1)/3 nodes, each
 * node above the base with four children. A multilevel SPEC needs
 * m_1 + m_2 + ... <= N; with a smaller sum the top level is a mesh of side
 * 2^(N - sum) rather than a single apex.
 *
 * Numbering and labels: level by level from the base, row-major within a
 * level (node (i,r,c) is first[i] + r * side_i + c); labels "(level,row,col)".
 *
 * Ports: 0 local; then the lateral mesh ports of the node's level in the
 * order of grid.c's meshes (+col, -col, +row, -row, each where the
 * neighbour exists); then the parent port (below the top level); then the
 * children (above the base), row-major: child (r << m) + a, (c << m) + b at
 * port index a * 2^m + b after the first child port. Link classes: 0
 * "lateral", 1 "parent" (parent-child links).
 *
 * Routing: up, across, down. The route climbs from the source to level L,
 * crosses level L's mesh in dimension order (column, then row) to the
 * destination's ancestor at level L, and descends to the destination. L is
 * the level >= max(source level, destination level) that makes the path
 * shortest, (L - k_s) + (L - k_d) + the mesh distance between the two
 * ancestors at level L, the lowest such level on a tie (which keeps traffic
 * off the apex). Such paths are shortest paths of the pyramid and of these
 * multilevel structures: testbench/unit/topologies/test_fabric_routing.c checks it
 * against BFS for every pair at several sizes. At a node below L the packet
 * is climbing if the node is its source's ancestor and descending otherwise
 * (no node below L is an ancestor of both ends, or a lower L would be
 * shorter), so the route is a function of (current, source, destination).
 *
 * Deadlock freedom with one VC class: order the channels as all up
 * channels (child to parent) by level, then all lateral channels by level
 * and, within a level, in the mesh's dimension order, then all down channels
 * by decreasing level. A route uses up channels of increasing level, then
 * lateral channels of one level in dimension order (acyclic, as in a mesh),
 * then down channels of decreasing level, so every dependency goes forward
 * in this order: the channel dependency graph is acyclic. */
#include "topologies/fabrics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 11 /* base side at most 2^10 */
#define MAX_BASE_EXP 10
#define MAX_REDUCTION 3 /* 4^3 children + 5 ports fit in uint8_t ports */

typedef struct pyr {
    int levels;               /* number of levels (top = levels - 1) */
    int side[MAX_LEVELS];     /* side of level i's mesh */
    int shift[MAX_LEVELS];    /* m_i between level i-1 and i (shift[0] = 0) */
    int cum[MAX_LEVELS];      /* m_1 + ... + m_i (cum[0] = 0) */
    int first[MAX_LEVELS + 1];/* number of node (i,0,0) */
} pyr_t;

static int level_of(const pyr_t *p, int id)
{
    int i = 0;
    while (id >= p->first[i + 1])
        i++;
    return i;
}

/* Lateral ports of a node at (r,c) of a side-s mesh: count, and the port of
 * direction dir (0 +col, 1 -col, 2 +row, 3 -row) or 0 where it is absent. */
static int n_lateral(int s, int r, int c) { return (c < s - 1) + (c > 0) + (r < s - 1) + (r > 0); }

static int lateral_port(int s, int r, int c, int dir)
{
    int has[4] = {c < s - 1, c > 0, r < s - 1, r > 0};
    int port = 1;
    if (!has[dir])
        return 0;
    for (int i = 0; i < dir; i++)
        port += has[i];
    return port;
}

/* Shift from level a up to level b >= a: the sum of m_(a+1) .. m_b. */
static int shift_between(const pyr_t *p, int a, int b) { return p->cum[b] - p->cum[a]; }

static int iabs(int x) { return x < 0 ? -x : x; }

static void pyr_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    const pyr_t *p = t->priv;
    r->vclass = 0;
    if (cur == dst) {
        r->port = 0;
        return;
    }
    int ks = level_of(p, src), kd = level_of(p, dst), kc = level_of(p, cur);
    int rs = (src - p->first[ks]) / p->side[ks], cs = (src - p->first[ks]) % p->side[ks];
    int rd = (dst - p->first[kd]) / p->side[kd], cd = (dst - p->first[kd]) % p->side[kd];
    int rc = (cur - p->first[kc]) / p->side[kc], cc = (cur - p->first[kc]) % p->side[kc];
    int top = p->levels - 1, s = p->side[kc];

    /* the crossing level L: shortest, lowest on a tie */
    int L = ks > kd ? ks : kd, best = -1;
    for (int l = L; l <= top; l++) {
        int a = shift_between(p, ks, l), b = shift_between(p, kd, l);
        int cost = (l - ks) + (l - kd) + iabs((rs >> a) - (rd >> b)) + iabs((cs >> a) - (cd >> b));
        if (best < 0 || cost < best) {
            best = cost;
            L = l;
        }
    }
    if (kc < L && kc >= ks) {
        int a = shift_between(p, ks, kc);
        if ((rs >> a) == rc && (cs >> a) == cc) { /* climbing */
            r->port = (uint8_t)(1 + n_lateral(s, rc, cc));
            return;
        }
    }
    int b = shift_between(p, kd, kc); /* the destination's ancestor at level kc */
    int ra = rd >> b, ca = cd >> b;
    if (kc == L && (ra != rc || ca != cc)) {
        int dir = ca != cc ? (ca < cc) : 2 + (ra < rc);
        r->port = (uint8_t)lateral_port(s, rc, cc, dir);
        return;
    }
    /* descending: to the child that is the destination's ancestor */
    int m = p->shift[kc], bc = shift_between(p, kd, kc - 1);
    int i = (rd >> bc) - (rc << m), j = (cd >> bc) - (cc << m);
    r->port = (uint8_t)(1 + n_lateral(s, rc, cc) + (kc < top) + (i << m) + j);
}

static void pyr_label(const noc_topo_t *t, int id, char *buf, size_t len)
{
    const pyr_t *p = t->priv;
    int k = level_of(p, id), off = id - p->first[k];
    snprintf(buf, len, "(%d,%d,%d)", k, off / p->side[k], off % p->side[k]);
}

static void pyr_destroy(noc_topo_t *t)
{
    free(t->priv);
    t->priv = NULL;
}

static const noc_topo_ops_t pyramid_ops = {"pyramid", pyr_route, pyr_label, pyr_destroy};
static const noc_topo_ops_t multilevel_ops = {"multilevel", pyr_route, pyr_label, pyr_destroy};

/* Level above level, apex on top, in an oblique view: every level a
 * square mesh seen from above and in front (rows squashed to SQUASH of a
 * unit and sheared right by SHEAR), each node drawn over the middle of the
 * base nodes below it (its 2x2 children one level down, their children
 * further down), so that a parent's links to its children are short and
 * its own. Base neighbours are one unit apart. */
#define SQUASH 0.6f
#define SHEAR 0.4f
static void pyr_layout(noc_topo_t *t, const pyr_t *p)
{
    float base = (float)p->side[0], band = SQUASH * (base - 1.0f) + 1.5f; /* a level's height and a gap */
    t->pos = noc_xcalloc((size_t)t->n_nodes * 2, sizeof *t->pos, "topology");
    for (int id = 0; id < t->n_nodes; id++) {
        int k = level_of(p, id), off = id - p->first[k], s = p->side[k];
        float f = base / (float)s; /* base nodes under one node of level k, per side */
        float cx = ((float)(off % s) + 0.5f) * f - 0.5f, cy = ((float)(off / s) + 0.5f) * f - 0.5f;
        t->pos[2 * id] = cx + SHEAR * cy;
        t->pos[2 * id + 1] = SQUASH * cy + band * (float)(p->levels - 1 - k);
    }
}

/* Read "N" (pyramid) or "N:m1,m2,..." (multilevel) into p. */
static int parse(const char *kind, const char *arg, pyr_t *p, char *why, size_t whylen)
{
    int pyramid = strcmp(kind, "pyramid") == 0;
    const char *form = pyramid ? "pyramid:N with 1 <= N <= 10, e.g. pyramid:3"
                               : "multilevel:N:m1,m2,... with 1 <= N <= 10, each m_i in 1..3 "
                                 "and m1 + m2 + ... <= N, e.g. multilevel:4:2,2";
    const char *q;
    if (!arg || !*arg) {
        snprintf(why, whylen, "missing size; expected %s", form);
        return -1;
    }
    long n = noc_fab_read_num(arg, 1000000, &q);
    if (n < 0 || (*q != '\0' && (pyramid || *q != ':'))) {
        snprintf(why, whylen, "\"%.*s\" is not a whole number; expected %s",
                 (int)strcspn(arg, ":"), arg, form);
        return -1;
    }
    if (!pyramid && *q == '\0') {
        snprintf(why, whylen, "missing the reductions m1,m2,...; expected %s", form);
        return -1;
    }
    if (n < 1 || n > MAX_BASE_EXP) {
        snprintf(why, whylen, "N = %ld is out of range; expected %s", n, form);
        return -1;
    }
    p->levels = 1;
    p->side[0] = 1 << n;
    p->shift[0] = 0;
    if (pyramid) {
        for (int i = 1; i <= n; i++) {
            p->shift[i] = 1;
            p->side[i] = p->side[i - 1] >> 1;
        }
        p->levels = (int)n + 1;
        return 0;
    }
    long sum = 0;
    for (q++;;) {
        const char *start = q;
        long m = noc_fab_read_num(q, 1000000, &q);
        if (m < 0 || (*q != ',' && *q != '\0')) {
            snprintf(why, whylen, "\"%.*s\" is not a whole number; expected %s",
                     (int)strcspn(start, ","), start, form);
            return -1;
        }
        if (m < 1 || m > MAX_REDUCTION) {
            snprintf(why, whylen,
                     "reduction m = %ld is out of range (1..%d: a node has 4^m children and at "
                     "most %d ports); expected %s",
                     m, MAX_REDUCTION, NOC_FAB_MAX_DEGREE, form);
            return -1;
        }
        sum += m;
        if (sum > n) {
            snprintf(why, whylen, "the reductions add up to more than N = %ld; expected %s", n,
                     form);
            return -1;
        }
        p->shift[p->levels] = (int)m;
        p->side[p->levels] = p->side[p->levels - 1] >> m;
        p->levels++;
        if (*q == '\0')
            return 0;
        q++;
    }
}

int noc_topo_build_pyramid(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                           char *why, size_t whylen)
{
    (void)flags;
    pyr_t *p = noc_xcalloc(1, sizeof *p, "topology");
    if (parse(kind, arg, p, why, whylen) != 0) {
        free(p);
        return -1;
    }
    int top = p->levels - 1;
    p->first[0] = 0;
    for (int k = 0; k < p->levels; k++) {
        p->first[k + 1] = p->first[k] + p->side[k] * p->side[k];
        p->cum[k] = (k ? p->cum[k - 1] : 0) + p->shift[k];
    }
    if (p->first[p->levels] > NOC_TOPO_MAX_NODES) {
        snprintf(why, whylen, "more than %d nodes (the most noctua builds)", NOC_TOPO_MAX_NODES);
        free(p);
        return -1;
    }
    t->priv = p;
    t->levels = p->levels;
    for (int k = 0; k < p->levels; k++) {
        t->level_side[k] = p->side[k];
        t->level_first[k] = p->first[k];
    }
    t->level_first[p->levels] = p->first[p->levels];
    t->ops = strcmp(kind, "pyramid") == 0 ? &pyramid_ops : &multilevel_ops;
    t->n_vclasses = 1;
    t->n_classes = 2;
    snprintf(t->class_name[0], sizeof t->class_name[0], "lateral");
    snprintf(t->class_name[1], sizeof t->class_name[1], "parent");

    noc_topo_alloc_nodes(t, p->first[p->levels]);
    for (int id = 0; id < t->n_nodes; id++) {
        int k = level_of(p, id), s = p->side[k], off = id - p->first[k];
        int ports = 1 + n_lateral(s, off / s, off % s) + (k < top) + (k > 0 ? 1 << (2 * p->shift[k]) : 0);
        t->port_base[id + 1] = t->port_base[id] + ports;
    }
    noc_topo_alloc_ports(t);
    for (int id = 0; id < t->n_nodes; id++) {
        int k = level_of(p, id), s = p->side[k], off = id - p->first[k];
        int r = off / s, c = off % s;
        int g0 = t->port_base[id];
        if (c < s - 1) { /* +col to -col of (r, c+1) */
            int m = id + 1;
            t->peer[g0 + lateral_port(s, r, c, 0)] = t->port_base[m] + lateral_port(s, r, c + 1, 1);
            t->peer[t->port_base[m] + lateral_port(s, r, c + 1, 1)] = g0 + lateral_port(s, r, c, 0);
        }
        if (r < s - 1) { /* +row to -row of (r+1, c) */
            int m = id + s;
            t->peer[g0 + lateral_port(s, r, c, 2)] = t->port_base[m] + lateral_port(s, r + 1, c, 3);
            t->peer[t->port_base[m] + lateral_port(s, r + 1, c, 3)] = g0 + lateral_port(s, r, c, 2);
        }
        if (k < top) { /* parent, and its child port back */
            int m = p->shift[k + 1], ps = p->side[k + 1];
            int pr = r >> m, pc = c >> m, pid = p->first[k + 1] + pr * ps + pc;
            int gu = g0 + 1 + n_lateral(s, r, c);
            int gd = t->port_base[pid] + 1 + n_lateral(ps, pr, pc) + (k + 1 < top) +
                     ((r - (pr << m)) << m) + (c - (pc << m));
            t->peer[gu] = gd;
            t->peer[gd] = gu;
            t->link_class[gu] = t->link_class[gd] = 1;
        }
    }
    pyr_layout(t, p);
    return 0;
}
