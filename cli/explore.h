/* explore.h: what noctua explore's files share (cli/cmd_explore.c reads
 * the command line and writes the files, cli/explore_run.c runs one row).
 * The table's row and its files are report/explore.h's. Internal to cli/. */
#ifndef NOC_CLI_EXPLORE_H
#define NOC_CLI_EXPLORE_H
#include "model/config.h"
#include "report/explore.h"
#include "cli/expand.h"

#define EXPLORE_MAX_FABRICS 256
#define EXPLORE_MAX_KEYS 6       /* varied parameters */
#define EXPLORE_MAX_VALUES 64    /* values of one */
#define EXPLORE_MAX_SETS 256     /* their combinations */
#define EXPLORE_MAX_WORKLOADS 32
#define EXPLORE_MAX_ROWS 4096

/* One workload: a program generator with its words per message, a program
 * file (GOAL text), or a synthetic pattern swept over rates. */
typedef enum explore_kind { EXPLORE_PROGRAM, EXPLORE_FILE, EXPLORE_TRAFFIC } explore_kind_t;
typedef struct explore_workload {
    explore_kind_t kind;
    char label[NOC_EXPLORE_LABEL]; /* "broadcast:4" ("broadcast": the generator's default), the file, "uniform@R" */
    char program[NOC_EXPLORE_LABEL]; /* the generator, the file, or the pattern */
    int words;                     /* 0: the generator's default */
    char rates[NOC_EXPLORE_LABEL]; /* a pattern's --rates */
} explore_workload_t;

/* The rates a synthetic workload is swept over when none are given. */
#define EXPLORE_DEFAULT_RATES "0.05:1:0.05"

/* A parameter with a list of values ("num_vcs={2,4}"). */
typedef struct explore_key {
    char key[64];
    char val[EXPLORE_MAX_VALUES][NOC_EXPAND_LEN];
    int n;
} explore_key_t;

/* Everything the rows are made of: row k is fabric k / (sets x workloads),
 * set (k / workloads) % sets, workload k % workloads. */
typedef struct explore_plan {
    noc_config_t base;   /* defaults, --config, the fixed key=value */
    int energy_default;  /* energy= was not given: energy=default where the router has energy */
    int area;            /* --area */
    char fabric[EXPLORE_MAX_FABRICS][NOC_EXPAND_LEN];
    int n_fabrics;
    explore_key_t keys[EXPLORE_MAX_KEYS];
    int n_keys, n_sets;
    explore_workload_t work[EXPLORE_MAX_WORKLOADS];
    int n_work;
} explore_plan_t;

/* Rows in the plan. */
int explore_rows(const explore_plan_t *p);
/* The labels of row k (fabric, params, workload) into r, the rest zero. */
void explore_row_labels(const explore_plan_t *p, int k, noc_explore_row_t *r);
/* The config of row k: base, the set's values, the fabric. 0, or -1 with err. */
int explore_row_config(const explore_plan_t *p, int k, noc_config_t *cfg, char *err, size_t errlen);
/* Run row k into r (labels, figures, status and error). */
void explore_run_row(const explore_plan_t *p, int k, noc_explore_row_t *r);

#endif
