/* cmd_sweep.c: `noctua sweep SPEC --rates FROM:TO:STEP|a,b,c [key=value ...]
 * [--config FILE] [-o PREFIX]`: latency against offered load. One synthetic
 * run per rate, in increasing order, up to and including the first saturated
 * run. The points go to PREFIX.csv (written whole at the end, util/outfile.h;
 * a sweep cut short by Ctrl-C or a deadlock ends with a "# ... partial"
 * line); gnuplot (an external program, Debian's gnuplot-nox) then draws
 * PREFIX.png and PREFIX.svg from a script generated here. Without gnuplot the
 * CSV is still the result. */
#include "util/xalloc.h"
#include "cli/cli.h"
#include "report/report.h"
#include "cli/filter.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "app/config_file.h"
#include "util/interrupt.h"
#include "util/outfile.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_POINTS 1000
#define PATH_LEN 4096

typedef struct rates {
    double v[MAX_POINTS];
    int n;
} rates_t;

/* What the summary and the plot need from the runs. */
typedef struct outcome {
    int rows;            /* points written to the CSV */
    int saturated;       /* the last point written is saturated */
    double last_ok;      /* highest rate below saturation (if rows > saturated) */
    double first_sat;    /* the saturated rate (if saturated) */
    double zero_load;    /* average latency at the lowest rate */
    double lat_top;      /* the highest p99 latency of the points */
    int vcs;             /* VCs per port the runs had (num_vcs=0: as routing needs) */
} outcome_t;

/* The latency axis ends at LAT_CAP times the zero-load latency when a point
 * lies above that (past saturation latency grows with the run's length and
 * would squash the knee into the floor). */
#define LAT_CAP 5.0

enum { O_CONFIG, O_RATES, O_OUTPUT, O_HELP, O_PROGRESS, O_QUIET };
static const noc_opt_t sweep_opts[] = {
    [O_CONFIG] = { "config", 'c', "FILE", "read parameters from FILE (key = value lines; BookSim2 files work)" },
    [O_RATES] = { "rates", 'r', "R", NULL /* usage() writes its line: MAX_POINTS */ },
    [O_OUTPUT] = { "output", 'o', "PREFIX", "output files PREFIX.csv/.png/.svg (default: sweep)" },
    [O_HELP] = { "help", 'h', NULL, "this text" },
    [O_PROGRESS] = { "progress", 0, NULL, "show the progress line even when stderr is not a terminal" },
    [O_QUIET] = { "quiet", 'q', NULL, "no progress line, no line per point on stderr" },
    { NULL, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua sweep SPEC --rates FROM:TO:STEP [key=value ...] [--config FILE] [-o PREFIX]\n"
        "       noctua sweep SPEC --rates a,b,c ...\n"
        "\n"
        "Latency against offered load: one run of `noctua run` per injection rate, in\n"
        "increasing order, stopping after the first saturated run (that point is kept\n"
        "and marked). Writes PREFIX.csv and, with gnuplot (Debian package gnuplot-nox),\n"
        "PREFIX.png and PREFIX.svg.\n"
        "\n"
        "  SPEC            the fabric: %s (default: the config's, else mesh:8x8)\n"
        "  --rates R       injection_rate values (flits/node/cycle): FROM:TO:STEP with\n"
        "                  FROM > 0, TO >= FROM, STEP > 0, or a list a,b,c; at most %d points\n"
        "  key=value       set a parameter for every point (wins over --config)\n",
        noc_topo_spec_help(), MAX_POINTS);
    noc_opts_usage(f, sweep_opts);
    fprintf(f,
        "\n"
        "Options are written in full (no abbreviations); -c, -r, -o and -h are short for\n"
        "--config, --rates, --output and --help.\n"
        "\n"
        "CSV columns: %s\n"
        "(latencies in cycles, offered and accepted in flits/node/cycle).\n"
        "\n"
        "Exit status: 0 done (with or without a saturated point), 2 bad input or an\n"
        "output that could not be written, 3 deadlock at some rate, 4 internal error,\n"
        "130 interrupted (Ctrl-C: the CSV holds the points finished, and a last line\n"
        "'# ... the sweep is partial' says so, as after a deadlock).\n"
        "`noctua run --help` lists every parameter.\n",
        noc_report_sweep_header());
}

/* A finite number filling all of s[0..len). */
static int parse_num(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* A rate with the float noise of from + i * step taken off (0.15, not
 * 0.15000000000000002). */
static double clean(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.12g", v);
    return strtod(buf, NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* --rates: FROM:TO:STEP or a,b,c into r, sorted, without duplicates. */
static int parse_rates(const char *arg, rates_t *r, char *err, size_t errlen)
{
    r->n = 0;
    if (strchr(arg, ':')) {
        const char *names[3] = { "FROM", "TO", "STEP" };
        double f[3];
        const char *p = arg;
        for (int i = 0; i < 3; i++) {
            const char *e = strchr(p, ':');
            if ((i < 2 && !e) || (i == 2 && e)) {
                snprintf(err, errlen, "--rates '%s': expected FROM:TO:STEP or a list a,b,c", arg);
                return -1;
            }
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (parse_num(p, len, &f[i])) {
                snprintf(err, errlen, "--rates '%s': %s '%.*s' is not a number", arg, names[i],
                         (int)len, p);
                return -1;
            }
            p = e ? e + 1 : p + len;
        }
        if (f[0] <= 0) {
            snprintf(err, errlen, "--rates '%s': FROM must be > 0", arg);
            return -1;
        }
        if (f[1] < f[0]) {
            snprintf(err, errlen, "--rates '%s': TO (%g) must be >= FROM (%g)", arg, f[1], f[0]);
            return -1;
        }
        if (f[2] <= 0) {
            snprintf(err, errlen, "--rates '%s': STEP must be > 0", arg);
            return -1;
        }
        /* the tolerance keeps TO itself when (TO - FROM) / STEP is whole */
        double span = (f[1] - f[0]) / f[2] + 1e-9;
        if (!(span < (double)MAX_POINTS)) {
            snprintf(err, errlen, "--rates '%s': %.0f points; at most %d", arg, floor(span) + 1,
                     MAX_POINTS);
            return -1;
        }
        r->n = (int)floor(span) + 1;
        for (int i = 0; i < r->n; i++)
            r->v[i] = clean(f[0] + (double)i * f[2]);
        return 0;
    }
    const char *p = arg;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        double v;
        if (parse_num(p, len, &v)) {
            snprintf(err, errlen, "--rates '%s': '%.*s' is not a number (expected FROM:TO:STEP "
                     "or a list a,b,c)", arg, (int)len, p);
            return -1;
        }
        if (v <= 0) {
            snprintf(err, errlen, "--rates '%s': rate %g must be > 0", arg, v);
            return -1;
        }
        if (r->n == MAX_POINTS) {
            snprintf(err, errlen, "--rates: more than %d rates", MAX_POINTS);
            return -1;
        }
        r->v[r->n++] = v;
        if (!e)
            break;
        p = e + 1;
    }
    qsort(r->v, (size_t)r->n, sizeof r->v[0], cmp_double);
    int k = 0;
    for (int i = 0; i < r->n; i++)
        if (k == 0 || r->v[i] != r->v[k - 1])
            r->v[k++] = r->v[i];
    r->n = k;
    return 0;
}

/* Decimals (3 to 6) that show every rate exactly. */
static int decimals(const rates_t *r)
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

/* s as a gnuplot string: single-quoted (a quote inside is doubled), a
 * newline joined in as a double-quoted "\n". */
static void gp_str(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs("'.\"\\n\".'", gp);
            continue;
        }
        if (*s == '\'')
            fputc('\'', gp);
        fputc(*s, gp);
    }
    fputc('\'', gp);
}

/* What a figure shows beyond the CSV: its title, whether the last point is
 * saturated, and the top of the latency axis (0: as the data go). */
typedef struct figure {
    const char *title;
    int sat;
    double lat_cap;
} figure_t;

/* One figure: latency (average, p99 dashed) over offered load above,
 * accepted throughput below with the line accepted = offered; the saturated
 * point in red on both (at the top edge when it lies above a capped axis). */
static void gp_figure(FILE *gp, const char *csv, const figure_t *fig)
{
    fputs("set multiplot layout 2,1 title ", gp);
    gp_str(gp, fig->title);
    fputs("\nset xlabel 'offered load (flits/node/cycle)'\n"
          "set key top left\n", gp);
    if (fig->lat_cap > 0)
        fprintf(gp, "cap = %.1f\nset yrange [0:cap]\n"
                    "set ylabel 'latency (cycles; axis ends at %.0fx zero-load)'\n", fig->lat_cap, LAT_CAP);
    else
        fputs("cap = 1e300\nset ylabel 'latency (cycles)'\n", gp);
    fputs("plot ", gp);
    gp_str(gp, csv);
    fputs(" skip 1 using 1:3 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#1f5fa8' title 'average', \\\n"
          "     '' skip 1 using 1:5 with linespoints dt 2 lw 1.5 pt 6 ps 0.7 lc rgb '#1f5fa8' title 'p99'", gp);
    if (fig->sat)
        fputs(", \\\n     '' skip 1 using 1:($10 > 0 ? ($3 > cap ? cap : $3) : 1/0) with points pt 7 ps 1.8 "
              "lc rgb '#c0392b' title 'saturated'", gp);
    fputs("\nset yrange [0:*]\n"
          "set ylabel 'accepted (flits/node/cycle)'\n"
          "plot x with lines dt 2 lw 1.5 lc rgb '#404040' title 'accepted = offered', ", gp);
    gp_str(gp, csv);
    fputs(" skip 1 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#2e8b57' title 'accepted'", gp);
    if (fig->sat)
        fputs(", \\\n     '' skip 1 using 1:($10 > 0 ? $2 : 1/0) with points pt 7 ps 1.8 "
              "lc rgb '#c0392b' title 'saturated'", gp);
    fputs("\nunset multiplot\n", gp);
}

/* One picture, PREFIX.EXT, with gnuplot: the script goes to a temporary
 * beside the target, gnuplot draws to its standard output, which goes into
 * the picture through util/outfile.h (cli/filter.h). Returns 0; 1 when
 * gnuplot failed (a warning: the CSV is the result; no picture is left);
 * NOC_EXIT_USAGE when the picture could not be written. */
static int plot_one(const char *prefix, const char *ext, const char *csv, const figure_t *fig)
{
    char path[PATH_LEN + 8], err[600];
    snprintf(path, sizeof path, "%s.%s", prefix, ext);
    noc_out_t script, o;
    if (noc_out_reserve(&script, path, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    FILE *gp = fopen(script.tmp, "w");
    int bad = !gp;
    if (gp) {
        fputs("set datafile separator ','\n"
              "set grid\n"
              "set xrange [0:*]\n"
              "set yrange [0:*]\n", gp);
        if (strcmp(ext, "png") == 0)
            fputs("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                  "  set terminal pngcairo noenhanced size 900,900 font ',10'\n"
                  "} else {\n"
                  "  set terminal png noenhanced size 900,900\n"
                  "}\n", gp);
        else
            fputs("set terminal svg noenhanced size 900,900 dynamic background '#ffffff'\n", gp);
        gp_figure(gp, csv, fig);
        bad = ferror(gp) != 0;
        bad |= fclose(gp) != 0;
    }
    if (bad) {
        fprintf(stderr, "noctua sweep: %s: cannot write gnuplot's script (%s); nothing written\n", path,
                strerror(errno));
        noc_out_abort(&script);
        return NOC_EXIT_USAGE;
    }
    if (noc_out_open(&o, path, 0, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        noc_out_abort(&script);
        return NOC_EXIT_USAGE;
    }
    const char *const argv[] = { "gnuplot", script.tmp, NULL };
    size_t n;
    int st = noc_cli_filter(argv, NULL, o.f, &n);
    noc_out_abort(&script);
    if (st != 0 || n == 0) {
        fprintf(stderr, "noctua sweep: warning: gnuplot failed (status %d); no %s\n", st, path);
        noc_out_abort(&o);
        return 1;
    }
    if (noc_out_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    return 0;
}

/* PREFIX.png, then PREFIX.svg. Returns 0 when both were drawn, 1 when not
 * (warned: no gnuplot, or gnuplot failed), NOC_EXIT_USAGE when a picture
 * could not be written. A picture is whole or absent. */
static int plot(const char *prefix, const char *csv, const figure_t *fig)
{
    if (!noc_cli_on_path("gnuplot")) {
        fprintf(stderr, "noctua sweep: warning: gnuplot is not on PATH (Debian package gnuplot-nox); "
                "wrote %s, no plots\n", csv);
        return 1;
    }
    int rc = plot_one(prefix, "png", csv, fig);
    return rc == 0 ? plot_one(prefix, "svg", csv, fig) : rc;
}

/* Run every rate into csv (open, header written) until the first saturated
 * point, a deadlock or an error. Returns an exit status; fills out. */
static int run_points(noc_config_t *cfg, const rates_t *r, const char *spec, FILE *csv, outcome_t *out,
                      noc_progress_t *pg, int quiet)
{
    int d = decimals(r);
    char err[600];
    for (int i = 0; i < r->n; i++) {
        noc_sim_t *s;
        noc_topo_t *t;
        noc_run_result_t res;
        cfg->injection_rate = r->v[i];
        char what[NOC_CONFIG_STR_MAX + 64];
        snprintf(what, sizeof what, "sweep %s rate %.*f (%d/%d)", spec, d, r->v[i], i + 1, r->n);
        noc_progress_start(pg, NULL, what);
        noc_app_run_opts_t opts = { .progress = pg->on ? noc_progress_show : NULL, .progress_ctx = pg,
                                    .progress_every = NOC_PROGRESS_EVERY };
        int bad = noc_app_simulate(cfg, &opts, &s, &t, &res, err, sizeof err);
        noc_progress_done(pg);
        if (bad) {
            fprintf(stderr, "noctua sweep: rate %.*f: %s\n", d, r->v[i], err);
            return NOC_EXIT_USAGE;
        }
        const noc_stats_t *st = noc_sim_stats(s);
        if (res.status == NOC_RUN_INTERRUPTED) {
            fprintf(csv, "# interrupted during rate %.*f: the sweep is partial (%d of %d rates)\n", d, r->v[i],
                    out->rows, r->n);
            fprintf(stderr, "noctua sweep: interrupted during rate %.*f; the CSV holds the %d point%s before it, "
                    "marked partial\n", d, r->v[i], out->rows, out->rows == 1 ? "" : "s");
            noc_sim_destroy(s);
            noc_topo_destroy(t);
            return NOC_EXIT_INTERRUPTED;
        }
        if (res.status != NOC_RUN_OK) {
            int rc;
            if (res.status == NOC_RUN_DEADLOCK) {
                fprintf(stderr, "noctua sweep: DEADLOCK at rate %.*f, cycle %llu: no flit moved for %lld "
                        "cycles; %llu flits are stuck:\n", d, r->v[i], (unsigned long long)noc_sim_now(s),
                        (long long)cfg->deadlock_cycles, (unsigned long long)noc_sim_flits_in_network(s));
                noc_sim_report_stuck(s, stderr, 20);
                rc = NOC_EXIT_DEADLOCK;
            } else {
                fprintf(stderr, "noctua sweep: rate %.*f: the invariant checker failed (an internal error)\n",
                        d, r->v[i]);
                rc = NOC_EXIT_INTERNAL;
            }
            fprintf(stderr, "noctua sweep: stopped; the CSV holds the %d point%s before rate %.*f\n",
                    out->rows, out->rows == 1 ? "" : "s", d, r->v[i]);
            fprintf(csv, "# stopped at rate %.*f by %s: the sweep is partial (%d of %d rates)\n", d, r->v[i],
                    rc == NOC_EXIT_DEADLOCK ? "a deadlock" : "an internal error", out->rows, r->n);
            noc_sim_destroy(s);
            noc_topo_destroy(t);
            return rc;
        }
        noc_report_sweep_row(csv, s, &res);
        double lat = noc_lat_avg(&st->latency);
        if (!quiet)
            fprintf(stderr, "sweep %s: rate %.*f  latency %.1f  accepted %.*f  (%d/%d)%s\n", spec, d, r->v[i],
                    lat, d, res.accepted, i + 1, r->n, st->saturated ? "  saturated" : "");
        if (out->rows++ == 0) {
            out->zero_load = lat;
            out->vcs = noc_sim_vcs(s);
        }
        double p99 = (double)noc_stats_percentile(st, 0.99);
        if (p99 > out->lat_top)
            out->lat_top = p99;
        if (st->saturated) {
            out->saturated = 1;
            out->first_sat = r->v[i];
        } else {
            out->last_ok = r->v[i];
        }
        noc_sim_destroy(s);
        noc_topo_destroy(t);
        if (out->saturated)
            break;
    }
    return NOC_EXIT_OK;
}

static void summary(const outcome_t *o, const rates_t *r, const char *prefix, int plotted)
{
    int d = decimals(r);
    if (o->saturated && o->rows > 1)
        printf("saturation between %.*f (last rate below it) and %.*f (first saturated rate) flits/node/cycle\n",
               d, o->last_ok, d, o->first_sat);
    else if (o->saturated)
        printf("saturated already at the lowest rate, %.*f flits/node/cycle; try lower rates\n",
               d, o->first_sat);
    else
        printf("no saturation up to %.*f flits/node/cycle; try higher rates\n", d, o->last_ok);
    printf("zero-load latency about %.1f cycles (at %.*f)\n", o->zero_load, d, r->v[0]);
    if (plotted)
        printf("wrote %s.csv, %s.png, %s.svg\n", prefix, prefix, prefix);
    else
        printf("wrote %s.csv\n", prefix);
}

/* The command line into cfg, *rates_arg and *prefix_arg: --config files
 * first, then SPEC and key=value in their order, which win. -1 to go on,
 * else the exit status. */
static int parse_args(int argc, char **argv, noc_config_t *cfg, const char **rates_arg, const char **prefix_arg,
                      int *progress, int *quiet)
{
    char err[600];
    const char *spec_arg = NULL;
    int bad_operands = 0;
    for (int pass = 0; pass < 2; pass++) {
        noc_opts_t p;
        noc_opts_init(&p, "sweep", sweep_opts, argc, argv);
        noc_opts_in_order(&p);
        int k;
        while ((k = noc_opts_next(&p)) != -1) {
            int bad = 0;
            if (k == -2)
                return NOC_EXIT_USAGE;
            if (k == O_HELP) {
                usage(stdout);
                return NOC_EXIT_OK;
            } else if (pass == 0) {
                bad = k == O_CONFIG && noc_app_load_file(cfg, p.value, err, sizeof err);
            } else if (k == NOC_OPTS_OPERAND) {
                /* every refused key=value is named, not only the first */
                if (noc_cli_config_operand(cfg, p.value, &spec_arg, err, sizeof err) != 0) {
                    fprintf(stderr, "noctua sweep: %s\n", err);
                    bad_operands++;
                } else if (strncmp(p.value, "injection_rate=", 15) == 0) {
                    fprintf(stderr, "noctua sweep: warning: '%s' is ignored; --rates sets injection_rate\n",
                            p.value);
                }
            } else if (k == O_PROGRESS) {
                *progress = 1;
            } else if (k == O_QUIET) {
                *quiet = 1;
            } else if (k == O_RATES) {
                *rates_arg = p.value;
            } else if (k == O_OUTPUT) {
                bad = !*p.value;
                snprintf(err, sizeof err, "-o needs a PREFIX");
                *prefix_arg = p.value;
            }
            if (bad) {
                fprintf(stderr, "noctua sweep: %s\n", err);
                return NOC_EXIT_USAGE;
            }
        }
    }
    return bad_operands ? NOC_EXIT_USAGE : -1;
}

int noc_cmd_sweep(int argc, char **argv)
{
    noc_config_t cfg;
    char err[600];
    const char *rates_arg = NULL, *prefix_arg = "sweep";
    noc_config_defaults(&cfg);
    int progress = 0, quiet = 0;
    int arc = parse_args(argc, argv, &cfg, &rates_arg, &prefix_arg, &progress, &quiet);
    if (arc >= 0)
        return arc;
    if (!rates_arg) {
        fprintf(stderr, "noctua sweep: --rates is required (FROM:TO:STEP or a list a,b,c; see noctua sweep --help)\n");
        return NOC_EXIT_USAGE;
    }
    rates_t *rates = noc_xmalloc(sizeof *rates, "sweep");
    int rc = NOC_EXIT_OK, plotted = 0;
    noc_out_t csv = { .slot = -1 };
    outcome_t o = { 0 };
    char spec[NOC_CONFIG_STR_MAX], prefix[PATH_LEN], csv_path[PATH_LEN + 8];
    char title[NOC_CONFIG_STR_MAX * 3 + 200];
    if (parse_rates(rates_arg, rates, err, sizeof err) || noc_app_spec(&cfg, spec, sizeof spec, err, sizeof err)) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    /* "-o out.csv" means the prefix "out" */
    size_t plen = strlen(prefix_arg);
    if (plen > 4 && strcmp(prefix_arg + plen - 4, ".csv") == 0)
        plen -= 4;
    if (plen >= sizeof prefix) {
        fprintf(stderr, "noctua sweep: -o: PREFIX is too long\n");
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    snprintf(prefix, sizeof prefix, "%.*s", (int)plen, prefix_arg);
    snprintf(csv_path, sizeof csv_path, "%s.csv", prefix);
    if (noc_out_open(&csv, csv_path, 0, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: -o: %s\n", err);
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    fprintf(csv.f, "%s\n", noc_report_sweep_header());

    noc_interrupt_cooperate(1);
    noc_progress_t pg;
    noc_progress_init(&pg, progress, quiet);
    rc = run_points(&cfg, rates, spec, csv.f, &o, &pg, quiet);
    noc_interrupt_cooperate(0); /* from here, Ctrl-C quits at once */
    if (rc == NOC_EXIT_USAGE && o.rows == 0) {
        noc_out_abort(&csv); /* bad parameters: nothing was measured */
        goto done;
    }
    if (noc_out_commit(&csv, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    if (o.rows == 0)
        goto done;
    snprintf(title, sizeof title,
             "%s, router %s, %lld VCs x %lld flits, %lld-flit packets, %s traffic\n"
             "each point: %lld warm-up + %lld measured cycles%s",
             spec, cfg.router, (long long)o.vcs, (long long)cfg.vc_buf_size, (long long)cfg.packet_size,
             cfg.traffic, (long long)cfg.warmup_cycles, (long long)cfg.sample_cycles,
             rc == NOC_EXIT_OK ? "" : " (partial)");
    figure_t fig = { title, o.saturated,
                     o.zero_load > 0 && o.lat_top > LAT_CAP * o.zero_load ? LAT_CAP * o.zero_load : 0 };
    int prc = plot(prefix, csv_path, &fig);
    plotted = prc == 0;
    if (prc == NOC_EXIT_USAGE && rc == NOC_EXIT_OK)
        rc = NOC_EXIT_USAGE;
    printf("sweep %s (router %s, %lld-flit packets, %s traffic): %d point%s\n", spec, cfg.router,
           (long long)cfg.packet_size, cfg.traffic, o.rows, o.rows == 1 ? "" : "s");
    if (rc == NOC_EXIT_OK)
        summary(&o, rates, prefix, plotted);
    else
        printf("%s (see above); wrote %s%s\n", rc == NOC_EXIT_INTERRUPTED ? "interrupted, partial" : "stopped early",
               csv_path, plotted ? " and the plots" : "");
done:
    noc_out_abort(&csv);
    free(rates);
    return rc;
}
