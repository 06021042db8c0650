/* cmd_draw.c: `noctua draw [SPEC] -o FILE.svg|.png|.dot [--load RUN.json]`:
 * a picture of a fabric. Writes a Graphviz DOT graph in which every node and
 * every link already has its final geometry, and has Graphviz's neato
 * (`neato -n2`, Debian package graphviz, run through popen) only render it.
 *
 * Layout: the topology's drawing coordinates (t->pos: x to the right, y
 * downward, as topologies/fabrics.h says), scaled so that the
 * closest two nodes sit about two node widths apart. Without them, grids are
 * drawn as grids (dimensions 0, 2, 4 ... across, 1, 3, 5 ... up, higher
 * dimensions as blocks of the lower ones) and anything else, rings too, on a
 * circle. A link that would run straight through another node is bent into
 * an arc that clears it (wraparound links of a torus drawn as a grid, say);
 * parallel links fan out.
 *
 * Without --load: one undirected edge per link, coloured by link class, with
 * a legend. With --load (the JSON of `noctua run`): two arrows per link, one
 * per direction, each on the right-hand side of its direction of travel,
 * coloured blue (idle) to red (hottest) and thicker with utilisation.
 *
 * Above LABEL_MAX nodes the labels are left off (the SVG keeps them as
 * tooltips) and nodes shrink to dots; above DRAW_MAX nodes the command
 * refuses. docs/facts.md has the user's side of this. */
#include "cli/cli.h"
#include "model/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LABEL_MAX 1024      /* labels on up to this many nodes (auto) */
#define DRAW_MAX 65536      /* no drawing above this many nodes */
#define BEND_WORK 40000000.0 /* links x nodes up to which bends are computed */
#define PNG_MAX_PX 8000.0   /* a PNG's longer side at most this many pixels */
#define FONT_PT 10.0
#define PI 3.14159265358979323846
#define PATH_LEN 4096

static const char *const class_colour[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define N_CLASS_COLOURS (sizeof class_colour / sizeof class_colour[0])

typedef struct pt {
    double x, y;
} pt_t;

typedef struct link {
    int g;              /* the link's lower global port, at node u */
    int u, v;
    int cls;
    double bow;         /* arc height in points, left of u -> v (0: straight) */
    double shape;       /* how steeply the arc leaves its ends (see arc_height_at) */
    double util[2];     /* utilisation u -> v and v -> u; -1: no entry */
    long long flits[2];
} link_t;

typedef struct drawing {
    noc_topo_t *t;
    int n;
    pt_t *p;            /* node centres, points */
    double r;           /* node radius, points */
    double spacing;     /* distance of the closest two nodes, points */
    int labels;
    int n_links;
    link_t *links;
    int loaded;         /* --load given */
    double umax;        /* utilisation that maps to full red */
    const char *layout; /* "topology", "grid" or "circle" */
} drawing_t;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua draw SPEC -o FILE.svg|FILE.png|FILE.dot [--load RUN.json] [--dot FILE]\n"
        "                   [--layout topology|grid|circle] [--labels|--no-labels] [--scale max|abs]\n"
        "       noctua draw --load RUN.json -o FILE.svg   (the SPEC is the run's)\n"
        "\n"
        "Draws the fabric with its node labels, in the layout the topology gives\n"
        "(grids as grids and other fabrics on a circle when it gives none), and has\n"
        "Graphviz's neato (Debian package graphviz) render it: `neato -n2`, which keeps\n"
        "every position as written.\n"
        "\n"
        "  SPEC            the fabric: %s\n"
        "  -o FILE         the picture: .svg or .png; .dot writes only the Graphviz graph\n"
        "  --load RUN.json link load from a run's JSON (`noctua run SPEC --json RUN.json`):\n"
        "                  two arrows per link, one per direction on its right-hand side,\n"
        "                  blue (idle) to red (hot), wider with utilisation; the run's\n"
        "                  topology must be SPEC\n"
        "  --scale S       max: red is the hottest link of the run (default);\n"
        "                  abs: red is utilisation 1\n"
        "  --dot FILE      also keep the Graphviz graph in FILE\n"
        "  --layout L      topology: the fabric's own drawing (default; grid or circle\n"
        "                  when it has none); grid: meshes, tori, rings and hypercubes\n"
        "                  as grids; circle: every node on one circle\n"
        "  --labels        label the nodes however many there are (default: up to %d nodes)\n"
        "  --no-labels     dots instead of labelled nodes (an SVG keeps labels as tooltips)\n"
        "\n"
        "Without --load, links are coloured by link class. Fabrics above %d nodes are\n"
        "not drawn.\n"
        "\n"
        "Exit status: 0 done, 2 bad input (SPEC, options, RUN.json, or Graphviz missing:\n"
        "the DOT is then written beside FILE), 4 Graphviz failed.\n",
        noc_topo_spec_help(), LABEL_MAX, DRAW_MAX);
}

/* ---- layout --------------------------------------------------------------- */

/* Positions in abstract units, y growing downward (the convention of t->pos,
 * topologies/fabrics.h), in the layout `want` ("topology", "grid" or
 * "circle"; the fabric's own one falls back to a grid or a circle); returns
 * the name of the layout used. */
static const char *place(const noc_topo_t *t, const char *want, pt_t *p)
{
    int n = t->n_nodes;
    if (t->pos && strcmp(want, "topology") == 0) {
        for (int v = 0; v < n; v++) {
            p[v].x = t->pos[2 * v];
            p[v].y = t->pos[2 * v + 1];
        }
        return "topology";
    }
    int grid = strcmp(want, "grid") == 0 ? t->dims >= 1
             : strcmp(want, "circle") == 0 ? 0 : t->dims >= 2 || (t->dims == 1 && !t->wrap);
    if (grid) {
        /* nested blocks: unit[d] is the step of coordinate d, one empty
         * slot between blocks */
        double unit[NOC_TOPO_MAX_DIMS], ext[2] = {0.0, 0.0};
        for (int d = 0; d < t->dims; d++) {
            unit[d] = d < 2 ? 1.0 : ext[d & 1] + 2.0;
            ext[d & 1] = (t->k[d] - 1) * unit[d] + (d < 2 ? 0.0 : ext[d & 1]);
        }
        for (int v = 0; v < n; v++) {
            p[v].x = p[v].y = 0.0;
            for (int d = 0; d < t->dims; d++) {
                double c = (double)((v / t->stride[d]) % t->k[d]) * unit[d];
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
    double best = INFINITY;
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
    for (int v = 0; v < t->n_nodes; v++) {
        char buf[128];
        noc_topo_label(t, v, buf, sizeof buf);
        int l = (int)strlen(buf);
        if (l > m)
            m = l;
    }
    return m;
}

/* Node size, spacing, and positions in points with a margin. */
static void scale(drawing_t *dw)
{
    int n = dw->n;
    double dmin = closest(dw->p, n);
    double diam = dw->labels ? fmax(0.62 * FONT_PT * label_chars(dw->t) + 10.0, 24.0) : 8.0;
    dw->r = diam / 2;
    dw->spacing = dw->labels ? fmax(diam * 1.9, 48.0) : 20.0;
    double s = dw->spacing / dmin, xmin = INFINITY, ymax = -INFINITY;
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

static void collect_links(drawing_t *dw)
{
    const noc_topo_t *t = dw->t;
    int k = 0;
    for (int g = 0; g < t->n_ports; g++)
        k += t->peer[g] > g;
    dw->links = noc_xcalloc((size_t)k + 1, sizeof *dw->links, "draw: links");
    dw->n_links = 0;
    for (int u = 0; u < t->n_nodes; u++)
        for (int g = t->port_base[u] + 1; g < t->port_base[u + 1]; g++) {
            if (t->peer[g] <= g)
                continue;
            link_t *l = &dw->links[dw->n_links++];
            l->g = g;
            l->u = u;
            l->v = noc_topo_port_node(t, t->peer[g]);
            l->cls = t->link_class[g];
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
static void bend(drawing_t *dw)
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
        double best = INFINITY;
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
static void curve(const drawing_t *dw, const link_t *l, int from, double side, pt_t c[4])
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
static pt_t toward(pt_t e, pt_t to, double d)
{
    double dx = to.x - e.x, dy = to.y - e.y, len = hypot(dx, dy);
    if (len < 1e-9)
        return e;
    pt_t r = {e.x + dx / len * d, e.y + dy / len * d};
    return r;
}

/* ---- colours --------------------------------------------------------------- */

static void load_colour(double f, char *buf, size_t len)
{
    /* blue #2166ac -> purple -> red #d7301f */
    static const double stops[3][3] = {{33, 102, 172}, {140, 60, 160}, {215, 48, 31}};
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    int k = f < 0.5 ? 0 : 1;
    double w = f < 0.5 ? f * 2 : (f - 0.5) * 2;
    int rgb[3];
    for (int i = 0; i < 3; i++)
        rgb[i] = (int)lround(stops[k][i] + (stops[k + 1][i] - stops[k][i]) * w);
    snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* ---- DOT ------------------------------------------------------------------ */

/* A string inside DOT double quotes. */
static void dot_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Text inside an HTML-like label. */
static void html_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

static void write_pos(FILE *f, const pt_t *c, const pt_t *tip)
{
    fputs(" pos=\"", f);
    if (tip)
        fprintf(f, "e,%.1f,%.1f ", tip->x, tip->y);
    fprintf(f, "%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", c[0].x, c[0].y, c[1].x, c[1].y,
            c[2].x, c[2].y, c[3].x, c[3].y);
}

/* The legend: a table below the drawing, its top `top` points up. */
static void write_legend(FILE *f, const drawing_t *dw, const char *load_path, double xmid, double top)
{
    const noc_topo_t *t = dw->t;
    fprintf(f, "  legend [shape=plaintext, fixedsize=false, width=0, height=0, style=\"\", "
               "pos=\"%.1f,%.1f\", label=<<table border=\"0\" cellborder=\"0\" cellspacing=\"3\">",
            xmid, top - 24.0);
    fputs("<tr><td colspan=\"12\"><b>", f);
    html_str(f, t->spec);
    fprintf(f, "</b>: %d nodes, %d links", t->n_nodes, dw->n_links);
    if (load_path) {
        fputs(", link utilisation from ", f);
        html_str(f, load_path);
    }
    fputs("</td></tr><tr>", f);
    if (load_path) {
        for (int i = 0; i <= 4; i++) {
            char col[16];
            load_colour(i / 4.0, col, sizeof col);
            fprintf(f, "<td><font color=\"%s\">&#9632;&#9632;</font> %.2f</td>", col, dw->umax * i / 4.0);
        }
        fprintf(f, "<td><font color=\"#c0c0c0\">&#9632;&#9632;</font> idle</td>");
    } else {
        for (int c = 0; c < t->n_classes; c++) {
            if (c && c % 8 == 0)
                fputs("</tr><tr>", f);
            fprintf(f, "<td><font color=\"%s\">&#9632;&#9632;</font> ", class_colour[(size_t)c % N_CLASS_COLOURS]);
            html_str(f, t->class_name[c]);
            fputs("</td>", f);
        }
    }
    fputs("</tr></table>>];\n", f);
}

static void write_dot(FILE *f, const drawing_t *dw, const char *load_path, int png)
{
    const noc_topo_t *t = dw->t;
    double xmax = 0.0, ymax = 0.0;
    for (int v = 0; v < dw->n; v++) {
        xmax = fmax(xmax, dw->p[v].x);
        ymax = fmax(ymax, dw->p[v].y);
    }
    fputs("/* noctua draw: every position is final; render with neato -n2 */\ngraph ", f);
    dot_str(f, t->spec);
    fputs(" {\n  graph [bgcolor=\"white\", pad=\"0.3\", outputorder=\"edgesfirst\"", f);
    double extent = fmax(xmax, ymax) + 2 * dw->spacing;
    if (png) /* Graphviz's 96 dpi, less if that would pass PNG_MAX_PX */
        fprintf(f, ", dpi=\"%.1f\"", fmin(96.0, 72.0 * PNG_MAX_PX / extent));
    fputs("];\n", f);
    fprintf(f, "  node [shape=circle, fixedsize=true, width=\"%.3f\", style=filled, fontname=\"Helvetica\", "
               "fontsize=%.0f, penwidth=1, color=\"#404040\", fillcolor=\"%s\"];\n",
            2 * dw->r / 72.0, FONT_PT, dw->labels ? "#f4f4f4" : "#404040");
    fprintf(f, "  edge [penwidth=1.6, arrowsize=0.5];\n");
    for (int v = 0; v < dw->n; v++) {
        char lab[128];
        noc_topo_label(t, v, lab, sizeof lab);
        fprintf(f, "  n%d [pos=\"%.1f,%.1f!\", label=", v, dw->p[v].x, dw->p[v].y);
        dot_str(f, dw->labels ? lab : "");
        fputs(", tooltip=", f);
        dot_str(f, lab);
        fputs("];\n", f);
    }
    for (int i = 0; i < dw->n_links; i++) {
        const link_t *l = &dw->links[i];
        char a[128], b[128], tip[320];
        noc_topo_label(t, l->u, a, sizeof a);
        noc_topo_label(t, l->v, b, sizeof b);
        if (!dw->loaded) {
            pt_t c[4];
            curve(dw, l, 0, 0.0, c);
            c[0] = toward(c[0], c[1], dw->r);
            c[3] = toward(c[3], c[2], dw->r);
            fprintf(f, "  n%d -- n%d [color=\"%s\",", l->u, l->v,
                    class_colour[(size_t)l->cls % N_CLASS_COLOURS]);
            write_pos(f, c, NULL);
            snprintf(tip, sizeof tip, "%s -- %s (%s)", a, b, t->class_name[l->cls]);
            fputs(", tooltip=", f);
            dot_str(f, tip);
            fputs("];\n", f);
            continue;
        }
        for (int dir = 0; dir < 2; dir++) {
            double u = l->util[dir];
            double frac = u > 0 && dw->umax > 0 ? u / dw->umax : 0.0;
            double width = u > 0 ? 1.0 + 4.0 * fmin(frac, 1.0) : 0.8;
            char col[16];
            if (u > 0)
                load_colour(frac, col, sizeof col);
            else
                snprintf(col, sizeof col, "#c0c0c0");
            pt_t c[4];
            curve(dw, l, dir, 0.18 * dw->r + 1.0, c);
            pt_t end = toward(c[3], c[2], dw->r);
            c[0] = toward(c[0], c[1], dw->r);
            c[3] = toward(end, c[2], 5.0 + width);
            fprintf(f, "  n%d -- n%d [dir=forward, color=\"%s\", penwidth=%.2f,", dir ? l->v : l->u,
                    dir ? l->u : l->v, col, width);
            write_pos(f, c, &end);
            if (u >= 0)
                snprintf(tip, sizeof tip, "%s -> %s (%s): utilisation %.4f, %lld flits",
                         dir ? b : a, dir ? a : b, t->class_name[l->cls], u, l->flits[dir]);
            else
                snprintf(tip, sizeof tip, "%s -> %s (%s): not in the run", dir ? b : a, dir ? a : b,
                         t->class_name[l->cls]);
            fputs(", tooltip=", f);
            dot_str(f, tip);
            fputs("];\n", f);
        }
    }
    /* below the lowest node and the lowest arc (a Bezier stays inside the
     * hull of its control points) */
    double low = INFINITY;
    for (int v = 0; v < dw->n; v++)
        low = fmin(low, dw->p[v].y - dw->r);
    for (int i = 0; i < dw->n_links; i++) {
        pt_t c[4];
        curve(dw, &dw->links[i], 0, 0.0, c);
        low = fmin(low, fmin(c[1].y, c[2].y));
    }
    write_legend(f, dw, load_path, xmax / 2 + dw->spacing / 2, low - 8.0);
    fputs("}\n", f);
}

/* ---- --load --------------------------------------------------------------- */

/* Read the run's per-link utilisation into the links. Returns 0 or -1 with a
 * message naming the file and the entry. */
static int load_run(drawing_t *dw, json_t *run, const char *path, char *err, size_t errlen)
{
    const noc_topo_t *t = dw->t;
    json_t *arr = json_object_get(run, "links");
    if (!json_is_array(arr)) {
        snprintf(err, errlen, "%s: no \"links\" array (is it the JSON of `noctua run --json`?)", path);
        return -1;
    }
    /* port -> its link, and which directions are taken */
    int *link_of = noc_xcalloc((size_t)t->n_ports, sizeof *link_of, "draw: load");
    for (int g = 0; g < t->n_ports; g++)
        link_of[g] = -1;
    for (int i = 0; i < dw->n_links; i++) {
        link_of[dw->links[i].g] = i;
        link_of[t->peer[dw->links[i].g]] = i;
    }
    unsigned char *taken = noc_xcalloc((size_t)t->n_ports, 1, "draw: load");
    size_t idx;
    json_t *e;
    int rc = 0, missing = 0;
    dw->umax = 0.0;
    json_array_foreach(arr, idx, e) {
        const char *from = json_string_value(json_object_get(e, "from"));
        const char *to = json_string_value(json_object_get(e, "to"));
        const char *cls = json_string_value(json_object_get(e, "class"));
        json_t *ju = json_object_get(e, "utilisation");
        if (!from || !to || !json_is_number(ju)) {
            snprintf(err, errlen, "%s: links[%zu]: needs \"from\", \"to\" and a numeric \"utilisation\"",
                     path, idx);
            rc = -1;
            break;
        }
        int u = noc_topo_find_label(t, from), v = noc_topo_find_label(t, to);
        if (u < 0 || v < 0) {
            snprintf(err, errlen, "%s: links[%zu]: no node labelled \"%s\" in %s", path, idx,
                     u < 0 ? from : to, t->spec);
            rc = -1;
            break;
        }
        int found = -1;
        for (int pass = 0; pass < 2 && found < 0; pass++)
            for (int g = t->port_base[u] + 1; g < t->port_base[u + 1]; g++) {
                if (taken[g] || noc_topo_port_node(t, t->peer[g]) != v)
                    continue;
                /* first pass: the class must match too */
                if (pass == 0 && cls && strcmp(cls, t->class_name[t->link_class[g]]) != 0)
                    continue;
                found = g;
                break;
            }
        if (found < 0) {
            snprintf(err, errlen, "%s: links[%zu]: %s has no (further) link to %s in %s", path, idx,
                     from, to, t->spec);
            rc = -1;
            break;
        }
        taken[found] = 1;
        link_t *l = &dw->links[link_of[found]];
        int dir = found != l->g;
        l->util[dir] = json_number_value(ju);
        l->flits[dir] = json_integer_value(json_object_get(e, "flits"));
        if (l->util[dir] > dw->umax)
            dw->umax = l->util[dir];
    }
    if (rc == 0) {
        for (int i = 0; i < dw->n_links; i++)
            missing += (dw->links[i].util[0] < 0) + (dw->links[i].util[1] < 0);
        if (missing)
            fprintf(stderr, "noctua draw: warning: %s has no entry for %d of the %d directed links of %s; "
                            "drawn idle\n", path, missing, 2 * dw->n_links, t->spec);
    }
    free(link_of);
    free(taken);
    return rc;
}

/* ---- rendering ------------------------------------------------------------ */

/* Whether `prog` is an executable on PATH. */
static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        char buf[PATH_LEN];
        if (len > 0 && len + strlen(prog) + 2 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, prog);
            if (access(buf, X_OK) == 0)
                return 1;
        }
        if (!end)
            break;
        path = end + 1;
    }
    return 0;
}

/* path in single quotes for sh */
static int shell_quote(const char *s, char *buf, size_t len)
{
    size_t j = 0;
    if (len < 3)
        return -1;
    buf[j++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t pl = piece ? strlen(piece) : 1;
        if (j + pl + 2 > len)
            return -1;
        if (piece) {
            memcpy(buf + j, piece, pl);
            j += pl;
        } else {
            buf[j++] = *s;
        }
    }
    buf[j++] = '\'';
    buf[j] = '\0';
    return 0;
}

static int nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

static int write_dot_file(const drawing_t *dw, const char *path, const char *load, int png)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "noctua draw: %s: cannot write: %s\n", path, strerror(errno));
        return -1;
    }
    write_dot(f, dw, load, png);
    if (fclose(f) != 0) {
        fprintf(stderr, "noctua draw: %s: cannot write: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- the command ---------------------------------------------------------- */

/* One line on stderr about what was drawn. */
static void summary(const drawing_t *dw, const char *out)
{
    fprintf(stderr, "noctua draw: %s: %s, %d nodes, %d links, %s layout%s\n", out, dw->t->spec, dw->n,
            dw->n_links, dw->layout, dw->labels ? "" : ", no labels");
}

static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

int noc_cmd_draw(int argc, char **argv)
{
    const char *spec = NULL, *out = NULL, *load = NULL, *dot_path = NULL, *layout = "topology";
    int labels = -1, abs_scale = 0, rc = NOC_EXIT_OK;
    char err[800];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int needs = strcmp(a, "-o") == 0 || strcmp(a, "--load") == 0 || strcmp(a, "--dot") == 0 ||
                    strcmp(a, "--scale") == 0 || strcmp(a, "--layout") == 0;
        if (needs && i + 1 >= argc) {
            fprintf(stderr, "noctua draw: %s needs a value (see noctua draw --help)\n", a);
            return NOC_EXIT_USAGE;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return NOC_EXIT_OK;
        } else if (strcmp(a, "-o") == 0) {
            out = argv[++i];
        } else if (strcmp(a, "--load") == 0) {
            load = argv[++i];
        } else if (strcmp(a, "--dot") == 0) {
            dot_path = argv[++i];
        } else if (strcmp(a, "--scale") == 0) {
            const char *s = argv[++i];
            if (strcmp(s, "abs") != 0 && strcmp(s, "max") != 0) {
                fprintf(stderr, "noctua draw: --scale '%s': expected max or abs\n", s);
                return NOC_EXIT_USAGE;
            }
            abs_scale = strcmp(s, "abs") == 0;
        } else if (strcmp(a, "--layout") == 0) {
            layout = argv[++i];
            if (strcmp(layout, "topology") != 0 && strcmp(layout, "grid") != 0 && strcmp(layout, "circle") != 0) {
                fprintf(stderr, "noctua draw: --layout '%s': expected topology, grid or circle\n", layout);
                return NOC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--labels") == 0) {
            labels = 1;
        } else if (strcmp(a, "--no-labels") == 0) {
            labels = 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "noctua draw: unknown option '%s' (see noctua draw --help)\n", a);
            return NOC_EXIT_USAGE;
        } else if (spec) {
            fprintf(stderr, "noctua draw: one SPEC at a time ('%s' and '%s')\n", spec, a);
            return NOC_EXIT_USAGE;
        } else {
            spec = a;
        }
    }
    if (!out) {
        fprintf(stderr, "noctua draw: no output: -o FILE.svg, FILE.png or FILE.dot (see noctua draw --help)\n");
        return NOC_EXIT_USAGE;
    }
    const char *ext = extension(out);
    int is_svg = strcmp(ext, "svg") == 0, is_png = strcmp(ext, "png") == 0;
    int is_dot = strcmp(ext, "dot") == 0 || strcmp(ext, "gv") == 0;
    if (!is_svg && !is_png && !is_dot) {
        fprintf(stderr, "noctua draw: -o %s: the name must end in .svg, .png or .dot\n", out);
        return NOC_EXIT_USAGE;
    }

    json_t *run = NULL;
    if (load) {
        json_error_t jerr;
        run = json_load_file(load, 0, &jerr);
        if (!run) {
            fprintf(stderr, "noctua draw: %s:%d: %s\n", load, jerr.line, jerr.text);
            return NOC_EXIT_USAGE;
        }
        const char *topo = json_string_value(json_object_get(run, "topology"));
        if (!topo) {
            fprintf(stderr, "noctua draw: %s: no \"topology\" (is it the JSON of `noctua run --json`?)\n", load);
            json_decref(run);
            return NOC_EXIT_USAGE;
        }
        if (!spec) {
            spec = topo;
        } else if (strcmp(spec, topo) != 0) {
            fprintf(stderr, "noctua draw: %s is a run on %s, not on %s\n", load, topo, spec);
            json_decref(run);
            return NOC_EXIT_USAGE;
        }
    }
    if (!spec) {
        fprintf(stderr, "noctua draw: no SPEC given (for example: noctua draw torus:4x4 -o torus.svg)\n");
        return NOC_EXIT_USAGE;
    }

    drawing_t dw;
    memset(&dw, 0, sizeof dw);
    dw.t = noc_topo_create(spec, 0, err, sizeof err);
    if (!dw.t) {
        fprintf(stderr, "noctua draw: %s\n", err);
        json_decref(run);
        return NOC_EXIT_USAGE;
    }
    dw.n = dw.t->n_nodes;
    if (dw.n > DRAW_MAX) {
        fprintf(stderr, "noctua draw: %s has %d nodes; pictures stop at %d\n", dw.t->spec, dw.n, DRAW_MAX);
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    dw.labels = labels >= 0 ? labels : dw.n <= LABEL_MAX;
    dw.p = noc_xcalloc((size_t)dw.n, sizeof *dw.p, "draw: layout");
    if (strcmp(layout, "grid") == 0 && dw.t->dims <= 0) {
        fprintf(stderr, "noctua draw: --layout grid: %s is not a grid (mesh, torus, ring, hypercube)\n",
                dw.t->spec);
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    dw.layout = place(dw.t, layout, dw.p);
    scale(&dw);
    collect_links(&dw);
    if (run) {
        dw.loaded = 1;
        if (load_run(&dw, run, load, err, sizeof err)) {
            fprintf(stderr, "noctua draw: %s\n", err);
            rc = NOC_EXIT_USAGE;
            goto done;
        }
        if (abs_scale || dw.umax <= 0.0)
            dw.umax = 1.0;
    }
    bend(&dw);

    if (is_dot) {
        if (write_dot_file(&dw, out, load, 0))
            rc = NOC_EXIT_USAGE;
        else
            summary(&dw, out);
        goto done;
    }
    if (dot_path && write_dot_file(&dw, dot_path, load, is_png)) {
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    if (!on_path("neato")) {
        char side[PATH_LEN];
        const char *kept = dot_path;
        if (!kept) {
            snprintf(side, sizeof side, "%.*s.dot", (int)(strlen(out) - strlen(ext) - 1), out);
            kept = write_dot_file(&dw, side, load, is_png) == 0 ? side : NULL;
        }
        fprintf(stderr, "noctua draw: Graphviz's neato is not on PATH: install the Debian package graphviz "
                        "(apt-get install graphviz)%s%s%s\n",
                kept ? "; the graph is in " : "", kept ? kept : "",
                kept ? " (render it with neato -n2)" : "");
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    {
        char qout[PATH_LEN], cmd[PATH_LEN + 64];
        if (shell_quote(out, qout, sizeof qout)) {
            fprintf(stderr, "noctua draw: -o %s: path too long\n", out);
            rc = NOC_EXIT_USAGE;
            goto done;
        }
        snprintf(cmd, sizeof cmd, "neato -n2 -T%s -o %s", is_png ? "png" : "svg", qout);
        remove(out);
        fflush(stdout);
        fflush(stderr);
        FILE *p = popen(cmd, "w");
        if (!p) {
            fprintf(stderr, "noctua draw: cannot start neato: %s\n", strerror(errno));
            rc = NOC_EXIT_INTERNAL;
            goto done;
        }
        write_dot(p, &dw, load, is_png);
        int st = pclose(p);
        if (st != 0 || !nonempty(out)) {
            fprintf(stderr, "noctua draw: neato failed (status %d) drawing %s%s%s\n", st, out,
                    dot_path ? "; the graph is in " : "", dot_path ? dot_path : "");
            rc = NOC_EXIT_INTERNAL;
            goto done;
        }
    }
    summary(&dw, out);

done:
    free(dw.p);
    free(dw.links);
    noc_topo_destroy(dw.t);
    json_decref(run);
    return rc;
}
