/* json_internal.h: what report/'s files share inside the folder: jansson
 * (the one place it is included from) and the JSON parts common to the run
 * reports. Not installed, not for callers outside report/. */
#ifndef NOC_REPORT_JSON_INTERNAL_H
#define NOC_REPORT_JSON_INTERNAL_H
#include <jansson.h>
#include "model/program.h"
#include "model/sim.h"

/* The parameters, the per-link table and the per-class loads. */
json_t *noc_report_config_json(const noc_sim_t *s);
struct noc_sims;
json_t *noc_report_sims_json(const struct noc_sims *m);
/* classes > 1: the JSON "traffic_classes" array, a class a row (traffic_classes.c); NULL with one class. */
json_t *noc_report_tclass_json(const noc_sim_t *s);
json_t *noc_report_links_json(const noc_sim_t *s);
json_t *noc_report_classes_json(const noc_sim_t *s);
/* The injection and ejection channels, one entry each (per lane). */
json_t *noc_report_local_json(const noc_sim_t *s);
/* The per-node figures (nodes_report.c), or NULL when the run kept none. */
json_t *noc_report_nodes_json(const noc_sim_t *s);
/* A run's "energy" object (energy_report.c), or NULL when it has no
 * energy table (energy=). */
json_t *noc_report_energy_json(const noc_sim_t *s);
/* The measurement window in cycles (1 when there is none): the one
 * denominator of the reports' utilisations and per-cycle rates. */
double noc_report_window(const noc_sim_t *s);
/* A program run's critical chain (program_chain.c): its text lines, and
 * {cycles, messages, chain[]} for the JSON. */
void noc_report_chain_text(FILE *f, const noc_sim_t *s);
json_t *noc_report_chain_json(const noc_sim_t *s);
/* Waits of a program run (program_waits.c): the per-step table's text
 * lines; {ni, buffer, vc, switch, link, credit, total} of counts w; step
 * k's waits as that with "ejection" and "most_at"; channel c's name as a
 * place ("a->b", "a injection", "a ejection"); and message op's waits as
 * "waited buffer 3, link 2" into buf (network: all but the NI's; else
 * the NI's only), 0 when it waited for none of them. */
void noc_report_waits_text(FILE *f, const noc_sim_t *s);
json_t *noc_report_wait_kinds_json(const uint64_t *w);
json_t *noc_report_step_waits_json(const noc_sim_t *s, int k);
void noc_report_place_label(const noc_sim_t *s, int c, char *buf, size_t len);
int noc_report_msg_waits(const noc_sim_t *s, uint32_t op, int network, char *buf, size_t len);
/* s as one CSV field: quoted, a quote inside doubled (labels hold commas). */
void noc_report_csv_field(FILE *f, const char *s);
/* A program's sends, receives and computations (every other op). */
void noc_report_count_kinds(const noc_program_t *p, uint64_t *sends, uint64_t *recvs, uint64_t *computes);
/* {total, done, sends, receives, computations}: a program's "operations". */
json_t *noc_report_operations_json(const noc_program_t *p, uint64_t total, uint64_t done);
/* Write j to path ("-" is stdout) and release it. Returns 0 or -1 with err. */
int noc_report_write_json(json_t *j, const char *path, char *err, size_t errlen);
/* The same, with the value of each of the keys of tabs[0 .. nt-1] in j (a
 * placeholder there, which fixes the key's place) written as the array of
 * row(ctx, i) for i = 0 .. n-1, each row built, written and released in
 * turn (NULL: no entry): the same bytes as the whole tree, without holding
 * a large table in memory. */
typedef json_t *(*noc_json_row_fn)(const void *ctx, size_t i);
typedef struct noc_json_table {
    const char *key;
    size_t n;
    noc_json_row_fn row;
    const void *ctx;
} noc_json_table_t;
int noc_report_write_json_tables(json_t *j, const noc_json_table_t *tabs, int nt, const char *path, char *err,
                                 size_t errlen);
/* Entry c of the per-link table (NULL for an injection or ejection
 * channel), and of the injection and ejection channels' table (NULL for
 * the others): noc_json_row_fn over the channels of the noc_sim_t ctx. */
json_t *noc_report_link_row(const void *ctx, size_t c);
/* 1 if channel c is a row of the local channels' table (local) or of the
 * links' (not local). */
int noc_report_table_has(const noc_sim_t *s, int c, int local);
json_t *noc_report_local_row(const void *ctx, size_t c);

#endif
