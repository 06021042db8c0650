/* stats.h: what a run measured. Per-run figures (latency, throughput, hops)
 * and per-channel counters; filled by the kernel, read by reports. */
#ifndef NOC_STATS_H
#define NOC_STATS_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Latencies up to this many cycles are kept exactly for the percentiles. */
#define NOC_LAT_HIST 65536

typedef struct noc_link_stats {
    uint64_t flits;        /* flits carried */
    uint64_t heads;        /* of which head flits: packets carried (a router's route computations and
                              VC allocations for this output, model/energy.h) */
    uint64_t busy;         /* cycles with a flit on the link */
    uint64_t contention;   /* cycles in which more than one packet wanted it */
    uint64_t credit_stall; /* cycles a flit was ready for it but had no credit */
    uint32_t peak_queue;   /* most flits buffered at its downstream input port */
    uint32_t pad;
} noc_link_stats_t;

typedef struct noc_lat_sum {
    uint64_t n, sum, min, max;
} noc_lat_sum_t;

typedef struct noc_stats {
    uint64_t cycles;            /* cycles simulated in all */
    uint64_t warmup, sample, drain;  /* cycles in each phase */
    uint64_t packets_created;   /* all phases */
    uint64_t packets_offered_lost; /* not generated because a source queue was full */
    uint64_t packets;           /* measured packets delivered */
    uint64_t flits;             /* flits of measured packets delivered */
    uint64_t window_flits_offered; /* flits generated during the window (refused ones too) */
    uint64_t window_flits_in;   /* flits injected during the window */
    uint64_t window_flits_out;  /* flits delivered during the window */
    uint64_t flit_hops;         /* flit-link traversals in the window (network links; summed from the
                                   links' counters when the run ends) */
    noc_lat_sum_t latency;      /* creation to tail delivery */
    noc_lat_sum_t net_latency;  /* head injection to tail delivery */
    noc_lat_sum_t flit_latency; /* synthetic traffic: each flit of a measured packet, from its injection to its
                                   arrival (BookSim2's flit latency) */
    noc_lat_sum_t queue_latency;/* creation to head injection */
    noc_lat_sum_t hops;
    uint32_t *lat_hist;         /* NOC_LAT_HIST + 1 bins (the last: longer) */
    uint64_t measured_outstanding;
    uint32_t source_queue_peak;
    int saturated;              /* the run shows the network past saturation */
    int window_filling;         /* undetermined: fewer flits arrived than were offered in the window,
                                   but the source queues did not grow and every measured packet
                                   arrived: the window closed with flits on their way (a window
                                   short beside the network's latency, or no warm-up); not counted
                                   as saturated */
    int64_t queue_growth;       /* noctua's window: flits in the source queues at its end minus at
                                   its start */
    int drained;                /* every measured packet arrived */
    int deadlock;               /* the network stopped moving with flits in it */
    /* sampling (model/sample.h): how the run ended its measurement */
    int stopped;                /* NOC_STOP_*; NOC_STOP_NONE: one window (max_samples = 0), not stopped early */
    uint32_t periods;           /* max_samples >= 1: sample periods run, warm-up included */
    uint32_t warmup_periods;    /* of which warming up */
    uint32_t batches;           /* sim_type = batch: batches run to their end */
    uint64_t batch_min, batch_max, batch_sum; /* their durations in cycles */
    uint64_t stopped_at;        /* NOC_STOP_UNSTABLE: the cycle */
} noc_stats_t;

/* classes > 1: one traffic class's share of the figures above (BookSim2
 * reports and tests every class apart). */
typedef struct noc_class_stats {
    uint64_t packets, flits;    /* measured packets delivered, their flits */
    uint64_t window_flits_offered, window_flits_in, window_flits_out;
    noc_lat_sum_t latency, net_latency, flit_latency, hops;
    uint64_t warm_flits_out, warm_lat_n, warm_lat_sum; /* the sampled warm-up's (model/sample.c) */
} noc_class_stats_t;

/* How a run ended its measurement. */
enum {
    NOC_STOP_NONE,       /* noctua's one window, run to its end */
    NOC_STOP_CONVERGED,  /* BookSim2's stopping test held 3 periods running */
    NOC_STOP_MAX_SAMPLES,/* max_samples periods without that */
    NOC_STOP_WARMUP,     /* max_samples periods without warming up (BookSim2: unstable) */
    NOC_STOP_UNSTABLE    /* the average latency passed latency_thres */
};
/* "none", "converged", "max_samples", "warmup", "unstable". */
const char *noc_stop_name(int stopped);

/* Add sample v (inline: four of them for every packet delivered). */
static inline void noc_lat_add(noc_lat_sum_t *s, uint64_t v)
{
    if (s->n == 0 || v < s->min)
        s->min = v;
    if (v > s->max)
        s->max = v;
    s->n++;
    s->sum += v;
}
double noc_lat_avg(const noc_lat_sum_t *s);

/* Per-node figures (node_stats = 1): flits injected at and delivered to the
 * node in the window, and the latencies of the measured packets it sent and
 * received, with a histogram each for their percentiles: latencies below 64
 * in bins of one cycle, longer ones in 16 bins per power of two (a bin's
 * width is at most 1/16 of its lower edge) up to 2^32; the last bin also
 * holds everything longer. */
#define NOC_NODE_LAT_BINS 480
typedef struct noc_node_stats {
    uint64_t flits_in, flits_out;
    noc_lat_sum_t lat_src, lat_dst;
    uint32_t hist_src[NOC_NODE_LAT_BINS], hist_dst[NOC_NODE_LAT_BINS];
} noc_node_stats_t;

/* The bin of latency v in a node histogram, and the largest value bin b
 * holds. */
static inline int noc_node_lat_bin(uint64_t v)
{
    if (v < 64)
        return (int)v;
    int e = 63 - __builtin_clzll(v);
    if (e > 31)
        return NOC_NODE_LAT_BINS - 1;
    return 64 + (e - 6) * 16 + (int)((v >> (e - 4)) & 15);
}
uint64_t noc_node_lat_bin_top(int b);
/* Percentile q of a node's latencies: the exact value below 64 cycles,
 * otherwise the top of the bin holding the nearest rank, never above the
 * largest latency seen (l->max). 0 when l->n is 0. */
uint64_t noc_node_percentile(const uint32_t *hist, const noc_lat_sum_t *l, double q);

/* A measured packet from src to dst took latency lat: into both nodes'
 * figures (inline: once per measured packet, only with node_stats = 1). */
static inline void noc_node_lat_src(noc_node_stats_t *ns, int src, uint64_t lat)
{
    noc_lat_add(&ns[src].lat_src, lat);
    ns[src].hist_src[noc_node_lat_bin(lat)]++;
}
static inline void noc_node_lat_dst(noc_node_stats_t *ns, int dst, uint64_t lat)
{
    noc_lat_add(&ns[dst].lat_dst, lat);
    ns[dst].hist_dst[noc_node_lat_bin(lat)]++;
}
static inline void noc_node_lat_add(noc_node_stats_t *ns, int src, int dst, uint64_t lat)
{
    noc_node_lat_src(ns, src, lat);
    noc_node_lat_dst(ns, dst, lat);
}
/* Percentile q in [0,1] of the measured packet latencies (nearest rank). */
uint64_t noc_stats_percentile(const noc_stats_t *st, double q);

/* The measured packet latencies below NOC_LAT_HIST in at most max_bins
 * bins of equal width (1, 2 or 5 times a power of ten, the smallest that
 * fits), from the minimum rounded down to a multiple of the width up to the
 * maximum: bin i counts latencies in [*from + i * *width, *from + (i + 1) *
 * *width). counts has room for max_bins (>= 1). *above: packets with a
 * latency of NOC_LAT_HIST or more (not in the bins). Returns the number of
 * bins, 0 when nothing was measured. */
int noc_stats_histogram(const noc_stats_t *st, int max_bins, uint64_t *from, uint64_t *width, uint64_t *counts,
                        uint64_t *above);

#ifdef __cplusplus
}
#endif
#endif
