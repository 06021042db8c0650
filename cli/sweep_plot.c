/* sweep_plot.c: noctua sweep's pictures, drawn by gnuplot (cli/gnuplot.h).
 * One series:
 * latency (average and p99) and accepted load against offered load; several:
 * one colour per series, overlaid (cli/sweep_plot.h). */
#include "cli/sweep_plot.h"
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/gnuplot.h"
#include <stdio.h>
#include <string.h>

/* A series' colour: the first is the single-series blue. */
static const char *const colours[] = { "#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085",
                                       "#7f8c8d", "#b7950b" };
#define N_COLOURS (int)(sizeof colours / sizeof colours[0])

/* The latency axis: capped (and said so) or as the data go; `cap` is set
 * for the saturated markers either way. */
static void gp_latency_axis(FILE *gp, const noc_sweep_figure_t *fig)
{
    if (fig->lat_cap > 0)
        fprintf(gp, "cap = %.1f\nset yrange [0:cap]\n"
                    "set ylabel 'latency (cycles; axis ends at %.0fx zero-load)'\n", fig->lat_cap,
                NOC_SWEEP_LAT_CAP);
    else
        fputs("cap = 1e300\nset ylabel 'latency (cycles)'\n", gp);
}

/* One series: latency (average, p99 dashed) over offered load above,
 * accepted throughput below with the line accepted = offered; the saturated
 * point in red on both (at the top edge when it lies above a capped axis). */
static void gp_single(FILE *gp, const char *csv, const noc_sweep_figure_t *fig)
{
    int sat = fig->saturated[0];
    fputs("plot ", gp);
    noc_gp_str(gp, csv);
    fputs(fig->seeds > 1 ? " skip 1 using 1:3:13 with yerrorlines lw 2 pt 7 ps 0.7 lc rgb '#1f5fa8' "
                           "title 'average (95% interval)', \\\n"
                         : " skip 1 using 1:3 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#1f5fa8' title 'average', \\\n",
          gp);
    fputs("     '' skip 1 using 1:5 with linespoints dt 2 lw 1.5 pt 6 ps 0.7 lc rgb '#1f5fa8' title 'p99'", gp);
    if (sat)
        fputs(", \\\n     '' skip 1 using 1:($10 > 0 ? ($3 > cap ? cap : $3) : 1/0) with points pt 7 ps 1.8 "
              "lc rgb '#c0392b' title 'saturated'", gp);
    fputs("\nset yrange [0:*]\n"
          "set ylabel 'accepted (flits/node/cycle)'\n"
          "plot x with lines dt 2 lw 1.5 lc rgb '#404040' title 'accepted = offered', ", gp);
    noc_gp_str(gp, csv);
    fputs(fig->seeds > 1 ? " skip 1 using 1:2:14 with yerrorlines lw 2 pt 7 ps 0.7 lc rgb '#2e8b57' title 'accepted'"
                         : " skip 1 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#2e8b57' title 'accepted'", gp);
    if (sat)
        fputs(", \\\n     '' skip 1 using 1:($10 > 0 ? $2 : 1/0) with points pt 7 ps 1.8 "
              "lc rgb '#c0392b' title 'saturated'", gp);
    fputc('\n', gp);
}

/* Several series overlaid, a colour each: average latency above, accepted
 * below; a series' saturated point as a larger ring of its colour. The rows
 * of series i are those whose first column is labels[i]. */
static void gp_series(FILE *gp, const char *csv, const noc_sweep_figure_t *fig, int accepted)
{
    fputs("plot ", gp);
    if (accepted)
        fputs("x with lines dt 2 lw 1.5 lc rgb '#404040' title 'accepted = offered', ", gp);
    for (int i = 0; i < fig->n_series; i++) {
        const char *c = colours[i % N_COLOURS];
        fputs(i ? ", \\\n     " : "", gp);
        noc_gp_str(gp, csv);
        fputs(" skip 1 using 2:(strcol(1) eq ", gp);
        noc_gp_str(gp, fig->labels[i]);
        if (fig->seeds > 1) /* with the interval's half-width as an error bar */
            fprintf(gp, " ? %s : 1/0):%s with yerrorlines lw 2 pt 7 ps 0.7 lc rgb '%s' title ", accepted ? "$3" : "$4",
                    accepted ? "15" : "14", c);
        else
            fprintf(gp, " ? %s : 1/0) with linespoints lw 2 pt 7 ps 0.7 lc rgb '%s' title ", accepted ? "$3" : "$4", c);
        noc_gp_str(gp, fig->labels[i]);
        if (fig->saturated[i]) {
            fputs(", \\\n     '' skip 1 using 2:(strcol(1) eq ", gp);
            noc_gp_str(gp, fig->labels[i]);
            fprintf(gp, " && $11 > 0 ? %s : 1/0) with points pt 6 ps 2 lw 2 lc rgb '%s' notitle",
                    accepted ? "$3" : "($4 > cap ? cap : $4)", c);
        }
    }
    fputc('\n', gp);
}

/* The whole figure: title, latency above, accepted below. */
static void gp_figure(FILE *gp, const char *csv, const noc_sweep_figure_t *fig)
{
    fputs("set multiplot layout 2,1 title ", gp);
    noc_gp_str(gp, fig->title);
    fputs("\nset xlabel 'offered load (flits/node/cycle)'\n"
          "set key top left\n", gp);
    gp_latency_axis(gp, fig);
    if (fig->n_series == 1) {
        gp_single(gp, csv, fig);
    } else {
        if (fig->n_series > 4)
            fputs("set key font ',8'\n", gp);
        gp_series(gp, csv, fig, 0);
        fputs("set yrange [0:*]\nset ylabel 'accepted (flits/node/cycle)'\n", gp);
        gp_series(gp, csv, fig, 1);
    }
    fputs("unset multiplot\n", gp);
}

/* The figure after gnuplot's preamble (cli/gnuplot.h). */
static void figure(FILE *gp, const void *arg)
{
    const struct { const char *csv; const noc_sweep_figure_t *fig; } *a = arg;
    fputs("set xrange [0:*]\n"
          "set yrange [0:*]\n", gp);
    gp_figure(gp, a->csv, a->fig);
}

int noc_sweep_plot(const char *prefix, const char *csv, const noc_sweep_figure_t *fig)
{
    if (!noc_cli_on_path("gnuplot")) {
        fprintf(stderr, "noctua sweep: warning: gnuplot is not on PATH (Debian package gnuplot-nox); "
                "wrote %s, no plots\n", csv);
        return 1;
    }
    const struct { const char *csv; const noc_sweep_figure_t *fig; } arg = { csv, fig };
    int rc = noc_gp_draw("noctua sweep", prefix, "png", 900, 900, figure, &arg);
    return rc == 0 ? noc_gp_draw("noctua sweep", prefix, "svg", 900, 900, figure, &arg) : rc;
}
