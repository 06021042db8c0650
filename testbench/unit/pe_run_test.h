/* pe_run_test.h: what the PE engine's tests share (testbench/unit/model/
 * test_pe.c, test_pe_goal.c): a program attached to a fabric's simulator
 * with key=value parameters, and its teardown. Header-only; include it after
 * cmocka.h, model/pe.h, routers/registry.h and topologies/topo.h. */
#ifndef NOC_PE_RUN_TEST_H
#define NOC_PE_RUN_TEST_H
#include <stdio.h>
#include <string.h>

typedef struct run {
    noc_topo_t *topo;
    noc_sim_t *sim;
} run_t;

static inline void build(run_t *r, const char *spec, noc_program_t *p, const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(&cfg, name, eq + 1, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    r->topo = noc_topo_create(spec, 0, err, sizeof err);
    if (!r->topo)
        fail_msg("%s", err);
    noc_traffic_t none = { NULL, NULL };
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), none, err, sizeof err);
    if (!r->sim)
        fail_msg("%s", err);
    if (noc_prog_finish(p, err, sizeof err) != 0 || noc_pe_attach(r->sim, p, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static inline void drop(run_t *r, noc_program_t *p)
{
    noc_sim_destroy(r->sim);
    noc_topo_destroy(r->topo);
    noc_prog_free(p);
}

#endif
