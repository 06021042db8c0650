/* cmd_program.c: program runs of `noctua run`: `--program NAME` (a
 * generator of traffic/gen.h) or `--program-file FILE` (the text format of
 * docs/programs.md), `--emit FILE` to dump the program, `--timing unit` for
 * the papers' model, `--sync steps` for barriers at the step markers; the
 * run, its result check and its report. */
#include "util/clock.h"
#include "cli/cli.h"
#include "app/energy_file.h"
#include "app/program.h"
#include "routers/registry.h"
#include "report/report.h"
#include "util/interrupt.h"
#include "util/outfile.h"
#include "cli/cli_waves.h"
#include "cli/progress.h"
#include "model/pe.h"
#include "traffic/gen.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

void noc_prog_opts_init(noc_prog_opts_t *o)
{
    memset(o, 0, sizeof *o);
    noc_gen_args_default(&o->args);
}

int noc_prog_opts_wanted(const noc_prog_opts_t *o)
{
    return o->name || o->file;
}

/* Parse one program option at argv[*i]; returns 1 if it was one (and
 * advances *i past its value), 0 if not, -1 on a bad value (message in err). */
int noc_prog_opts_set(noc_prog_opts_t *o, const char *a, const char *v, char *err, size_t errlen)
{
    static const char *const with_value[] = { "--program", "--program-file", "--emit", "--timing",
                                              "--sync", "--root", "--variant", "--q", "--words",
                                              "--h", "--seed", NULL };
    int known = 0, idx = 0;
    for (int k = 0; with_value[k]; k++)
        if (strcmp(a, with_value[k]) == 0) {
            known = 1;
            idx = k;
        }
    if (strcmp(a, "--emit-only") == 0) {
        o->emit_only = 1;
        return 1;
    }
    if (!known)
        return 0;
    if (!v) {
        snprintf(err, errlen, "%s needs a value", a);
        return -1;
    }
    if (o->seen & (1u << idx)) {
        snprintf(err, errlen, "%s given twice (the second was '%s')", a, v);
        return -1;
    }
    o->seen |= 1u << idx;
    char *end = NULL;
    if (strcmp(a, "--program") == 0)
        o->name = v;
    else if (strcmp(a, "--program-file") == 0)
        o->file = v;
    else if (strcmp(a, "--emit") == 0)
        o->emit = v;
    else if (strcmp(a, "--root") == 0)
        o->root = v;
    else if (strcmp(a, "--variant") == 0)
        o->args.variant = v;
    else if (strcmp(a, "--timing") == 0) {
        if (strcmp(v, "unit") != 0 && strcmp(v, "router") != 0 && strcmp(v, "loggp") != 0) {
            snprintf(err, errlen, "--timing %s: expected unit (the papers' model: ideal router, "
                     "all-port PEs), router (the configured router) or loggp (LogGOPSim's model, no network)", v);
            return -1;
        }
        o->timing = v;
    } else if (strcmp(a, "--sync") == 0) {
        if (strcmp(v, "steps") != 0 && strcmp(v, "none") != 0 && strcmp(v, "both") != 0) {
            snprintf(err, errlen, "--sync %s: expected steps, none or both", v);
            return -1;
        }
        o->sync = v;
    } else {
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || x < 0 || x > (1LL << 30)) {
            snprintf(err, errlen, "%s %s: expected a whole number >= 0", a, v);
            return -1;
        }
        if (strcmp(a, "--q") == 0)
            o->args.q = x;
        else if (strcmp(a, "--words") == 0) {
            if (x < 1 || x > NOC_PROG_MAX_MEM) {
                snprintf(err, errlen, "--words %s: from 1 to %d (the words a rank's memory may hold)", v,
                         NOC_PROG_MAX_MEM);
                return -1;
            }
            o->args.words = (int)x;
        } else if (strcmp(a, "--h") == 0)
            o->args.h = (int)x;
        else
            o->args.seed = (uint64_t)x;
    }
    return 1;
}

int noc_prog_opts_parse(noc_prog_opts_t *o, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i];
    if (strcmp(a, "--emit-only") == 0)
        return noc_prog_opts_set(o, a, NULL, err, errlen);
    int got = noc_prog_opts_set(o, a, *i + 1 < argc ? argv[*i + 1] : NULL, err, errlen);
    if (got > 0)
        ++*i;
    return got;
}

void noc_prog_list(FILE *f)
{
    fprintf(f, "programs (--program NAME; --program NAME --help for its arguments):\n");
    for (int i = 0; noc_generators[i]; i++)
        fprintf(f, "  %-18s %s\n", noc_generators[i]->name, noc_generators[i]->summary);
}

int noc_prog_help(FILE *f, const char *name)
{
    const noc_generator_t *g = noc_gen_find(name);
    if (!g) {
        fprintf(stderr, "noctua run: unknown program '%s'\n", name);
        noc_prog_list(stderr);
        return NOC_EXIT_USAGE;
    }
    fprintf(f, "noctua run SPEC --program %s [options]: %s\n\n%s", g->name, g->summary, g->args_help);
    fprintf(f, "\ncommon options:\n"
               "  --timing unit    the papers' model: ideal router, all-port PEs (router=ideal ni_ports=0)\n"
               "  --timing loggp   LogGOPSim's model instead of the network (loggp_L, _o, _g, _G, _O, _S;\n"
               "                   docs/goal.md)\n"
               "  --sync steps     a zero-cost barrier at every step marker (sync_steps=1);\n"
               "  --sync both      run without barriers, and again with them for comparison\n"
               "  --emit FILE      also write the program (docs/programs.md; '-': stdout);\n"
               "                   --emit-only: write it and do not run\n"
               "  --json FILE      the report as JSON\n");
    return NOC_EXIT_OK;
}

noc_program_t *noc_cli_prog_load(const noc_prog_opts_t *o, const noc_topo_t *t, int memory_check, char *facts,
                                 size_t facts_len, char *err, size_t errlen)
{
    return noc_app_prog_load(o->name, o->file, o->root, &o->args, t, memory_check, facts, facts_len, err, errlen);
}

static int emit(const noc_program_t *p, const char *path, char *err, size_t errlen)
{
    noc_out_t o;
    if (noc_out_open(&o, path, NOC_OUT_STDOUT, err, errlen) != 0)
        return -1;
    noc_prog_write(p, o.f); /* a failed write is told by the commit */
    return noc_out_commit(&o, err, errlen);
}

int noc_cli_run_program(noc_config_t *cfg, const noc_prog_opts_t *o, const char *json_path, int quiet)
{
    return noc_cli_run_program_waves(cfg, o, json_path, NULL, NULL, quiet, NULL, 0);
}

/* Everything before the simulator: the options' timing and sync into cfg,
 * the topology (refused when too large before it is built), the program,
 * --emit. -1 with *t and *p to go on, else the exit status (nothing left
 * allocated). */
static int prepare(noc_config_t *cfg, const noc_prog_opts_t *o, int quiet, noc_topo_t **t, noc_program_t **p,
                   char *facts, size_t facts_len)
{
    char err[600], spec[NOC_CONFIG_STR_MAX];
    if (o->name && o->file) {
        fprintf(stderr, "noctua run: give --program or --program-file, not both\n");
        return NOC_EXIT_USAGE;
    }
    if (o->timing && strcmp(o->timing, "unit") == 0)
        noc_config_timing(cfg, NOC_TIMING_UNIT);
    if (o->sync)
        cfg->sync_steps = strcmp(o->sync, "steps") == 0;
    if (noc_app_spec(cfg, spec, sizeof spec, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    /* a grid too large is refused before it is built; with the routing asked for */
    unsigned flags = 0;
    *t = noc_app_routing_flags(cfg, spec, &flags, err, sizeof err) || noc_app_check_shape(cfg, spec, flags, err, sizeof err)
             ? NULL
             : noc_topo_create(spec, flags, err, sizeof err);
    if (*t && !o->emit_only && noc_sim_check_memory(cfg, noc_topo_graph(*t), err, sizeof err)) { /* before the program is made */
        noc_topo_destroy(*t);
        *t = NULL;
    }
    if (!*t) {
        fprintf(stderr, "noctua run: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    facts[0] = '\0';
    *p = noc_cli_prog_load(o, *t, (int)cfg->memory_check, facts, facts_len, err, sizeof err);
    int rc = -1;
    if (!*p) {
        fprintf(stderr, "noctua run: %s\n", err);
        rc = NOC_EXIT_USAGE;
    } else if (o->emit && emit(*p, o->emit, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        rc = NOC_EXIT_USAGE;
    } else if (o->emit && strcmp(o->emit, "-") != 0 && !quiet) {
        fprintf(stderr, "noctua run: wrote the program (%d ranks, %u operations) to %s\n", (*p)->n_ranks,
                (*p)->n_ops, o->emit);
    }
    if (rc < 0 && o->emit_only)
        rc = NOC_EXIT_OK;
    if (rc >= 0) {
        noc_prog_free(*p);
        noc_topo_destroy(*t);
    }
    return rc;
}

/* The simulator with p attached, recording into wv->path when asked:
 * *s (and *waves) or NULL after the message. */
static noc_sim_t *make_sim(const noc_config_t *cfg, const noc_topo_t *t, const noc_program_t *p,
                           const noc_cli_waves_t *wv, noc_waves_t **waves)
{
    char err[600];
    noc_traffic_t none = { NULL, NULL };
    *waves = NULL;
    noc_sim_t *s = noc_sim_create(cfg, noc_topo_graph(t), none, err, sizeof err);
    if (s && noc_pe_attach(s, p, err, sizeof err) == 0 && noc_app_energy_attach(s, err, sizeof err) == 0 &&
        (!wv || !wv->path || (*waves = noc_waves_open(wv->path, s, &wv->opts, err, sizeof err)) != NULL))
        return s;
    fprintf(stderr, "noctua run: %s\n", err);
    noc_sim_destroy(s);
    return NULL;
}

/* Close the waves and say where they are. 0, or -1 after the message. */
static int close_waves(noc_waves_t *waves, const noc_cli_waves_t *wv, const noc_config_t *cfg, int quiet)
{
    char err[600];
    if (noc_waves_close(waves, err, sizeof err) != 0) {
        fprintf(stderr, "noctua run: %s\n", err);
        return -1;
    }
    if (quiet)
        return 0;
    noc_cli_waves_said(wv, cfg->router);
    return 0;
}

void noc_cli_prog_judge(noc_sim_t *s, noc_prog_result_t *res)
{
    const noc_pe_t *pe = noc_sim_pe(s);
    if (res->status == NOC_RUN_INTERRUPTED) {
        res->verdict = "interrupted";
        snprintf(res->error, sizeof res->error, "interrupted at cycle %llu; the figures cover the cycles simulated",
                 (unsigned long long)noc_sim_now(s));
    } else if (res->status == NOC_RUN_OK && noc_pe_finished(pe, res->error, sizeof res->error) != 0)
        res->verdict = "error";
    else if (res->status == NOC_RUN_OK && noc_pe_check(s, res->error, sizeof res->error) != 0)
        res->verdict = "wrong";
    else if (res->status == NOC_RUN_OK)
        res->verdict = "ok";
    else
        res->verdict = res->status == NOC_RUN_DEADLOCK ? "deadlock" : "error";
}

/* The exit status of a run reported, with the message of one that did not
 * end well (the deadlock or stall with what waits). */
static int exit_status(noc_sim_t *s, const noc_config_t *cfg, const noc_prog_result_t *res)
{
    const noc_pe_t *pe = noc_sim_pe(s);
    if (res->status == NOC_RUN_INTERRUPTED) {
        fprintf(stderr, "noctua run: %s\n", res->error);
        return NOC_EXIT_INTERRUPTED;
    }
    if (res->status == NOC_RUN_DEADLOCK) {
        if (noc_pe_stalled(pe))
            fprintf(stderr, "noctua run: the program STALLED at cycle %llu: nothing moved or "
                    "progressed for %lld cycles; waiting:\n",
                    (unsigned long long)noc_sim_now(s), (long long)cfg->deadlock_cycles);
        else {
            fprintf(stderr, "noctua run: DEADLOCK at cycle %llu: no flit moved for %lld cycles:\n",
                    (unsigned long long)noc_sim_now(s), (long long)cfg->deadlock_cycles);
            noc_sim_report_stuck(s, stderr, 20);
        }
        noc_pe_report_waiting(s, stderr, 20);
        return NOC_EXIT_DEADLOCK;
    }
    if (res->status == NOC_RUN_INVARIANT)
        return NOC_EXIT_INTERNAL;
    if (strcmp(res->verdict, "ok") != 0) {
        fprintf(stderr, "noctua run: %s\n", res->error);
        return NOC_EXIT_WRONG;
    }
    return NOC_EXIT_OK;
}

int noc_cli_run_program_waves(noc_config_t *cfg, const noc_prog_opts_t *o, const char *json_path,
                              const char *csv_path, const char *nodes_csv_path, int quiet,
                              const noc_cli_waves_t *wv, int progress)
{
    if ((csv_path && strcmp(csv_path, "-") == 0) || (nodes_csv_path && strcmp(nodes_csv_path, "-") == 0))
        quiet = 1; /* a CSV is stdout */
    static char facts[8192];
    noc_topo_t *t;
    noc_program_t *p;
    int loggp = o->timing && strcmp(o->timing, "loggp") == 0, rc;
    if (loggp && (rc = noc_cli_loggp_refusals(cfg, o, csv_path, nodes_csv_path, wv ? wv->path : NULL)) != 0)
        return rc;
    rc = prepare(cfg, o, quiet, &t, &p, facts, sizeof facts);
    if (rc >= 0)
        return rc;
    if (loggp) {
        rc = noc_cli_run_loggp(cfg, o, p, noc_topo_spec(t), json_path, quiet);
        noc_prog_free(p);
        noc_topo_destroy(t);
        return rc;
    }
    noc_waves_t *waves; /* --waves: the run recorded (not the --sync both rerun) */
    noc_sim_t *s = make_sim(cfg, t, p, wv, &waves);
    if (!s) {
        noc_prog_free(p);
        noc_topo_destroy(t);
        return NOC_EXIT_USAGE;
    }
    noc_prog_result_t res = { 0 };
    res.name = o->file ? o->file : o->name;
    res.facts = facts;
    noc_sim_set_stop(s, noc_interrupt_flag());
    noc_progress_t pg;
    noc_progress_init(&pg, progress, quiet);
    char spec[NOC_CONFIG_STR_MAX], what[NOC_CONFIG_STR_MAX + 300], err[600];
    if (noc_app_spec(cfg, spec, sizeof spec, err, sizeof err) != 0) /* (it worked in prepare) */
        spec[0] = '\0';
    snprintf(what, sizeof what, "run %s %s", spec, res.name);
    noc_progress_start(&pg, noc_pe_stats(noc_sim_pe(s)), what);
    noc_progress_attach(&pg, s);
    double t0 = noc_wall_seconds();
    int was = noc_interrupt_cooperate(1); /* Ctrl-C ends the run at the end of a cycle */
    res.status = noc_pe_run(s);
    noc_interrupt_cooperate(was);
    res.seconds = noc_wall_seconds() - t0;
    noc_progress_done(&pg);
    int out_rc = waves && close_waves(waves, wv, cfg, quiet) != 0 ? NOC_EXIT_USAGE : NOC_EXIT_OK;
    noc_sim_t *s2 = NULL;
    if (o->sync && strcmp(o->sync, "both") == 0 && res.status != NOC_RUN_INTERRUPTED) {
        /* the same program with step barriers, for the steps' own counts */
        noc_config_t c2 = *cfg;
        c2.sync_steps = 1;
        noc_traffic_t none = { NULL, NULL };
        s2 = noc_sim_create(&c2, noc_topo_graph(t), none, err, sizeof err);
        if (s2 && noc_pe_attach(s2, p, err, sizeof err) == 0 && noc_pe_run(s2) == NOC_RUN_OK)
            res.synced = noc_pe_stats(noc_sim_pe(s2));
    }
    noc_cli_prog_judge(s, &res);
    if (!quiet && !(json_path && strcmp(json_path, "-") == 0))
        noc_report_program_text(stdout, s, p, &res);
    if (json_path)
        noc_report_json_tables_note(stderr, s);
    if (json_path && noc_report_program_json(s, p, &res, json_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        out_rc = NOC_EXIT_USAGE;
    }
    if (csv_path && noc_report_links_csv(s, csv_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        out_rc = NOC_EXIT_USAGE;
    }
    if (nodes_csv_path && noc_report_nodes_csv(s, nodes_csv_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        out_rc = NOC_EXIT_USAGE;
    }
    rc = exit_status(s, cfg, &res);
    if (rc == NOC_EXIT_OK)
        rc = out_rc;
    noc_sim_destroy(s);
    noc_sim_destroy(s2);
    noc_prog_free(p);
    noc_topo_destroy(t);
    return rc;
}
