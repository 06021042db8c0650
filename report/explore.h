/* explore.h: the table of `noctua explore` (docs/exploration.md): one row
 * per fabric x router parameter set x workload, its Pareto marking
 * (explore_pareto.c) and its files: CSV (explore_csv.c, which also reads a
 * row back for --resume), JSON (explore_json.c) and a Markdown summary
 * (explore_md.c). The command (cli/cmd_explore.c) fills the rows. */
#ifndef NOC_REPORT_EXPLORE_H
#define NOC_REPORT_EXPLORE_H
#include <stddef.h>
#include <stdio.h>

#define NOC_EXPLORE_LABEL 256

/* One row. Figures that a row does not have are flagged absent (has_*),
 * and written as an empty CSV field, JSON null, "-" in Markdown. */
typedef struct noc_explore_row {
    char fabric[NOC_EXPLORE_LABEL];   /* the SPEC */
    char params[NOC_EXPLORE_LABEL];   /* the varied parameters, "num_vcs=2 vc_buf_size=4" ("" for none) */
    char workload[NOC_EXPLORE_LABEL]; /* "broadcast:4" (program:words) */
    int status;          /* the row's exit status (cli/cli.h): 0 ok; else error says why */
    char error[512];
    int nodes, links;
    double links_per_node;
    int bisection;       /* -1: none */
    int bisection_exact; /* 0: an upper bound */
    int diameter;        /* -1: disconnected */
    int diameter_exact;  /* 0: a lower bound (sampled) */
    int vcs;             /* VCs per port of the run */
    int has_area;
    double router_area;  /* NAND2-eq per router, the fabric's mean */
    double total_area;   /* NAND2-eq of all the fabric's routers */
    int has_cycles;
    long long cycles;    /* the program's cycles */
    int has_energy;
    double energy_pj;    /* the run's total energy, pJ */
    int has_sat;         /* a synthetic workload's sweep ran */
    double saturation;   /* the highest rate below saturation (flits/node/cycle); 0: none */
    int saturation_found; /* 1: the next rate saturated; 0: none did up to the last (a lower bound) */
    double zero_load_latency; /* average latency at the lowest rate, cycles */
    int pareto;          /* 1: on the front of its workload (noc_explore_pareto) */
} noc_explore_row_t;

/* Objectives of the Pareto front, minimised but for saturation. */
enum {
    NOC_EXPLORE_OBJ_CYCLES = 1,
    NOC_EXPLORE_OBJ_LINKS = 2,
    NOC_EXPLORE_OBJ_AREA = 4,   /* total_area */
    NOC_EXPLORE_OBJ_ENERGY = 8, /* energy_pj */
    NOC_EXPLORE_OBJ_SATURATION = 16, /* saturation, maximised */
    NOC_EXPLORE_OBJ_LATENCY = 32,    /* zero_load_latency */
};

/* Mark rows[].pareto: rows are compared with the rows of the same workload
 * only, and only rows with status 0 and cycles (a program) or a saturation
 * (synthetic traffic) take part. The objectives of a program's workload are
 * cycles and links, of a synthetic one saturation (maximised),
 * zero_load_latency and links; and total_area (energy_pj) when every such
 * row of the workload has it. A row is on the front when no other row
 * of its workload is at least as good in every objective and better in
 * one (rows equal in all objectives are all on it). The objectives of row
 * i's workload into objs[i] (NOC_EXPLORE_OBJ_* bits; objs may be NULL).
 * Returns the number of rows marked. */
int noc_explore_pareto(noc_explore_row_t *rows, int n, unsigned *objs);
/* "cycles, links, total_area, energy_pj" for objective bits (into buf);
 * saturation is "saturation (maximised)". */
void noc_explore_objectives_text(unsigned objs, char *buf, size_t len);

/* The CSV's header line (no newline), one row (with newline). */
const char *noc_explore_csv_header(void);
void noc_explore_csv_row(FILE *f, const noc_explore_row_t *r);
/* A CSV line (as noc_explore_csv_row wrote it, without its newline) back
 * into r: 0, or -1 when it is not one. */
int noc_explore_csv_parse(const char *line, noc_explore_row_t *r);

/* The files, whole or not at all (util/outfile.h): 0, or -1 with err.
 * command: the command line that made them (named in the JSON and the
 * Markdown). */
int noc_explore_write_csv(const noc_explore_row_t *rows, int n, const char *partial, const char *path, char *err,
                          size_t errlen);
int noc_explore_write_json(const noc_explore_row_t *rows, int n, const unsigned *objs, const char *command,
                           const char *partial, const char *path, char *err, size_t errlen);
int noc_explore_write_md(const noc_explore_row_t *rows, int n, const unsigned *objs, const char *command,
                         const char *partial, const char *path, char *err, size_t errlen);

#endif
