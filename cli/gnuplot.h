/* gnuplot.h: one picture drawn by gnuplot (cli/gnuplot.c): what the
 * pictures of noctua sweep (cli/sweep_plot.c) and noctua explore
 * (cli/explore_plot.c) share. Internal to cli/. */
#ifndef NOC_CLI_GNUPLOT_H
#define NOC_CLI_GNUPLOT_H
#include <stdio.h>

/* s as a gnuplot string: single-quoted (a quote inside doubled), a newline
 * joined in as a double-quoted "\n". */
void noc_gp_str(FILE *gp, const char *s);

/* The picture PREFIX.EXT (ext "png" or "svg", width x height pixels):
 * gnuplot runs a script of a preamble (a CSV data file, a grid, the
 * terminal) and what figure(gp, arg) writes, into a temporary beside the
 * target, and draws to its standard output, which goes into the picture
 * through util/outfile.h (cli/filter.h). who names the command in
 * messages. Returns 0; 1 when gnuplot failed (a warning: no picture is
 * left); NOC_EXIT_USAGE when the picture could not be written. */
int noc_gp_draw(const char *who, const char *prefix, const char *ext, int width, int height,
                void (*figure)(FILE *gp, const void *arg), const void *arg);

#endif
