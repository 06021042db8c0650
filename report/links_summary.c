/* links_summary.c (report/): the per-channel tables of a --json report
 * summarised for large fabrics (json_tables): the rows the full table would
 * have, how many carried nothing, their utilisation in tenths, and the
 * busiest rows in the full table's own form. A million-node mesh has six
 * million channels: its full tables were most of a 1.3 GB report. */
#include "report/json_internal.h"
#include "report/links_summary.h"
#include "report/report.h"
#include "model/stats.h"
#include <stdio.h>
#include <string.h>

void noc_top_init(noc_top_t *t, int k)
{
    t->k = k < NOC_TOP_MAX ? k : NOC_TOP_MAX;
    t->n = 0;
}

/* Entries stay in order of key, highest first; an entry ties after the
 * ones already there, so with ids added in increasing order the lower id
 * of equal keys comes first. */
void noc_top_add(noc_top_t *t, size_t id, uint64_t key)
{
    if (t->k == 0 || (t->n == t->k && key <= t->key[t->n - 1]))
        return;
    int i = t->n < t->k ? t->n++ : t->n - 1;
    while (i > 0 && t->key[i - 1] < key) {
        t->key[i] = t->key[i - 1];
        t->id[i] = t->id[i - 1];
        i--;
    }
    t->key[i] = key;
    t->id[i] = id;
}

int noc_json_tables_full(const char *mode, size_t rows)
{
    if (strcmp(mode, "full") == 0)
        return 1;
    if (strcmp(mode, "summary") == 0)
        return 0;
    return rows <= NOC_JSON_FULL_ROWS;
}

int noc_report_json_full(const noc_sim_t *s)
{
    return noc_json_tables_full(noc_sim_config(s)->json_tables, (size_t)noc_sim_n_channels(s));
}

int noc_util_tenth(uint64_t busy, double window)
{
    double u = (double)busy / window;
    int b = (int)(u * 10.0);
    return b < 0 ? 0 : b > 9 ? 9 : b;
}

/* The summary of the channels that row(s, c) lists (local: the injection
 * and ejection channels' table, else the links'). */
static json_t *summary(const noc_sim_t *s, int local)
{
    noc_json_row_fn row = local ? noc_report_local_row : noc_report_link_row;
    double window = noc_report_window(s);
    uint64_t bins[10] = { 0 }, rows = 0, idle = 0;
    noc_top_t top;
    noc_top_init(&top, NOC_JSON_HOTTEST);
    for (int c = 0, nc = noc_sim_n_channels(s); c < nc; c++) {
        if (!noc_report_table_has(s, c, local)) /* (the rows row() lists) */
            continue;
        const noc_link_stats_t *l = noc_sim_link_stats(s, c);
        rows++;
        idle += l->flits == 0;
        bins[noc_util_tenth(l->busy, window)]++;
        noc_top_add(&top, (size_t)c, l->busy);
    }
    json_t *util = json_array(), *hot = json_array();
    for (int b = 0; b < 10; b++)
        json_array_append_new(util, json_pack("{s:f, s:f, s:I}", "from", b / 10.0, "to", (b + 1) / 10.0, "count",
                                              (json_int_t)bins[b]));
    for (int i = 0; i < top.n; i++)
        json_array_append_new(hot, row(s, top.id[i]));
    return json_pack("{s:I, s:I, s:o, s:o}", "rows", (json_int_t)rows, "idle", (json_int_t)idle, "utilisation", util,
                     "hottest", hot);
}

void noc_report_tables_json(json_t *j, const noc_sim_t *s, int streamed)
{
    if (noc_report_json_full(s)) {
        /* (placeholders when the rows are streamed: noc_report_write_json_tables) */
        json_object_set_new(j, "links", streamed ? json_array() : noc_report_links_json(s));
        json_object_set_new(j, "classes", noc_report_classes_json(s));
        json_object_set_new(j, "local_channels", streamed ? json_array() : noc_report_local_json(s));
        return;
    }
    json_object_set_new(j, "json_tables", json_string("summary"));
    json_object_set_new(j, "links_summary", summary(s, 0));
    json_object_set_new(j, "classes", noc_report_classes_json(s));
    json_object_set_new(j, "local_channels_summary", summary(s, 1));
}

void noc_report_json_tables_note(FILE *f, const noc_sim_t *s)
{
    if (noc_report_json_full(s) || strcmp(noc_sim_config(s)->json_tables, "auto") != 0)
        return;
    fprintf(f, "noctua: note: the --json report summarises the %d channels of this fabric (more than %d): "
            "json_tables=full lists every one, --csv FILE writes them as CSV\n", noc_sim_n_channels(s),
            NOC_JSON_FULL_ROWS);
}
