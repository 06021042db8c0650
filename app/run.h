/* run.h: building and running a synthetic run from parameters (run.c):
 * what the CLI, the benchmark and embedders share (DESIGN.md, app/). */
#ifndef NOC_APP_RUN_H
#define NOC_APP_RUN_H
#include <stddef.h>
#include "model/config.h"
#include "model/sim.h"
#include "topologies/topo.h"
#include "waves/waves.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One finished synthetic run. */
typedef struct noc_run_result {
    noc_run_status_t status;
    double offered;       /* flits per node per cycle asked for */
    double accepted;      /* flits per node per cycle delivered in the window */
    double seconds;       /* wall-clock time of the simulation */
    const struct noc_sims *sims; /* sim_count > 1: every run's figures (report/report.h), or NULL */
} noc_run_result_t;

struct noc_pe_stats;

/* One finished program run. */
typedef struct noc_prog_result {
    const char *name;       /* the program's name or file */
    noc_run_status_t status;
    const char *verdict;    /* "ok", "wrong", "error", "deadlock" */
    char error[512];        /* why, when not ok */
    double seconds;
    const struct noc_pe_stats *synced; /* --sync both: the run with step barriers, or NULL */
    const char *facts;      /* the generator's facts, "key = value" lines ("" for none) */
} noc_prog_result_t;

/* The SPEC a run uses: topology_spec, or BookSim2's topology/k/n when
 * topology is set. Returns 0, or -1 with a message in err. */
int noc_app_spec(const noc_config_t *cfg, char *spec, size_t len, char *err, size_t errlen);
/* A fabric too large for the memory is refused before it is built: 0, or
 * -1 when a simulation of SPEC (built with flags, noc_topo_create's) with
 * cfg would not fit, with the message in err. SPECs that noc_topo_size does
 * not size pass (noc_sim_check_memory checks them once built). */
int noc_app_check_shape(const noc_config_t *cfg, const char *spec, unsigned flags, char *err, size_t errlen);
/* The topology flags (noc_topo_create's) that cfg's routing_function asks
 * of SPEC: 0, or -1 with a message when SPEC's fabric has no such routing
 * or the name is unknown. Every builder of a run's fabric takes them, so
 * that no routing is silently another. */
int noc_app_routing_flags(const noc_config_t *cfg, const char *spec, unsigned *flags, char *err, size_t errlen);
/* What a run records and shows besides its figures. */
typedef struct noc_app_run_opts {
    const char *waves_path;              /* waveforms into this file; NULL: none */
    const noc_waves_opts_t *waves_opts;  /* their scope and window (NULL: all) */
    noc_progress_fn progress;            /* a progress display (noc_sim_set_progress); NULL: none */
    void *progress_ctx;
    uint64_t progress_every;             /* cycles between two calls */
} noc_app_run_opts_t;

/* Build topology, synthetic traffic and simulator from cfg and run it, with
 * opts (NULL: no waves, no progress). On success returns 0, hands the
 * simulator (and its topology) to the caller through *sim_out / *topo_out,
 * and fills res. On bad input returns -1 with a message in err. */
int noc_app_simulate(const noc_config_t *cfg, const noc_app_run_opts_t *opts, noc_sim_t **sim_out,
                     noc_topo_t **topo_out, noc_run_result_t *res, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
