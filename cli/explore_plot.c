/* explore_plot.c: noctua explore's pictures, drawn by gnuplot
 * (cli/gnuplot.h) from PREFIX.csv: cycles against links, cycles against
 * total area (with --area), energy against cycles (with energy) for the
 * programs, the saturation rate against links for synthetic traffic, one panel
 * per workload, every row a point labelled with its fabric and parameters,
 * the rows on the Pareto front in red. The command that made them is the
 * figure's title. */
#include "cli/explore_plot.h"
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/gnuplot.h"
#include <stdio.h>
#include <string.h>

#define MAX_PANELS 8
#define PATH_LEN 4096

/* The CSV's columns (report/explore_csv.c), counted from 1 as gnuplot does. */
enum { C_FABRIC = 1, C_PARAMS, C_WORKLOAD, C_STATUS, C_LINKS = 6, C_TOTAL_AREA = 14, C_CYCLES, C_ENERGY, C_SAT,
       C_PARETO = 20 };

/* One picture: y against x, per workload. */
typedef struct figure {
    const char *csv, *command;
    const char *name;             /* PREFIX-NAME.png */
    int x, y;                     /* columns */
    const char *xlabel, *ylabel;
    const char *const *work;      /* the workloads, a panel each */
    int n_work;
} figure_t;

/* "strcol(3) eq 'W' && $4 == 0 && $17 == front" as gnuplot's test of a row. */
static void gp_test(FILE *gp, const char *w, int front)
{
    fprintf(gp, "(strcol(%d) eq ", C_WORKLOAD);
    noc_gp_str(gp, w);
    fprintf(gp, " && $%d == 0 && $%d == %d", C_STATUS, C_PARETO, front);
}

static void gp_panel(FILE *gp, const figure_t *f, const char *w)
{
    fputs("set title ", gp);
    noc_gp_str(gp, w);
    fprintf(gp, "\nset xlabel '%s'\nset ylabel '%s'\nplot ", f->xlabel, f->ylabel);
    for (int front = 0; front < 2; front++) {
        fputs(front ? ", \\\n     '' skip 1 using " : "", gp);
        if (!front) {
            noc_gp_str(gp, f->csv);
            fputs(" skip 1 using ", gp);
        }
        gp_test(gp, w, front);
        fprintf(gp, " ? $%d : 1/0):%d with points pt 7 ps %s lc rgb '%s' title '%s'", f->x, f->y,
                front ? "1.6" : "1.0", front ? "#c0392b" : "#1f5fa8", front ? "Pareto front" : "dominated");
    }
    /* every point's label: fabric and parameters */
    fprintf(gp, ", \\\n     '' skip 1 using ($%d == 0 && strcol(%d) eq ", C_STATUS, C_WORKLOAD);
    noc_gp_str(gp, w);
    fprintf(gp, " ? $%d : 1/0):%d:(strcol(%d).(strlen(strcol(%d)) ? ' '.strcol(%d) : '')) "
                "with labels left offset char 0.6,0.4 font ',7' notitle\n", f->x, f->y, C_FABRIC, C_PARAMS,
            C_PARAMS);
}

static void gp_figure(FILE *gp, const void *arg)
{
    const figure_t *f = arg;
    int n = f->n_work < MAX_PANELS ? f->n_work : MAX_PANELS;
    fputs("set key top right\nset offsets graph 0.05, graph 0.25, graph 0.1, graph 0.1\n", gp);
    fprintf(gp, "set multiplot layout %d,1 title ", n);
    noc_gp_str(gp, f->command);
    fputs(" font ',9'\n", gp);
    for (int i = 0; i < n; i++)
        gp_panel(gp, f, f->work[i]);
    fputs("unset multiplot\n", gp);
}

/* PREFIX-NAME.png and .svg. 0, 1 (gnuplot failed: warned), or NOC_EXIT_USAGE. */
static int draw(const char *prefix, figure_t *f)
{
    char base[PATH_LEN + 64];
    snprintf(base, sizeof base, "%s-%s", prefix, f->name);
    int n = f->n_work < MAX_PANELS ? f->n_work : MAX_PANELS, h = 150 + 450 * n;
    int rc = noc_gp_draw("noctua explore", base, "png", 1000, h, gp_figure, f);
    return rc == 0 ? noc_gp_draw("noctua explore", base, "svg", 1000, h, gp_figure, f) : rc;
}

/* The workloads (at most MAX_PANELS) of the rows that ran well with cycles
 * (sat 0) or a saturation (sat 1), in order. */
static int workloads(const noc_explore_row_t *rows, int n, int sat, const char **work)
{
    int n_work = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].status != 0 || (sat ? !rows[i].has_sat : !rows[i].has_cycles))
            continue;
        int seen = 0;
        for (int k = 0; k < n_work && !seen; k++)
            seen = strcmp(work[k], rows[i].workload) == 0;
        if (!seen && n_work < MAX_PANELS)
            work[n_work++] = rows[i].workload;
    }
    return n_work;
}

int noc_explore_plot(const char *prefix, const char *csv, const char *command, const noc_explore_row_t *rows, int n,
                     char *names, size_t len)
{
    const char *work[MAX_PANELS], *synth[MAX_PANELS];
    int n_work = workloads(rows, n, 0, work), n_synth = workloads(rows, n, 1, synth), area = 0, energy = 0;
    names[0] = '\0';
    for (int i = 0; i < n; i++) {
        area |= rows[i].status == 0 && rows[i].has_area;
        energy |= rows[i].status == 0 && rows[i].has_energy;
    }
    if (n_work + n_synth == 0)
        return 1;
    if (!noc_cli_on_path("gnuplot")) {
        fprintf(stderr, "noctua explore: warning: gnuplot is not on PATH (Debian package gnuplot-nox); no plots\n");
        return 1;
    }
    figure_t figs[4] = {
        { csv, command, "cycles-links", C_LINKS, C_CYCLES, "links", "cycles", work, n_work },
        { csv, command, "cycles-area", C_TOTAL_AREA, C_CYCLES, "total router area (NAND2-eq)", "cycles", work, n_work },
        { csv, command, "energy-cycles", C_CYCLES, C_ENERGY, "cycles", "energy (pJ)", work, n_work },
        { csv, command, "saturation-links", C_LINKS, C_SAT, "links", "saturation rate (flits/node/cycle)", synth,
          n_synth },
    };
    int want[4] = { n_work > 0, n_work > 0 && area, n_work > 0 && energy, n_synth > 0 }, rc = 0;
    size_t at = 0;
    for (int i = 0; i < 4 && rc == 0; i++) {
        if (!want[i])
            continue;
        rc = draw(prefix, &figs[i]);
        if (rc == 0 && at < len)
            at += (size_t)snprintf(names + at, len - at, ", %s-%s.png/.svg", prefix, figs[i].name);
    }
    return rc;
}
