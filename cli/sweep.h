/* sweep.h: what noctua sweep's files share (cli/cmd_sweep.c reads the
 * command line and reports, cli/sweep_run.c runs the points, one after
 * another or in parallel processes). Internal to cli/. */
#ifndef NOC_CLI_SWEEP_H
#define NOC_CLI_SWEEP_H
#include <stdio.h>
#include "model/config.h"

#define MAX_POINTS 1000
#define MAX_SERIES 16
#define MAX_SEEDS 30

typedef struct rates {
    double v[MAX_POINTS];
    int n;
} rates_t;

/* What the summary and the plot need from a series' runs. */
typedef struct outcome {
    int rows;            /* points written to the CSV */
    int saturated;       /* the last point written is saturated */
    double last_ok;      /* highest rate below saturation (if rows > saturated) */
    double first_sat;    /* the saturated rate (if saturated) */
    double zero_load;    /* average latency at the lowest rate */
    double lat_top;      /* the highest p99 latency of the points */
    int vcs;             /* VCs per port the runs had (num_vcs=0: as routing needs) */
} outcome_t;

/* One curve: its parameters, its name, what its runs gave. */
typedef struct series {
    noc_config_t cfg;
    char spec[NOC_CONFIG_STR_MAX];
    char label[NOC_CONFIG_STR_MAX * 6];
    outcome_t o;
} series_t;

/* --rates: FROM:TO:STEP or a,b,c into r, sorted, without duplicates. 0, or
 * -1 with a message in err naming arg (cmd_sweep.c). */
int noc_sweep_parse_rates(const char *arg, rates_t *r, char *err, size_t errlen);
/* Decimals (3 to 6) that show every rate exactly. */
int noc_sweep_decimals(const rates_t *r);

/* Run every series' rates into csv (open; header written) in order, each
 * series up to and including its first saturated point (with seeds > 1 a
 * point is that many runs, seeds cfg.seed, +1, ..., its row their means and
 * 95% intervals, and it is saturated when any of them is), the sweep stopping
 * at a deadlock, an internal error or an interrupt (a "# ... partial" line
 * in the CSV). jobs > 1 runs that many points at once in child processes:
 * the CSV, the lines on stderr and the outcomes are the same as jobs = 1's
 * (points past a series' saturated one are run and thrown away). label_rows:
 * each row starts with its series' quoted label. resume (or NULL): the rows
 * of an earlier run of the same sweep (the CSV after its header): a point
 * found there is taken as it is, not run. Returns an exit status;
 * *rows is the number of points written. */
int noc_sweep_run(series_t *sr, int n, const rates_t *r, int seeds, const char *resume, FILE *csv, int label_rows,
                  int jobs, int progress, int quiet, int *rows);

#endif
