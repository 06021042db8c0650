/* sweep_csv.c: the CSV of noctua sweep (one row per injection rate). */
#include "report/report.h"

const char *noc_report_sweep_header(void)
{
    return "offered,accepted,latency_avg,latency_p50,latency_p99,network_latency_avg,"
           "queueing_latency_avg,hops_avg,packets,saturated,cycles";
}

void noc_report_sweep_row(FILE *f, const noc_sim_t *s, const noc_run_result_t *res)
{
    const noc_stats_t *st = noc_sim_stats(s);
    fprintf(f, "%.6g,%.6g,%.6g,%llu,%llu,%.6g,%.6g,%.6g,%llu,%d,%llu\n", res->offered, res->accepted,
            noc_lat_avg(&st->latency), (unsigned long long)noc_stats_percentile(st, 0.50),
            (unsigned long long)noc_stats_percentile(st, 0.99), noc_lat_avg(&st->net_latency),
            noc_lat_avg(&st->queue_latency), noc_lat_avg(&st->hops), (unsigned long long)st->packets,
            st->saturated ? 1 : 0, (unsigned long long)st->cycles);
}
