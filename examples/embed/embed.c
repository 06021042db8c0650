/* embed.c: noctua as a library (docs/api.md). Builds a fabric, runs
 * synthetic traffic on it, then a traffic program (a generated collective)
 * on another, through the installed public API only, and prints the
 * results the way `noctua run` names them:
 *
 *   embed [SPEC [PROGRAM_SPEC PROGRAM]]     default: mesh:4x4 bsn:ring:4 broadcast
 *
 * Exit status: 0, 1 if the program computed a wrong result, 2 on bad
 * input, 3 on a deadlock or a stalled program. */
#include <stdio.h>
#include <stdlib.h>

#include "noctua.h"

/* Uniform random traffic at 0.1 flits/node/cycle (the defaults) on spec. */
static int run_synthetic(const char *spec)
{
    char err[600];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    if (noc_config_set(&cfg, "traffic", "uniform", err, sizeof err) != 0) {
        fprintf(stderr, "embed: %s\n", err);
        return 2;
    }
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err); /* ours: destroyed last */
    if (!t) {
        fprintf(stderr, "embed: %s\n", err);
        return 2;
    }
    noc_synthetic_t syn; /* must outlive the simulator */
    noc_sim_t *s = NULL;
    if (noc_synthetic_init(&syn, &cfg, t, err, sizeof err) != 0 ||
        !(s = noc_sim_create(&cfg, noc_topo_graph(t), noc_synthetic_traffic(&syn), err, sizeof err))) {
        fprintf(stderr, "embed: %s\n", err);
        noc_topo_destroy(t);
        return 2;
    }
    noc_run_status_t st = noc_sim_run(s);
    const noc_stats_t *r = noc_sim_stats(s); /* the simulator's: read before noc_sim_destroy */
    printf("synthetic %s: cycles %llu packets %llu latency %.2f status %d\n", spec,
           (unsigned long long)r->cycles, (unsigned long long)r->packets, noc_lat_avg(&r->latency), (int)st);
    noc_sim_destroy(s);
    noc_synthetic_free(&syn);
    noc_topo_destroy(t);
    return st == NOC_RUN_OK ? 0 : 3;
}

/* Generator `name` on spec with its default arguments, on vc routers. */
static int run_program(const char *spec, const char *name)
{
    char err[600];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    const noc_generator_t *g = noc_gen_find(name);
    if (!g) {
        fprintf(stderr, "embed: unknown program '%s'\n", name);
        return 2;
    }
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t) {
        fprintf(stderr, "embed: %s\n", err);
        return 2;
    }
    noc_gen_args_t args;
    noc_gen_args_default(&args);
    noc_program_t *p = g->make(t, &args, err, sizeof err); /* ours, must outlive the simulator */
    noc_sim_t *s = NULL;
    if (!p || !(s = noc_sim_create(&cfg, noc_topo_graph(t), (noc_traffic_t){ 0 }, err, sizeof err)) ||
        noc_pe_attach(s, p, err, sizeof err) != 0) {
        fprintf(stderr, "embed: %s\n", err);
        noc_sim_destroy(s);
        noc_prog_free(p);
        noc_topo_destroy(t);
        return 2;
    }
    noc_run_status_t st = noc_pe_run(s);
    const noc_pe_t *pe = noc_sim_pe(s);
    int rc = 0;
    if (st != NOC_RUN_OK || noc_pe_finished(pe, err, sizeof err) != 0)
        rc = 3;
    else if (noc_pe_check(s, err, sizeof err) != 0) /* every PE's memory as the program expects */
        rc = 1;
    const noc_pe_stats_t *ps = noc_pe_stats(pe);
    printf("program %s on %s: cycles %llu messages %llu words %llu steps %d result %s\n", name, spec,
           (unsigned long long)ps->cycles, (unsigned long long)ps->messages, (unsigned long long)ps->words,
           ps->n_steps, rc == 0 ? "ok" : err);
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 1 && argc != 2 && argc != 4) {
        fprintf(stderr, "usage: embed [SPEC [PROGRAM_SPEC PROGRAM]]\n");
        return 2;
    }
    printf("libnoctua %s\n", NOC_VERSION_STRING);
    int rc = run_synthetic(argc > 1 ? argv[1] : "mesh:4x4");
    if (rc == 0)
        rc = run_program(argc > 3 ? argv[2] : "bsn:ring:4", argc > 3 ? argv[3] : "broadcast");
    return rc;
}
