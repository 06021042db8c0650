/* cmd_run.c: `noctua run [SPEC] [key=value ...] [--config FILE] [--json FILE]`:
 * one synthetic run with its summary, JSON, and the deadlock report. */
#include "util/xalloc.h"
#include "cli/cli.h"
#include "app/run.h"
#include "report/report.h"
#include "cli/cli_waves.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "util/ranks.h"
#include "util/outfile.h"
#include "util/version.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"
#include "util/interrupt.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- --waves, --waves-scope, --waves-window (cli_waves.h) ---- */

void noc_cli_waves_init(noc_cli_waves_t *w)
{
    memset(w, 0, sizeof *w);
    noc_waves_opts_init(&w->opts);
}

void noc_cli_waves_said(const noc_cli_waves_t *w, const char *router)
{
    char gtkw[1100], inner[1100];
    noc_waves_gtkw_path(w->path, gtkw, sizeof gtkw);
    fprintf(stderr, "noctua: waves in %s%s%s\n", w->path, w->opts.gtkw ? ", GTKWave save file " : "",
            w->opts.gtkw ? gtkw : "");
    if (strcmp(router, "rtl") == 0) {
        noc_waves_inner_path(w->path, inner, sizeof inner);
        noc_waves_gtkw_path(inner, gtkw, sizeof gtkw);
        fprintf(stderr, "noctua: inside the RTL cores: %s%s%s\n", inner, w->opts.gtkw ? ", GTKWave save file " : "",
                w->opts.gtkw ? gtkw : "");
    }
}

int noc_cli_waves_set(noc_cli_waves_t *w, const char *a, const char *v, char *err, size_t errlen)
{
    if (strcmp(a, "--waves") != 0 && strcmp(a, "--waves-scope") != 0 && strcmp(a, "--waves-window") != 0)
        return 0;
    if (!v) {
        snprintf(err, errlen, "%s needs a value", a);
        return -1;
    }
    if (strcmp(a, "--waves") == 0) {
        if (!*v) {
            snprintf(err, errlen, "--waves needs a FILE (.fst or .vcd)");
            return -1;
        }
        if (w->path) {
            snprintf(err, errlen, "--waves given twice ('%s', then '%s')", w->path, v);
            return -1;
        }
        w->path = v;
        return 1;
    }
    w->scope_or_window = 1;
    if (strcmp(a, "--waves-scope") == 0) {
        w->opts.scope = v;
        return 1;
    }
    return noc_waves_parse_window(&w->opts, v, err, errlen) == 0 ? 1 : -1;
}

/* ---- the options ---- */

enum { O_CONFIG, O_JSON, O_CSV, O_NODES_CSV, O_QUIET, O_ROUTER, O_HELP, O_PROGRESS, O_FIRST_OTHER };
/* run's options: its own, then the waves' and the programs' (handed to
 * noc_cli_waves_set and noc_prog_opts_set by name). */
static const noc_opt_t run_opts[] = {
    [O_CONFIG] = { "config", 'c', "FILE", "read parameters from FILE (key = value lines; BookSim2 files work)" },
    [O_JSON] = { "json", 0, "FILE", "also write the figures and the per-link table as JSON ('-': stdout)" },
    [O_CSV] = { "csv", 0, "FILE", "also write the per-link table as CSV, a row per directed\n"
                                  "link ('-': stdout; docs/report.md)" },
    [O_NODES_CSV] = { "nodes-csv", 0, "FILE", "also write the per-node figures as CSV, a row per node\n"
                                              "('-': stdout; sets node_stats=1; docs/report.md)" },
    [O_QUIET] = { "quiet", 'q', NULL, "no summary on stdout" },
    [O_ROUTER] = { "router", 0, "NAME", NULL /* usage() writes its line: the list of families */ },
    [O_HELP] = { "help", 'h', NULL, "this text (with --program NAME: that program's options)" },
    [O_PROGRESS] = { "progress", 0, NULL, "show the progress line even when stderr is not a terminal\n"
                                          "(on a terminal it shows unless --quiet)" },
    { "waves", 0, "FILE", "record the run for GTKWave: FST (FILE.fst, the default) or VCD\n"
                          "(FILE.vcd), and a save file FILE.gtkw beside it (docs/waves.md)" },
    { "waves-scope", 0, "PATTERN", "only the nodes whose labels match: a glob (\"<1,*,0>\")\n"
                                   "or a substring; alternatives separated by |" },
    { "waves-window", 0, "FROM:TO", "only cycles FROM to TO (either may be left out)" },
    { "program", 0, "NAME", "run the traffic program NAME (--program list: the programs)" },
    { "program-file", 0, "FILE", "run the traffic program in FILE (GOAL text, docs/programs.md)" },
    { "root", 0, "LABEL", "the program's root node, by label (default: the generator's)" },
    { "variant", 0, "V", "the generator's variant (--program NAME --help lists them)" },
    { "words", 0, "W", "words per message or per rank (the generator's meaning)" },
    { "q", 0, "Q", "the generator's q (a group or block size, where it has one)" },
    { "h", 0, "H", "h of an h-relation (--program hrelation)" },
    { "seed", 0, "S", "the generator's random seed (where it draws)" },
    { "timing", 0, "unit|router|loggp", "unit: the papers' model (ideal router, all-port PEs);\n"
                                  "router: the configured router (default: the timing parameter);\n"
                                  "loggp: LogGOPSim's model, no network (loggp_L, _o, _g, _G, _O, _S)" },
    { "sync", 0, "steps|none|both", "barriers at the program's step markers, none, or both runs\n"
                                    "(default: the sync_steps parameter)" },
    { "emit", 0, "FILE", "write the program as GOAL text to FILE ('-': stdout)" },
    { "emit-only", 0, NULL, "with --emit: write the program, do not run it" },
    { NULL, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua run [SPEC] [key=value ...] [--router NAME] [--config FILE] [--json FILE|-]\n"
        "                  [--csv FILE|-] [--nodes-csv FILE|-] [--quiet]\n"
        "       noctua run [SPEC] --program NAME [--root LABEL] [--variant V] [--words W] [--q Q] [--h H]\n"
        "                  [--seed S] [--timing unit|router|loggp] [--sync steps|none|both]\n"
        "                  [--emit FILE [--emit-only]] [key=value ...]\n"
        "       noctua run [SPEC] --program-file FILE [--timing unit|router|loggp] [--sync steps|none|both]\n"
        "       noctua run ... [--waves FILE.fst|FILE.vcd [--waves-scope PATTERN] [--waves-window FROM:TO]]\n"
        "\n"
        "Simulates synthetic traffic on a fabric: warm-up, a measurement window, drain;\n"
        "prints latency, throughput and the hottest links. With --program or\n"
        "--program-file it runs a traffic program (docs/programs.md) to its end instead,\n"
        "checks its result and reports cycles per step (--program NAME --help: its options;\n"
        "--program list: the programs).\n"
        "\n"
        "  SPEC            the fabric: %s (default %s)\n"
        "  key=value       set a parameter (wins over --config)\n"
        "  --router NAME   the router family (router=NAME): %s; rtl runs the Verilog\n"
        "                  core, Verilated, inside every router (docs/rtl.md)\n",
        noc_topo_spec_help(), "mesh:8x8", noc_router_list());
    noc_opts_usage(f, run_opts);
    fprintf(f,
        "\n"
        "Options are written in full (no abbreviations). Ctrl-C ends the run at the end\n"
        "of the current cycle and writes the report and the files so far, marked\n"
        "interrupted; a second Ctrl-C quits at once. Files are written whole or not at\n"
        "all (docs/reliability.md).\n"
        "\n"
        "Exit status: 0 done (a saturated network is a result too), 1 a program computed\n"
        "a wrong result, 2 bad input or an output that could not be written, 3 deadlock\n"
        "(or a stalled program), 4 internal invariant violated, 130 interrupted.\n\n");
    noc_app_print_params(f);
}

/* What run's command line asks for. */
typedef struct run_args {
    noc_config_t cfg;
    const char *json_path, *csv_path, *nodes_csv_path;
    int quiet, progress;
    noc_prog_opts_t po;
    noc_cli_waves_t wv;
} run_args_t;

/* The first pass: --help (with --program NAME) and the --config files,
 * which come before SPEC and key=value whatever their place. -1 to go on,
 * else the exit status. */
static int first_pass(run_args_t *r, int argc, char **argv)
{
    noc_opts_t p;
    noc_opts_init(&p, "run", run_opts, argc, argv);
    noc_opts_in_order(&p); /* (otherwise getopt_long moves the operands of argv behind the options) */
    int help = 0, k;
    const char *program = NULL;
    char err[600];
    while ((k = noc_opts_next(&p)) != -1) {
        if (k == -2)
            return NOC_EXIT_USAGE;
        if (k == O_HELP)
            help = 1;
        else if (k >= 0 && strcmp(run_opts[k].name, "program") == 0)
            program = p.value;
        else if (k == O_CONFIG && noc_app_load_file(&r->cfg, p.value, err, sizeof err)) {
            fprintf(stderr, "noctua run: %s\n", err);
            return NOC_EXIT_USAGE;
        }
    }
    if (program && (strcmp(program, "list") == 0 || strcmp(program, "help") == 0)) {
        noc_prog_list(stdout); /* --program list: the programs, with or without --help */
        return NOC_EXIT_OK;
    }
    if (help && program)
        return strcmp(program, "list") == 0 || strcmp(program, "help") == 0 ? (noc_prog_list(stdout), NOC_EXIT_OK)
                                                                             : noc_prog_help(stdout, program);
    if (help) {
        usage(stdout);
        return NOC_EXIT_OK;
    }
    return -1;
}

/* Every file the run will write may be written, before the work starts (a
 * run of an hour must not end in "cannot write"); at most one of them on
 * stdout. -1 to go on, else the exit status. */
static int check_outputs(const run_args_t *r)
{
    const char *out[] = { r->json_path, r->csv_path, r->nodes_csv_path, r->po.emit, r->wv.path };
    const char *opt[] = { "--json", "--csv", "--nodes-csv", "--emit", "--waves" };
    const char *on_stdout = NULL;
    char err[600];
    for (int i = 0; i < 5; i++) {
        if (!out[i])
            continue;
        if (strcmp(out[i], "-") == 0 && i < 4) {
            if (on_stdout) {
                fprintf(stderr, "noctua run: %s - and %s - both write to stdout: give one of them a file\n",
                        on_stdout, opt[i]);
                return NOC_EXIT_USAGE;
            }
            on_stdout = opt[i];
            continue;
        }
        if (noc_out_check(out[i], 0, err, sizeof err) != 0) {
            fprintf(stderr, "noctua run: %s: %s\n", opt[i], err);
            return NOC_EXIT_USAGE;
        }
    }
    return -1;
}

/* The command line into *r: -1 to go on, else the exit status. */
static int parse_args(run_args_t *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    noc_config_defaults(&r->cfg);
    noc_prog_opts_init(&r->po);
    noc_cli_waves_init(&r->wv);
    int rc = first_pass(r, argc, argv);
    if (rc >= 0)
        return rc;
    noc_opts_t p;
    noc_opts_init(&p, "run", run_opts, argc, argv);
    noc_opts_in_order(&p); /* key=value in their order, --router among them */
    const char *spec_arg = NULL;
    char err[600];
    int k, bad_operands = 0;
    while ((k = noc_opts_next(&p)) != -1) {
        int bad = 0;
        if (k == -2)
            return NOC_EXIT_USAGE;
        if (k == NOC_OPTS_OPERAND) {
            /* every refused key=value is named, not only the first */
            if (noc_cli_config_operand(&r->cfg, p.value, &spec_arg, err, sizeof err) != 0) {
                fprintf(stderr, "noctua run: %s\n", err);
                bad_operands++;
            }
        } else if (k == O_JSON) {
            if (r->json_path) {
                snprintf(err, sizeof err, "--json given twice ('%s', then '%s')", r->json_path, p.value);
                bad = 1;
            }
            r->json_path = p.value;
        } else if (k == O_CSV) {
            if (r->csv_path) {
                snprintf(err, sizeof err, "--csv given twice ('%s', then '%s')", r->csv_path, p.value);
                bad = 1;
            }
            r->csv_path = p.value;
        } else if (k == O_NODES_CSV) {
            if (r->nodes_csv_path) {
                snprintf(err, sizeof err, "--nodes-csv given twice ('%s', then '%s')", r->nodes_csv_path, p.value);
                bad = 1;
            }
            r->nodes_csv_path = p.value;
        } else if (k == O_QUIET) {
            r->quiet = 1;
        } else if (k == O_PROGRESS) {
            r->progress = 1;
        } else if (k == O_ROUTER) {
            bad = noc_config_set(&r->cfg, "router", p.value, err, sizeof err) != 0;
        } else if (k >= O_FIRST_OTHER) {
            char opt[40];
            snprintf(opt, sizeof opt, "--%s", run_opts[k].name);
            int got = noc_cli_waves_set(&r->wv, opt, p.value, err, sizeof err);
            if (got == 0)
                got = noc_prog_opts_set(&r->po, opt, p.value, err, sizeof err);
            bad = got < 0;
        }
        if (bad) {
            fprintf(stderr, "noctua run: %s\n", err);
            return NOC_EXIT_USAGE;
        }
    }
    if (bad_operands)
        return NOC_EXIT_USAGE;
    if (r->wv.path && r->cfg.threads != 1) { /* (model/sim_threads.c: its views have no observer) */
        fprintf(stderr, "noctua run: parameter 'threads': --waves runs on one thread only for now; use threads=1\n");
        return NOC_EXIT_USAGE;
    }
    if (r->wv.path && noc_ranks_size() > 1) { /* (model/sim_ranks.c: the cut's flits are swapped, not observed) */
        fprintf(stderr, "noctua run: mpirun -n %d: --waves runs in one process only for now; run it without mpirun\n",
                noc_ranks_size());
        return NOC_EXIT_USAGE;
    }
    if (r->wv.scope_or_window && !r->wv.path) {
        fprintf(stderr, "noctua run: --waves-scope and --waves-window go with --waves FILE\n");
        return NOC_EXIT_USAGE;
    }
    const noc_prog_opts_t *po = &r->po;
    if (!noc_prog_opts_wanted(po) && (po->emit || po->timing || po->sync || po->root || po->emit_only)) {
        fprintf(stderr, "noctua run: --emit, --timing, --sync and --root go with --program or --program-file\n");
        return NOC_EXIT_USAGE;
    }
    if (r->nodes_csv_path)
        r->cfg.node_stats = 1;
    return check_outputs(r);
}

/* sim_count > 1: the runs with the seeds seed, seed + 1, ..., each kept in
 * *sims (allocated here), until one does not end normally or stops as
 * unstable (BookSim2 ends its series there); the last one is left in *s,
 * *t and *res for the report. 0, or -1 with err. */
static int run_series(const noc_config_t *cfg, const noc_app_run_opts_t *opts, noc_sim_t **s, noc_topo_t **t,
                      noc_run_result_t *res, noc_sims_t **sims, char *err, size_t errlen)
{
    if (opts->waves_path) {
        snprintf(err, errlen, "parameter 'sim_count': --waves records one run; give sim_count = 1");
        return -1;
    }
    *sims = noc_xcalloc(1, sizeof **sims, "sim_count");
    noc_config_t c = *cfg;
    for (long long k = 0; k < cfg->sim_count; k++) {
        c.seed = cfg->seed + k;
        if (k > 0) {
            noc_sim_destroy(*s);
            noc_topo_destroy(*t);
        }
        if (noc_app_simulate(&c, opts, s, t, res, err, errlen))
            return -1;
        noc_sims_add(*sims, *s, res, c.seed);
        if (res->status != NOC_RUN_OK || noc_sim_stats(*s)->stopped == NOC_STOP_UNSTABLE)
            break;
    }
    res->sims = *sims;
    return 0;
}

/* A synthetic run: simulate, report, say how it ended. */
static int run_synthetic(const run_args_t *r)
{
    const noc_config_t *cfg = &r->cfg;
    const noc_cli_waves_t *wv = &r->wv;
    const char *json_path = r->json_path;
    int quiet = r->quiet || (r->csv_path && strcmp(r->csv_path, "-") == 0) ||
                (r->nodes_csv_path && strcmp(r->nodes_csv_path, "-") == 0) ||
                noc_ranks_rank() != 0; /* (under mpirun rank 0 speaks for all) */
    char err[600];
    noc_sim_t *s;
    noc_topo_t *t;
    noc_run_result_t res;
    noc_progress_t pg;
    noc_progress_init(&pg, r->progress, quiet);
    char spec[NOC_CONFIG_STR_MAX], what[NOC_CONFIG_STR_MAX + 8];
    if (noc_app_spec(cfg, spec, sizeof spec, err, sizeof err) == 0) {
        snprintf(what, sizeof what, "run %s", spec);
        noc_progress_start(&pg, NULL, what);
    }
    noc_app_run_opts_t opts = { .waves_path = wv->path, .waves_opts = &wv->opts, .progress_ctx = &pg,
                                .progress = pg.on ? noc_progress_show : NULL, .progress_every = NOC_PROGRESS_EVERY };
    noc_sims_t *sims = NULL;
    int bad = cfg->sim_count > 1 ? run_series(cfg, &opts, &s, &t, &res, &sims, err, sizeof err)
                                 : noc_app_simulate(cfg, &opts, &s, &t, &res, err, sizeof err);
    noc_progress_done(&pg);
    if (bad) {
        fprintf(stderr, "noctua run: %s\n", err);
        free(sims);
        return NOC_EXIT_USAGE;
    }
    if (wv->path && !quiet)
        noc_cli_waves_said(wv, cfg->router);
    int rc = NOC_EXIT_OK;
    if (!quiet && !(json_path && strcmp(json_path, "-") == 0))
        noc_report_text(stdout, s, &res);
    if (json_path && noc_ranks_rank() == 0)
        noc_report_json_tables_note(stderr, s);
    if (json_path && noc_report_json(s, &res, json_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        rc = NOC_EXIT_USAGE;
    }
    if (r->csv_path && noc_report_links_csv(s, r->csv_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        rc = NOC_EXIT_USAGE;
    }
    if (r->nodes_csv_path && noc_report_nodes_csv(s, r->nodes_csv_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        rc = NOC_EXIT_USAGE;
    }
    const noc_stats_t *st = noc_sim_stats(s);
    if (res.status == NOC_RUN_DEADLOCK) {
        fprintf(stderr, "noctua run: DEADLOCK at cycle %llu: no flit moved for %lld cycles; %llu flits are stuck:\n",
                (unsigned long long)noc_sim_now(s), (long long)cfg->deadlock_cycles,
                (unsigned long long)noc_sim_flits_in_network(s));
        noc_sim_report_stuck(s, stderr, 20);
        rc = NOC_EXIT_DEADLOCK;
    } else if (res.status == NOC_RUN_INVARIANT) {
        rc = NOC_EXIT_INTERNAL;
    } else if (res.status == NOC_RUN_INTERRUPTED) {
        fprintf(stderr, "noctua run: interrupted at cycle %llu; the figures cover the cycles simulated\n",
                (unsigned long long)noc_sim_now(s));
        rc = NOC_EXIT_INTERRUPTED;
    }
    if (!quiet)
        fprintf(stderr, "noctua: simulated %llu cycles in %.3f s (%.0f cycles/s)\n",
                (unsigned long long)st->cycles, res.seconds,
                res.seconds > 0 ? (double)st->cycles / res.seconds : 0.0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    free(sims);
    return rc;
}

int noc_cmd_run(int argc, char **argv)
{
    run_args_t r;
    int rc = parse_args(&r, argc, argv);
    if (rc >= 0)
        return rc;
    if (noc_prog_opts_wanted(&r.po))
        return noc_cli_run_program_waves(&r.cfg, &r.po, r.json_path, r.csv_path, r.nodes_csv_path, r.quiet, &r.wv,
                                         r.progress);
    return run_synthetic(&r);
}
