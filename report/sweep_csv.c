/* sweep_csv.c: the CSV of noctua sweep (one row per injection rate; with
 * --seeds, the means over the seeds and their 95% intervals). */
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

void noc_report_sweep_values(const noc_sim_t *s, const noc_run_result_t *res, double v[NOC_SWEEP_COLS])
{
    const noc_stats_t *st = noc_sim_stats(s);
    v[0] = res->offered;
    v[1] = res->accepted;
    v[2] = noc_lat_avg(&st->latency);
    v[3] = (double)noc_stats_percentile(st, 0.50);
    v[4] = (double)noc_stats_percentile(st, 0.99);
    v[5] = noc_lat_avg(&st->net_latency);
    v[6] = noc_lat_avg(&st->queue_latency);
    v[7] = noc_lat_avg(&st->hops);
    v[8] = (double)st->packets;
    v[9] = st->saturated ? 1.0 : 0.0;
    v[10] = (double)st->cycles;
}

const char *noc_report_sweep_seed_columns(void)
{
    return "seeds,latency_avg_ci95,accepted_ci95";
}

void noc_report_sweep_mean_row(FILE *f, const double mean[NOC_SWEEP_COLS], int seeds, double lat_ci, double acc_ci)
{
    for (int k = 0; k < NOC_SWEEP_COLS; k++)
        fprintf(f, k == 8 || k == 10 ? "%.10g," : "%.6g,", mean[k]); /* counts keep their digits */
    fprintf(f, "%d,%.6g,%.6g\n", seeds, lat_ci, acc_ci);
}
