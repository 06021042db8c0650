/* cli.h: the command line's parts: exit statuses, program options and
 * the subcommands (reading parameters and building runs are app/'s, the
 * reports report/'s). */
#ifndef NOC_CLI_H
#define NOC_CLI_H
#include <stdio.h>
#include "model/config.h"
#include "model/sim.h"
#include "app/run.h"

/* Exit statuses of the CLI. */
enum {
    NOC_EXIT_OK = 0,
    NOC_EXIT_WRONG = 1,     /* a run computed a wrong result */
    NOC_EXIT_USAGE = 2,     /* bad input: parameters, files, SPEC */
    NOC_EXIT_DEADLOCK = 3,  /* the network deadlocked */
    NOC_EXIT_INTERNAL = 4,  /* the invariant checker caught a bug */
};

#include "app/config_file.h"

/* One operand of run and sweep into cfg: key=value sets a parameter, any
 * other word is the SPEC (one only: *spec_arg remembers it; it wins over
 * BookSim2's topology/k/n). 0, or -1 with a message in err. */
int noc_cli_config_operand(noc_config_t *cfg, const char *a, const char **spec_arg, char *err, size_t errlen);

/* ---- program runs (cmd_program.c, report_program.c) ---- */
#include "model/program.h"
#include "traffic/gen.h"

typedef struct noc_prog_opts {
    const char *name;       /* --program NAME: a generator */
    const char *file;       /* --program-file FILE */
    const char *emit;       /* --emit FILE ('-': stdout) */
    int emit_only;          /* --emit-only: write, do not run */
    const char *timing;     /* --timing unit|router|loggp, NULL: as configured */
    const char *sync;       /* --sync steps|none, NULL: as configured (sync_steps) */
    const char *root;       /* --root LABEL */
    noc_gen_args_t args;    /* --variant --q --words --h --seed */
    unsigned seen;          /* the options given so far (each at most once) */
} noc_prog_opts_t;

void noc_prog_opts_init(noc_prog_opts_t *o);
/* Is a program run asked for? */
int noc_prog_opts_wanted(const noc_prog_opts_t *o);
/* One option a ("--words") with its value v (NULL: none given; --emit-only
 * takes none): 1 taken, 0 not a program option, -1 bad (message in err). */
int noc_prog_opts_set(noc_prog_opts_t *o, const char *a, const char *v, char *err, size_t errlen);
/* One option at argv[*i] (for the benches' own argument walkers): 1 taken
 * (its value too), 0 not a program option, -1 bad (message in err). */
int noc_prog_opts_parse(noc_prog_opts_t *o, int argc, char **argv, int *i, char *err, size_t errlen);
/* The generators, and one generator's help. */
void noc_prog_list(FILE *f);
int noc_prog_help(FILE *f, const char *name);
/* Build the program the options ask for (--program NAME with its options, or
 * --program-file), on t: noc_app_prog_load (app/program.h) with the
 * options' fields. NULL with a message in err. */
noc_program_t *noc_cli_prog_load(const noc_prog_opts_t *o, const noc_topo_t *t, int memory_check, char *facts,
                                 size_t facts_len, char *err, size_t errlen);
/* A finished program run's verdict (res->verdict, res->error) from its
 * status (res->status), the PEs' ends and the result check. */
void noc_cli_prog_judge(noc_sim_t *s, noc_prog_result_t *res);
/* Run the program: build, run, check, report. Returns the exit status. */
int noc_cli_run_program(noc_config_t *cfg, const noc_prog_opts_t *o, const char *json_path, int quiet);
/* --timing loggp (cli/cmd_loggp.c): the options and parameters that have
 * no meaning without a network, refused by name (the exit status after the
 * message, or 0); and the run of loaded program p placed on spec. */
int noc_cli_loggp_refusals(const noc_config_t *cfg, const noc_prog_opts_t *o, const char *csv_path,
                           const char *nodes_csv_path, const char *waves_path);
int noc_cli_run_loggp(const noc_config_t *cfg, const noc_prog_opts_t *o, const noc_program_t *p, const char *spec,
                      const char *json_path, int quiet);

/* Subcommands; argv[0] is the subcommand's name. Return an exit status. */
int noc_cmd_run(int argc, char **argv);
int noc_cmd_sweep(int argc, char **argv);
int noc_cmd_topo(int argc, char **argv);  /* cmd_topo.c: graph facts */
int noc_cmd_draw(int argc, char **argv);  /* cmd_draw.c: pictures */
int noc_cmd_validate(int argc, char **argv); /* cmd_validate.c: programs against the papers */
int noc_cmd_area(int argc, char **argv);  /* cmd_area.c: gate count of the router core */
int noc_cmd_explore(int argc, char **argv); /* cmd_explore.c: fabrics x routers x workloads */

#endif
