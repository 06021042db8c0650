/* test_sample.c: BookSim2's sample periods (model/sample.h, docs/booksim.md,
 * Sampling). The state machine on hand-made sequences of period averages:
 * the change |cur - prev| / cur, the first period against 0, the
 * threshold compared with > (a change equal to it converges), warm-up by
 * count and by test, three converged periods to stop, max_samples counting
 * warm-up periods, NaN (no packet) failing no test, latency_thres. Then
 * whole runs: periods and window lengths that follow from the settings,
 * and a saturated hotspot that must stop as unstable, in a range that
 * follows from its queueing; measure_queued, BookSim2's measured packets. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/sample.h"
#include "model/sim_internal.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"

/* BookSim2's defaults: 0.05 everywhere, latency_thres 500. */
static noc_sampler_t sampler(int warmup_periods, int max_samples)
{
    noc_sampler_t sm = {.warmup_periods = warmup_periods, .max_samples = max_samples, .warmup_thres = 0.05,
                        .acc_warmup_thres = 0.05, .stopping_thres = 0.05, .acc_stopping_thres = 0.05,
                        .latency_thres = 500.0};
    noc_sampler_start(&sm);
    return sm;
}

static void test_change(void **state)
{
    (void)state;
    assert_true(fabs(noc_sampler_change(10.5, 10.0) - 0.5 / 10.5) < 1e-15);
    assert_true(fabs(noc_sampler_change(10.0, 10.5) - 0.05) < 1e-15);
    assert_true(noc_sampler_change(7.0, 0.0) == 1.0); /* the first period: against 0 */
    assert_true(isnan(noc_sampler_change(NAN, 3.0)));
}

/* warmup_periods = 3: periods 0-2 warm up whatever their figures (the
 * statistics cleared before periods 0 and 2), the measurement starts with
 * period 3 (cleared again); latency 20 and 0.1 accepted from then, against
 * the last warm-up period's 19 and 0.1: |20 - 19| / 20 = 0.05 is not above
 * 0.05, so periods 3, 4, 5 converge and the run stops after 6. */
static void test_fixed_warmup_then_converged(void **state)
{
    (void)state;
    noc_sampler_t sm = sampler(3, 10);
    const double warm[3] = {5.0, 50.0, 19.0};
    int clears = 0;
    for (int p = 0; p < 3; p++) {
        assert_true(noc_sampler_more(&sm));
        clears |= noc_sampler_clear(&sm) << p;
        assert_int_equal(sm.state, NOC_SAMPLING_WARMUP);
        noc_sampler_period(&sm, warm[p], 0.1, warm[p]);
    }
    assert_int_equal(clears, 1 | 4);
    assert_int_equal(sm.state, NOC_SAMPLING_RUNNING);
    assert_int_equal(sm.warmed_at, 3);
    for (int p = 3; p < 6; p++) {
        assert_true(noc_sampler_more(&sm));
        assert_int_equal(noc_sampler_clear(&sm), p == 3);
        noc_sampler_period(&sm, 20.0, 0.1, 20.0);
        assert_int_equal(sm.converged, p - 2 < 3 ? p - 2 : sm.converged);
    }
    assert_false(noc_sampler_more(&sm));
    assert_int_equal(sm.state, NOC_SAMPLING_DONE);
    assert_int_equal(sm.stop, NOC_STOP_CONVERGED);
    assert_int_equal(sm.periods, 6);
}

/* A period whose change is above a threshold starts the count again: 3
 * converged periods must follow one another. Latencies 20, 20, 30 (0.33),
 * 30, 30, 30 after warm-up at 20: converged 1, 2, 0, 1, 2, 3. */
static void test_converged_must_run(void **state)
{
    (void)state;
    noc_sampler_t sm = sampler(1, 100);
    noc_sampler_clear(&sm);
    noc_sampler_period(&sm, 20.0, 0.2, 20.0);
    const double lat[6] = {20, 20, 30, 30, 30, 30};
    const int conv[6] = {1, 2, 0, 1, 2, 3};
    for (int i = 0; i < 6; i++) {
        assert_true(noc_sampler_more(&sm));
        noc_sampler_clear(&sm);
        noc_sampler_period(&sm, lat[i], 0.2, lat[i]);
        assert_int_equal(sm.converged, conv[i]);
    }
    assert_int_equal(sm.stop, NOC_STOP_CONVERGED);
    assert_int_equal(sm.periods, 7);
    /* the accepted rate alone also breaks it: 0.2 -> 0.22 is 0.09 */
    sm = sampler(1, 100);
    noc_sampler_period(&sm, 20.0, 0.2, 20.0);
    noc_sampler_period(&sm, 20.0, 0.22, 20.0);
    assert_int_equal(sm.converged, 0);
}

/* max_samples counts warm-up periods: max_samples = 4 with one warm-up
 * period measures exactly 3, which never converge here (latency 10, 20,
 * 10, ... changes by 0.5 or 1); the run ends on max_samples. With 5
 * warm-up periods it never measures: BookSim2's "too many sample periods"
 * (unstable). (With 4 it warms up in the last period and measures
 * nothing, which BookSim2 counts a success.) */
static void test_max_samples(void **state)
{
    (void)state;
    noc_sampler_t sm = sampler(1, 4);
    int n = 0;
    while (noc_sampler_more(&sm)) {
        noc_sampler_clear(&sm);
        noc_sampler_period(&sm, n % 2 ? 20.0 : 10.0, 0.1, 20.0);
        n++;
    }
    assert_int_equal(n, 4);
    assert_int_equal(sm.warmed_at, 1);
    assert_int_equal(sm.stop, NOC_STOP_MAX_SAMPLES);
    sm = sampler(5, 4);
    for (n = 0; noc_sampler_more(&sm); n++)
        noc_sampler_period(&sm, 10.0, 0.1, 10.0);
    assert_int_equal(n, 4);
    assert_int_equal(sm.stop, NOC_STOP_WARMUP);
    sm = sampler(4, 4);
    for (n = 0; noc_sampler_more(&sm); n++)
        noc_sampler_period(&sm, 10.0, 0.1, 10.0);
    assert_int_equal(n, 4);
    assert_int_equal(sm.stop, NOC_STOP_MAX_SAMPLES);
}

/* warmup_periods = 0: warm-up ends after the first period whose changes
 * are within warmup_thres and acc_warmup_thres. 10 (against 0: 1), 20
 * (0.5), 21 (1/21 = 0.048): warmed after 3 periods. NaN (a period without
 * a delivered packet) fails no test. */
static void test_warmup_by_test(void **state)
{
    (void)state;
    noc_sampler_t sm = sampler(0, 10);
    noc_sampler_period(&sm, 10.0, 0.1, 10.0);
    noc_sampler_period(&sm, 20.0, 0.1, 20.0);
    assert_int_equal(sm.state, NOC_SAMPLING_WARMUP);
    noc_sampler_period(&sm, 21.0, 0.1, 21.0);
    assert_int_equal(sm.state, NOC_SAMPLING_RUNNING);
    assert_int_equal(sm.warmed_at, 3);
    sm = sampler(0, 10);
    noc_sampler_period(&sm, NAN, NAN, NAN);
    assert_int_equal(sm.state, NOC_SAMPLING_RUNNING);
}

/* latency_thres: the test's own average (thres_latency), not the period's
 * latency, and only above it: 500 stays, 500.5 stops as unstable, in
 * warm-up as when measuring; < 0 turns it off. */
static void test_latency_thres(void **state)
{
    (void)state;
    noc_sampler_t sm = sampler(3, 10);
    noc_sampler_period(&sm, 10.0, 0.1, 500.0);
    assert_int_equal(sm.state, NOC_SAMPLING_WARMUP);
    noc_sampler_period(&sm, 10.0, 0.1, 500.5);
    assert_int_equal(sm.state, NOC_SAMPLING_DONE);
    assert_int_equal(sm.stop, NOC_STOP_UNSTABLE);
    assert_int_equal(sm.periods, 2);
    sm = sampler(3, 10);
    sm.latency_thres = -1.0;
    noc_sampler_period(&sm, 10.0, 0.1, 1e12);
    assert_int_equal(sm.state, NOC_SAMPLING_WARMUP);
}

/* sim_type = throughput: the latency neither breaks convergence nor stops
 * the run (BookSim2's _measure_latency = 0); the accepted rate still
 * does. */
static void test_throughput_tests(void **state)
{
    (void)state;
    noc_sampler_t sm = sampler(1, 10);
    sm.throughput = 1;
    noc_sampler_period(&sm, 10.0, 0.2, 1e9);
    assert_int_equal(sm.state, NOC_SAMPLING_RUNNING);
    noc_sampler_period(&sm, 40.0, 0.2, 1e9);
    assert_int_equal(sm.converged, 1);
    noc_sampler_period(&sm, 90.0, 0.3, 1e9);
    assert_int_equal(sm.converged, 0);
}

/* ---- whole runs ---- */

typedef struct run {
    noc_topo_t *topo;
    noc_synthetic_t syn;
    noc_sim_t *sim;
} run_t;

static const noc_stats_t *run(run_t *r, const char *spec, const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    for (; *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(&cfg, name, eq + 1, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    r->topo = noc_topo_create(spec, 0, err, sizeof err);
    if (!r->topo || noc_synthetic_init(&r->syn, &cfg, r->topo, err, sizeof err) != 0)
        fail_msg("%s", err);
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), noc_synthetic_traffic(&r->syn), err, sizeof err);
    if (!r->sim)
        fail_msg("%s", err);
    assert_int_equal(noc_sim_run(r->sim), NOC_RUN_OK);
    return noc_sim_stats(r->sim);
}

static void drop(run_t *r)
{
    noc_sim_destroy(r->sim);
    noc_topo_destroy(r->topo);
}

/* The lengths follow from the settings: max_samples = 4 with one warm-up
 * period of 500 cycles and thresholds of 0 (a change converges only at
 * exactly 0) measures 3 periods, 1500 cycles; with the thresholds off
 * (< 0) every measured period converges, so the run stops after 3 of them
 * whatever max_samples allows; warmup_cycles = 700 rounds up to 2 periods. */
static void test_run_lengths(void **state)
{
    (void)state;
    run_t r;
    const char *a[] = {"injection_rate=0.2", "sample_cycles=500", "warmup_cycles=500", "max_samples=4",
                       "stopping_thres=0", "acc_stopping_thres=0", NULL};
    const noc_stats_t *st = run(&r, "mesh:4x4", a);
    assert_int_equal(st->periods, 4);
    assert_int_equal(st->warmup_periods, 1);
    assert_int_equal(st->warmup, 500);
    assert_int_equal(st->sample, 1500);
    assert_int_equal(st->stopped, NOC_STOP_MAX_SAMPLES);
    assert_false(st->saturated);
    drop(&r);
    const char *b[] = {"injection_rate=0.2", "sample_cycles=500", "warmup_cycles=700", "max_samples=50",
                       "stopping_thres=-1", "acc_stopping_thres=-1", NULL};
    st = run(&r, "mesh:4x4", b);
    assert_int_equal(st->periods, 5);
    assert_int_equal(st->warmup, 1000);
    assert_int_equal(st->sample, 1500);
    assert_int_equal(st->stopped, NOC_STOP_CONVERGED);
    assert_true(st->drained);
    drop(&r);
}

/* A window too short to tell: on mesh:32x32 a packet crosses about 21
 * hops at 5 cycles each, about 100 cycles, so of the packets offered in a
 * 20-cycle window with no warm-up only those to nodes at most 3 hops away
 * arrive within it: fewer than 95% of the offered flits, though a node
 * offering a packet per 100 cycles never queues more than one. That is
 * undetermined (window_filling), not saturated. At 0.9 flits/node/cycle
 * on mesh:8x8 (about 0.3 is what it carries) the queues grow by about
 * 0.6 x 64 x 200 = 7,680 flits in a 200-cycle window, far over 5% of the
 * 11,520 offered: saturated, however short the window. A default window
 * at 0.2 is neither. */
static void test_short_window(void **state)
{
    (void)state;
    run_t r;
    const char *a[] = {"injection_rate=0.01", "warmup_cycles=0", "sample_cycles=20", NULL};
    const noc_stats_t *st = run(&r, "mesh:32x32", a);
    print_message("mesh:32x32 at 0.01, 20 cycles: %llu of %llu flits in the window, queues grew %lld\n",
                  (unsigned long long)st->window_flits_out, (unsigned long long)st->window_flits_offered,
                  (long long)st->queue_growth);
    assert_true(st->window_flits_out * 100 < st->window_flits_offered * 95);
    assert_true(st->drained);
    assert_true(st->window_filling);
    assert_false(st->saturated);
    drop(&r);
    const char *b[] = {"injection_rate=0.9", "warmup_cycles=0", "sample_cycles=200", "source_queue=0", NULL};
    st = run(&r, "mesh:8x8", b);
    print_message("mesh:8x8 at 0.9, 200 cycles: queues grew %lld flits\n", (long long)st->queue_growth);
    assert_true(st->queue_growth * 20 > (int64_t)st->window_flits_offered);
    assert_true(st->saturated);
    assert_false(st->window_filling);
    drop(&r);
    const char *c[] = {"injection_rate=0.2", NULL};
    st = run(&r, "mesh:4x4", c);
    assert_false(st->saturated);
    assert_false(st->window_filling);
    drop(&r);
}

/* Every node of mesh:2x2 sends a 1-flit packet a cycle (injection_rate 1)
 * to node 0 (hotspot_rate 1; node 0's own are not made), which takes one
 * flit a cycle over its two network ports, round robin: node 2 gets 1/2 of
 * it, nodes 1 and 3 (sharing node 1's port) 1/4 each. A source served a
 * share x of cycles delivers at cycle t the packet it made at about x t
 * (its queue is unbounded), which took (1 - x) t >= t / 2. latency_thres =
 * 300 must stop the run as unstable at the end of a 100-cycle period:
 * not before cycle 300 (no packet or flit is older than the run), and by
 * the time the packets delivered since the measurement began (cycle W =
 * 100) average (W + T) / 4 > 300, T = 1100, or its period's end: in
 * (300, 1200]. The network is then emptied, no drain: at most the flits its
 * buffers hold (4 routers, 3 input ports, 2 VCs of 8: 192) at one a cycle
 * into node 0. noctua's own window (max_samples = 0) tests every 1000
 * cycles and stops at the first, 2000 after a warm-up of 1000, instead of
 * draining for max_drain_cycles (50000). */
static void test_unstable_stops(void **state)
{
    (void)state;
    run_t r;
    const char *a[] = {"injection_rate=1", "traffic=hotspot", "hotspot_rate=1", "source_queue=0",
                       "sample_cycles=100", "warmup_cycles=100", "max_samples=100", "latency_thres=300", NULL};
    const noc_stats_t *st = run(&r, "mesh:2x2", a);
    assert_int_equal(st->stopped, NOC_STOP_UNSTABLE);
    assert_true(st->saturated);
    assert_int_equal(st->stopped_at % 100, 0);
    assert_true(st->stopped_at > 300 && st->stopped_at <= 1200);
    assert_true(st->drain <= 192 + 8);
    drop(&r);
    const char *b[] = {"injection_rate=1", "traffic=hotspot", "hotspot_rate=1", "source_queue=0",
                       "latency_thres=300", NULL};
    st = run(&r, "mesh:2x2", b);
    assert_int_equal(st->stopped, NOC_STOP_UNSTABLE);
    assert_int_equal(st->stopped_at, 2000);
    assert_true(st->saturated);
    assert_true(st->cycles <= 2000 + 192 + 8);
    drop(&r);
}

/* measure_queued (BookSim2's measured packets): a packet made in the
 * window starts in it, so the packets measured are a superset of
 * measure_queued = 0's, on the same cycles (which packets count does not
 * change what the network does): the packets waiting when the window
 * opened are added, and still every one arrives (measured_outstanding back
 * to 0). Past saturation they carry the backlog's latency: the hotspot of
 * test_unstable_stops stops no later. */
static void test_measure_queued(void **state)
{
    (void)state;
    run_t r;
    const char *a[] = {"injection_rate=0.3", "packet_size=4", "sample_cycles=500", "warmup_cycles=500",
                       "max_samples=4", "measure_queued=0", NULL};
    const noc_stats_t *st = run(&r, "mesh:4x4", a);
    uint64_t packets0 = st->packets, cycles0 = st->cycles - st->drain;
    drop(&r);
    a[5] = "measure_queued=1";
    st = run(&r, "mesh:4x4", a);
    assert_true(st->packets > packets0);
    assert_int_equal(st->cycles - st->drain, cycles0);
    assert_true(st->drained);
    assert_int_equal(st->measured_outstanding, 0);
    drop(&r);
    const char *h[] = {"injection_rate=1", "traffic=hotspot", "hotspot_rate=1", "source_queue=0",
                       "sample_cycles=100", "warmup_cycles=100", "max_samples=100", "latency_thres=300",
                       "measure_queued=0", NULL};
    st = run(&r, "mesh:2x2", h);
    uint64_t at0 = st->stopped_at;
    drop(&r);
    h[8] = "measure_queued=1";
    st = run(&r, "mesh:2x2", h);
    assert_int_equal(st->stopped, NOC_STOP_UNSTABLE);
    assert_true(st->stopped_at <= at0);
    drop(&r);
}

/* sim_type = throughput on the saturated hotspot of test_unstable_stops:
 * latency_thres is not tested, and the periods converge on the accepted
 * rate: 1 flit a cycle into node 0, 0.25 per node, except in the first
 * (warm-up) period, which loses the cycles before the first flits reach
 * node 0 (more than 5% of 100), so the first measured period changes by
 * more than 0.05 and the next 3 converge: 5 periods, a window of 400. And
 * after the window there is no drain, only the network's own flits (at
 * most 192, one a cycle into node 0); the packets still waiting are not
 * measured, so every measured one arrived. */
static void test_throughput_run(void **state)
{
    (void)state;
    run_t r;
    const char *a[] = {"injection_rate=1", "traffic=hotspot", "hotspot_rate=1", "source_queue=0",
                       "sample_cycles=100", "warmup_cycles=100", "max_samples=100", "latency_thres=300",
                       "sim_type=throughput", NULL};
    const noc_stats_t *st = run(&r, "mesh:2x2", a);
    assert_int_equal(st->stopped, NOC_STOP_CONVERGED);
    assert_int_equal(st->periods, 5);
    assert_int_equal(st->sample, 400);
    assert_true(st->drain <= 192 + 8);
    assert_true(st->drained);
    assert_true(st->saturated); /* the window accepted a quarter of what was offered */
    drop(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_change),
        cmocka_unit_test(test_fixed_warmup_then_converged),
        cmocka_unit_test(test_converged_must_run),
        cmocka_unit_test(test_max_samples),
        cmocka_unit_test(test_warmup_by_test),
        cmocka_unit_test(test_latency_thres),
        cmocka_unit_test(test_run_lengths),
        cmocka_unit_test(test_short_window),
        cmocka_unit_test(test_unstable_stops),
        cmocka_unit_test(test_measure_queued),
        cmocka_unit_test(test_throughput_tests),
        cmocka_unit_test(test_throughput_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
