/* cmd_loggp.c: `noctua run SPEC --program ... --timing loggp`: the
 * program timed by LogGOPSim's model (model/loggp.h) instead of the
 * network, with the loggp_* parameters; its result check and report. What
 * has no meaning without a network (waves, link tables, step barriers) is
 * refused by name before anything runs. */
#include "util/clock.h"
#include "cli/cli.h"
#include "model/loggp.h"
#include "report/report.h"
#include "util/interrupt.h"
#include <string.h>
#include <time.h>

int noc_cli_loggp_refusals(const noc_config_t *cfg, const noc_prog_opts_t *o, const char *csv_path,
                           const char *nodes_csv_path, const char *waves_path)
{
    const char *what = NULL;
    if (o->sync && strcmp(o->sync, "none") != 0)
        what = o->sync[0] == 's' ? "--sync steps" : "--sync both";
    else if (!o->sync && cfg->sync_steps)
        what = "sync_steps=1";
    else if (waves_path)
        what = "--waves";
    else if (csv_path)
        what = "--csv";
    else if (nodes_csv_path)
        what = "--nodes-csv";
    if (!what)
        return 0;
    fprintf(stderr, "noctua run: %s has no meaning under --timing loggp (LogGOPSim's model has no network "
            "links and no step barriers); drop it, or use --timing router\n", what);
    return NOC_EXIT_USAGE;
}

int noc_cli_run_loggp(const noc_config_t *cfg, const noc_prog_opts_t *o, const noc_program_t *p, const char *spec,
                      const char *json_path, int quiet)
{
    char err[600];
    noc_loggp_params_t lp = { cfg->loggp_L, cfg->loggp_o, cfg->loggp_g, cfg->loggp_G, cfg->loggp_O,
                              cfg->loggp_S, cfg->compute_cycles };
    noc_loggp_t *lg = noc_loggp_create(p, &lp, err, sizeof err);
    if (!lg) {
        fprintf(stderr, "noctua run: %s\n", err);
        return NOC_EXIT_USAGE;
    }
    noc_prog_result_t res = { 0 };
    res.name = o->file ? o->file : o->name;
    res.facts = "";
    double t0 = noc_wall_seconds();
    int was = noc_interrupt_cooperate(1);
    int stopped = noc_loggp_run(lg, noc_interrupt_flag());
    noc_interrupt_cooperate(was);
    res.seconds = noc_wall_seconds() - t0;
    res.status = stopped ? NOC_RUN_INTERRUPTED : NOC_RUN_OK;
    res.verdict = "ok";
    if (stopped) {
        res.verdict = "interrupted";
        snprintf(res.error, sizeof res.error, "interrupted after %llu events; the figures cover them",
                 (unsigned long long)noc_loggp_stats(lg)->events);
    } else if (noc_loggp_finished(lg, res.error, sizeof res.error) != 0)
        res.verdict = "error";
    else if (noc_loggp_check(lg, NULL, res.error, sizeof res.error) != 0)
        res.verdict = "wrong";
    int rc = NOC_EXIT_OK;
    if (!quiet && !(json_path && strcmp(json_path, "-") == 0))
        noc_report_loggp_text(stdout, lg, p, &lp, spec, &res);
    if (json_path && noc_report_loggp_json(lg, p, &lp, spec, &res, json_path, err, sizeof err)) {
        fprintf(stderr, "noctua run: %s\n", err);
        rc = NOC_EXIT_USAGE;
    }
    if (stopped) {
        fprintf(stderr, "noctua run: %s\n", res.error);
        rc = NOC_EXIT_INTERRUPTED;
    } else if (strcmp(res.verdict, "ok") != 0) {
        fprintf(stderr, "noctua run: %s\n", res.error);
        rc = NOC_EXIT_WRONG;
    }
    noc_loggp_destroy(lg);
    return rc;
}
