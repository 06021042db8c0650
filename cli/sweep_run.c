/* sweep_run.c: the points of noctua sweep (cli/sweep.h). A point is one
 * synthetic run at one rate; its result is applied to the CSV, the lines on
 * stderr and its series' outcome strictly in order (series by series, rate
 * by rate), so that the output does not depend on how the points ran. With
 * jobs > 1 up to that many points run at once, each in a child process
 * (cli/pool.h) that sends its result back whole; points past a series'
 * first saturated one, and those after a deadlock, may have started and are
 * killed or thrown away. */
#include "cli/sweep.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/pool.h"
#include "app/run.h"
#include "report/report.h"
#include "util/interrupt.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int noc_sweep_decimals(const rates_t *r)
{
    for (int d = 3; d < 6; d++) {
        double scale = pow(10.0, d);
        int ok = 1;
        for (int i = 0; i < r->n && ok; i++)
            ok = fabs(round(r->v[i] * scale) - r->v[i] * scale) < 1e-6;
        if (ok)
            return d;
    }
    return 6;
}

/* One point's result, sent whole by a child. */
typedef struct point {
    int bad;            /* the parameters were refused (msg) */
    int status;         /* NOC_RUN_* */
    int saturated, vcs;
    double lat, p99, accepted;
    unsigned long long now, stuck;
    int kept;           /* taken from the CSV being resumed, not run */
    char row[512];      /* the CSV row, without a series label */
    char msg[4096];     /* bad: why; a deadlock: the stuck flits */
} point_t;

/* Student's t for a 95% two-sided interval with n - 1 degrees of freedom,
 * n = 2 .. 30 (NIST/SEMATECH e-Handbook, table 1.3.6.7.2). */
static const double t95[] = { 0, 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                              2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045 };

/* Half-width of the 95% interval of the mean of n samples with sum and sum
 * of squares. */
static double ci95(double sum, double sq, int n)
{
    if (n < 2)
        return 0.0;
    double mean = sum / n, var = (sq - n * mean * mean) / (n - 1);
    return t95[n] * sqrt(var > 0 ? var : 0) / sqrt((double)n);
}

/* One run at cfg's seed into v (the CSV's values); pt gets the run's status
 * and, the first time, its VCs; the row of a single seed; a failed run's
 * message. 0 when it ran to the end (whatever its status), -1 when its
 * parameters were refused (pt->msg). */
static int run_seed(noc_config_t *cfg, noc_progress_t *pg, const char *what, int first_and_only, point_t *pt,
                    double v[NOC_SWEEP_COLS])
{
    noc_sim_t *s;
    noc_topo_t *t;
    noc_run_result_t res;
    noc_progress_start(pg, NULL, what);
    noc_app_run_opts_t opts = { .progress = pg->on ? noc_progress_show : NULL, .progress_ctx = pg,
                                .progress_every = NOC_PROGRESS_EVERY };
    int bad = noc_app_simulate(cfg, &opts, &s, &t, &res, pt->msg, sizeof pt->msg) != 0;
    noc_progress_done(pg);
    if (bad)
        return -1;
    pt->status = (int)res.status;
    pt->vcs = noc_sim_vcs(s);
    pt->now = (unsigned long long)noc_sim_now(s);
    pt->stuck = (unsigned long long)noc_sim_flits_in_network(s);
    noc_report_sweep_values(s, &res, v);
    FILE *f;
    if (first_and_only && (f = fmemopen(pt->row, sizeof pt->row, "w")) != NULL) {
        noc_report_sweep_row(f, s, &res); /* one seed: the row as it always was */
        fclose(f);
    }
    if (res.status == NOC_RUN_DEADLOCK && (f = fmemopen(pt->msg, sizeof pt->msg, "w")) != NULL) {
        noc_sim_report_stuck(s, f, 20);
        fclose(f);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    return 0;
}

/* The point at `rate`: one run per seed (cfg->seed, +1, ...), their means
 * and intervals; the first run that does not end well is the point's. */
static void run_point(noc_config_t *cfg, double rate, int seeds, noc_progress_t *pg, const char *what, point_t *pt)
{
    memset(pt, 0, sizeof *pt);
    cfg->injection_rate = rate;
    long long seed0 = cfg->seed;
    double v[NOC_SWEEP_COLS], sum[NOC_SWEEP_COLS] = { 0 }, sq_lat = 0, sq_acc = 0;
    for (int k = 0; k < seeds; k++) {
        cfg->seed = seed0 + k;
        pt->bad = run_seed(cfg, pg, what, seeds == 1, pt, v) != 0;
        if (pt->bad || pt->status != NOC_RUN_OK)
            break;
        for (int c = 0; c < NOC_SWEEP_COLS; c++)
            sum[c] += v[c];
        sq_lat += v[2] * v[2];
        sq_acc += v[1] * v[1];
        pt->saturated |= v[9] > 0; /* a point is saturated when any seed's run is */
    }
    cfg->seed = seed0;
    if (pt->bad || pt->status != NOC_RUN_OK)
        return;
    pt->lat = sum[2] / seeds;
    pt->p99 = sum[4] / seeds;
    pt->accepted = sum[1] / seeds;
    if (seeds > 1) {
        for (int c = 0; c < NOC_SWEEP_COLS; c++)
            sum[c] /= seeds;
        FILE *f = fmemopen(pt->row, sizeof pt->row, "w");
        if (f) {
            noc_report_sweep_mean_row(f, sum, seeds, ci95(pt->lat * seeds, sq_lat, seeds),
                                      ci95(pt->accepted * seeds, sq_acc, seeds));
            fclose(f);
        }
    }
}

/* The row of series sr's point at `rate` in the CSV being resumed (text:
 * its lines after the header), into pt: 1 if there is one. Rows are found
 * by their series' label and their offered load as the CSV writes it. */
static int resumed(const char *text, const series_t *sr, int label_rows, double rate, point_t *pt)
{
    if (!text)
        return 0;
    char key[sizeof sr->label + 48];
    size_t lab = label_rows ? (size_t)snprintf(key, sizeof key, "\"%s\",", sr->label) : 0;
    snprintf(key + lab, sizeof key - lab, "%.6g,", rate);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (line[0] == '#')
            break; /* a partial sweep's note ends its rows */
        if (strncmp(line, key, strlen(key)) != 0)
            continue;
        memset(pt, 0, sizeof *pt);
        const char *row = line + lab, *end = strchr(row, '\n');
        size_t len = end ? (size_t)(end - row) : strlen(row);
        if (len + 2 > sizeof pt->row)
            return 0;
        memcpy(pt->row, row, len);
        memcpy(pt->row + len, "\n", 2);
        double v[NOC_SWEEP_COLS];
        char *q = pt->row;
        for (int k = 0; k < NOC_SWEEP_COLS; k++) {
            v[k] = strtod(q, &q);
            if (*q == ',')
                q++;
        }
        pt->accepted = v[1];
        pt->lat = v[2];
        pt->p99 = v[4];
        pt->saturated = v[9] > 0;
        pt->kept = 1;
        return 1;
    }
    return 0;
}

/* Point i of series sr into the CSV, stderr and sr->o, as the sweep has
 * always told them. NOC_EXIT_OK to go on (sr->o.saturated: the series is
 * done), else the exit status that ends the sweep. */
static int apply_point(series_t *sr, int label_rows, const rates_t *r, int i, const point_t *pt, FILE *csv, int quiet)
{
    int d = noc_sweep_decimals(r);
    char pre[sizeof sr->label + 2] = ""; /* "LABEL " in messages with several series */
    outcome_t *out = &sr->o;
    if (label_rows)
        snprintf(pre, sizeof pre, "%s ", sr->label);
    if (pt->bad) {
        fprintf(stderr, "noctua sweep: %srate %.*f: %s\n", pre, d, r->v[i], pt->msg);
        return NOC_EXIT_USAGE;
    }
    if (pt->status == NOC_RUN_INTERRUPTED) {
        fprintf(csv, "# interrupted during %srate %.*f: the sweep is partial (%d of %d rates)\n", pre, d, r->v[i],
                out->rows, r->n);
        fprintf(stderr, "noctua sweep: interrupted during %srate %.*f; the CSV holds the %d point%s before it, "
                "marked partial\n", pre, d, r->v[i], out->rows, out->rows == 1 ? "" : "s");
        return NOC_EXIT_INTERRUPTED;
    }
    if (pt->status != NOC_RUN_OK) {
        int rc = pt->status == NOC_RUN_DEADLOCK ? NOC_EXIT_DEADLOCK : NOC_EXIT_INTERNAL;
        if (rc == NOC_EXIT_DEADLOCK)
            fprintf(stderr, "noctua sweep: DEADLOCK at %srate %.*f, cycle %llu: no flit moved for %lld "
                    "cycles; %llu flits are stuck:\n%s", pre, d, r->v[i], pt->now, (long long)sr->cfg.deadlock_cycles,
                    pt->stuck, pt->msg);
        else
            fprintf(stderr, "noctua sweep: %srate %.*f: the invariant checker failed (an internal error)\n", pre,
                    d, r->v[i]);
        fprintf(stderr, "noctua sweep: stopped; the CSV holds the %d point%s before %srate %.*f\n", out->rows,
                out->rows == 1 ? "" : "s", pre, d, r->v[i]);
        fprintf(csv, "# stopped at %srate %.*f by %s: the sweep is partial (%d of %d rates)\n", pre, d, r->v[i],
                rc == NOC_EXIT_DEADLOCK ? "a deadlock" : "an internal error", out->rows, r->n);
        return rc;
    }
    if (label_rows)
        fprintf(csv, "\"%s\",", sr->label);
    fputs(pt->row, csv);
    if (!quiet)
        fprintf(stderr, "sweep %s: rate %.*f  latency %.1f  accepted %.*f  (%d/%d)%s%s\n", sr->label, d, r->v[i],
                pt->lat, d, pt->accepted, i + 1, r->n, pt->saturated ? "  saturated" : "",
                pt->kept ? "  (kept from the CSV)" : "");
    if (out->rows++ == 0)
        out->zero_load = pt->lat;
    if (!out->vcs)
        out->vcs = pt->vcs; /* 0 from a kept row */
    if (pt->p99 > out->lat_top)
        out->lat_top = pt->p99;
    if (pt->saturated) {
        out->saturated = 1;
        out->first_sat = r->v[i];
    } else {
        out->last_ok = r->v[i];
    }
    return NOC_EXIT_OK;
}

static void what_of(const series_t *sr, const rates_t *r, int i, char *buf, size_t len)
{
    snprintf(buf, len, "sweep %s rate %.*f (%d/%d)", sr->label, noc_sweep_decimals(r), r->v[i], i + 1, r->n);
}

static int run_in_order(series_t *sr, int n, const rates_t *r, int seeds, const char *resume, FILE *csv,
                        int label_rows, noc_progress_t *pg, int quiet, int *rows)
{
    point_t *pt = noc_xmalloc(sizeof *pt, "sweep");
    int rc = NOC_EXIT_OK;
    for (int k = 0; k < n && rc == NOC_EXIT_OK; k++) {
        for (int i = 0; i < r->n && rc == NOC_EXIT_OK && !sr[k].o.saturated; i++) {
            char what[sizeof sr->label + 64];
            what_of(&sr[k], r, i, what, sizeof what);
            if (!resumed(resume, &sr[k], label_rows, r->v[i], pt))
                run_point(&sr[k].cfg, r->v[i], seeds, pg, what, pt);
            rc = apply_point(&sr[k], label_rows, r, i, pt, csv, quiet);
            *rows += rc == NOC_EXIT_OK;
        }
    }
    free(pt);
    return rc;
}

/* ---- in parallel (cli/pool.h) ---- */

/* What the pool's callbacks need: task k is series k / r->n at rate
 * k % r->n. */
typedef struct sweep_ctx {
    series_t *sr;
    const rates_t *r;
    int seeds, label_rows, quiet;
    const char *resume;
    FILE *csv;
    int *rows;
} sweep_ctx_t;

static int task_skip(void *ctx, int k)
{
    const sweep_ctx_t *c = ctx;
    return c->sr[k / c->r->n].o.saturated; /* a point past its series' saturated one */
}

static int task_ready(void *ctx, int k, void *res)
{
    const sweep_ctx_t *c = ctx;
    return resumed(c->resume, &c->sr[k / c->r->n], c->label_rows, c->r->v[k % c->r->n], res);
}

static void task_run(void *ctx, int k, void *res)
{
    sweep_ctx_t *c = ctx;
    noc_progress_t quiet_pg;
    noc_progress_init(&quiet_pg, 0, 1);
    run_point(&c->sr[k / c->r->n].cfg, c->r->v[k % c->r->n], c->seeds, &quiet_pg, "", res);
}

static int task_apply(void *ctx, int k, void *res)
{
    sweep_ctx_t *c = ctx;
    int rc = apply_point(&c->sr[k / c->r->n], c->label_rows, c->r, k % c->r->n, res, c->csv, c->quiet);
    *c->rows += rc == NOC_EXIT_OK;
    return rc;
}

static void task_fail(void *ctx, int k, int why, const char *msg, void *res)
{
    (void)ctx;
    (void)k;
    point_t *pt = res;
    if (why == NOC_POOL_NO_START) {
        pt->bad = 1;
        snprintf(pt->msg, sizeof pt->msg, "%s", msg);
    } else {
        pt->status = why == NOC_POOL_LOST ? NOC_RUN_INVARIANT : NOC_RUN_INTERRUPTED;
    }
}

static int run_parallel(series_t *sr, int n, const rates_t *r, int seeds, const char *resume, FILE *csv,
                        int label_rows, int jobs, int quiet, int *rows)
{
    sweep_ctx_t c = { sr, r, seeds, label_rows, quiet, resume, csv, rows };
    const noc_pool_ops_t ops = { sizeof(point_t), "noctua sweep", task_skip, task_ready, task_run, task_apply,
                                 task_fail };
    return noc_pool_run(n * r->n, jobs, &ops, &c);
}

int noc_sweep_run(series_t *sr, int n, const rates_t *r, int seeds, const char *resume, FILE *csv, int label_rows,
                  int jobs, int progress, int quiet, int *rows)
{
    *rows = 0;
    for (int i = 0; i < n; i++)
        if (sr[i].cfg.sim_count != 1) {
            fprintf(stderr, "noctua sweep: sim_count = %lld (%s): a sweep runs several seeds a point with --seeds N "
                    "(mean and 95%% interval); leave sim_count out\n", (long long)sr[i].cfg.sim_count, sr[i].spec);
            return NOC_EXIT_USAGE;
        } else if (sr[i].cfg.class_injection_rate[0]) {
            fprintf(stderr, "noctua sweep: class_injection_rate = %s (%s) sets every class's rate: the swept "
                    "injection_rate would change nothing; leave class_injection_rate out (every class then runs at "
                    "the swept rate)\n", sr[i].cfg.class_injection_rate, sr[i].spec);
            return NOC_EXIT_USAGE;
        } else if (strcmp(sr[i].cfg.sim_type, "batch") == 0) {
            fprintf(stderr, "noctua sweep: sim_type = batch (%s) does not read injection_rate: every rate would "
                    "run the same batches; run them with noctua run\n", sr[i].spec);
            return NOC_EXIT_USAGE;
        }
    if (jobs <= 1 || n * r->n == 1) {
        noc_progress_t pg;
        noc_progress_init(&pg, progress, quiet);
        return run_in_order(sr, n, r, seeds, resume, csv, label_rows, &pg, quiet, rows);
    }
    return run_parallel(sr, n, r, seeds, resume, csv, label_rows, jobs, quiet, rows);
}
