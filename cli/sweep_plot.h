/* sweep_plot.h: the pictures of noctua sweep, drawn by gnuplot from the
 * sweep's CSV (cli/sweep_plot.c). */
#ifndef NOC_CLI_SWEEP_PLOT_H
#define NOC_CLI_SWEEP_PLOT_H

/* What a figure shows beyond the CSV. With one series the CSV is noctua
 * sweep's plain table; with several its first column names the series
 * (labels[i]) and every other column moves one to the right. */
typedef struct noc_sweep_figure {
    const char *title;         /* may hold a newline */
    int n_series;
    const char *const *labels; /* n_series labels (n_series > 1) */
    const int *saturated;      /* per series: its last point is saturated */
    double lat_cap;            /* the top of the latency axis; 0: as the data go */
    int seeds;                 /* > 1: the CSV's last columns hold 95% intervals, drawn as error bars */
} noc_sweep_figure_t;

/* The latency axis ends at this many times the zero-load latency when a
 * point lies above that. */
#define NOC_SWEEP_LAT_CAP 5.0

/* PREFIX.png, then PREFIX.svg, from csv. 0 when both were drawn, 1 when not
 * (warned: no gnuplot, or gnuplot failed), NOC_EXIT_USAGE when a picture
 * could not be written. A picture is whole or absent. */
int noc_sweep_plot(const char *prefix, const char *csv, const noc_sweep_figure_t *fig);

#endif
