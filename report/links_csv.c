/* links_csv.c: a run's per-link table as CSV (noctua run --csv FILE), one
 * row per directed network link, the same figures as the JSON's links[]
 * (docs/report.md). Synthetic and program runs alike. */
#include "report/report.h"
#include "report/json_internal.h"
#include "util/outfile.h"

const char *noc_report_links_csv_header(void)
{
    return "from,to,class,flits,busy,utilisation,contention,credit_stall,peak_queue";
}

void noc_report_csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int noc_report_links_csv(const noc_sim_t *s, const char *path, char *err, size_t errlen)
{
    noc_out_t o;
    if (noc_out_open(&o, path, NOC_OUT_STDOUT, err, errlen) != 0)
        return -1;
    const noc_graph_t *gr = noc_sim_graph(s);
    double window = noc_report_window(s);
    fprintf(o.f, "%s\n", noc_report_links_csv_header());
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (local)
            continue;
        char a[64], b[64];
        noc_graph_label(gr, from, a, sizeof a);
        noc_graph_label(gr, to, b, sizeof b);
        const noc_link_stats_t *l = noc_sim_link_stats(s, c);
        noc_report_csv_field(o.f, a);
        fputc(',', o.f);
        noc_report_csv_field(o.f, b);
        fputc(',', o.f);
        noc_report_csv_field(o.f, gr->class_name[cls]);
        fprintf(o.f, ",%llu,%llu,%.6g,%llu,%llu,%u\n", (unsigned long long)l->flits, (unsigned long long)l->busy,
                (double)l->busy / window, (unsigned long long)l->contention, (unsigned long long)l->credit_stall,
                l->peak_queue);
    }
    return noc_out_commit(&o, err, errlen);
}
