/* links_summary.h (report/): the per-channel tables of a --json report,
 * summarised for large fabrics (json_tables; links_summary.c), and the two
 * small pieces it is made of, which the tests check by hand: the k highest
 * keys of a stream, and a utilisation's tenth. */
#ifndef NOC_REPORT_LINKS_SUMMARY_H
#define NOC_REPORT_LINKS_SUMMARY_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/sim.h"

/* json_tables = auto lists every channel up to this many (a 128x128 mesh
 * has 97,792, a 1024x1024 one 6,287,360), and summarises above. */
#define NOC_JSON_FULL_ROWS 131072
/* The busiest rows a summary lists. */
#define NOC_JSON_HOTTEST 16

#define NOC_TOP_MAX 64
/* The k entries of highest key among those added: key[0] highest, equal
 * keys in the order they were added. */
typedef struct noc_top {
    int k, n;
    size_t id[NOC_TOP_MAX];
    uint64_t key[NOC_TOP_MAX];
} noc_top_t;
void noc_top_init(noc_top_t *t, int k);
void noc_top_add(noc_top_t *t, size_t id, uint64_t key);

/* 1: json_tables `mode` lists every one of `rows` rows; 0: summarised. */
int noc_json_tables_full(const char *mode, size_t rows);
/* The tenth of [0, 1] busy / window falls in: 0 .. 9 (1 itself in 9). */
int noc_util_tenth(uint64_t busy, double window);

/* Put s's channel tables into its report j, in the place "links",
 * "classes" and "local_channels" take: with every row (streamed: empty
 * arrays, the rows written later by noc_report_write_json_tables), or
 * "json_tables": "summary", "links_summary", "classes" and
 * "local_channels_summary", each summary {rows, idle, utilisation[10 bins
 * {from, to, count}], hottest[up to 16 rows, busiest first]}. */
void noc_report_tables_json(json_t *j, const noc_sim_t *s, int streamed);

#endif
