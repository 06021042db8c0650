/* explore_run.c: one row of noctua explore (cli/explore.h): the fabric's
 * graph facts (as `noctua topo SPEC`), the workload's run (as `noctua run
 * SPEC --program NAME --words W key=value ... --json`, or for synthetic
 * traffic its saturation as `noctua sweep SPEC --rates R traffic=P`), with --area the
 * routers' gate count (as `noctua topo SPEC --area V=.. DEPTH=.. FLIT_W=..`).
 * Runs in a worker process of cli/pool.h, or in the command's own. */
#include "cli/explore.h"
#include "cli/cli.h"
#include "cli/fabric_area.h"
#include "cli/sweep.h"
#include "util/xalloc.h"
#include "app/config_file.h"
#include "app/energy_file.h"
#include "app/program.h"
#include "app/run.h"
#include "model/energy.h"
#include "model/pe.h"
#include "routers/registry.h"
#include "topologies/facts.h"
#include "util/interrupt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int explore_rows(const explore_plan_t *p)
{
    return p->n_fabrics * p->n_sets * p->n_work;
}

/* The values of set s, one "key=value" per varied key, into kv. */
static void set_values(const explore_plan_t *p, int s, char (*kv)[NOC_EXPAND_LEN + 80])
{
    /* the first key varies slowest */
    for (int i = p->n_keys - 1; i >= 0; i--) {
        const explore_key_t *key = &p->keys[i];
        snprintf(kv[i], NOC_EXPAND_LEN + 80, "%s=%s", key->key, key->val[s % key->n]);
        s /= key->n;
    }
}

void explore_row_labels(const explore_plan_t *p, int k, noc_explore_row_t *r)
{
    memset(r, 0, sizeof *r);
    int per_fabric = p->n_sets * p->n_work;
    snprintf(r->fabric, sizeof r->fabric, "%s", p->fabric[k / per_fabric]);
    char kv[EXPLORE_MAX_KEYS][NOC_EXPAND_LEN + 80];
    set_values(p, (k / p->n_work) % p->n_sets, kv);
    size_t at = 0;
    for (int i = 0; i < p->n_keys && at < sizeof r->params; i++)
        at += (size_t)snprintf(r->params + at, sizeof r->params - at, "%s%s", i ? " " : "", kv[i]);
    snprintf(r->workload, sizeof r->workload, "%s", p->work[k % p->n_work].label);
    r->bisection = -1;
}

int explore_row_config(const explore_plan_t *p, int k, noc_config_t *cfg, char *err, size_t errlen)
{
    *cfg = p->base;
    char kv[EXPLORE_MAX_KEYS][NOC_EXPAND_LEN + 80];
    set_values(p, (k / p->n_work) % p->n_sets, kv);
    for (int i = 0; i < p->n_keys; i++)
        if (noc_app_set_arg(cfg, kv[i], err, errlen) != 0)
            return -1;
    const char *spec = NULL;
    if (noc_cli_config_operand(cfg, p->fabric[k / (p->n_sets * p->n_work)], &spec, err, errlen) != 0)
        return -1;
    /* energy=default where it applies: a router with energy figures, and
     * the flit width the built-in table is for */
    noc_energy_table_t def;
    noc_energy_default(&def);
    if (p->energy_default && strcmp(cfg->router, "ideal") != 0 && cfg->flit_width == def.flit_bits)
        return noc_app_set_arg(cfg, "energy=default", err, errlen);
    return 0;
}

/* The graph facts of t into r, as noctua topo computes them. */
static int facts(const noc_topo_t *t, noc_explore_row_t *r)
{
    noc_facts_t f;
    if (noc_facts_compute(t, NULL, &f, r->error, sizeof r->error) != 0)
        return NOC_EXIT_INTERNAL;
    r->nodes = f.nodes;
    r->links = f.links;
    r->links_per_node = f.links_per_node;
    r->bisection = f.bisection;
    r->bisection_exact = f.bisection_exact;
    r->diameter = f.diameter;
    r->diameter_exact = f.distance_exact;
    return NOC_EXIT_OK;
}

/* The routers' area of t for the run's VCs and cfg's buffers, flit width
 * and arbiters, into r. */
static int area(const noc_topo_t *t, const noc_config_t *cfg, noc_explore_row_t *r)
{
    noc_area_params_t given, ap;
    noc_area_params_default(&given);
    char a[4][64];
    snprintf(a[0], sizeof a[0], "V=%d", r->vcs);
    snprintf(a[1], sizeof a[1], "DEPTH=%lld", (long long)cfg->vc_buf_size);
    snprintf(a[2], sizeof a[2], "FLIT_W=%lld", (long long)cfg->flit_width);
    snprintf(a[3], sizeof a[3], "ARB=%.40s", cfg->arb_type);
    for (int i = 0; i < 4; i++)
        if (noc_area_param_set(&given, a[i], 0, NULL, r->error, sizeof r->error) != 0)
            return NOC_EXIT_USAGE;
    noc_cli_area_params(t, &given, 1, 0, &ap);
    ap.P = 1;
    if (noc_area_params_check(&ap, r->error, sizeof r->error) != 0)
        return NOC_EXIT_USAGE;
    noc_fabric_area_t fa = { 0 };
    fa.p = ap;
    int rc = noc_cli_area_compute(t, &fa, "noctua explore", r->error, sizeof r->error);
    if (rc == NOC_EXIT_OK) {
        r->has_area = 1;
        r->total_area = fa.nand2;
        r->router_area = fa.nand2 / noc_topo_nodes(t);
    }
    free(fa.g);
    return rc;
}

/* The exit status of a finished program run, as noctua run gives it. */
static int run_status(const noc_prog_result_t *res)
{
    if (res->status == NOC_RUN_INTERRUPTED)
        return NOC_EXIT_INTERRUPTED;
    if (res->status == NOC_RUN_DEADLOCK)
        return NOC_EXIT_DEADLOCK;
    if (res->status == NOC_RUN_INVARIANT)
        return NOC_EXIT_INTERNAL;
    return strcmp(res->verdict, "ok") == 0 ? NOC_EXIT_OK : NOC_EXIT_WRONG;
}

/* The synthetic workload's sweep on spec (as noctua sweep SPEC --rates R
 * traffic=P): the saturation and the zero-load latency into r. */
static int run_traffic(const explore_workload_t *w, const noc_config_t *cfg, const char *spec, noc_explore_row_t *r)
{
    rates_t *rates = noc_xmalloc(sizeof *rates, "explore");
    series_t *sr = noc_xcalloc(1, sizeof *sr, "explore");
    sr->cfg = *cfg;
    snprintf(sr->spec, sizeof sr->spec, "%s", spec);
    char kv[NOC_EXPLORE_LABEL + 16];
    snprintf(kv, sizeof kv, "traffic=%s", w->program);
    int rc = NOC_EXIT_USAGE, rows = 0;
    FILE *null = NULL;
    if (noc_app_set_arg(&sr->cfg, kv, r->error, sizeof r->error) == 0 &&
        noc_sweep_parse_rates(w->rates, rates, r->error, sizeof r->error) == 0 &&
        (null = fopen("/dev/null", "w")) != NULL) {
        rc = noc_sweep_run(sr, 1, rates, 1, NULL, null, 0, 1, 0, 1, &rows);
        if (rc != NOC_EXIT_OK)
            snprintf(r->error, sizeof r->error, "the sweep stopped after %d rates, status %d (its message is above)", rows, rc);
    }
    if (null)
        fclose(null);
    if (rc == NOC_EXIT_OK && rows > 0) {
        const outcome_t *o = &sr->o;
        r->has_sat = 1;
        r->saturation_found = o->saturated;
        r->saturation = o->saturated && o->rows == 1 ? 0.0 : o->last_ok;
        r->zero_load_latency = o->zero_load;
        r->vcs = o->vcs;
    }
    free(sr);
    free(rates);
    return rc;
}

/* The workload's program on t: cycles, VCs and energy into r. */
static int run_program(const explore_workload_t *w, const noc_config_t *cfg, const noc_topo_t *t,
                       noc_explore_row_t *r)
{
    static char facts_buf[8192];
    noc_gen_args_t ga;
    noc_gen_args_default(&ga);
    if (w->words)
        ga.words = w->words;
    if (noc_sim_check_memory(cfg, noc_topo_graph(t), r->error, sizeof r->error) != 0)
        return NOC_EXIT_USAGE;
    int file = w->kind == EXPLORE_FILE;
    noc_program_t *p = noc_app_prog_load(file ? NULL : w->program, file ? w->program : NULL, NULL, &ga, t, (int)cfg->memory_check, facts_buf,
                                         sizeof facts_buf, r->error, sizeof r->error);
    if (!p)
        return NOC_EXIT_USAGE;
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(cfg, noc_topo_graph(t), none, r->error, sizeof r->error);
    int rc = NOC_EXIT_USAGE;
    if (s && noc_pe_attach(s, p, r->error, sizeof r->error) == 0 &&
        noc_app_energy_attach(s, r->error, sizeof r->error) == 0) {
        noc_prog_result_t res = { 0 };
        res.name = w->program;
        noc_sim_set_stop(s, noc_interrupt_flag());
        res.status = noc_pe_run(s);
        noc_cli_prog_judge(s, &res);
        rc = run_status(&res);
        if (rc != NOC_EXIT_OK)
            snprintf(r->error, sizeof r->error, "%.20s: %.480s", res.verdict, res.error[0] ? res.error : "see noctua run");
        r->vcs = noc_sim_vcs(s);
        r->has_cycles = rc == NOC_EXIT_OK;
        r->cycles = (long long)noc_pe_stats(noc_sim_pe(s))->cycles;
        const noc_energy_table_t *et = noc_sim_energy(s);
        if (et && rc == NOC_EXIT_OK) {
            noc_energy_sum_t e;
            noc_energy_run(s, et, &e);
            r->has_energy = 1;
            r->energy_pj = e.total_pj;
        }
    }
    noc_sim_destroy(s);
    noc_prog_free(p);
    return rc;
}

void explore_run_row(const explore_plan_t *p, int k, noc_explore_row_t *r)
{
    explore_row_labels(p, k, r);
    noc_config_t cfg;
    char spec[NOC_CONFIG_STR_MAX];
    r->status = NOC_EXIT_USAGE;
    if (explore_row_config(p, k, &cfg, r->error, sizeof r->error) != 0 ||
        noc_app_spec(&cfg, spec, sizeof spec, r->error, sizeof r->error) != 0 ||
        noc_app_check_shape(&cfg, spec, 0, r->error, sizeof r->error) != 0)
        return;
    noc_topo_t *t = noc_topo_create(spec, 0, r->error, sizeof r->error);
    if (!t)
        return;
    r->status = facts(t, r);
    const explore_workload_t *w = &p->work[k % p->n_work];
    if (r->status == NOC_EXIT_OK)
        r->status = w->kind == EXPLORE_TRAFFIC ? run_traffic(w, &cfg, spec, r) : run_program(w, &cfg, t, r);
    if (r->status == NOC_EXIT_OK && p->area)
        r->status = area(t, &cfg, r);
    if (r->status == NOC_EXIT_OK)
        r->error[0] = '\0';
    noc_topo_destroy(t);
}
