/* cmd_sweep.c: `noctua sweep SPEC... --rates FROM:TO:STEP|a,b,c [--vary
 * KEY=V1,V2,...] [key=value ...] [--config FILE] [-o PREFIX]`: latency
 * against offered load. One synthetic run per rate, in increasing order, up
 * to and including the first saturated run, for each series (every SPEC
 * with every combination of the --vary values). The points go to PREFIX.csv
 * (written whole at the end, util/outfile.h; with several series its first
 * column names the series; a sweep cut short by Ctrl-C or a deadlock ends
 * with a "# ... partial" line); gnuplot then draws PREFIX.png and PREFIX.svg
 * (cli/sweep_plot.c). Without gnuplot the CSV is still the result. */
#include "util/xalloc.h"
#include "cli/cli.h"
#include "report/report.h"
#include "cli/filter.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/sweep_plot.h"
#include "cli/sweep.h"
#include "app/config_file.h"
#include "util/interrupt.h"
#include "util/outfile.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_LEN 4096

enum { O_CONFIG, O_RATES, O_VARY, O_JOBS, O_SEEDS, O_RESUME, O_OUTPUT, O_HELP, O_PROGRESS, O_QUIET };
static const noc_opt_t sweep_opts[] = {
    [O_CONFIG] = { "config", 'c', "FILE", "read parameters from FILE (key = value lines; BookSim2 files work)" },
    [O_RATES] = { "rates", 'r', "R", NULL /* usage() writes its line: MAX_POINTS */ },
    [O_VARY] = { "vary", 0, "KEY=V1,V2,...", "a curve per value of parameter KEY, overlaid in one plot\n"
                                             "(up to two --vary; values split at every comma outside (..) and {..})" },
    [O_JOBS] = { "jobs", 'j', "N", "run N points at once, each in a process of its own (default: one\n"
                                   "per core; 1: one after another); the CSV is the same for any N; under\n"
                                   "mpirun -n R the points spread over the R ranks, one at a time each" },
    [O_SEEDS] = { "seeds", 0, "K", "K runs a point (seeds seed, seed+1, ...): the CSV holds their\n"
                                   "means and 95% intervals, the plot error bars (1 to 30)" },
    [O_RESUME] = { "resume", 0, NULL, "keep the points PREFIX.csv already holds (an earlier run of\n"
                                      "the same sweep, cut short) and run only the others" },
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
        "       noctua sweep SPEC [SPEC ...] --rates ... [--vary KEY=V1,V2,...] ...\n"
        "\n"
        "Latency against offered load: one run of `noctua run` per injection rate, in\n"
        "increasing order, stopping after the first saturated run (that point is kept\n"
        "and marked). Writes PREFIX.csv and, with gnuplot (Debian package gnuplot-nox),\n"
        "PREFIX.png and PREFIX.svg. Several SPECs, or --vary, make several series\n"
        "(each SPEC with each combination of values, at most %d), overlaid in one plot;\n"
        "the CSV then starts with a column naming the series.\n"
        "\n"
        "  SPEC            the fabric: %s (default: the config's, else mesh:8x8)\n"
        "  --rates R       injection_rate values (flits/node/cycle): FROM:TO:STEP with\n"
        "                  FROM > 0, TO >= FROM, STEP > 0, or a list a,b,c; at most %d points\n"
        "  key=value       set a parameter for every point (wins over --config)\n",
        MAX_SERIES, noc_topo_spec_help(), MAX_POINTS);
    noc_opts_usage(f, sweep_opts);
    fprintf(f,
        "\n"
        "Options are written in full (no abbreviations); -c, -r, -j, -o and -h are short\n"
        "for --config, --rates, --jobs, --output and --help. With --jobs above 1 the\n"
        "lines per point are the progress (each point runs in a process of its own).\n"
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

/* "N-flit packets", or request/reply traffic's sizes. */
static const char *packets_text(const noc_config_t *c, char *buf, size_t len)
{
    if (c->use_read_write)
        snprintf(buf, len, "requests/replies of %lld+%lld and %lld+%lld flits", (long long)c->read_request_size,
                 (long long)c->read_reply_size, (long long)c->write_request_size, (long long)c->write_reply_size);
    else
        snprintf(buf, len, "%lld-flit packets", (long long)c->packet_size);
    return buf;
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

int noc_sweep_parse_rates(const char *arg, rates_t *r, char *err, size_t errlen)
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

/* Where a series saturated, as one phrase. */
static void saturation_text(FILE *f, const outcome_t *o, const rates_t *r)
{
    int d = noc_sweep_decimals(r);
    if (o->saturated && o->rows > 1)
        fprintf(f, "saturation between %.*f (last rate below it) and %.*f (first saturated rate) flits/node/cycle",
                d, o->last_ok, d, o->first_sat);
    else if (o->saturated)
        fprintf(f, "saturated already at the lowest rate, %.*f flits/node/cycle; try lower rates", d, o->first_sat);
    else
        fprintf(f, "no saturation up to %.*f flits/node/cycle; try higher rates", d, o->last_ok);
}

/* ---- several series: SPECs and --vary ---- */

#define MAX_VARY 2

/* --vary KEY=V1,V2,...: one series per value. */
typedef struct vary {
    char key[64];
    char val[MAX_SERIES][NOC_CONFIG_STR_MAX];
    int n;
} vary_t;

/* What sweep's command line asks for. */
typedef struct sweep_args {
    noc_config_t cfg; /* --config and key=value */
    const char *rates, *prefix;
    const char *specs[MAX_SERIES];
    int n_specs;
    vary_t vary[MAX_VARY];
    int n_vary;
    int progress, quiet;
    int jobs;         /* -j: points at once */
    int seeds;        /* --seeds: runs a point */
    int resume;       /* --resume */
} sweep_args_t;

/* The comma that ends the value at p, or NULL: commas inside (..) and {..}
 * belong to the value (traffic=hotspot({0,9},{1,3}),uniform is two). */
static const char *value_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(' || *p == '{')
            depth++;
        else if ((*p == ')' || *p == '}') && depth > 0)
            depth--;
        else if (*p == ',' && depth == 0)
            return p;
    }
    return NULL;
}

static int parse_vary(sweep_args_t *a, const char *v, char *err, size_t errlen)
{
    const char *eq = strchr(v, '=');
    if (a->n_vary == MAX_VARY) {
        snprintf(err, errlen, "--vary: at most %d parameters", MAX_VARY);
        return -1;
    }
    vary_t *w = &a->vary[a->n_vary];
    if (!eq || eq == v || (size_t)(eq - v) >= sizeof w->key || !eq[1]) {
        snprintf(err, errlen, "--vary '%s': expected KEY=V1,V2,... (num_vcs=2,4)", v);
        return -1;
    }
    snprintf(w->key, sizeof w->key, "%.*s", (int)(eq - v), v);
    w->n = 0;
    for (const char *p = eq + 1;;) {
        const char *e = value_end(p);
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0 || len >= NOC_CONFIG_STR_MAX || w->n == MAX_SERIES) {
            snprintf(err, errlen, "--vary '%s': %s", v, w->n == MAX_SERIES ? "too many values" : "an empty or overlong value");
            return -1;
        }
        snprintf(w->val[w->n++], NOC_CONFIG_STR_MAX, "%.*s", (int)len, p);
        if (!e)
            break;
        p = e + 1;
    }
    a->n_vary++;
    return 0;
}

/* Every series: each SPEC (or the config's fabric) with every combination
 * of the --vary values, applied over --config and key=value. Returns the
 * number of series (at least 1), or -1 with err. */
static int make_series(const sweep_args_t *a, series_t *out, char *err, size_t errlen)
{
    int n_specs = a->n_specs ? a->n_specs : 1, per = 1;
    for (int k = 0; k < a->n_vary; k++)
        per *= a->vary[k].n;
    if (n_specs * per > MAX_SERIES) {
        snprintf(err, errlen, "%d series (SPECs times --vary values); at most %d", n_specs * per, MAX_SERIES);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < n_specs; i++) {
        for (int j = 0; j < per; j++, n++) {
            series_t *sr = &out[n];
            sr->cfg = a->cfg;
            memset(&sr->o, 0, sizeof sr->o);
            const char *spec_arg = NULL;
            if (a->n_specs && noc_cli_config_operand(&sr->cfg, a->specs[i], &spec_arg, err, errlen) != 0)
                return -1;
            char kv[MAX_VARY][NOC_CONFIG_STR_MAX + 80];
            for (int k = 0, rest = j; k < a->n_vary; k++) {
                const vary_t *w = &a->vary[k];
                snprintf(kv[k], sizeof kv[k], "%s=%s", w->key, w->val[rest % w->n]);
                rest /= w->n;
                if (noc_app_set_arg(&sr->cfg, kv[k], err, errlen) != 0)
                    return -1;
            }
            if (noc_app_spec(&sr->cfg, sr->spec, sizeof sr->spec, err, errlen) != 0)
                return -1;
            /* the SPEC (when there are several), then the varied values */
            int with_spec = a->n_specs > 1 || a->n_vary == 0;
            snprintf(sr->label, sizeof sr->label, "%s%s%s%s%s", with_spec ? sr->spec : "",
                     with_spec && a->n_vary ? " " : "", a->n_vary ? kv[0] : "", a->n_vary > 1 ? " " : "",
                     a->n_vary > 1 ? kv[1] : "");
        }
    }
    return n;
}

/* Is key one of the varied parameters? */
static int varied(const sweep_args_t *a, const char *key)
{
    for (int k = 0; k < a->n_vary; k++)
        if (strcmp(a->vary[k].key, key) == 0)
            return 1;
    return 0;
}

/* The picture's title: the fabric and router configuration of one series,
 * or what the series share; each point's warm-up and window. */
static void make_title(const sweep_args_t *a, const series_t *sr, int n, int partial, char *t, size_t len)
{
    const noc_config_t *c = &sr[0].cfg;
    size_t k = 0;
    long long vcs = sr[0].o.vcs ? sr[0].o.vcs : c->num_vcs; /* 0: every point was kept from the CSV */
    char pk[64];
    char vc[64] = "";
    if (vcs > 0)
        snprintf(vc, sizeof vc, "%lld VCs x ", vcs);
    if (n == 1)
        k += (size_t)snprintf(t + k, len - k, "%s, router %s, %s%lld flits, %s, %s traffic", sr[0].spec, c->router,
                              vc, (long long)c->vc_buf_size, packets_text(c, pk, sizeof pk), c->traffic);
    else
        k += (size_t)snprintf(t + k, len - k, "%d series%s%s%s%s%s", n,
                              varied(a, "router") ? "" : ", router ", varied(a, "router") ? "" : c->router,
                              varied(a, "traffic") ? "" : ", ", varied(a, "traffic") ? "" : c->traffic,
                              varied(a, "traffic") ? "" : " traffic");
    if (k < len && !varied(a, "warmup_cycles") && !varied(a, "sample_cycles"))
        snprintf(t + k, len - k, "\neach point: %lld warm-up + %lld measured cycles%s", (long long)c->warmup_cycles,
                 (long long)c->sample_cycles, partial ? " (partial)" : "");
    else if (k < len && partial)
        snprintf(t + k, len - k, " (partial)");
}

/* The command line into a: --config files first, then SPECs and key=value
 * in their order, which win. -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, sweep_args_t *a)
{
    char err[600];
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
                bad = k == O_CONFIG && noc_app_load_file(&a->cfg, p.value, err, sizeof err);
            } else if (k == NOC_OPTS_OPERAND && !strchr(p.value, '=')) {
                bad = a->n_specs == MAX_SERIES;
                snprintf(err, sizeof err, "at most %d SPECs", MAX_SERIES);
                if (!bad)
                    a->specs[a->n_specs++] = p.value;
            } else if (k == NOC_OPTS_OPERAND) {
                /* every refused key=value is named, not only the first */
                const char *none = NULL;
                if (noc_cli_config_operand(&a->cfg, p.value, &none, err, sizeof err) != 0) {
                    fprintf(stderr, "noctua sweep: %s\n", err);
                    bad_operands++;
                } else if (strncmp(p.value, "injection_rate=", 15) == 0) {
                    fprintf(stderr, "noctua sweep: warning: '%s' is ignored; --rates sets injection_rate\n",
                            p.value);
                }
            } else if (k == O_VARY) {
                bad = parse_vary(a, p.value, err, sizeof err) != 0;
            } else if (k == O_JOBS) {
                char *end;
                long j = strtol(p.value, &end, 10);
                bad = *end || end == p.value || j < 1 || j > 64;
                snprintf(err, sizeof err, "-j '%s': expected a number of processes from 1 to 64", p.value);
                a->jobs = (int)j;
            } else if (k == O_SEEDS) {
                char *end;
                long n = strtol(p.value, &end, 10);
                bad = *end || end == p.value || n < 1 || n > MAX_SEEDS;
                snprintf(err, sizeof err, "--seeds '%s': expected a number of runs from 1 to %d", p.value, MAX_SEEDS);
                a->seeds = (int)n;
            } else if (k == O_RESUME) {
                a->resume = 1;
            } else if (k == O_PROGRESS) {
                a->progress = 1;
            } else if (k == O_QUIET) {
                a->quiet = 1;
            } else if (k == O_RATES) {
                a->rates = p.value;
            } else if (k == O_OUTPUT) {
                bad = !*p.value;
                snprintf(err, sizeof err, "-o needs a PREFIX");
                a->prefix = p.value;
            }
            if (bad) {
                fprintf(stderr, "noctua sweep: %s\n", err);
                return NOC_EXIT_USAGE;
            }
        }
    }
    if (bad_operands)
        return NOC_EXIT_USAGE;
    if (!a->rates) {
        fprintf(stderr, "noctua sweep: --rates is required (FROM:TO:STEP or a list a,b,c; see noctua sweep --help)\n");
        return NOC_EXIT_USAGE;
    }
    return -1;
}

/* PREFIX from -o ("-o out.csv" means the prefix "out"). 0, or -1 (said). */
static int make_prefix(const char *arg, char *prefix, size_t len)
{
    size_t plen = strlen(arg);
    if (plen > 4 && strcmp(arg + plen - 4, ".csv") == 0)
        plen -= 4;
    if (plen >= len) {
        fprintf(stderr, "noctua sweep: -o: PREFIX is too long\n");
        return -1;
    }
    snprintf(prefix, len, "%.*s", (int)plen, arg);
    return 0;
}

/* The CSV's header line for these series and seeds (no newline). */
static void header(const sweep_args_t *a, int n, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s", n > 1 ? "series," : "", noc_report_sweep_header(), a->seeds > 1 ? "," : "",
             a->seeds > 1 ? noc_report_sweep_seed_columns() : "");
}

/* --resume: the rows of PREFIX.csv as an earlier run of this sweep wrote
 * it (the text after its header), NULL when there is none; -1 (said) when
 * the file is another sweep's. */
static int read_resume(const sweep_args_t *a, int n, const char *path, char **rows)
{
    *rows = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "noctua sweep: --resume: no %s yet; every point runs\n", path);
        return 0;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = noc_xmalloc(cap, "sweep --resume");
    for (size_t k; (k = fread(text + len, 1, cap - len - 1, f)) > 0;)
        if ((len += k) + 1 == cap)
            text = noc_xrealloc(text, cap *= 2, "sweep --resume");
    fclose(f);
    text[len] = '\0';
    char want[512];
    header(a, n, want, sizeof want);
    size_t hl = strlen(want);
    if (strncmp(text, want, hl) != 0 || text[hl] != '\n') {
        fprintf(stderr, "noctua sweep: --resume: %s is not this sweep's (its header is not \"%s\"): remove it, "
                "write elsewhere (-o), or drop --resume\n", path, want);
        free(text);
        return -1;
    }
    memmove(text, text + hl + 1, len - hl);
    *rows = text;
    return 0;
}

/* Every series' points into the open CSV (cli/sweep_run.c), the header
 * first. Returns an exit status. */
static int run_series(const sweep_args_t *a, series_t *sr, int n, const rates_t *rates, const char *resume,
                      FILE *csv, int *rows)
{
    char head[512];
    header(a, n, head, sizeof head);
    fprintf(csv, "%s\n", head);
    noc_interrupt_cooperate(1);
    int rc = noc_sweep_run(sr, n, rates, a->seeds, resume, csv, n > 1, a->jobs, a->progress, a->quiet, rows);
    noc_interrupt_cooperate(0); /* from here, Ctrl-C quits at once */
    return rc;
}

/* The pictures, then what the sweep found. */
static int report(const sweep_args_t *a, const series_t *sr, int n, const rates_t *rates, const char *prefix,
                  const char *csv_path, int rc)
{
    char title[NOC_CONFIG_STR_MAX * 3 + 200];
    const char *labels[MAX_SERIES];
    int sat[MAX_SERIES];
    double zero = 0, top = 0;
    for (int i = 0; i < n; i++) {
        labels[i] = sr[i].label;
        sat[i] = sr[i].o.saturated;
        if (sr[i].o.zero_load > zero)
            zero = sr[i].o.zero_load;
        if (sr[i].o.lat_top > top)
            top = sr[i].o.lat_top;
    }
    make_title(a, sr, n, rc != NOC_EXIT_OK, title, sizeof title);
    noc_sweep_figure_t fig = { title, n, labels, sat,
                               zero > 0 && top > NOC_SWEEP_LAT_CAP * zero ? NOC_SWEEP_LAT_CAP * zero : 0, a->seeds };
    int prc = noc_sweep_plot(prefix, csv_path, &fig);
    int plotted = prc == 0;
    if (prc == NOC_EXIT_USAGE && rc == NOC_EXIT_OK)
        rc = NOC_EXIT_USAGE;
    const noc_config_t *c = &sr[0].cfg;
    for (int i = 0; i < n; i++) {
        if (n == 1) {
            char pk[64];
            printf("sweep %s (router %s, %s, %s traffic): %d point%s\n", sr[i].spec, c->router,
                   packets_text(c, pk, sizeof pk), c->traffic, sr[i].o.rows, sr[i].o.rows == 1 ? "" : "s");
        } else {
            printf("%s: %d point%s; ", sr[i].label, sr[i].o.rows, sr[i].o.rows == 1 ? "" : "s");
            if (sr[i].o.rows == 0) {
                printf("not run\n");
                continue;
            }
        }
        if (rc == NOC_EXIT_OK || n > 1) {
            saturation_text(stdout, &sr[i].o, rates);
            printf(n == 1 ? "\n" : "; ");
            printf("zero-load latency about %.1f cycles (at %.*f)\n", sr[i].o.zero_load, noc_sweep_decimals(rates), rates->v[0]);
        }
    }
    if (rc == NOC_EXIT_OK)
        printf(plotted ? "wrote %s.csv, %s.png, %s.svg\n" : "wrote %s.csv\n", prefix, prefix, prefix);
    else
        printf("%s (see above); wrote %s%s\n", rc == NOC_EXIT_INTERRUPTED ? "interrupted, partial" : "stopped early",
               csv_path, plotted ? " and the plots" : "");
    return rc;
}

int noc_cmd_sweep(int argc, char **argv)
{
    sweep_args_t *a = noc_xcalloc(1, sizeof *a, "sweep");
    series_t *sr = noc_xcalloc(MAX_SERIES, sizeof *sr, "sweep");
    rates_t *rates = noc_xmalloc(sizeof *rates, "sweep");
    char err[600], prefix[PATH_LEN], csv_path[PATH_LEN + 8], *resume = NULL;
    noc_out_t csv = { .slot = -1 };
    noc_config_defaults(&a->cfg);
    a->prefix = "sweep";
    a->seeds = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    int n = 0, rows = 0, rc = parse_args(argc, argv, a);
    if (rc >= 0)
        goto done;
    rc = NOC_EXIT_USAGE;
    if (noc_sweep_parse_rates(a->rates, rates, err, sizeof err) || (n = make_series(a, sr, err, sizeof err)) < 0) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        goto done;
    }
    if (make_prefix(a->prefix, prefix, sizeof prefix) != 0)
        goto done;
    snprintf(csv_path, sizeof csv_path, "%s.csv", prefix);
    if (a->resume && read_resume(a, n, csv_path, &resume) != 0)
        goto done;
    if (noc_out_open(&csv, csv_path, 0, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: -o: %s\n", err);
        goto done;
    }
    rc = run_series(a, sr, n, rates, resume, csv.f, &rows);
    if (rc == NOC_EXIT_USAGE && rows == 0) {
        noc_out_abort(&csv); /* bad parameters: nothing was measured */
        goto done;
    }
    if (noc_out_commit(&csv, err, sizeof err) != 0) {
        fprintf(stderr, "noctua sweep: %s\n", err);
        rc = NOC_EXIT_USAGE;
        goto done;
    }
    if (rows > 0)
        rc = report(a, sr, n, rates, prefix, csv_path, rc);
done:
    noc_out_abort(&csv);
    free(rates);
    free(resume);
    free(sr);
    free(a);
    return rc;
}
