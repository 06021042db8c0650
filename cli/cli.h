/* cli.h: the parts of the command-line front end: reading parameters from
 * config files and key=value arguments, building a run, and reporting it. */
#ifndef NOC_CLI_H
#define NOC_CLI_H
#include <stdio.h>
#include <jansson.h>
#include "model/config.h"
#include "model/sim.h"

/* Exit statuses of the CLI. */
enum {
    NOC_EXIT_OK = 0,
    NOC_EXIT_WRONG = 1,     /* a run computed a wrong result */
    NOC_EXIT_USAGE = 2,     /* bad input: parameters, files, SPEC */
    NOC_EXIT_DEADLOCK = 3,  /* the network deadlocked */
    NOC_EXIT_INTERNAL = 4,  /* the invariant checker caught a bug */
};

/* Read a config file into cfg: `key = value` lines, BookSim2's `key = value;`
 * with // comments too. Returns 0, or -1 with "FILE:LINE: parameter 'x': ..."
 * in err. */
int noc_cli_load_file(noc_config_t *cfg, const char *path, char *err, size_t errlen);
/* Apply one "key=value" argument. Returns 0, or -1 with a message in err. */
int noc_cli_set_arg(noc_config_t *cfg, const char *arg, char *err, size_t errlen);
/* The SPEC a run uses: topology_spec, or BookSim2's topology/k/n when
 * topology is set. Returns 0, or -1 with a message in err. */
int noc_cli_spec(const noc_config_t *cfg, char *spec, size_t len, char *err, size_t errlen);
/* Write the parameter table (name, default, help) as help text. */
void noc_cli_print_params(FILE *f);
/* The same as a Markdown table (docs/parameters.md). */
void noc_cli_print_params_md(FILE *f);

/* One finished synthetic run. */
typedef struct noc_run_result {
    noc_run_status_t status;
    double offered;       /* flits per node per cycle asked for */
    double accepted;      /* flits per node per cycle delivered in the window */
    double seconds;       /* wall-clock time of the simulation */
} noc_run_result_t;

/* Build topology, traffic and simulator from cfg and run it. On success
 * returns 0, hands the simulator (and its topology) to the caller through
 * *sim_out / *topo_out, and fills res. On bad input returns -1 with err. */
int noc_cli_simulate(const noc_config_t *cfg, noc_sim_t **sim_out, noc_topo_t **topo_out,
                     noc_run_result_t *res, char *err, size_t errlen);

/* Reports. */
void noc_report_text(FILE *f, const noc_sim_t *s, const noc_run_result_t *res);
json_t *noc_report_json(const noc_sim_t *s, const noc_run_result_t *res);
/* Write JSON to path ("-" is stdout). Returns 0 or -1 with err. */
int noc_report_write_json(json_t *j, const char *path, char *err, size_t errlen);

/* Subcommands; argv[0] is the subcommand's name. Return an exit status. */
int noc_cmd_run(int argc, char **argv);
int noc_cmd_sweep(int argc, char **argv);
int noc_cmd_topo(int argc, char **argv);  /* cmd_topo.c: graph facts */
int noc_cmd_draw(int argc, char **argv);  /* cmd_draw.c: pictures */

#endif
