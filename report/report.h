/* report.h: the reports of noctua's runs and facts, as text and as JSON.
 * report/ is the one folder that uses a JSON library (jansson): callers
 * hand it their figures and a path, and never see a JSON value. Every
 * writer takes a path ("-": stdout), writes the file whole or not at all
 * (util/outfile.h) and returns 0, or -1 with a message in err. */
#ifndef NOC_REPORT_H
#define NOC_REPORT_H
#include <stdio.h>
#include "routers/rtl/area.h"
#include "app/run.h"
#include "model/program.h"
#include "model/loggp.h"
#include "model/sim.h"
#include "topologies/facts.h"

/* Have the JSON library allocate through noctua's allocator, so that
 * running out of memory while a report is built ends the run with exit 4
 * and a message (util/xalloc.h), not with a report silently missing a
 * field. Call once before the first JSON report. */
void noc_report_init(void);

/* A synthetic run: the human summary, and the JSON (the same figures and
 * the per-link table). */
void noc_report_text(FILE *f, const noc_sim_t *s, const noc_run_result_t *res);

/* sim_count: the figures of several simulations of one configuration
 * (sims_report.c), their means BookSim2's overall figures. */
#define NOC_SIMS_MAX 1000
typedef struct noc_sims_run {
    long long seed;
    noc_run_status_t status;
    int unstable;
    double lat[3][3];     /* packet, network, flit latency: avg, min, max */
    double hops, offered, accepted;
    uint64_t cycles;
} noc_sims_run_t;
typedef struct noc_sims {
    int count;
    noc_sims_run_t run[NOC_SIMS_MAX];
} noc_sims_t;
/* Keep run s (seed `seed`) among m's. */
void noc_sims_add(noc_sims_t *m, const noc_sim_t *s, const noc_run_result_t *res, long long seed);
/* The means, as text (`asked`: sim_count) and as the JSON "sims" object. */
void noc_report_sims_text(FILE *f, const noc_sims_t *m, long long asked);
int noc_report_json(const noc_sim_t *s, const noc_run_result_t *res, const char *path, char *err,
                    size_t errlen);
/* 1: the --json report of s lists every channel (json_tables full, or auto
 * on a fabric of at most NOC_JSON_FULL_ROWS channels); 0: it summarises
 * them (report/links_summary.h). */
int noc_report_json_full(const noc_sim_t *s);
/* A line on f when json_tables = auto chose the summary for s. */
void noc_report_json_tables_note(FILE *f, const noc_sim_t *s);
/* classes > 1: each traffic class's figures as text lines
 * (traffic_classes.c; nothing with one class). */
void noc_report_tclass_text(FILE *f, const noc_sim_t *s);
/* The energy summary lines of a run with an energy table (energy=;
 * nothing without one), in both run reports. */
void noc_report_energy_text(FILE *f, const noc_sim_t *s);
/* The link classes and the hottest links as text (in both run reports). */
void noc_report_links_text(FILE *f, const noc_sim_t *s);

/* A program run. */
void noc_report_program_text(FILE *f, const noc_sim_t *s, const noc_program_t *p,
                             const noc_prog_result_t *res);
int noc_report_program_json(const noc_sim_t *s, const noc_program_t *p, const noc_prog_result_t *res,
                            const char *path, char *err, size_t errlen);

/* A program timed by LogGOPSim's model (--timing loggp), placed on SPEC. */
void noc_report_loggp_text(FILE *f, const noc_loggp_t *lg, const noc_program_t *p, const noc_loggp_params_t *lp,
                           const char *spec, const noc_prog_result_t *res);
int noc_report_loggp_json(const noc_loggp_t *lg, const noc_program_t *p, const noc_loggp_params_t *lp,
                          const char *spec, const noc_prog_result_t *res, const char *path, char *err,
                          size_t errlen);

/* A run's per-link table as CSV (the JSON's links[]), synthetic or program:
 * the header line (no newline), and the whole file. */
const char *noc_report_links_csv_header(void);
int noc_report_links_csv(const noc_sim_t *s, const char *path, char *err, size_t errlen);

/* The per-node figures of a run with node_stats = 1: three summary lines
 * (nothing without them), and the CSV of run --nodes-csv (-1 with err when
 * the run kept none). */
void noc_report_nodes_text(FILE *f, const noc_sim_t *s);
const char *noc_report_nodes_csv_header(void);
int noc_report_nodes_csv(const noc_sim_t *s, const char *path, char *err, size_t errlen);

/* noctua sweep's CSV: the header line (no newline) and one point's row.
 * With several seeds a point's row holds the means over them (its values:
 * noc_report_sweep_values, in the header's order), then the number of
 * seeds and the 95% intervals' half-widths of latency_avg and accepted
 * (the header's extra columns: noc_report_sweep_seed_columns). */
#define NOC_SWEEP_COLS 11
const char *noc_report_sweep_header(void);
void noc_report_sweep_row(FILE *f, const noc_sim_t *s, const noc_run_result_t *res);
void noc_report_sweep_values(const noc_sim_t *s, const noc_run_result_t *res, double v[NOC_SWEEP_COLS]);
const char *noc_report_sweep_seed_columns(void);
void noc_report_sweep_mean_row(FILE *f, const double mean[NOC_SWEEP_COLS], int seeds, double lat_ci, double acc_ci);

/* One synthesized router core (noctua area): params, cells, nand2,
 * breakdown {nand, not, ff, other}, weights, cell_kinds, yosys, cached,
 * cache_file, synthesis_seconds. */
int noc_report_area_json(const noc_area_t *a, const char *path, char *err, size_t errlen);

/* noctua topo: the graph facts of n fabrics as a JSON array, one object per
 * fabric (docs/facts.md), with the routers' area where area[i].n_groups. */
typedef struct noc_topo_column {
    noc_topo_t *t;
    noc_facts_t f;
    noc_fabric_area_t area;
} noc_topo_column_t;
int noc_report_topo_json(const noc_topo_column_t *cols, int n, const char *path, char *err, size_t errlen);

#endif
