/* stats.c: small helpers over the run statistics. */
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
