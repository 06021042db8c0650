/* draw_layout.c: the geometry of `noctua draw`: where nodes go, which
 * links there are, and how a link that would run through another node is
 * bent into an arc that clears it (see cli/draw.h). */
#include "cli/draw.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layout --------------------------------------------------------------- */

/* Positions in abstract units, y growing downward (the convention of noc_topo_pos,
 * topologies/fabrics.h), in the layout `want` ("topology", "grid" or
 * "circle"; the fabric's own one falls back to a grid or a circle); returns
 * the name of the layout used. */
const char *noc_draw_place(const noc_topo_t *t, const char *want, pt_t *p)
{
    int n = noc_topo_nodes(t);
    if (noc_topo_pos(t) && strcmp(want, "topology") == 0) {
        for (int v = 0; v < n; v++) {
            p[v].x = (double)noc_topo_pos(t)[2 * v];
            p[v].y = (double)noc_topo_pos(t)[2 * v + 1];
        }
        return "topology";
    }
    int grid = strcmp(want, "grid") == 0 ? noc_topo_dims(t) >= 1
             : strcmp(want, "circle") == 0 ? 0
             : noc_topo_dims(t) >= 2 || (noc_topo_dims(t) == 1 && !noc_topo_wrap(t));
    if (grid) {
        /* nested blocks: unit[d] is the step of coordinate d, one empty
         * slot between blocks */
        double unit[NOC_TOPO_MAX_DIMS], ext[2] = {0.0, 0.0};
        for (int d = 0; d < noc_topo_dims(t); d++) {
            unit[d] = d < 2 ? 1.0 : ext[d & 1] + 2.0;
            ext[d & 1] = (noc_topo_k(t, d) - 1) * unit[d] + (d < 2 ? 0.0 : ext[d & 1]);
        }
        for (int v = 0; v < n; v++) {
            p[v].x = p[v].y = 0.0;
            for (int d = 0; d < noc_topo_dims(t); d++) {
                double c = (double)((v / noc_topo_stride(t, d)) % noc_topo_k(t, d)) * unit[d];
                if (d & 1)
                    p[v].y += c;
                else
                    p[v].x += c;
            }
        }
        return "grid";
    }
    /* circle, node 0 at the top, clockwise, neighbours one unit apart */
    double radius = n > 1 ? 0.5 / sin(PI / n) : 0.0;
    for (int v = 0; v < n; v++) {
        double a = PI / 2 - 2 * PI * v / n;
        p[v].x = radius * cos(a);
        p[v].y = -radius * sin(a); /* y grows downward */
    }
    return "circle";
}

static int cmp_x(const void *a, const void *b)
{
    const pt_t *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

/* Smallest positive distance between two points (a sweep along x). */
static double closest(const pt_t *p, int n)
{
    pt_t *s = noc_xcalloc((size_t)n, sizeof *s, "draw: layout");
    memcpy(s, p, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_x);
    double best = (double)INFINITY;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && s[j].x - s[i].x < best; j++) {
            double d = hypot(s[j].x - s[i].x, s[j].y - s[i].y);
            if (d > 1e-9 && d < best)
                best = d;
        }
    free(s);
    return isfinite(best) ? best : 1.0;
}

/* Longest label in characters. */
static int label_chars(const noc_topo_t *t)
{
    int m = 1;
    for (int v = 0; v < noc_topo_nodes(t); v++) {
        char buf[128];
        noc_topo_label(t, v, buf, sizeof buf);
        int l = (int)strlen(buf);
        if (l > m)
            m = l;
    }
    return m;
}

/* Node size, spacing, and positions in points with a margin. */
void noc_draw_scale(drawing_t *dw)
{
    int n = dw->n;
    double dmin = closest(dw->p, n);
    double diam = dw->labels ? fmax(0.62 * FONT_PT * label_chars(dw->t) + 10.0, 24.0) : 8.0;
    dw->r = diam / 2;
    dw->spacing = dw->labels ? fmax(diam * 1.9, 48.0) : 20.0;
    double s = dw->spacing / dmin, xmin = (double)INFINITY, ymax = -(double)INFINITY;
    for (int v = 0; v < n; v++) {
        xmin = fmin(xmin, dw->p[v].x);
        ymax = fmax(ymax, dw->p[v].y);
    }
    /* layout y grows downward, Graphviz's upward */
    for (int v = 0; v < n; v++) {
        dw->p[v].x = (dw->p[v].x - xmin) * s + dw->spacing;
        dw->p[v].y = (ymax - dw->p[v].y) * s + dw->spacing;
    }
}

/* ---- links and their bends ----------------------------------------------- */

void noc_draw_collect_links(drawing_t *dw)
{
    const noc_topo_t *t = dw->t;
    int k = 0;
    for (int g = 0; g < noc_topo_ports(t); g++)
        k += noc_topo_peer(t, g) > g;
    dw->links = noc_xcalloc((size_t)k + 1, sizeof *dw->links, "draw: links");
    dw->n_links = 0;
    for (int u = 0; u < noc_topo_nodes(t); u++)
        for (int g = noc_topo_gport(t, u, 0); g < noc_topo_gport(t, u, noc_topo_locals(t, u) + noc_topo_degree(t, u)); g++) {
            if (noc_topo_peer(t, g) <= g)
                continue;
            link_t *l = &dw->links[dw->n_links++];
            l->g = g;
            l->u = u;
            l->v = noc_topo_port_node(t, noc_topo_peer(t, g));
            l->cls = noc_topo_link_class(t, g);
            l->util[0] = l->util[1] = -1.0;
            l->shape = 1.0 / 3.0; /* a straight line while bow is 0 */
        }
}

/* Links are cubic Beziers A, A + e*(B-A) + H*n, B - e*(B-A) + H*n, B, with
 * n the unit normal to the left of A -> B: the bow H sets the height of the
 * arc above the chord, 3t(1-t)H at parameter t (0.75H in the middle); the
 * shape e (1/3 down to 0) how steeply it leaves its ends: with e = 1/3 the
 * arc is a smooth hump; with e = 0 it climbs straight up and stays high
 * along the chord, clearing nodes near its ends at a lower apex. */
static const double shapes[] = {1.0 / 3.0, 1.0 / 6.0, 0.0};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

/* Height of the arc of shape e, as a fraction of its bow, where it passes
 * the fraction s of the way along its chord. */
static double arc_height_at(double s, double e)
{
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 40; i++) {
        double t = (lo + hi) / 2, u = 1 - t;
        if (3 * t * u * u * e + 3 * t * t * u * (1 - e) + t * t * t < s)
            lo = t;
        else
            hi = t;
    }
    double t = (lo + hi) / 2;
    return 3 * t * (1 - t);
}

static int cmp_pair(const void *a, const void *b)
{
    const link_t *p = a, *q = b;
    int pa = p->u < p->v ? p->u : p->v, pb = p->u < p->v ? p->v : p->u;
    int qa = q->u < q->v ? q->u : q->v, qb = q->u < q->v ? q->v : q->u;
    if (pa != qa)
        return pa < qa ? -1 : 1;
    if (pb != qb)
        return pb < qb ? -1 : 1;
    return (p->g > q->g) - (p->g < q->g);
}

/* Bend every link that would run through a node it does not end at, to the
 * side that needs the smaller arc (outward from the centre at a tie), and
 * fan out parallel links. */
void noc_draw_bend(drawing_t *dw)
{
    const pt_t *p = dw->p;
    double cx = 0.0, cy = 0.0, clear = dw->r + 0.12 * dw->spacing;
    for (int v = 0; v < dw->n; v++) {
        cx += p[v].x / dw->n;
        cy += p[v].y / dw->n;
    }
    int check = (double)dw->n_links * dw->n <= BEND_WORK;
    pt_t *block = noc_xcalloc((size_t)dw->n, sizeof *block, "draw: bends"); /* (s, offset) */
    for (int i = 0; i < dw->n_links && check; i++) {
        link_t *l = &dw->links[i];
        pt_t a = p[l->u], b = p[l->v];
        double dx = b.x - a.x, dy = b.y - a.y, len = hypot(dx, dy);
        if (len < 1e-9)
            continue;
        double ex = dx / len, ey = dy / len, nx = -ey, ny = ex;
        int nb = 0;
        for (int w = 0; w < dw->n; w++) {
            if (w == l->u || w == l->v)
                continue;
            double wx = p[w].x - a.x, wy = p[w].y - a.y;
            double s = (wx * ex + wy * ey) / len, off = wx * nx + wy * ny;
            if (s <= 0.0 || s >= 1.0 || fabs(off) >= clear)
                continue;
            block[nb].x = s;
            block[nb].y = off;
            nb++;
        }
        if (nb == 0)
            continue;
        /* the lowest arc that clears every blocking node, preferring the
         * outward side and smooth shapes when they are about as low */
        int outward = ((a.x + b.x) / 2 - cx) * nx + ((a.y + b.y) / 2 - cy) * ny >= 0;
        double best = (double)INFINITY;
        for (size_t k = 0; k < N_SHAPES; k++)
            for (int left = 0; left < 2; left++) {
                double need = 0.0;
                for (int j = 0; j < nb; j++) {
                    double h = arc_height_at(block[j].x, shapes[k]);
                    double off = left ? block[j].y : -block[j].y;
                    need = fmax(need, (off + clear) / h);
                }
                need = fmax(need, 2.5 * dw->r);
                double score = need * (1.0 + 0.04 * (double)k + 0.03 * (left != outward));
                if (score < best) {
                    best = score;
                    l->bow = left ? need : -need;
                    l->shape = shapes[k];
                }
            }
    }
    free(block);

    /* parallel links: sorted by node pair, spread symmetrically */
    link_t *s = noc_xcalloc((size_t)dw->n_links + 1, sizeof *s, "draw: links");
    memcpy(s, dw->links, (size_t)dw->n_links * sizeof *s);
    qsort(s, (size_t)dw->n_links, sizeof *s, cmp_pair);
    memcpy(dw->links, s, (size_t)dw->n_links * sizeof *s);
    free(s);
    for (int i = 0; i < dw->n_links;) {
        /* links i .. j-1 join the same two nodes */
        int a0 = dw->links[i].u < dw->links[i].v ? dw->links[i].u : dw->links[i].v;
        int b0 = dw->links[i].u < dw->links[i].v ? dw->links[i].v : dw->links[i].u;
        int j = i + 1;
        while (j < dw->n_links) {
            const link_t *q = &dw->links[j];
            int qa = q->u < q->v ? q->u : q->v, qb = q->u < q->v ? q->v : q->u;
            if (qa != a0 || qb != b0)
                break;
            j++;
        }
        int m = j - i;
        for (int k = 0; m > 1 && k < m; k++) {
            link_t *q = &dw->links[i + k];
            double extra = (k - (m - 1) / 2.0) * 0.7 * dw->spacing;
            q->bow += q->u == a0 ? extra : -extra;
        }
        i = j;
    }
}

/* The cubic Bezier of link l travelling from its end `from` (0: u, 1: v),
 * moved sideways by `side` points to the right of the direction of travel. */
void noc_draw_curve(const drawing_t *dw, const link_t *l, int from, double side, pt_t c[4])
{
    pt_t a = dw->p[from ? l->v : l->u], b = dw->p[from ? l->u : l->v];
    double bow = from ? -l->bow : l->bow;
    double dx = b.x - a.x, dy = b.y - a.y, len = hypot(dx, dy);
    double nx = len > 0 ? -dy / len : 0.0, ny = len > 0 ? dx / len : 0.0;
    c[1].x = a.x + l->shape * dx + nx * bow;
    c[1].y = a.y + l->shape * dy + ny * bow;
    c[2].x = b.x - l->shape * dx + nx * bow;
    c[2].y = b.y - l->shape * dy + ny * bow;
    c[0] = a;
    c[3] = b;
    for (int i = 0; i < 4; i++) {
        c[i].x -= nx * side;
        c[i].y -= ny * side;
    }
}

/* Move end point e toward control point toward by d. */
pt_t noc_draw_toward(pt_t e, pt_t to, double d)
{
    double dx = to.x - e.x, dy = to.y - e.y, len = hypot(dx, dy);
    if (len < 1e-9)
        return e;
    pt_t r = {e.x + dx / len * d, e.y + dy / len * d};
    return r;
}

