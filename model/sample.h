/* sample.h: BookSim2's sample periods as a pure state machine (the tests of
 * TrafficManager::_SingleSim, read in docs/booksim.md, Sampling), and the
 * in-flight figure of its latency_thres test. model/sample.c runs the
 * synthetic run (noc_sim_run) with it. */
#ifndef NOC_SAMPLE_H
#define NOC_SAMPLE_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

enum { NOC_SAMPLING_WARMUP, NOC_SAMPLING_RUNNING, NOC_SAMPLING_DONE };
#define NOC_SAMPLER_CLASSES 8 /* traffic classes tested apart (classes <= 8) */

/* The settings (set by the caller) and the state of the loop. */
typedef struct noc_sampler {
    int warmup_periods;   /* 0: warm up until the warm-up test holds */
    int max_samples;      /* periods in all, warm-up included (>= 1) */
    double warmup_thres, acc_warmup_thres, stopping_thres, acc_stopping_thres; /* < 0: not tested */
    double latency_thres; /* < 0: not tested */
    int throughput;       /* sim_type = throughput: no latency tests, no latency_thres */
    int state;            /* NOC_SAMPLING_* */
    int periods;          /* periods run */
    int warmed_at;        /* periods run when warm-up ended */
    int converged;        /* measured periods running whose changes were within the thresholds */
    int clear_next;       /* the next period starts the measurement */
    double prev_latency[NOC_SAMPLER_CLASSES], prev_accepted[NOC_SAMPLER_CLASSES]; /* per class */
    double latency_change, accepted_change; /* of the last period, class 0's */
    int stop;             /* NOC_STOP_* once state is NOC_SAMPLING_DONE */
} noc_sampler_t;

/* Start the loop (the settings already set). */
void noc_sampler_start(noc_sampler_t *sm);
/* Run another period? */
int noc_sampler_more(const noc_sampler_t *sm);
/* Before a period: are the statistics to be cleared first? During warm-up
 * every other period, from the first (BookSim2 averages warm-up figures
 * over two periods); after warm-up once, starting the measurement (then
 * sm->state is NOC_SAMPLING_RUNNING). */
int noc_sampler_clear(noc_sampler_t *sm);
/* After a period: latency, the average packet latency since the last clear
 * (NaN with no packet: BookSim2's Stats::Average, a change then fails no
 * test); accepted, the flits accepted per node per cycle since the last
 * clear; thres_latency, the average of latency_thres's test (delivered
 * packets and flits in flight). Runs BookSim2's tests, moves the state on,
 * and once no period follows sets sm->stop and NOC_SAMPLING_DONE. */
void noc_sampler_period(noc_sampler_t *sm, double latency, double accepted, double thres_latency);
/* The same with traffic classes (1 .. NOC_SAMPLER_CLASSES), each class's
 * three figures (its own packets and flits) tested apart as BookSim2's
 * _SingleSim does: unstable when a class passes latency_thres, a change
 * test fails when any class's does. */
void noc_sampler_period_classes(noc_sampler_t *sm, int classes, const double *latency, const double *accepted,
                                const double *thres_latency);
/* BookSim2's change: |cur - prev| / cur. */
double noc_sampler_change(double cur, double prev);

#ifdef __cplusplus
}
#endif
#endif
