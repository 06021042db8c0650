/* bench.c: `noctua_bench`, the speed benchmark. Runs a fixed list of
 * synthetic workloads (uniform traffic, 2 VCs x 8 flits, dimension-order
 * routing, one seed; the vc router, and for the last rows the RTL datapath,
 * --router rtl) and prints, per workload, simulated cycles per second,
 * flit-hops per second, nanoseconds per node-cycle and peak resident memory,
 * with PASS/FAIL marks against the headline targets. bench/README.md says what each figure counts.
 *
 * Each workload runs in a forked child, so that the child's peak RSS
 * (getrusage RUSAGE_SELF) is that workload's alone; the child sends its
 * figures back through a pipe as one fixed-size struct (parent and child are
 * the same binary). Only noc_sim_run is timed (noc_cli_simulate times it with
 * CLOCK_MONOTONIC); building the fabric and the simulator is not.
 *
 * Exit status: 0 when every workload ran (a missed target is a measurement,
 * not an error), 1 when a workload failed (bad configuration, deadlock,
 * invariant violation, a crashed child), 2 on bad usage. */
#include "app/run.h"
#include "cli/cli.h"
#include "report/bench_report.h"
#include "report/report.h"
#include "util/version.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_SEED 1

/* One workload. Cycle counts are per mode: the full run and --quick. */
typedef struct workload {
    const char *spec;
    int packet_size;
    double rate;              /* flits per node per cycle */
    int64_t warmup, sample;   /* full run */
    int64_t q_warmup, q_sample; /* --quick */
    double min_cps;           /* target: cycles/s at least this (0: none) */
    double max_mb;            /* target: peak RSS at most this (0: none) */
    int num_vcs;              /* 0: as many as the fabric's routing needs */
    const char *router;       /* NULL: vc */
} workload_t;

static const workload_t workloads[] = {
    {"mesh:8x8",    1, 0.05, 2000, 50000, 200, 2000, 0, 0, 2, "vc"},
    {"mesh:8x8",    1, 0.20, 2000, 50000, 200, 2000, 100000, 0, 2, "vc"},
    {"mesh:8x8",    1, 0.35, 2000, 50000, 200, 2000, 0, 0, 2, "vc"},
    {"mesh:8x8",    5, 0.20, 2000, 50000, 200, 2000, 0, 0, 2, "vc"},
    {"torus:8x8",   1, 0.20, 2000, 50000, 200, 2000, 0, 0, 2, "vc"},
    {"hypercube:6", 1, 0.10, 2000, 50000, 200, 2000, 0, 0, 2, "vc"},
    {"mesh:32x32",  1, 0.05, 500, 3000, 200, 600, 5000, 50, 2, "vc"},
    {"mesh:64x64",  1, 0.05, 300, 600, 100, 200, 0, 0, 2, "vc"},
    /* the RTL datapath (routers/rtl): the Verilated core in every router */
    {"mesh:8x8",    1, 0.05, 2000, 20000, 200, 1000, 0, 0, 2, "rtl"},
    {"mesh:8x8",    1, 0.20, 2000, 20000, 200, 1000, 5000, 0, 2, "rtl"},
    {"torus:8x8",   1, 0.20, 2000, 20000, 200, 1000, 0, 0, 2, "rtl"},
    /* memory of a million nodes at low load (docs/scale.md, "A million nodes"):
       the peak RSS is the figure, the few cycles only make traffic flow */
    {"mesh:1024x1024", 1, 0.001, 50, 100, 10, 20, 0, 2048, 2, "vc"},
};
#define N_WORKLOADS ((int)(sizeof workloads / sizeof workloads[0]))

/* What a child measured; sent through the pipe as raw bytes. */
typedef struct figures {
    int ok;              /* 1: the run finished (see status); 0: err says why not */
    int status;          /* noc_run_status_t */
    int nodes;
    int saturated;
    uint64_t cycles, warmup, sample, drain;
    uint64_t flit_hops;  /* network-link traversals in the measurement window */
    double seconds;      /* noc_sim_run only */
    double offered, accepted;
    long base_rss_kb;    /* ru_maxrss when the child started */
    long peak_rss_kb;    /* ru_maxrss after the run */
    char err[400];
} figures_t;

/* Figures derived from a figures_t, as printed and written to JSON. */
typedef struct derived {
    double cps;          /* simulated cycles per second, whole run */
    double hops_ps;      /* flit-hops per second (see window_scale) */
    double ns_node_cycle;
    double peak_mb, base_mb;
    int has_target, pass;
} derived_t;

static long max_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return ru.ru_maxrss; /* kilobytes on Linux */
}

static const char *status_name(const figures_t *f)
{
    if (!f->ok)
        return "error";
    switch (f->status) {
    case NOC_RUN_OK: return "ok";
    case NOC_RUN_DEADLOCK: return "deadlock";
    case NOC_RUN_INVARIANT: return "invariant";
    default: return "unknown";
    }
}

/* In the child: build and run workload w, fill f. */
static void run_child(const workload_t *w, int quick, figures_t *f)
{
    memset(f, 0, sizeof *f);
    f->base_rss_kb = max_rss_kb();

    noc_config_t cfg;
    noc_config_defaults(&cfg);
    snprintf(cfg.topology_spec, sizeof cfg.topology_spec, "%s", w->spec);
    cfg.topology[0] = '\0';
    snprintf(cfg.router, sizeof cfg.router, "%s", w->router ? w->router : "vc");
    snprintf(cfg.routing_function, sizeof cfg.routing_function, "%s", "dor");
    snprintf(cfg.traffic, sizeof cfg.traffic, "%s", "uniform");
    cfg.num_vcs = w->num_vcs;
    cfg.vc_buf_size = 8;
    cfg.packet_size = w->packet_size;
    cfg.injection_rate = w->rate;
    cfg.injection_rate_uses_flits = 1;
    cfg.seed = BENCH_SEED;
    cfg.warmup_cycles = quick ? w->q_warmup : w->warmup;
    cfg.sample_cycles = quick ? w->q_sample : w->sample;
    cfg.check = 0;

    noc_sim_t *s;
    noc_topo_t *t;
    noc_run_result_t res;
    if (noc_app_simulate(&cfg, NULL, &s, &t, &res, f->err, sizeof f->err))
        return;
    const noc_stats_t *st = noc_sim_stats(s);
    f->ok = 1;
    f->status = (int)res.status;
    f->nodes = noc_topo_nodes(t);
    f->saturated = st->saturated;
    f->cycles = st->cycles;
    f->warmup = st->warmup;
    f->sample = st->sample;
    f->drain = st->drain;
    f->flit_hops = st->flit_hops;
    f->seconds = res.seconds;
    f->offered = res.offered;
    f->accepted = res.accepted;
    f->peak_rss_kb = max_rss_kb();
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static size_t read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, p + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

/* Run workload w in a forked child; fill f with what it measured. */
static void run_workload(const workload_t *w, int quick, figures_t *f)
{
    memset(f, 0, sizeof *f);
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(f->err, sizeof f->err, "pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(f->err, sizeof f->err, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return;
    }
    if (pid == 0) {
        close(fd[0]);
        figures_t cf;
        run_child(w, quick, &cf);
        int rc = write_all(fd[1], &cf, sizeof cf) == 0 ? 0 : 1;
        close(fd[1]);
        _exit(rc);
    }
    close(fd[1]);
    size_t got = read_all(fd[0], f, sizeof *f);
    close(fd[0]);
    int wst = 0;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof *f) {
        memset(f, 0, sizeof *f);
        if (WIFSIGNALED(wst))
            snprintf(f->err, sizeof f->err, "the child died of signal %d", WTERMSIG(wst));
        else
            snprintf(f->err, sizeof f->err, "the child sent no figures (exit status %d)",
                     WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
    }
}

static void derive(const workload_t *w, const figures_t *f, derived_t *d)
{
    memset(d, 0, sizeof *d);
    if (f->ok && f->seconds > 0) {
        d->cps = (double)f->cycles / f->seconds;
        /* flit_hops is counted in the window only: window hops per window
         * cycle, times the whole run's cycles per second */
        if (f->sample > 0)
            d->hops_ps = (double)f->flit_hops / (double)f->sample * d->cps;
        if (f->cycles > 0 && f->nodes > 0)
            d->ns_node_cycle = 1e9 * f->seconds / ((double)f->cycles * (double)f->nodes);
    }
    d->peak_mb = (double)f->peak_rss_kb / 1024.0;
    d->base_mb = (double)f->base_rss_kb / 1024.0;
    d->has_target = w->min_cps > 0 || w->max_mb > 0;
    if (d->has_target)
        d->pass = f->ok && f->status == NOC_RUN_OK &&
                  (w->min_cps <= 0 || d->cps >= w->min_cps) &&
                  (w->max_mb <= 0 || d->peak_mb <= w->max_mb);
}

static void print_header(FILE *out, int quick)
{
    fprintf(out,
            "noctua_bench %s: uniform traffic, %d VCs x %d flits, dimension-order routing,\n"
            "seed %d; each workload in its own process. seconds: noc_sim_run only (warm-up,\n"
            "window, drain); flit-hops/s: window flit-hops per window cycle x cycles/s.\n",
            noc_version(), 2, 8, BENCH_SEED);
    if (quick)
        fprintf(out, "--quick: short runs, figures are indicative only.\n");
    fprintf(out, "\n%2s  %-11s %-6s %5s %5s %5s %8s %8s %10s %12s %11s %8s  %s\n",
            "#", "fabric", "router", "flits", "load", "nodes", "cycles", "seconds", "cycles/s",
            "flit-hops/s", "ns/node-cyc", "peak-MB", "target");
}

static void print_row(FILE *out, int id, const workload_t *w, const figures_t *f, const derived_t *d)
{
    fprintf(out, "%2d  %-11s %-6s %5d %5.2f ", id, w->spec, w->router ? w->router : "vc", w->packet_size, w->rate);
    if (!f->ok) {
        fprintf(out, " ERROR: %s\n", f->err);
        return;
    }
    fprintf(out, "%5d %8llu %8.3f %10.0f %12.0f %11.1f %8.1f", f->nodes,
            (unsigned long long)f->cycles, f->seconds, d->cps, d->hops_ps,
            d->ns_node_cycle, d->peak_mb);
    if (f->status != NOC_RUN_OK)
        fprintf(out, "  %s", f->status == NOC_RUN_DEADLOCK ? "DEADLOCK" : "INVARIANT VIOLATED");
    else if (d->has_target)
        fprintf(out, "  %s", d->pass ? "PASS" : "FAIL");
    if (f->saturated)
        fprintf(out, "  (saturated)");
    fputc('\n', out);
}

/* The target of w as text, e.g. ">= 5000 cycles/s, <= 50 MB". */
static void target_text(const workload_t *w, char *buf, size_t len)
{
    int n = 0;
    buf[0] = '\0';
    if (w->min_cps > 0)
        n = snprintf(buf, len, ">= %.0f cycles/s", w->min_cps);
    if (w->max_mb > 0 && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "%s<= %.0f MB", n ? ", " : "", w->max_mb);
}

/* One workload's row of the JSON report. */
static noc_bench_row_t bench_row(int id, const workload_t *w, const figures_t *f, const derived_t *d)
{
    noc_bench_row_t r = {
        .id = id, .spec = w->spec, .router = w->router ? w->router : "vc", .packet_size = w->packet_size,
        .rate = w->rate, .status = status_name(f), .error = f->ok ? NULL : f->err, .nodes = f->nodes,
        .cycles = f->cycles, .warmup = f->warmup, .sample = f->sample, .drain = f->drain,
        .flit_hops = f->flit_hops, .seconds = f->seconds, .cps = d->cps, .hops_ps = d->hops_ps,
        .ns_node_cycle = d->ns_node_cycle, .peak_mb = d->peak_mb, .base_mb = d->base_mb,
        .offered = f->offered, .accepted = f->accepted, .saturated = f->saturated,
        .has_target = d->has_target, .pass = d->pass, .min_cps = w->min_cps, .max_mb = w->max_mb,
    };
    return r;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua_bench [--quick] [--only N] [--json FILE|-]\n"
        "       noctua_bench --fabric SPEC [--rate R] [--packet-size P] [--router NAME] [--quick]\n"
        "\n"
        "Measures the simulator's speed on %d fixed workloads (uniform traffic, 2 VCs x 8\n"
        "flits, dimension-order routing, seed %d; the vc router, and the RTL datapath\n"
        "(--router rtl) in the last rows), each in its own process: simulated\n"
        "cycles/s, flit-hops/s, ns per node-cycle and peak resident memory, with\n"
        "PASS/FAIL against the targets (8x8 mesh at 0.20: >= 100000 cycles/s with vc,\n"
        ">= 5000 with rtl; 32x32 mesh at 0.05: >= 5000 cycles/s within 50 MB).\n"
        "\n"
        "  --quick        short runs (smoke tests; figures are indicative only)\n"
        "  --only N       run workload N only (1..%d)\n"
        "  --json FILE    also write the figures as JSON ('-': stdout; the table then\n"
        "                 goes to stderr)\n"
        "  --fabric SPEC  instead of the table, one workload on any fabric (uniform\n"
        "                 traffic at --rate R flits/node/cycle, default 0.1, --packet-size\n"
        "                 P flits, default 1; as many VCs as its routing needs, at least 2;\n"
        "                 --router vc, ideal or rtl, default vc)\n"
        "  --list         list the workloads and exit\n"
        "  --help         this text\n"
        "\n"
        "Exit status: 0 every workload ran (a missed target is a measurement, not an\n"
        "error), 1 a workload failed (error, deadlock, crash), 2 bad usage.\n",
        N_WORKLOADS, BENCH_SEED, N_WORKLOADS);
}

static void list_workloads(FILE *f)
{
    for (int i = 0; i < N_WORKLOADS; i++) {
        const workload_t *w = &workloads[i];
        char tgt[80];
        target_text(w, tgt, sizeof tgt);
        fprintf(f, "%2d  %-11s %d-flit uniform %.2f  warmup %lld + sample %lld (quick %lld + %lld)%s%s\n",
                i + 1, w->spec, w->packet_size, w->rate, (long long)w->warmup, (long long)w->sample,
                (long long)w->q_warmup, (long long)w->q_sample, tgt[0] ? "  target " : "", tgt);
    }
}

/* What the command line asks for. */
typedef struct bench_opts {
    int quick, only;
    const char *json_path;
    workload_t custom; /* --fabric and the rest: one workload of one's own */
} bench_opts_t;

/* The command line into *o: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, bench_opts_t *o)
{
    workload_t custom = {NULL, 1, 0.1, 1000, 10000, 200, 2000, 0, 0, 0, "vc"};
    memset(o, 0, sizeof *o);
    o->custom = custom;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--list") == 0) {
            list_workloads(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(a, "--only") == 0) {
            char *end = NULL;
            long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || end == argv[i + 1] || *end != '\0' || v < 1 || v > N_WORKLOADS) {
                fprintf(stderr, "noctua_bench: --only needs a workload number 1..%d (see --list)\n",
                        N_WORKLOADS);
                return 2;
            }
            o->only = (int)v;
            i++;
        } else if (strcmp(a, "--fabric") == 0 || strcmp(a, "--rate") == 0 ||
                   strcmp(a, "--packet-size") == 0 || strcmp(a, "--router") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "noctua_bench: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            char *end = NULL;
            if (strcmp(a, "--fabric") == 0) {
                o->custom.spec = v;
            } else if (strcmp(a, "--router") == 0) {
                o->custom.router = v;
            } else if (strcmp(a, "--rate") == 0) {
                o->custom.rate = strtod(v, &end);
                if (end == v || *end != '\0' || !(o->custom.rate > 0.0)) {
                    fprintf(stderr, "noctua_bench: --rate '%s' is not a positive number\n", v);
                    return 2;
                }
            } else {
                long p = strtol(v, &end, 10);
                if (end == v || *end != '\0' || p < 1 || p > 65535) {
                    fprintf(stderr, "noctua_bench: --packet-size '%s' is not a number of flits\n", v);
                    return 2;
                }
                o->custom.packet_size = (int)p;
            }
        } else if (strcmp(a, "--json") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "noctua_bench: --json needs a FILE (or - for stdout)\n");
                return 2;
            }
            o->json_path = argv[++i];
        } else {
            fprintf(stderr, "noctua_bench: unknown argument '%s' (see --help)\n", a);
            return 2;
        }
    }

    return -1;
}

/* The targets' lines: how many there were into *n_targets, met into *n_pass. */
static void print_targets(FILE *out, const workload_t *table, int n_table, const int *ran, const derived_t *der,
                          int *n_targets, int *n_pass)
{
    *n_targets = *n_pass = 0;
    for (int i = 0; i < n_table; i++) {
        if (!ran[i] || !der[i].has_target)
            continue;
        if ((*n_targets)++ == 0)
            fprintf(out, "\ntargets:\n");
        *n_pass += der[i].pass;
        char tgt[80];
        target_text(&table[i], tgt, sizeof tgt);
        fprintf(out, "  #%d %s at %.2f: %-30s measured %.0f cycles/s, %.1f MB  %s\n", i + 1,
                table[i].spec, table[i].rate, tgt, der[i].cps, der[i].peak_mb,
                der[i].pass ? "PASS" : "FAIL");
    }
    if (*n_targets)
        fprintf(out, "  %d of %d met\n", *n_pass, *n_targets);
}

int main(int argc, char **argv)
{
    noc_report_init(); /* out of memory in the JSON report: exit 4 with a message */
    bench_opts_t o;
    int arc = parse_args(argc, argv, &o);
    if (arc >= 0)
        return arc;
    const workload_t *table = workloads;
    int n_table = N_WORKLOADS, only = o.only, quick = o.quick;
    const char *json_path = o.json_path;
    if (o.custom.spec) {
        table = &o.custom;
        n_table = 1;
        only = 0;
    }
    FILE *out = json_path && strcmp(json_path, "-") == 0 ? stderr : stdout;
    figures_t fig[N_WORKLOADS];
    derived_t der[N_WORKLOADS];
    int ran[N_WORKLOADS] = {0};
    int failed = 0;

    print_header(out, quick);
    for (int i = 0; i < n_table; i++) {
        if (only && only != i + 1)
            continue;
        run_workload(&table[i], quick, &fig[i]);
        derive(&table[i], &fig[i], &der[i]);
        ran[i] = 1;
        if (!fig[i].ok || fig[i].status != NOC_RUN_OK)
            failed = 1;
        print_row(out, i + 1, &table[i], &fig[i], &der[i]);
        fflush(out);
    }

    int n_targets, n_pass;
    print_targets(out, table, n_table, ran, der, &n_targets, &n_pass);

    if (json_path) {
        noc_bench_summary_t sum = {
            .version = noc_version(), .quick = quick, .seed = BENCH_SEED, .num_vcs = 2, .vc_buf_size = 8,
            .traffic = "uniform", .routing_function = "dor", .targets = n_targets, .targets_met = n_pass,
        };
        noc_bench_row_t rows[N_WORKLOADS];
        int n_rows = 0;
        for (int i = 0; i < n_table; i++)
            if (ran[i]) {
                rows[n_rows] = bench_row(i + 1, &table[i], &fig[i], &der[i]);
                n_rows++;
            }
        char err[300];
        int rc = noc_report_bench_json(&sum, rows, n_rows, json_path, err, sizeof err);
        if (rc) {
            fprintf(stderr, "noctua_bench: %s\n", err);
            return 2;
        }
    }
    return failed ? 1 : 0;
}
