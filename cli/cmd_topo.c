/* cmd_topo.c: `noctua topo SPEC [SPEC ...] [--json FILE|-]`: the graph facts
 * of one or more fabrics (topologies/facts.h) side by side, one column per
 * SPEC, and the same as a JSON array with one object per SPEC in the order
 * given. Every SPEC is built before anything is computed, so a bad one stops
 * the command (exit 2) before any output. docs/facts.md documents the
 * figures and the JSON keys.
 *
 * With --area, also the routers' gate count (routers/rtl/area.h, docs/area.md): the
 * nodes grouped by port count (degree + 1), one core synthesized (or read
 * from the cache) per port count, and the fabric's sum. */
#include "util/xalloc.h"
#include "routers/rtl/area.h"
#include "cli/cli.h"
#include "report/report.h"
#include "topologies/facts.h"
#include "cli/options.h"
#include "cli/fabric_area.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SPECS 64
#define CELL 48

#define STR_(x) #x
#define STR(x) STR_(x)
enum { O_JSON, O_EXACT_MAX, O_METIS_RUNS, O_AREA, O_HELP };
static const noc_opt_t topo_opts[] = {
    [O_JSON] = { "json", 0, "FILE", "also write the facts as a JSON array, one object per SPEC\n"
                                    "('-': to stdout, instead of the table)" },
    [O_EXACT_MAX] = { "exact-max", 0, "N", "exact bisection width up to N nodes (default "
                                           STR(NOC_FACTS_EXACT_DEFAULT) ", at most " STR(NOC_FACTS_EXACT_LIMIT)
                                           ";\nthe time grows fast above the default)" },
    [O_METIS_RUNS] = { "metis-runs", 0, "N", "METIS runs behind a bisection bound (default "
                                             STR(NOC_FACTS_RUNS_DEFAULT) ")" },
    [O_AREA] = { "area", 0, NULL, NULL /* usage() writes its lines: the defaults of noctua area */ },
    [O_HELP] = { "help", 'h', NULL, "this text" },
    { NULL, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    noc_area_params_t d;
    noc_area_params_default(&d);
    fprintf(f,
        "usage: noctua topo SPEC [SPEC ...] [--json FILE|-] [--exact-max N] [--metis-runs N]\n"
        "                   [--area [V=N] [DEPTH=N] [FLIT_W=N] [N_CLASS=N] [ARB=round_robin|matrix]]\n"
        "\n"
        "Graph facts of each fabric, one column per SPEC: nodes, links (total and per\n"
        "link class), degree (network ports per node: min, max, average), diameter and\n"
        "average distance (shortest paths over all ordered pairs of distinct nodes),\n"
        "bisection width, links per node and max degree x diameter.\n"
        "\n"
        "  SPEC            a fabric: %s\n",
        noc_topo_spec_help());
    noc_opts_usage(f, topo_opts);
    fprintf(f,
        "  --area          also the routers' gate count: one router core\n"
        "                  (rtl/noc_vc_router.sv) per node with degree + 1 ports,\n"
        "                  synthesized with yosys once per port count and cached\n"
        "                  (noctua area --help), in NAND2 equivalents per port\n"
        "                  count and for the fabric. Its parameters: V (default: the\n"
        "                  fabric's VC classes, at least 2, as num_vcs=0), DEPTH\n"
        "                  (default %d), FLIT_W (default %d), N_CLASS (default: the\n"
        "                  fabric's VC classes, at most V), ARB (default round_robin)\n"
        "\n"
        "Bisection width is exact (branch and bound) up to --exact-max nodes and an\n"
        "upper bound above, shown as \"<= W\": the smallest cut METIS found, or a\n"
        "straight split along a grid coordinate or drawing axis if that cut fewer.\n"
        "Above %d nodes, distances come from a sample of BFS sources: the diameter\n"
        "is then a lower bound (\">= D\") and the average distance an estimate (\"~A\").\n"
        "See docs/facts.md.\n"
        "\n"
        "Exit status: 0 done, 2 bad input (a SPEC or an option) or yosys missing,\n"
        "4 yosys failed.\n",
        d.depth, d.flit_w, NOC_FACTS_BFS_ALL_DEFAULT);
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* ---- the table ------------------------------------------------------------ */

typedef noc_topo_column_t column_t;

static void fmt_diameter(const noc_facts_t *f, char *buf, size_t len)
{
    if (!f->connected)
        snprintf(buf, len, "disconnected");
    else
        snprintf(buf, len, "%s%d", f->distance_exact ? "" : ">= ", f->diameter);
}

static void fmt_avg_distance(const noc_facts_t *f, char *buf, size_t len)
{
    if (!f->connected)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%s%.3f", f->distance_exact ? "" : "~", f->avg_distance);
}

static void fmt_bisection(const noc_facts_t *f, char *buf, size_t len)
{
    if (f->bisection < 0)
        snprintf(buf, len, "-");
    else if (f->bisection_exact)
        snprintf(buf, len, "%d (exact)", f->bisection);
    else
        snprintf(buf, len, "<= %d (bound)", f->bisection);
}

static void fmt_degree_x_diameter(const noc_facts_t *f, char *buf, size_t len)
{
    if (f->degree_x_diameter < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%s%d", f->distance_exact ? "" : ">= ", f->degree_x_diameter);
}

/* Links of the class called `name` in column c, or -1 if it has none such. */
static int class_links(const column_t *c, const char *name)
{
    for (int k = 0; k < noc_topo_classes(c->t); k++)
        if (strcmp(noc_topo_class_name(c->t, k), name) == 0)
            return c->f.class_links[k];
    return -1;
}

static void print_row(FILE *out, const char *name, char cells[][CELL], int n, const int *width)
{
    fprintf(out, "%-22s", name);
    for (int i = 0; i < n; i++)
        fprintf(out, "  %*s", width[i], cells[i]);
    fputc('\n', out);
}

/* One row: the cell of each column through fill(). */
typedef void cell_fn(const column_t *c, const void *arg, char *buf, size_t len);

static void row(FILE *out, const char *name, const column_t *cols, int n, const int *width,
                cell_fn *fill, const void *arg)
{
    char (*cells)[CELL] = noc_xcalloc((size_t)n, sizeof *cells, "topo table");
    for (int i = 0; i < n; i++)
        fill(&cols[i], arg, cells[i], CELL);
    print_row(out, name, cells, n, width);
    free(cells);
}

enum field {
    F_NODES, F_TERMINALS, F_LINKS, F_CHANNELS, F_DEG_MIN, F_DEG_MAX, F_DEG_AVG, F_DIAMETER, F_AVG_DIST,
    F_BISECTION, F_LINKS_PER_NODE, F_DEG_X_DIAM, F_COUNT
};

static const char *const field_name[F_COUNT] = {
    "nodes", "terminals", "links", "channels", "degree min", "degree max", "degree avg", "diameter",
    "avg distance", "bisection width", "links per node", "degree x diameter",
};

static void cell(const column_t *c, const void *arg, char *buf, size_t len)
{
    const noc_facts_t *f = &c->f;
    switch (*(const enum field *)arg) {
    case F_NODES: snprintf(buf, len, "%d", f->nodes); break;
    case F_TERMINALS: snprintf(buf, len, "%d", noc_topo_terminals(c->t)); break;
    case F_LINKS: snprintf(buf, len, "%d", f->links); break;
    case F_CHANNELS: snprintf(buf, len, "%lld", 2LL * f->links); break;
    case F_DEG_MIN: snprintf(buf, len, "%d", f->degree_min); break;
    case F_DEG_MAX: snprintf(buf, len, "%d", f->degree_max); break;
    case F_DEG_AVG: snprintf(buf, len, "%.2f", f->degree_avg); break;
    case F_DIAMETER: fmt_diameter(f, buf, len); break;
    case F_AVG_DIST: fmt_avg_distance(f, buf, len); break;
    case F_BISECTION: fmt_bisection(f, buf, len); break;
    case F_LINKS_PER_NODE: snprintf(buf, len, "%.2f", f->links_per_node); break;
    case F_DEG_X_DIAM: fmt_degree_x_diameter(f, buf, len); break;
    default: buf[0] = '\0'; break;
    }
}

/* arg: 0 the fabric's NAND2-eq, 1 per node. */
static void area_cell(const column_t *c, const void *arg, char *buf, size_t len)
{
    const noc_fabric_area_t *a = &c->area;
    if (!a->n_groups)
        snprintf(buf, len, "-");
    else if (*(const int *)arg == 0)
        snprintf(buf, len, "%.0f", a->nand2);
    else
        snprintf(buf, len, "%.0f", a->nand2 / noc_topo_nodes(c->t));
}

static void class_cell(const column_t *c, const void *arg, char *buf, size_t len)
{
    int k = class_links(c, (const char *)arg);
    if (k < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%d", k);
}

static void print_table(FILE *out, const column_t *cols, int n)
{
    int *width = noc_xcalloc((size_t)n, sizeof *width, "topo table");
    /* widths: the SPEC or the widest cell */
    for (int i = 0; i < n; i++) {
        width[i] = (int)strlen(noc_topo_spec(cols[i].t));
        for (int fld = 0; fld < F_COUNT; fld++) {
            char buf[CELL];
            enum field e = (enum field)fld;
            cell(&cols[i], &e, buf, sizeof buf);
            if ((int)strlen(buf) > width[i])
                width[i] = (int)strlen(buf);
        }
        for (int k = 0; k < 2; k++) {
            char buf[CELL];
            area_cell(&cols[i], &k, buf, sizeof buf);
            if ((int)strlen(buf) > width[i])
                width[i] = (int)strlen(buf);
        }
    }
    int any_area = 0, any_conc = 0; /* (terminals: a row where routers have several, or none) */
    for (int i = 0; i < n; i++) {
        any_area |= cols[i].area.n_groups > 0;
        any_conc |= noc_topo_concentrated(cols[i].t);
    }
    fprintf(out, "%-22s", "fabric");
    for (int i = 0; i < n; i++)
        fprintf(out, "  %*s", width[i], noc_topo_spec(cols[i].t));
    fputc('\n', out);

    for (int fld = 0; fld < F_COUNT; fld++) {
        enum field e = (enum field)fld;
        if (e == F_TERMINALS && !any_conc)
            continue;
        row(out, field_name[fld], cols, n, width, cell, &e);
        if (e != F_LINKS)
            continue;
        /* per class, classes in first-seen order across the columns */
        for (int i = 0; i < n; i++)
            for (int k = 0; k < noc_topo_classes(cols[i].t); k++) {
                const char *name = noc_topo_class_name(cols[i].t, k);
                int seen = 0;
                for (int j = 0; j < i && !seen; j++)
                    seen = class_links(&cols[j], name) >= 0;
                for (int kk = 0; kk < k && !seen; kk++)
                    seen = strcmp(noc_topo_class_name(cols[i].t, kk), name) == 0;
                if (seen)
                    continue;
                char label[64];
                snprintf(label, sizeof label, "  class %s", name);
                row(out, label, cols, n, width, class_cell, name);
            }
    }
    if (any_area) {
        static const int total = 0, per_node = 1;
        row(out, "router NAND2-eq", cols, n, width, area_cell, &total);
        row(out, "  per node", cols, n, width, area_cell, &per_node);
    }

    int bound = 0, exact = 0, sampled = 0, runs = 0, split = 0;
    for (int i = 0; i < n; i++) {
        bound |= cols[i].f.bisection >= 0 && !cols[i].f.bisection_exact;
        exact |= cols[i].f.bisection >= 0 && cols[i].f.bisection_exact;
        sampled |= !cols[i].f.distance_exact;
        if (cols[i].f.bisection_runs > runs)
            runs = cols[i].f.bisection_runs;
        split |= cols[i].f.bisection_method == NOC_FACTS_BISECT_SPLIT;
    }
    fprintf(out, "\nlinks: bidirectional, each counted once; channels: one per direction (2 a link),\n"
                 "  the entries of noctua run's link tables\n");
    if (exact || bound)
        fprintf(out, "bisection width: links cut between halves of floor(N/2) and ceil(N/2) nodes;\n");
    if (exact)
        fprintf(out, "  exact: branch and bound over every balanced bipartition\n");
    if (bound)
        fprintf(out, "  bound: an upper bound, the smallest cut METIS found in %d runs%s\n", runs,
                split ? "\n         or a straight split along a grid coordinate or drawing axis" : "");
    if (sampled)
        fprintf(out, "distances from a sample of BFS sources: the diameter is a lower bound (>=),\n"
                     "the average distance an estimate (~)\n");
    free(width);
}

/* ---- --area --------------------------------------------------------------- */

static void print_area(FILE *out, const column_t *cols, int n)
{
    const noc_area_params_t *p0 = &cols[0].area.p;
    fprintf(out, "\nrouter area: one noc_vc_router per node with degree + 1 ports, DEPTH=%d FLIT_W=%d ARB=%s;\n"
                 "NAND2-eq weighs a NAND %g, an inverter %g, a flip-flop %g (docs/area.md)\n",
            p0->depth, p0->flit_w, noc_area_arb_name(p0->arb), NOC_AREA_W_NAND, NOC_AREA_W_NOT, NOC_AREA_W_FF);
    for (int i = 0; i < n; i++) {
        const noc_fabric_area_t *a = &cols[i].area;
        fprintf(out, "\n%s: V=%d N_CLASS=%d", noc_topo_spec(cols[i].t), a->p.V, a->p.n_class);
        if (a->p.V < a->classes_needed)
            fprintf(out, " (its deadlock-free routing needs %d VC classes: V=%d is fewer)", a->classes_needed,
                    a->p.V);
        else if (a->p.n_class != a->classes_needed)
            fprintf(out, " (its routing uses %d VC classes)", a->classes_needed);
        fprintf(out, "\n  %5s  %7s  %10s  %13s  %13s\n", "ports", "routers", "cells each", "NAND2-eq each",
                "NAND2-eq");
        for (int k = 0; k < a->n_groups; k++) {
            const noc_area_group_t *g = &a->g[k];
            fprintf(out, "  %5d  %7d  %10ld  %13.1f  %13.1f\n", g->ports, g->routers, g->a.cells, g->a.nand2,
                    g->a.nand2 * g->routers);
        }
        fprintf(out, "  %5s  %7d  %10s  %13s  %13.1f  (%.1f per node; %ld cells)\n", "total",
                noc_topo_nodes(cols[i].t), "", "", a->nand2, a->nand2 / noc_topo_nodes(cols[i].t), a->cells);
    }
}

/* What topo's command line asks for. */
typedef struct topo_args {
    const char *specs[MAX_SPECS];
    int n;
    const char *json_path;
    noc_facts_opts_t opts;
    int area, v_set, c_set;
    noc_area_params_t ap;
} topo_args_t;

/* One operand: an --area parameter (NAME=VALUE without ':') or a SPEC. 0,
 * or -1 after the message. */
static int topo_operand(topo_args_t *r, const char *a, const char **area_arg)
{
    if (strchr(a, '=') && !strchr(a, ':')) {
        char err[512];
        if (noc_area_param_set(&r->ap, a, 0, &r->c_set, err, sizeof err) != 0) {
            fprintf(stderr, "noctua topo: %s (a parameter of --area; see noctua topo --help)\n", err);
            return -1;
        }
        r->v_set |= a[0] == 'V' && a[1] == '=';
        if (!*area_arg)
            *area_arg = a;
        return 0;
    }
    if (r->n == MAX_SPECS) {
        fprintf(stderr, "noctua topo: at most %d SPECs at once\n", MAX_SPECS);
        return -1;
    }
    r->specs[r->n++] = a;
    return 0;
}

/* The command line into *r: -1 to go on, else the exit status. */
static int parse_args(topo_args_t *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    noc_facts_defaults(&r->opts);
    noc_area_params_default(&r->ap);
    const char *area_arg = NULL; /* the first area parameter given */
    noc_opts_t p;
    noc_opts_init(&p, "topo", topo_opts, argc, argv);
    noc_opts_in_order(&p);
    int k;
    while ((k = noc_opts_next(&p)) != -1) {
        if (k == -2)
            return NOC_EXIT_USAGE;
        if (k == O_HELP) {
            usage(stdout);
            return NOC_EXIT_OK;
        } else if (k == O_JSON) {
            r->json_path = p.value;
        } else if (k == O_EXACT_MAX || k == O_METIS_RUNS) {
            int is_exact = k == O_EXACT_MAX;
            if (parse_int(p.value, is_exact ? 0 : 1, is_exact ? NOC_FACTS_EXACT_LIMIT : 1000,
                          is_exact ? &r->opts.exact_max : &r->opts.runs)) {
                fprintf(stderr, "noctua topo: --%s needs a number from %d to %d\n", topo_opts[k].name,
                        is_exact ? 0 : 1, is_exact ? NOC_FACTS_EXACT_LIMIT : 1000);
                return NOC_EXIT_USAGE;
            }
        } else if (k == O_AREA) {
            r->area = 1;
        } else if (topo_operand(r, p.value, &area_arg)) {
            return NOC_EXIT_USAGE;
        }
    }
    if (r->n == 0) {
        fprintf(stderr, "noctua topo: no SPEC given (for example: noctua topo mesh:8x8 torus:8x8)\n");
        usage(stderr);
        return NOC_EXIT_USAGE;
    }
    if (area_arg && !r->area) {
        fprintf(stderr, "noctua topo: '%s' is a parameter of --area, which is not given\n", area_arg);
        return NOC_EXIT_USAGE;
    }
    return -1;
}

int noc_cmd_topo(int argc, char **argv)
{
    topo_args_t r;
    int rc = parse_args(&r, argc, argv);
    if (rc >= 0)
        return rc;
    rc = NOC_EXIT_OK;
    const int n = r.n, area = r.area;
    const char *const *specs = r.specs;
    const char *json_path = r.json_path;
    column_t *cols = noc_xcalloc((size_t)n, sizeof *cols, "topo table");
    int built = 0;
    for (; built < n; built++) {
        char err[512];
        cols[built].t = noc_topo_create(specs[built], 0, err, sizeof err);
        if (!cols[built].t) {
            fprintf(stderr, "noctua topo: %s\n", err);
            rc = NOC_EXIT_USAGE;
            goto done;
        }
        if (area) {
            noc_cli_area_params(cols[built].t, &r.ap, r.v_set, r.c_set, &cols[built].area.p);
            cols[built].area.p.P = 1;
            int bad = noc_area_params_check(&cols[built].area.p, err, sizeof err) != 0;
            if (!bad && noc_topo_max_degree(cols[built].t) + 1 > NOC_AREA_MAX_P) {
                snprintf(err, sizeof err, "a core of %d ports is more than it takes (%d)",
                         noc_topo_max_degree(cols[built].t) + 1, NOC_AREA_MAX_P);
                bad = 1;
            }
            if (bad) {
                fprintf(stderr, "noctua topo: %s: --area: %s\n", specs[built], err);
                built++;
                rc = NOC_EXIT_USAGE;
                goto done;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        char err[512];
        if (noc_facts_compute(cols[i].t, &r.opts, &cols[i].f, err, sizeof err)) {
            fprintf(stderr, "noctua topo: %s: %s\n", noc_topo_spec(cols[i].t), err);
            rc = NOC_EXIT_INTERNAL;
            goto done;
        }
    }
    for (int i = 0; area && i < n; i++) {
        char err[1200];
        rc = noc_cli_area_compute(cols[i].t, &cols[i].area, "noctua topo", err, sizeof err);
        if (rc != NOC_EXIT_OK) {
            fprintf(stderr, "noctua topo: %s: --area: %s\n", noc_topo_spec(cols[i].t), err);
            goto done;
        }
    }
    if (!(json_path && strcmp(json_path, "-") == 0)) {
        print_table(stdout, cols, n);
        if (area)
            print_area(stdout, cols, n);
    }
    if (json_path) {
        char err[600];
        if (noc_report_topo_json(cols, n, json_path, err, sizeof err)) {
            fprintf(stderr, "noctua topo: %s\n", err);
            rc = NOC_EXIT_USAGE;
        }
    }

done:
    for (int i = 0; i < built; i++) {
        noc_topo_destroy(cols[i].t);
        free(cols[i].area.g);
    }
    free(cols);
    return rc;
}
