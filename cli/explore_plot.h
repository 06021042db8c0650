/* explore_plot.h: the pictures of noctua explore (cli/explore_plot.c),
 * drawn by gnuplot from its CSV. Internal to cli/. */
#ifndef NOC_CLI_EXPLORE_PLOT_H
#define NOC_CLI_EXPLORE_PLOT_H
#include <stddef.h>
#include "report/explore.h"

/* For program workloads PREFIX-cycles-links.png/.svg, PREFIX-cycles-area
 * when a row has area, PREFIX-energy-cycles when a row has energy; for
 * synthetic ones PREFIX-saturation-links: from
 * csv (rows: the same table, to know which), one panel per workload (the
 * first 8), titled with command. The pictures drawn as ", P-x.png/.svg"
 * items into names. 0 when every picture was drawn; 1 when not (warned: no
 * gnuplot, gnuplot failed, no row ran); NOC_EXIT_USAGE when a picture could
 * not be written. */
int noc_explore_plot(const char *prefix, const char *csv, const char *command, const noc_explore_row_t *rows, int n,
                     char *names, size_t len);

#endif
