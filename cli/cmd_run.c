/* cmd_run.c: `noctua run [SPEC] [key=value ...] [--config FILE] [--json FILE]`:
 * one synthetic run with its summary, JSON, and the deadlock report. */
#include "util/xalloc.h"
#include "cli/cli.h"
#include "app/run.h"
#include "report/report.h"
#include "cli/cli_waves.h"
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

int noc_cli_waves_parse(noc_cli_waves_t *w, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i];
    if (strcmp(a, "--waves") != 0 && strcmp(a, "--waves-scope") != 0 && strcmp(a, "--waves-window") != 0)
        return 0;
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "%s needs a value", a);
        return -1;
    }
    const char *v = argv[++*i];
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

static void usage(FILE *f)
{
    fprintf(f,
        "usage: noctua run [SPEC] [key=value ...] [--router NAME] [--config FILE] [--json FILE|-] [--quiet]\n"
        "       noctua run [SPEC] --program NAME [--root LABEL] [--variant V] [--words W] [--q Q]\n"
        "                  [--timing unit|router] [--sync steps|none] [--emit FILE [--emit-only]] ...\n"
        "       noctua run [SPEC] --program-file FILE [...]\n"
        "       ... [--waves FILE.fst|FILE.vcd [--waves-scope PATTERN] [--waves-window FROM:TO]]\n"
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
        "                  core, Verilated, inside every router (docs/rtl.md)\n"
        "  --config FILE   read parameters from FILE (key = value lines; BookSim2 files work)\n"
        "  --json FILE     also write the figures and the per-link table as JSON ('-': stdout)\n"
        "  --quiet         no summary on stdout\n"
        "  --waves FILE    record the run for GTKWave: FST (FILE.fst, the default) or VCD\n"
        "                  (FILE.vcd), and a save file FILE.gtkw beside it (docs/waves.md)\n"
        "  --waves-scope PATTERN  only the nodes whose labels match: a glob (\"<1,*,0>\")\n"
        "                  or a substring; alternatives separated by |\n"
        "  --waves-window FROM:TO  only cycles FROM to TO (either may be left out)\n"
        "\n"
        "Ctrl-C ends the run at the end of the current cycle and writes the report and\n"
        "the files so far, marked interrupted; a second Ctrl-C quits at once. Files are\n"
        "written whole or not at all (docs/reliability.md).\n"
        "\n"
        "Exit status: 0 done (a saturated network is a result too), 1 a program computed\n"
        "a wrong result, 2 bad input or an output that could not be written, 3 deadlock\n"
        "(or a stalled program), 4 internal invariant violated, 130 interrupted.\n\n",
        noc_topo_spec_help(), "mesh:8x8", noc_router_list());
    noc_app_print_params(f);
}

int noc_cmd_run(int argc, char **argv)
{
    noc_config_t cfg;
    char err[600];
    const char *json_path = NULL, *spec_arg = NULL;
    int quiet = 0, help = 0;
    noc_prog_opts_t po;
    noc_prog_opts_init(&po);
    noc_cli_waves_t wv;
    noc_cli_waves_init(&wv);
    noc_config_defaults(&cfg);

    /* config files first, then SPEC and key=value, which win */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            help = 1;
        if (strcmp(argv[i], "--program") == 0 && i + 1 < argc)
            po.name = argv[i + 1];
    }
    if (help && po.name)
        return strcmp(po.name, "list") == 0 || strcmp(po.name, "help") == 0
                   ? (noc_prog_list(stdout), NOC_EXIT_OK)
                   : noc_prog_help(stdout, po.name);
    if (help) {
        usage(stdout);
        return NOC_EXIT_OK;
    }
    po.name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 || strcmp(argv[i], "-c") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "noctua run: --config needs a FILE\n");
                return NOC_EXIT_USAGE;
            }
            if (noc_app_load_file(&cfg, argv[++i], err, sizeof err)) {
                fprintf(stderr, "noctua run: %s\n", err);
                return NOC_EXIT_USAGE;
            }
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--config") == 0 || strcmp(a, "-c") == 0) {
            i++;
        } else if (strcmp(a, "--json") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "noctua run: --json needs a FILE (or - for stdout)\n");
                return NOC_EXIT_USAGE;
            }
            if (json_path) {
                fprintf(stderr, "noctua run: --json given twice ('%s', then '%s')\n", json_path, argv[i + 1]);
                return NOC_EXIT_USAGE;
            }
            json_path = argv[++i];
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--router") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "noctua run: --router needs a NAME (%s)\n", noc_router_list());
                return NOC_EXIT_USAGE;
            }
            if (noc_config_set(&cfg, "router", argv[++i], err, sizeof err)) {
                fprintf(stderr, "noctua run: %s\n", err);
                return NOC_EXIT_USAGE;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            int got = noc_cli_waves_parse(&wv, argc, argv, &i, err, sizeof err);
            if (got == 0)
                got = noc_prog_opts_parse(&po, argc, argv, &i, err, sizeof err);
            if (got < 0) {
                fprintf(stderr, "noctua run: %s\n", err);
                return NOC_EXIT_USAGE;
            }
            if (got > 0)
                continue;
            fprintf(stderr, "noctua run: unknown option '%s' (see noctua run --help)\n", a);
            return NOC_EXIT_USAGE;
        } else if (strchr(a, '=')) {
            if (noc_app_set_arg(&cfg, a, err, sizeof err)) {
                fprintf(stderr, "noctua run: %s\n", err);
                return NOC_EXIT_USAGE;
            }
        } else {
            if (spec_arg) {
                fprintf(stderr, "noctua run: one SPEC only ('%s', then '%s')\n", spec_arg, a);
                return NOC_EXIT_USAGE;
            }
            spec_arg = a;
            if (noc_config_set(&cfg, "topology_spec", a, err, sizeof err)) {
                fprintf(stderr, "noctua run: %s\n", err);
                return NOC_EXIT_USAGE;
            }
            cfg.topology[0] = '\0'; /* an explicit SPEC wins over BookSim2's topology */
        }
    }

    if (wv.scope_or_window && !wv.path) {
        fprintf(stderr, "noctua run: --waves-scope and --waves-window go with --waves FILE\n");
        return NOC_EXIT_USAGE;
    }
    if (noc_prog_opts_wanted(&po))
        return noc_cli_run_program_waves(&cfg, &po, json_path, quiet, &wv);
    if (po.emit || po.timing || po.sync || po.root || po.emit_only) {
        fprintf(stderr, "noctua run: --emit, --timing, --sync and --root go with --program or --program-file\n");
        return NOC_EXIT_USAGE;
    }
    noc_sim_t *s;
    noc_topo_t *t;
    noc_run_result_t res;
    if (noc_app_simulate(&cfg, wv.path, &wv.opts, &s, &t, &res, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    if (wv.path && !quiet) {
        char gtkw[1100];
        noc_waves_gtkw_path(wv.path, gtkw, sizeof gtkw);
        fprintf(stderr, "noctua: waves in %s, GTKWave save file %s\n", wv.path, gtkw);
        if (strcmp(cfg.router, "rtl") == 0) {
            noc_waves_inner_path(wv.path, gtkw, sizeof gtkw);
            fprintf(stderr, "noctua: inside the RTL cores: %s\n", gtkw);
        }
    }
    int rc = NOC_EXIT_OK;
    if (!quiet && !(json_path && strcmp(json_path, "-") == 0))
        noc_report_text(stdout, s, &res);
    if (json_path) {
        if (noc_report_json(s, &res, json_path, err, sizeof err)) {
            fprintf(stderr, "noctua run: %s\n", err);
            rc = NOC_EXIT_USAGE;
        }
    }
    const noc_stats_t *st = noc_sim_stats(s);
    if (res.status == NOC_RUN_DEADLOCK) {
        fprintf(stderr, "noctua run: DEADLOCK at cycle %llu: no flit moved for %lld cycles; %llu flits are stuck:\n",
                (unsigned long long)noc_sim_now(s), (long long)cfg.deadlock_cycles,
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
    return rc;
}
