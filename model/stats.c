/* stats.c: small helpers over the run statistics: averages, percentiles
 * and the binned latency histogram of the reports. */
#include "model/stats.h"
#include <math.h>

double noc_lat_avg(const noc_lat_sum_t *s)
{
    return s->n ? (double)s->sum / (double)s->n : 0.0;
}

uint64_t noc_stats_percentile(const noc_stats_t *st, double q)
{
    uint64_t n = st->latency.n;
    if (n == 0 || !st->lat_hist)
        return 0;
    uint64_t rank = (uint64_t)ceil(q * (double)n);
    if (rank < 1)
        rank = 1;
    uint64_t acc = 0;
    for (uint32_t i = 0; i < NOC_LAT_HIST; i++) {
        acc += st->lat_hist[i];
        if (acc >= rank)
            return i;
    }
    return st->latency.max;
}

int noc_stats_histogram(const noc_stats_t *st, int max_bins, uint64_t *from, uint64_t *width, uint64_t *counts,
                        uint64_t *above)
{
    *from = 0;
    *width = 1;
    *above = st->lat_hist ? st->lat_hist[NOC_LAT_HIST] : 0;
    if (st->latency.n == 0 || !st->lat_hist || st->latency.n == *above || max_bins < 1)
        return 0;
    uint64_t lo = st->latency.min, hi = st->latency.max;
    if (hi >= NOC_LAT_HIST) /* the longest latency kept exactly */
        for (hi = NOC_LAT_HIST - 1; hi > lo && st->lat_hist[hi] == 0; hi--)
            ;
    static const uint64_t mant[] = { 1, 2, 5 };
    uint64_t w = 1, start = lo;
    for (uint64_t pow10 = 1;; pow10 *= 10) {
        int k = 0;
        for (; k < 3; k++) {
            w = mant[k] * pow10;
            start = lo / w * w;
            if ((hi - start) / w + 1 <= (uint64_t)max_bins)
                break;
        }
        if (k < 3)
            break;
    }
    int n = (int)((hi - start) / w + 1);
    for (int i = 0; i < n; i++)
        counts[i] = 0;
    for (uint64_t v = lo; v <= hi; v++)
        counts[(v - start) / w] += st->lat_hist[v];
    *from = start;
    *width = w;
    return n;
}

uint64_t noc_node_lat_bin_top(int b)
{
    if (b < 64)
        return (uint64_t)b;
    if (b >= NOC_NODE_LAT_BINS - 1)
        return UINT64_MAX;
    int e = 6 + (b - 64) / 16, sub = (b - 64) % 16;
    uint64_t lower = (uint64_t)(16 + sub) << (e - 4);
    return lower + (UINT64_C(1) << (e - 4)) - 1;
}

uint64_t noc_node_percentile(const uint32_t *hist, const noc_lat_sum_t *l, double q)
{
    if (l->n == 0)
        return 0;
    uint64_t rank = (uint64_t)ceil(q * (double)l->n);
    if (rank < 1)
        rank = 1;
    uint64_t acc = 0;
    for (int b = 0; b < NOC_NODE_LAT_BINS; b++) {
        acc += hist[b];
        if (acc >= rank) {
            uint64_t top = noc_node_lat_bin_top(b);
            return top < l->max ? top : l->max;
        }
    }
    return l->max;
}

const char *noc_stop_name(int stopped)
{
    static const char *const names[] = {"none", "converged", "max_samples", "warmup", "unstable"};
    return stopped >= 0 && stopped <= NOC_STOP_UNSTABLE ? names[stopped] : "?";
}
