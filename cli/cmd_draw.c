/* cmd_draw.c: `noctua draw [SPEC] -o FILE.svg|.png|.dot [--load RUN.json]`:
 * a picture of a fabric. Writes a Graphviz DOT graph in which every node and
 * every link already has its final geometry, and has Graphviz's neato
 * (`neato -n2`, Debian package graphviz, run through popen) only render it.
 *
 * Layout: the topology's drawing coordinates (noc_topo_pos: x to the right, y
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
 * coloured blue (idle) to red (hottest) and thicker with utilisation; with
 * --metric energy (a run with energy=...) by each direction's energy from
 * energy.links[], and the routers filled by theirs (energy.routers[]).
 *
 * Above LABEL_MAX nodes the labels are left off (the SVG keeps them as
 * tooltips) and nodes shrink to dots; above DRAW_MAX nodes the command
 * refuses. docs/facts.md has the user's side of this. */
#include "cli/cli.h"
#include "cli/draw.h"
#include "cli/filter.h"
#include "cli/options.h"
#include "report/run_load.h"
#include "util/infile.h"
#include "util/outfile.h"
#include "util/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LABEL_MAX 1024      /* labels on up to this many nodes (auto) */
#define DRAW_MAX 65536      /* no drawing above this many nodes */
#define PNG_MAX_PX 8000.0   /* a PNG's longer side at most this many pixels */
#define PATH_LEN 4096

static const char *const class_colour[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define N_CLASS_COLOURS (sizeof class_colour / sizeof class_colour[0])

#define STR_(x) #x
#define STR(x) STR_(x)

/* The options of noctua draw, in the usage's order (cli/options.h). */
enum { O_HELP, O_OUT, O_LOAD, O_METRIC, O_SCALE, O_DOT, O_LAYOUT, O_LABELS, O_NO_LABELS, O_DETAIL };
static const noc_opt_t draw_opts[] = {
    [O_HELP] = { "help", 'h', NULL, NULL },
    [O_OUT] = { "", 'o', "FILE", "the picture: .svg or .png; .dot writes only the Graphviz graph" },
    [O_LOAD] = { "load", 0, "RUN.json", "link load from a run's JSON (`noctua run SPEC --json RUN.json`):\n"
                 "two arrows per link, one per direction on its right-hand side,\n"
                 "blue (idle) to red (hot), wider with utilisation; the run's\n"
                 "topology must be SPEC" },
    [O_METRIC] = { "metric", 0, "M", "with --load: utilisation (default), or energy: links (each\n"
                   "direction) and routers coloured by their energy in the run,\n"
                   "dynamic + static (a run with energy=...; node_stats=1 for the\n"
                   "routers), red the most, legend in pJ, nJ, uJ or mJ" },
    [O_SCALE] = { "scale", 0, "S", "abs: colours on utilisation 0..1, red = busy every cycle\n"
                  "(default); relative (or max): red is the run's hottest link" },
    [O_DOT] = { "dot", 0, "FILE", "also keep the Graphviz graph in FILE" },
    [O_LAYOUT] = { "layout", 0, "L", "topology: the fabric's own drawing (default; 3-D meshes, tori\n"
                   "and hypercube:3 in oblique view, the planes of the third dimension\n"
                   "stacked; grid or circle when it has none); grid: meshes, tori, rings\n"
                   "and hypercubes as flat grids (3-D: the planes side by side);\n"
                   "circle: every node on one circle" },
    [O_LABELS] = { "labels", 0, NULL, "label the nodes however many there are (default: up to " STR(LABEL_MAX)
                   " nodes)" },
    [O_NO_LABELS] = { "no-labels", 0, NULL, "dots instead of labelled nodes (an SVG keeps labels as tooltips)" },
    [O_DETAIL] = { "detail", 0, NULL, "every node, also for BSN and OTIS fabrics of " STR(CLUSTER_MIN) " nodes or more\n"
                   "(drawn by default as a box per group, an edge per pair of groups)" },
    { NULL, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua draw SPEC -o FILE.svg|FILE.png|FILE.dot [--load RUN.json [--metric utilisation|energy]]\n"
        "                   [--dot FILE]\n"
        "                   [--layout topology|grid|circle] [--labels|--no-labels] [--scale abs|relative]\n"
        "                   [--detail]\n"
        "       noctua draw --load RUN.json -o FILE.svg   (the SPEC is the run's)\n"
        "\n"
        "Draws the fabric with its node labels, in the layout the topology gives\n"
        "(grids as grids and other fabrics on a circle when it gives none), and has\n"
        "Graphviz's neato (Debian package graphviz) render it: `neato -n2`, which keeps\n"
        "every position as written.\n"
        "\n"
        "  SPEC            the fabric: %s\n", noc_topo_spec_help());
    noc_opts_usage(f, draw_opts);
    fprintf(f,
        "\n"
        "Without --load, links are coloured by link class. Fabrics above %d nodes are\n"
        "not drawn.\n"
        "\n"
        "Exit status: 0 done, 2 bad input (SPEC, options, RUN.json, or Graphviz missing:\n"
        "the DOT is then written beside FILE) or FILE could not be written (nothing is\n"
        "left half-written), 4 Graphviz failed.\n",
        DRAW_MAX);
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

/* The unit for energies up to max_pj (pJ, nJ, uJ, mJ, J): its name, and
 * the divisor from pJ into *div. */
static const char *energy_unit(double max_pj, double *div)
{
    static const char *const unit[] = { "pJ", "nJ", "uJ", "mJ", "J" };
    int u = 0;
    *div = 1.0;
    while (u < 4 && max_pj / *div >= 1000.0) {
        *div *= 1000.0;
        u++;
    }
    return unit[u];
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
    html_str(f, noc_topo_spec(t));
    fprintf(f, "</b>: %d nodes, %d links", noc_topo_nodes(t), dw->n_links);
    if (load_path && dw->energy) {
        fputs(", energy in the run (dynamic + static) from ", f);
        html_str(f, load_path);
        fputs("; red is the most", f);
    } else if (load_path) {
        fputs(", link utilisation (busy share of the window) from ", f);
        html_str(f, load_path);
        fputs(dw->relative ? "; relative scale: red is the hottest link" : "; absolute scale: red is 1, busy every cycle",
              f);
    }
    fputs("</td></tr><tr>", f);
    if (load_path) {
        double div = 1.0;
        const char *unit = dw->energy ? energy_unit(dw->umax, &div) : "";
        if (dw->energy)
            fputs("<td>links:</td>", f);
        for (int i = 0; i <= 4; i++) {
            char col[16];
            load_colour(i / 4.0, col, sizeof col);
            fprintf(f, "<td><font color=\"%s\">&#9632;&#9632;</font> %s%.*f%s%s</td>", col, i ? "" : "&gt; ",
                    dw->energy ? 3 : 2, dw->umax * i / 4.0 / div, dw->energy ? " " : "", unit);
        }
        fprintf(f, "<td><font color=\"#c0c0c0\">&#9472; &#9472;</font> idle: no flit</td>");
        if (dw->energy && dw->node_pj) {
            unit = energy_unit(dw->nmax, &div);
            fputs("</tr><tr><td>routers:</td>", f);
            for (int i = 0; i <= 4; i++) {
                char col[16];
                load_colour(i / 4.0, col, sizeof col);
                fprintf(f, "<td><font color=\"%s\">&#9679;</font> %.3f %s</td>", col, dw->nmax * i / 4.0 / div,
                        unit);
            }
        }
    } else {
        for (int c = 0; c < noc_topo_classes(t); c++) {
            if (c && c % 8 == 0)
                fputs("</tr><tr>", f);
            fprintf(f, "<td><font color=\"%s\">&#9632;&#9632;</font> ", class_colour[(size_t)c % N_CLASS_COLOURS]);
            html_str(f, noc_topo_class_name(t, c));
            fputs("</td>", f);
        }
    }
    fputs("</tr></table>>];\n", f);
}

/* The cluster view: a box per group at its nodes' mean position, an edge per
 * pair of groups joined by links, 1 to 5 points wide with how many (1 when
 * every pair has as many), in the
 * links' class colour, or with --load the colour of the busiest direction of
 * any of them. */
#define BOX_GAP 170.0 /* points between the centres of the closest two group boxes */
static void write_cluster_dot(FILE *f, const drawing_t *dw, const char *load_path, int png)
{
    const clusters_t *c = dw->clusters;
    const noc_topo_t *t = dw->t;
    double gap = (double)INFINITY;
    for (int g = 0; g < c->n; g++)
        for (int h = 0; h < g && h < 64; h++) /* the closest two boxes (a sample) */
            gap = fmin(gap, hypot(c->pos[g].x - c->pos[h].x, c->pos[g].y - c->pos[h].y));
    /* scaled so that the closest two boxes are BOX_GAP points apart */
    double sc = isfinite(gap) && gap > 0 ? BOX_GAP / gap : 1.0, xmax = 0.0, ymax = 0.0, low = (double)INFINITY;
    gap = BOX_GAP;
    for (int g = 0; g < c->n; g++) {
        xmax = fmax(xmax, c->pos[g].x * sc);
        ymax = fmax(ymax, c->pos[g].y * sc);
        low = fmin(low, c->pos[g].y * sc);
    }
    int most = 1;
    int inter = 0;
    for (size_t i = 0; i < c->cap; i++) {
        inter += c->slot[i].count;
        if (c->slot[i].count > most)
            most = c->slot[i].count;
    }
    fputs("/* noctua draw (clusters): every position is final; render with neato -n2 */\ngraph ", f);
    dot_str(f, noc_topo_spec(t));
    fputs(" {\n  graph [bgcolor=\"white\", pad=\"0.3\", outputorder=\"edgesfirst\"", f);
    if (png)
        fprintf(f, ", dpi=\"%.1f\"", fmin(96.0, 72.0 * PNG_MAX_PX / (fmax(xmax, ymax) + 2 * gap)));
    fprintf(f, "];\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f4f4\", color=\"#404040\", "
               "fixedsize=true, width=\"%.3f\", height=\"%.3f\", fontname=\"Helvetica\", fontsize=%.0f];\n",
            0.7 * gap / 72.0, 0.45 * gap / 72.0, FONT_PT);
    for (int g = 0; g < c->n; g++) {
        char lab[160];
        snprintf(lab, sizeof lab, "%s\\n%d nodes, %d links", c->names[g], c->size[g], c->intra[g]);
        fprintf(f, "  c%d [pos=\"%.1f,%.1f!\", label=\"%s\"];\n", g, c->pos[g].x * sc, c->pos[g].y * sc, lab);
    }
    for (size_t i = 0; i < c->cap; i++) {
        const cluster_edge_t *e = &c->slot[i];
        if (e->count == 0)
            continue;
        char col[16];
        if (!dw->loaded)
            snprintf(col, sizeof col, "%s", class_colour[(size_t)e->cls % N_CLASS_COLOURS]);
        else if (e->util_max > 0)
            load_colour(e->util_max / dw->umax, col, sizeof col);
        else
            snprintf(col, sizeof col, "#c0c0c0");
        fprintf(f, "  c%d -- c%d [color=\"%s\", penwidth=%.2f%s, tooltip=\"%s -- %s: %d link%s", e->a, e->b, col,
                most > 1 ? 1.0 + 4.0 * e->count / most : 1.0, dw->loaded && e->util_max <= 0 ? ", style=dashed" : "",
                c->names[e->a], c->names[e->b], e->count, e->count == 1 ? "" : "s");
        if (dw->loaded)
            fprintf(f, ", busiest direction %.4f, mean %.4f", e->util_max, e->util_sum / (2.0 * e->count));
        fputs("\"];\n", f);
    }
    fprintf(f, "  legend [shape=plaintext, fixedsize=false, style=\"\", pos=\"%.1f,%.1f\", label=<<b>", xmax / 2,
            low - 0.6 * gap);
    html_str(f, noc_topo_spec(t));
    fprintf(f, "</b>: %d nodes in %d groups, %d links (%d between groups: %d edges, width by count)", dw->n, c->n,
            dw->n_links, inter, c->n_edges);
    if (load_path) {
        fputs("; colour: the busiest link between two groups, ", f);
        fputs(dw->relative ? "relative scale" : "absolute scale (red: busy every cycle)", f);
    }
    fputs("; --detail draws every node>];\n}\n", f);
}

/* The nodes at their places, labelled; with --metric energy filled by
 * their router's energy. */
static void write_nodes(FILE *f, const drawing_t *dw)
{
    for (int v = 0; v < dw->n; v++) {
        char lab[128];
        noc_topo_label(dw->t, v, lab, sizeof lab);
        fprintf(f, "  n%d [pos=\"%.1f,%.1f!\", label=", v, dw->p[v].x, dw->p[v].y);
        dot_str(f, dw->labels ? lab : "");
        if (dw->node_pj && dw->node_pj[v] >= 0) { /* --metric energy: the router's */
            char col[16];
            load_colour(dw->nmax > 0 ? dw->node_pj[v] / dw->nmax : 0.0, col, sizeof col);
            fprintf(f, ", fillcolor=\"%s\", fontcolor=\"white\"", col);
            size_t n = strlen(lab);
            snprintf(lab + n, sizeof lab - n, ": router %.4g pJ", dw->node_pj[v]);
        }
        fputs(", tooltip=", f);
        dot_str(f, lab);
        fputs("];\n", f);
    }
}

static void write_dot(FILE *f, const drawing_t *dw, const char *load_path, int png)
{
    if (dw->clusters) {
        write_cluster_dot(f, dw, load_path, png);
        return;
    }
    const noc_topo_t *t = dw->t;
    double xmax = 0.0, ymax = 0.0;
    for (int v = 0; v < dw->n; v++) {
        xmax = fmax(xmax, dw->p[v].x);
        ymax = fmax(ymax, dw->p[v].y);
    }
    fputs("/* noctua draw: every position is final; render with neato -n2 */\ngraph ", f);
    dot_str(f, noc_topo_spec(t));
    fputs(" {\n  graph [bgcolor=\"white\", pad=\"0.3\", outputorder=\"edgesfirst\"", f);
    double extent = fmax(xmax, ymax) + 2 * dw->spacing;
    if (png) /* Graphviz's 96 dpi, less if that would pass PNG_MAX_PX */
        fprintf(f, ", dpi=\"%.1f\"", fmin(96.0, 72.0 * PNG_MAX_PX / extent));
    fputs("];\n", f);
    fprintf(f, "  node [shape=circle, fixedsize=true, width=\"%.3f\", style=filled, fontname=\"Helvetica\", "
               "fontsize=%.0f, penwidth=1, color=\"#404040\", fillcolor=\"%s\"];\n",
            2 * dw->r / 72.0, FONT_PT, dw->labels ? "#f4f4f4" : "#404040");
    fprintf(f, "  edge [penwidth=1.6, arrowsize=0.5];\n");
    write_nodes(f, dw);
    for (int i = 0; i < dw->n_links; i++) {
        const link_t *l = &dw->links[i];
        char a[128], b[128], tip[320];
        noc_topo_label(t, l->u, a, sizeof a);
        noc_topo_label(t, l->v, b, sizeof b);
        if (!dw->loaded) {
            pt_t c[4];
            noc_draw_curve(dw, l, 0, 0.0, c);
            c[0] = noc_draw_toward(c[0], c[1], dw->r);
            c[3] = noc_draw_toward(c[3], c[2], dw->r);
            fprintf(f, "  n%d -- n%d [color=\"%s\",", l->u, l->v,
                    class_colour[(size_t)l->cls % N_CLASS_COLOURS]);
            write_pos(f, c, NULL);
            snprintf(tip, sizeof tip, "%s -- %s (%s)", a, b, noc_topo_class_name(t, l->cls));
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
            noc_draw_curve(dw, l, dir, 0.18 * dw->r + 1.0, c);
            pt_t end = noc_draw_toward(c[3], c[2], dw->r);
            c[0] = noc_draw_toward(c[0], c[1], dw->r);
            c[3] = noc_draw_toward(end, c[2], 5.0 + width);
            fprintf(f, "  n%d -- n%d [dir=forward, color=\"%s\", penwidth=%.2f,%s", dir ? l->v : l->u,
                    dir ? l->u : l->v, col, width, u > 0 ? "" : " style=dashed,"); /* idle: unlike the lowest load */
            write_pos(f, c, &end);
            if (u >= 0 && dw->energy)
                snprintf(tip, sizeof tip, "%s -> %s (%s): %.4g pJ", dir ? b : a, dir ? a : b,
                         noc_topo_class_name(t, l->cls), u);
            else if (u >= 0)
                snprintf(tip, sizeof tip, "%s -> %s (%s): utilisation %.4f, %lld flits",
                         dir ? b : a, dir ? a : b, noc_topo_class_name(t, l->cls), u, l->flits[dir]);
            else
                snprintf(tip, sizeof tip, "%s -> %s (%s): not in the run", dir ? b : a, dir ? a : b,
                         noc_topo_class_name(t, l->cls));
            fputs(", tooltip=", f);
            dot_str(f, tip);
            fputs("];\n", f);
        }
    }
    /* below the lowest node and the lowest arc (a Bezier stays inside the
     * hull of its control points) */
    double low = (double)INFINITY;
    for (int v = 0; v < dw->n; v++)
        low = fmin(low, dw->p[v].y - dw->r);
    for (int i = 0; i < dw->n_links; i++) {
        pt_t c[4];
        noc_draw_curve(dw, &dw->links[i], 0, 0.0, c);
        low = fmin(low, fmin(c[1].y, c[2].y));
    }
    write_legend(f, dw, load_path, xmax / 2 + dw->spacing / 2, low - 8.0);
    fputs("}\n", f);
}

/* ---- --load --------------------------------------------------------------- */

/* --metric energy: the routers' energy from energy.routers[] into
 * dw->node_pj (none: a warning, the routers are not coloured). */
static int load_routers(drawing_t *dw, const noc_run_load_t *run, const char *path, char *err, size_t errlen)
{
    if (run->n_erouters == 0) {
        fprintf(stderr, "noctua draw: warning: %s has no energy.routers (a run with node_stats=1 has them); "
                        "routers not coloured\n", path);
        return 0;
    }
    dw->node_pj = noc_xcalloc((size_t)dw->n, sizeof *dw->node_pj, "draw: load");
    for (int v = 0; v < dw->n; v++)
        dw->node_pj[v] = -1.0;
    dw->nmax = 0.0;
    for (size_t i = 0; i < run->n_erouters; i++) {
        const noc_run_router_t *r = &run->erouters[i];
        int v = r->node && r->has_pj ? noc_topo_find_label(dw->t, r->node) : -1;
        if (v < 0) {
            snprintf(err, errlen, "%s: energy.routers[%zu]: needs the \"node\" of a node of %s and a numeric "
                     "\"router_pj\"", path, i, noc_topo_spec(dw->t));
            return -1;
        }
        dw->node_pj[v] = r->pj;
        dw->nmax = fmax(dw->nmax, r->pj);
    }
    return 0;
}

/* Read the run's per-link utilisation into the links. Returns 0 or -1 with a
 * message naming the file and the entry. */
static int load_run(drawing_t *dw, const noc_run_load_t *run, const char *path, char *err, size_t errlen)
{
    const noc_topo_t *t = dw->t;
    if (!run->has_links && run->summarised) {
        snprintf(err, errlen, "%s: its channel tables are summarised (json_tables=summary, or auto on a fabric of more "
                 "than 131,072 channels): draw --load needs every link; run it again with json_tables=full", path);
        return -1;
    }
    if (!run->has_links) {
        snprintf(err, errlen, "%s: no \"links\" array (is it the JSON of `noctua run --json`?)", path);
        return -1;
    }
    if (dw->energy && !run->has_energy) {
        snprintf(err, errlen, "%s: no \"energy\" object with \"links\" (--metric energy: a run with energy=default "
                 "or energy=FILE, docs/energy.md)", path);
        return -1;
    }
    const noc_run_link_t *entries = dw->energy ? run->elinks : run->links;
    size_t n_entries = dw->energy ? run->n_elinks : run->n_links;
    /* port -> its link, and which directions are taken */
    int *link_of = noc_xcalloc((size_t)noc_topo_ports(t), sizeof *link_of, "draw: load");
    for (int g = 0; g < noc_topo_ports(t); g++)
        link_of[g] = -1;
    for (int i = 0; i < dw->n_links; i++) {
        link_of[dw->links[i].g] = i;
        link_of[noc_topo_peer(t, dw->links[i].g)] = i;
    }
    unsigned char *taken = noc_xcalloc((size_t)noc_topo_ports(t), 1, "draw: load");
    int rc = 0, missing = 0;
    dw->umax = 0.0;
    for (size_t idx = 0; idx < n_entries; idx++) {
        const noc_run_link_t *e = &entries[idx];
        const char *from = e->from, *to = e->to, *cls = e->cls;
        if (!from || !to || !(dw->energy ? e->has_pj : e->has_util)) {
            snprintf(err, errlen, "%s: %slinks[%zu]: needs \"from\", \"to\" and a numeric \"%s\"", path,
                     dw->energy ? "energy." : "", idx, dw->energy ? "total_pj" : "utilisation");
            rc = -1;
            break;
        }
        int u = noc_topo_find_label(t, from), v = noc_topo_find_label(t, to);
        if (u < 0 || v < 0) {
            snprintf(err, errlen, "%s: links[%zu]: no node labelled \"%s\" in %s", path, idx,
                     u < 0 ? from : to, noc_topo_spec(t));
            rc = -1;
            break;
        }
        int found = -1;
        for (int pass = 0; pass < 2 && found < 0; pass++)
            for (int g = noc_topo_gport(t, u, 0); g < noc_topo_gport(t, u, noc_topo_locals(t, u) + noc_topo_degree(t, u)); g++) {
                if (taken[g] || noc_topo_port_node(t, noc_topo_peer(t, g)) != v)
                    continue;
                /* first pass: the class must match too */
                if (pass == 0 && cls && strcmp(cls, noc_topo_class_name(t, noc_topo_link_class(t, g))) != 0)
                    continue;
                found = g;
                break;
            }
        if (found < 0) {
            snprintf(err, errlen, "%s: links[%zu]: %s has no (further) link to %s in %s", path, idx,
                     from, to, noc_topo_spec(t));
            rc = -1;
            break;
        }
        taken[found] = 1;
        link_t *l = &dw->links[link_of[found]];
        int dir = found != l->g;
        l->util[dir] = dw->energy ? e->pj : e->util;
        l->flits[dir] = e->flits;
        if (l->util[dir] > dw->umax)
            dw->umax = l->util[dir];
    }
    if (rc == 0) {
        for (int i = 0; i < dw->n_links; i++)
            missing += (dw->links[i].util[0] < 0) + (dw->links[i].util[1] < 0);
        if (missing)
            fprintf(stderr, "noctua draw: warning: %s has no entry for %d of the %d directed links of %s; "
                            "drawn idle\n", path, missing, 2 * dw->n_links, noc_topo_spec(t));
    }
    free(link_of);
    free(taken);
    return rc == 0 && dw->energy ? load_routers(dw, run, path, err, errlen) : rc;
}

/* ---- rendering ------------------------------------------------------------ */

static int write_dot_file(const drawing_t *dw, const char *path, const char *load, int png)
{
    noc_out_t o;
    char err[600];
    if (noc_out_open(&o, path, 0, err, sizeof err) == 0) {
        write_dot(o.f, dw, load, png);
        if (noc_out_commit(&o, err, sizeof err) == 0)
            return 0;
    }
    fprintf(stderr, "noctua draw: %s\n", err);
    return -1;
}

/* Draw the picture with neato: the graph goes to a temporary file beside
 * the target, neato reads it and writes the picture to a pipe, which goes
 * into the output through util/outfile.h. So a full disk is told by our own
 * checked writes (exit 2), a failing neato by its status (exit 4), and the
 * target is replaced only by a whole picture. An exit status. */
static int render(const drawing_t *dw, const char *out, const char *load, int is_png, const char *dot_path)
{
    char err[600];
    noc_out_t in, o;
    if (noc_out_reserve(&in, out, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "noctua draw: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    errno = 0;
    FILE *f = fopen(in.tmp, "w");
    int bad = !f;
    if (f) {
        write_dot(f, dw, load, is_png);
        bad = ferror(f) != 0;
        bad |= fclose(f) != 0;
    }
    if (bad) {
        fprintf(stderr, "noctua draw: %s: cannot write the graph for neato: %s; nothing written\n", out,
                errno ? strerror(errno) : "a write failed");
        noc_out_abort(&in);
        return NOC_EXIT_USAGE;
    }
    if (noc_out_open(&o, out, 0, err, sizeof err) != 0) {
        fprintf(stderr, "noctua draw: %s\n", err);
        noc_out_abort(&in);
        return NOC_EXIT_USAGE;
    }
    const char *const argv[] = { "neato", "-n2", is_png ? "-Tpng" : "-Tsvg", NULL };
    size_t total;
    int st = noc_cli_filter(argv, in.tmp, o.f, &total);
    noc_out_abort(&in);
    if (st != 0 || total == 0) {
        if (st < 0)
            fprintf(stderr, "noctua draw: cannot start neato: %s\n", strerror(errno));
        else
            fprintf(stderr, "noctua draw: neato failed (status %d) drawing %s; nothing written%s%s\n", st, out,
                    dot_path ? "; the graph is in " : "", dot_path ? dot_path : "");
        noc_out_abort(&o);
        return NOC_EXIT_INTERNAL;
    }
    if (noc_out_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "noctua draw: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    return NOC_EXIT_OK;
}

/* ---- the command ---------------------------------------------------------- */

/* One line on stderr about what was drawn. */
static void summary(const drawing_t *dw, const char *out)
{
    if (dw->clusters)
        fprintf(stderr, "noctua draw: %s: %s, %d nodes, %d links, drawn as %d groups (--detail: every node)\n", out,
                noc_topo_spec(dw->t), dw->n, dw->n_links, dw->clusters->n);
    else
        fprintf(stderr, "noctua draw: %s: %s, %d nodes, %d links, %s layout%s\n", out, noc_topo_spec(dw->t), dw->n,
                dw->n_links, dw->layout, dw->labels ? "" : ", no labels");
}

static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* What the command line asks for. */
typedef struct draw_args {
    const char *spec, *out, *load, *dot_path, *layout, *ext;
    int labels;        /* -1: by the node count */
    int relative; /* --scale relative: red is the hottest link (default: utilisation 1) */
    int energy;   /* --metric energy */
    int detail;   /* --detail: no cluster view */
    int is_svg, is_png, is_dot;
} draw_args_t;

/* Step 1: the options and the SPEC. NOC_EXIT_OK to go on, -1 for --help
 * (done), or an exit status after the message. */
static int parse_args(int argc, char **argv, draw_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->layout = "topology";
    a->labels = -1;
    noc_opts_t p;
    noc_opts_init(&p, "draw", draw_opts, argc, argv);
    int k;
    while ((k = noc_opts_next(&p)) >= 0) {
        const char *v = p.value;
        switch (k) {
        case O_HELP: usage(stdout); return -1;
        case O_OUT: a->out = v; break;
        case O_LOAD: a->load = v; break;
        case O_METRIC:
            if (strcmp(v, "utilisation") != 0 && strcmp(v, "energy") != 0) {
                fprintf(stderr, "noctua draw: --metric '%s': expected utilisation or energy\n", v);
                return NOC_EXIT_USAGE;
            }
            a->energy = strcmp(v, "energy") == 0;
            break;
        case O_DOT: a->dot_path = v; break;
        case O_SCALE:
            if (strcmp(v, "abs") != 0 && strcmp(v, "relative") != 0 && strcmp(v, "max") != 0) {
                fprintf(stderr, "noctua draw: --scale '%s': expected abs or relative\n", v);
                return NOC_EXIT_USAGE;
            }
            a->relative = strcmp(v, "abs") != 0;
            break;
        case O_LAYOUT:
            if (strcmp(v, "topology") != 0 && strcmp(v, "grid") != 0 && strcmp(v, "circle") != 0) {
                fprintf(stderr, "noctua draw: --layout '%s': expected topology, grid or circle\n", v);
                return NOC_EXIT_USAGE;
            }
            a->layout = v;
            break;
        case O_LABELS: a->labels = 1; break;
        case O_NO_LABELS: a->labels = 0; break;
        case O_DETAIL: a->detail = 1; break;
        default: break;
        }
    }
    if (k == -2)
        return NOC_EXIT_USAGE;
    for (int i = p.next_positional; i < argc; i++) {
        if (a->spec) {
            fprintf(stderr, "noctua draw: one SPEC at a time ('%s' and '%s')\n", a->spec, argv[i]);
            return NOC_EXIT_USAGE;
        }
        a->spec = argv[i];
    }
    if (a->energy && !a->load) {
        fprintf(stderr, "noctua draw: --metric energy needs --load RUN.json (a run with energy=...)\n");
        return NOC_EXIT_USAGE;
    }
    if (!a->out) {
        fprintf(stderr, "noctua draw: no output: -o FILE.svg, FILE.png or FILE.dot (see noctua draw --help)\n");
        return NOC_EXIT_USAGE;
    }
    a->ext = extension(a->out);
    a->is_svg = strcmp(a->ext, "svg") == 0;
    a->is_png = strcmp(a->ext, "png") == 0;
    a->is_dot = strcmp(a->ext, "dot") == 0 || strcmp(a->ext, "gv") == 0;
    if (!a->is_svg && !a->is_png && !a->is_dot) {
        fprintf(stderr, "noctua draw: -o %s: the name must end in .svg, .png or .dot\n", a->out);
        return NOC_EXIT_USAGE;
    }
    return NOC_EXIT_OK;
}

/* Step 2: --load: read the run, whose topology is the SPEC (or must be the
 * SPEC given). An exit status; run->doc is set when it was read. */
static int read_run(draw_args_t *a, noc_run_load_t *run)
{
    memset(run, 0, sizeof *run);
    if (!a->load)
        return NOC_EXIT_OK;
    char msg[600];
    if (noc_run_load(run, a->load, msg, sizeof msg) != 0) {
        fprintf(stderr, "noctua draw: %s\n", msg);
        return NOC_EXIT_USAGE;
    }
    const char *topo = run->topology;
    if (!topo) {
        fprintf(stderr, "noctua draw: %s: no \"topology\" (is it the JSON of `noctua run --json`?)\n", a->load);
        return NOC_EXIT_USAGE;
    }
    if (!a->spec) {
        a->spec = topo;
    } else if (strcmp(a->spec, topo) != 0) {
        fprintf(stderr, "noctua draw: %s is a run on %s, not on %s\n", a->load, topo, a->spec);
        return NOC_EXIT_USAGE;
    }
    return NOC_EXIT_OK;
}

/* Step 3: the fabric, its layout, its links, the run's load on them and
 * the bends. An exit status. */
static int build_drawing(drawing_t *dw, const draw_args_t *a, const noc_run_load_t *run)
{
    char err[800];
    dw->t = noc_topo_create(a->spec, 0, err, sizeof err);
    if (!dw->t) {
        fprintf(stderr, "noctua draw: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    dw->n = noc_topo_nodes(dw->t);
    if (dw->n > DRAW_MAX) {
        fprintf(stderr, "noctua draw: %s has %d nodes; pictures stop at %d\n", noc_topo_spec(dw->t), dw->n, DRAW_MAX);
        return NOC_EXIT_USAGE;
    }
    dw->labels = a->labels >= 0 ? a->labels : dw->n <= LABEL_MAX;
    dw->p = noc_xcalloc((size_t)dw->n, sizeof *dw->p, "draw: layout");
    if (strcmp(a->layout, "grid") == 0 && noc_topo_dims(dw->t) <= 0) {
        fprintf(stderr, "noctua draw: --layout grid: %s is not a grid (mesh, torus, ring, hypercube)\n",
                noc_topo_spec(dw->t));
        return NOC_EXIT_USAGE;
    }
    dw->layout = noc_draw_place(dw->t, a->layout, dw->p);
    noc_draw_scale(dw);
    noc_draw_collect_links(dw);
    if (run->doc) {
        dw->loaded = 1;
        dw->energy = a->energy;
        if (load_run(dw, run, a->load, err, sizeof err)) {
            fprintf(stderr, "noctua draw: %s\n", err);
            return NOC_EXIT_USAGE;
        }
        dw->relative = (a->relative || a->energy) && dw->umax > 0.0; /* energy: red is the most */
        if (!dw->relative)
            dw->umax = 1.0;
    }
    if (!a->detail && noc_draw_wants_clusters(dw->t, dw->n)) {
        noc_draw_make_clusters(dw);
        return NOC_EXIT_OK;
    }
    noc_draw_bend(dw);
    return NOC_EXIT_OK;
}

/* Step 4: the DOT, or the picture through neato (the DOT kept beside it
 * when neato is missing). An exit status. */
static int write_outputs(drawing_t *dw, const draw_args_t *a)
{
    if (a->is_dot) {
        if (write_dot_file(dw, a->out, a->load, 0))
            return NOC_EXIT_USAGE;
        summary(dw, a->out);
        return NOC_EXIT_OK;
    }
    if (a->dot_path && write_dot_file(dw, a->dot_path, a->load, a->is_png))
        return NOC_EXIT_USAGE;
    if (!noc_cli_on_path("neato")) {
        char side[PATH_LEN];
        const char *kept = a->dot_path;
        if (!kept) {
            snprintf(side, sizeof side, "%.*s.dot", (int)(strlen(a->out) - strlen(a->ext) - 1), a->out);
            kept = write_dot_file(dw, side, a->load, a->is_png) == 0 ? side : NULL;
        }
        fprintf(stderr, "noctua draw: Graphviz's neato is not on PATH: install the Debian package graphviz "
                        "(apt-get install graphviz)%s%s%s\n",
                kept ? "; the graph is in " : "", kept ? kept : "",
                kept ? " (render it with neato -n2)" : "");
        return NOC_EXIT_USAGE;
    }
    int rc = render(dw, a->out, a->load, a->is_png, a->dot_path);
    if (rc == NOC_EXIT_OK)
        summary(dw, a->out);
    return rc;
}

int noc_cmd_draw(int argc, char **argv)
{
    draw_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc != NOC_EXIT_OK)
        return rc < 0 ? NOC_EXIT_OK : rc;
    noc_run_load_t run;
    drawing_t dw;
    memset(&dw, 0, sizeof dw);
    rc = read_run(&a, &run);
    if (rc == NOC_EXIT_OK && !a.spec) {
        fprintf(stderr, "noctua draw: no SPEC given (for example: noctua draw torus:4x4 -o torus.svg)\n");
        rc = NOC_EXIT_USAGE;
    }
    if (rc == NOC_EXIT_OK)
        rc = build_drawing(&dw, &a, &run);
    if (rc == NOC_EXIT_OK)
        rc = write_outputs(&dw, &a);
    noc_draw_free_clusters(&dw);
    free(dw.p);
    free(dw.links);
    free(dw.node_pj);
    noc_topo_destroy(dw.t);
    noc_run_load_free(&run);
    return rc;
}
