/* test_stats.c: the run statistics (model/stats.h, kept by model/ni.c and
 * the routers) on hand-worked cases of the vc router at its defaults
 * (R = VA = SA = ST = 1, links and local channels of 1 cycle), where every
 * figure follows from the pipeline of docs/router.md:
 *   - a packet's latency is its queueing (creation to head injection) plus
 *     its network latency (head injection to tail delivery), with a source
 *     queue built up on purpose;
 *   - the latency histogram and its percentiles (nearest rank);
 *   - the measurement window: packets created outside it are not measured,
 *     and the window's flit counters count what happened inside it;
 *   - link counters: flits, busy cycles, cycles with competing requests.
 * (Credit stalls and peak queues have their formulas in
 * testbench/unit/routers/test_vc.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "testbench/unit/script_traffic.h"

/* Zero-load latency at the defaults (docs/router.md): 5H + 6 + (P − 1). */
static uint64_t t0(int H, int P)
{
    return (uint64_t)(5 * H + 6 + (P - 1));
}

/* Node 0 of mesh:4 makes K = 6 packets of P = 4 flits for node 3 (H = 3),
 * one a cycle from cycle 10. Its NI injects one flit a cycle, so packet k
 * (created in cycle 10 + k) has its head injected when the k packets
 * before it have left, in cycle 10 + kP: it queued k(P − 1) cycles. Each
 * packet follows the one before P cycles behind on the same path (on the
 * other VC), so none waits for another in the network: every network
 * latency is t0(3, 4) = 24, and latency k = 24 + 3k.
 * The source queue: when packet k is made (before the NI's turn in that
 * cycle) the NI has started the packets j with 10 + jP < 10 + k, so it
 * holds k + 1 − (⌊(k − 1)/P⌋ + 1); the most, for k = K − 1 = 5: 4. */
#define K 6
#define P 4
static noc_sim_t *queued_run(noc_topo_t **t)
{
    static script_t sc;
    memset(&sc, 0, sizeof sc);
    for (int k = 0; k < K; k++)
        script_add(&sc, (uint64_t)(10 + k), 0, 3, P);
    const char *kv[] = { "sample_cycles=100", "check=1", NULL };
    noc_sim_t *s = script_sim(t, "mesh:4", 0, &sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    return s;
}

static void test_latency_is_network_plus_queueing(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = queued_run(&t);
    const noc_stats_t *st = noc_sim_stats(s);
    uint64_t net = t0(3, P), qsum = 0, lsum = 0;
    for (int k = 0; k < K; k++) {
        qsum += (uint64_t)(k * (P - 1));
        lsum += net + (uint64_t)(k * (P - 1));
    }
    assert_int_equal(st->packets, K);
    assert_int_equal(st->flits, K * P);
    assert_int_equal(st->net_latency.n, K);
    assert_int_equal(st->net_latency.min, net);
    assert_int_equal(st->net_latency.max, net);
    assert_int_equal(st->net_latency.sum, K * net);
    assert_int_equal(st->queue_latency.min, 0);
    assert_int_equal(st->queue_latency.max, (K - 1) * (P - 1));
    assert_int_equal(st->queue_latency.sum, qsum);
    assert_int_equal(st->latency.min, net);
    assert_int_equal(st->latency.max, net + (K - 1) * (P - 1));
    assert_int_equal(st->latency.sum, lsum);
    /* latency = network + queueing, packet by packet, so in the sums too */
    assert_int_equal(st->latency.sum, st->net_latency.sum + st->queue_latency.sum);
    /* flit latency: each flit left a cycle after the one before it and
     * arrives a cycle after it, so every flit takes the head's t0(3, 1) */
    assert_int_equal(st->flit_latency.n, K * P);
    assert_int_equal(st->flit_latency.min, t0(3, 1));
    assert_int_equal(st->flit_latency.max, t0(3, 1));
    assert_int_equal(st->flit_latency.sum, K * P * t0(3, 1));
    assert_int_equal(st->hops.sum, K * 3);
    assert_int_equal(st->source_queue_peak, (K - 1) - (K - 2) / P);
    assert_int_equal(st->packets_created, K);
    assert_int_equal(st->packets_offered_lost, 0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* The same run's histogram: one packet at each of 24, 27, ..., 39 cycles.
 * Percentile q is the value of rank ⌈qK⌉ (at least 1) in increasing order. */
static void test_histogram_percentiles(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = queued_run(&t);
    const noc_stats_t *st = noc_sim_stats(s);
    uint64_t net = t0(3, P), total = 0;
    for (uint32_t i = 0; i <= NOC_LAT_HIST; i++) {
        uint32_t want = 0;
        if (i >= net && (i - net) % (P - 1) == 0 && (i - net) / (P - 1) < K)
            want = 1;
        if (st->lat_hist[i] != want)
            fail_msg("latency histogram bin %u holds %u, want %u", i, st->lat_hist[i], want);
        total += st->lat_hist[i];
    }
    assert_int_equal(total, K);
    static const struct { double q; int rank; } pq[] = {
        { 0.0, 1 }, { 0.1, 1 }, { 0.17, 2 }, { 0.5, 3 }, { 0.51, 4 }, { 0.8, 5 }, { 0.9, 6 }, { 1.0, 6 },
    };
    for (size_t i = 0; i < sizeof pq / sizeof pq[0]; i++)
        assert_int_equal(noc_stats_percentile(st, pq[i].q), net + (uint64_t)((pq[i].rank - 1) * (P - 1)));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}
#undef K
#undef P

/* The binned histogram of the reports, worked by hand: latencies 3, 3, 4,
 * 10, 27 and one past the exact bins. With room for 50 bins the width is 1
 * from 3 (25 bins: 3..27); with 10, widths 1 (25 bins) and 2 (from 2: 13)
 * do not fit, 5 does: from 0, six bins [0,5) .. [25,30) holding 3, 0, 1,
 * 0, 0, 1. The long one is counted apart. */
static void test_histogram_bins(void **state)
{
    (void)state;
    noc_stats_t st;
    memset(&st, 0, sizeof st);
    uint64_t from, width, above, counts[64];
    assert_int_equal(noc_stats_histogram(&st, 10, &from, &width, counts, &above), 0); /* nothing measured */
    st.lat_hist = calloc(NOC_LAT_HIST + 1, sizeof(uint32_t));
    assert_non_null(st.lat_hist);
    uint64_t v[] = { 3, 10, 3, 27, NOC_LAT_HIST + 5, 4 };
    for (int i = 0; i < 6; i++) {
        noc_lat_add(&st.latency, v[i]);
        st.lat_hist[v[i] < NOC_LAT_HIST ? v[i] : NOC_LAT_HIST]++;
    }
    int n = noc_stats_histogram(&st, 50, &from, &width, counts, &above);
    assert_int_equal(n, 25);
    assert_int_equal(from, 3);
    assert_int_equal(width, 1);
    assert_int_equal(above, 1);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 1);
    assert_int_equal(counts[7], 1);
    assert_int_equal(counts[24], 1);
    n = noc_stats_histogram(&st, 10, &from, &width, counts, &above);
    assert_int_equal(n, 6);
    assert_int_equal(from, 0);
    assert_int_equal(width, 5);
    const uint64_t want[] = { 3, 0, 1, 0, 0, 1 };
    for (int i = 0; i < 6; i++)
        assert_int_equal(counts[i], want[i]);
    /* one bin: everything from 0 in a width of 50 */
    n = noc_stats_histogram(&st, 1, &from, &width, counts, &above);
    assert_int_equal(n, 1);
    assert_int_equal(width, 50);
    assert_int_equal(counts[0], 5);
    free(st.lat_hist);
}

/* The per-node histogram's bins: exact below 64, then 16 a power of two
 * (64..127 in steps of 4, 128..255 in steps of 8, ...); a node's p99 is
 * the top of its bin, never above the largest latency seen. */
static void test_node_histogram(void **state)
{
    (void)state;
    assert_int_equal(noc_node_lat_bin(0), 0);
    assert_int_equal(noc_node_lat_bin(63), 63);
    assert_int_equal(noc_node_lat_bin(64), 64);
    assert_int_equal(noc_node_lat_bin(67), 64);
    assert_int_equal(noc_node_lat_bin(68), 65);
    assert_int_equal(noc_node_lat_bin(127), 79);
    assert_int_equal(noc_node_lat_bin(128), 80);
    assert_int_equal(noc_node_lat_bin(135), 80);
    assert_int_equal(noc_node_lat_bin(136), 81);
    assert_int_equal(noc_node_lat_bin(UINT64_C(1) << 32), NOC_NODE_LAT_BINS - 1);
    assert_int_equal(noc_node_lat_bin((UINT64_C(1) << 32) - 1), NOC_NODE_LAT_BINS - 1);
    assert_int_equal(noc_node_lat_bin(UINT64_C(1) << 31), 64 + 25 * 16);
    assert_int_equal(noc_node_lat_bin_top(63), 63);
    assert_int_equal(noc_node_lat_bin_top(64), 67);
    assert_int_equal(noc_node_lat_bin_top(79), 127);
    assert_int_equal(noc_node_lat_bin_top(80), 135);
    /* every value lies in [lower, top] of its bin, and bins are contiguous */
    for (uint64_t v = 0; v < 5000; v++) {
        int b = noc_node_lat_bin(v);
        assert_true(v <= noc_node_lat_bin_top(b));
        assert_true(b == 0 || v > noc_node_lat_bin_top(b - 1));
    }
    /* node 0 sends to node 1: latencies 10 x 100 (rank 1..100 of 100) */
    noc_node_stats_t *ns = calloc(2, sizeof *ns);
    assert_non_null(ns);
    for (int i = 1; i <= 100; i++)
        noc_node_lat_add(ns, 0, 1, (uint64_t)(i < 100 ? 10 : 70));
    assert_int_equal(ns[0].lat_src.n, 100);
    assert_int_equal(ns[1].lat_dst.n, 100);
    assert_int_equal(ns[0].lat_dst.n, 0);
    assert_int_equal(noc_node_percentile(ns[0].hist_src, &ns[0].lat_src, 0.99), 10); /* rank 99: exact */
    assert_int_equal(noc_node_percentile(ns[1].hist_dst, &ns[1].lat_dst, 1.0), 70);  /* bin 64..71: capped at max 70 */
    assert_int_equal(noc_node_percentile(ns[1].hist_src, &ns[1].lat_src, 0.99), 0);  /* nothing sent */
    free(ns);
}

/* Percentiles on a histogram made by hand: samples 5, 7, 7 and one past the
 * last exact bin (counted in the overflow bin, its value only in max). */
static void test_percentile_overflow(void **state)
{
    (void)state;
    noc_stats_t st;
    memset(&st, 0, sizeof st);
    assert_int_equal(noc_stats_percentile(&st, 0.5), 0); /* no samples */
    st.lat_hist = calloc(NOC_LAT_HIST + 1, sizeof(uint32_t));
    assert_non_null(st.lat_hist);
    uint64_t v[] = { 7, 5, NOC_LAT_HIST + 1000, 7 };
    for (int i = 0; i < 4; i++) {
        noc_lat_add(&st.latency, v[i]);
        st.lat_hist[v[i] < NOC_LAT_HIST ? v[i] : NOC_LAT_HIST]++;
    }
    assert_int_equal(st.latency.min, 5);
    assert_int_equal(st.latency.max, NOC_LAT_HIST + 1000);
    assert_int_equal(st.latency.sum, 19 + NOC_LAT_HIST + 1000);
    assert_true(noc_lat_avg(&st.latency) == (19.0 + NOC_LAT_HIST + 1000.0) / 4.0);
    assert_int_equal(noc_stats_percentile(&st, 0.25), 5);  /* rank 1 */
    assert_int_equal(noc_stats_percentile(&st, 0.26), 7);  /* rank 2 */
    assert_int_equal(noc_stats_percentile(&st, 0.75), 7);  /* rank 3 */
    assert_int_equal(noc_stats_percentile(&st, 0.76), NOC_LAT_HIST + 1000); /* rank 4: the max */
    free(st.lat_hist);
}

/* The window: warm-up 50 cycles, window [50, 150). Node 0 of mesh:3 sends
 * to node 2 (H = 2, latency t0(2, P) = 16 + P − 1) packets A (cycle 45, 1
 * flit), B (50, 2 flits), C (148, 3 flits), D (150, 4 flits). Flit j of a
 * packet made in cycle t is injected in cycle t + j, crosses router 0 in
 * t + 3 + j, router 1 (R+VA+SA+ST+L later) in t + 8 + j, router 2 in
 * t + 13 + j, and is delivered in t + 16 + j. So:
 *   measured (created in the window): B and C, 5 flits, latencies 17 + 18;
 *   flits offered in the window: B's 2 + C's 3 = 5;
 *   flits injected in it: B's 2, C's first 2 (148, 149) = 4;
 *   flits delivered in it: A's (61) and B's (66, 67) = 3;
 *   flit-hops in it: A at router 1 (53), B at routers 0 and 1 (53, 54, 58,
 *   59) = 5; link 0->1 carried 2 of them, link 1->2 3, and node 2's
 *   ejection port took 3 (A at 58, B at 63, 64).
 * Each flit sits in each router's input buffer for the 2 cycles [a, a+2)
 * before it crosses (arriving in t + 1 + j, t + 6 + j, t + 11 + j): the
 * window holds, in flit-cycles, router 0: B 4, C's first flit 1 (149) = 5;
 * router 1: A 2, B 4 = 6; router 2: A 2, B 4 = 6; and in cycles of an input
 * VC holding flits (B's two flits share one: [51, 54) at router 0), router
 * 0: B 3, C 1 = 4; router 1: A 2, B 3 = 5; router 2: 5. Divided by the 100
 * cycles of the window: the routers' average occupancies (node_stats=1). */
static void test_window(void **state)
{
    (void)state;
    script_t sc = { 0 };
    script_add(&sc, 45, 0, 2, 1);
    script_add(&sc, 50, 0, 2, 2);
    script_add(&sc, 148, 0, 2, 3);
    script_add(&sc, 150, 0, 2, 4);
    const char *kv[] = { "warmup_cycles=50", "sample_cycles=100", "check=1", "node_stats=1", NULL };
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(s);
    assert_int_equal(st->warmup, 50);
    assert_int_equal(st->sample, 100);
    assert_int_equal(st->packets_created, 4);
    assert_int_equal(st->packets, 2);
    assert_int_equal(st->flits, 5);
    assert_int_equal(st->latency.n, 2);
    assert_int_equal(st->latency.sum, t0(2, 2) + t0(2, 3));
    assert_int_equal(st->latency.min, t0(2, 2));
    assert_int_equal(st->hops.sum, 4);
    assert_int_equal(st->window_flits_offered, 5);
    assert_int_equal(st->window_flits_in, 4);
    assert_int_equal(st->window_flits_out, 3);
    assert_int_equal(st->flit_hops, 5);
    assert_int_equal(st->measured_outstanding, 0);
    assert_true(st->drained);
    assert_int_equal(noc_sim_link_stats(s, script_link(s, 0, 1))->flits, 2);
    assert_int_equal(noc_sim_link_stats(s, script_link(s, 1, 2))->flits, 3);
    assert_int_equal(noc_sim_link_stats(s, script_ejection(s, 2))->flits, 3);
    /* nothing went the other way */
    assert_int_equal(noc_sim_link_stats(s, script_link(s, 1, 0))->flits, 0);
    assert_int_equal(noc_sim_link_stats(s, script_link(s, 2, 1))->flits, 0);
    const double flits[3] = { 0.05, 0.06, 0.06 }, vcs[3] = { 0.04, 0.05, 0.05 };
    for (int n = 0; n < 3; n++) {
        double f, v;
        assert_int_equal(noc_sim_router_load_avg(s, n, &f, &v), 0);
        assert_true(f > flits[n] - 1e-12 && f < flits[n] + 1e-12);
        assert_true(v > vcs[n] - 1e-12 && v < vcs[n] + 1e-12);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* Link counters on a hand-made conflict (mesh:4, 4-flit packets): A from
 * node 0 to node 2 made in cycle 10, B from node 1 to node 2 in cycle 14.
 * A's head reaches router 1 in cycle 16 (10 + 1 + R+VA + SA+ST+L), bids for
 * a VC in 17 (R = 1), for the switch from 18 (VA = 1); B's reaches router
 * 1 in 15 and bids for the switch from 17, alone: it crosses (the output
 * arbiter's pointer moves past B's port, the local port 0). From 18 both
 * want the link to node 2, one flit a cycle: A wins 18 (first after the
 * pointer), B 19, A 20, B 21, A 22, B 23 (B's last), A 24 alone. So the
 * link has 2P − 2 = 6 cycles with competing requests, carries 8 flits in
 * 8 busy cycles; the link 0->1 carried A's 4 without competition; deep
 * buffers (8 flits) mean no credit stall anywhere.
 * Router 2 takes both packets on one input port, B on output VC 0 of
 * router 1 and A on VC 1 (B bid first), and they share its ejection port
 * through that input port's VC arbiter: B's flits arrive in 20, 22, 24, 26,
 * A's in 21, 23, 25, 27; B's head crosses in 22 (R+VA after it arrived),
 * A's head, on the other VC, is next (23), then B 24, A 25, B 26, A 27,
 * B's tail 28, A's tail 29 alone. Delivered SA+ST+Lloc = 3 cycles later:
 * B's tail in 31, latency 17 = t0(1, P) + 3; A's in 32, latency 22 =
 * t0(2, P) + 3. */
static void test_link_counters(void **state)
{
    (void)state;
    const int P = 4;
    script_t sc = { 0 };
    script_add(&sc, 10, 0, 2, P);
    script_add(&sc, 14, 1, 2, P);
    const char *kv[] = { "sample_cycles=100", "check=1", NULL };
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:4", 0, &sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_link_stats_t *l01 = noc_sim_link_stats(s, script_link(s, 0, 1));
    const noc_link_stats_t *l12 = noc_sim_link_stats(s, script_link(s, 1, 2));
    assert_int_equal(l12->contention, 2 * P - 2);
    assert_int_equal(l12->flits, 2 * P);
    assert_int_equal(l12->busy, 2 * P);
    assert_int_equal(l01->contention, 0);
    assert_int_equal(l01->flits, P);
    assert_int_equal(l01->busy, P);
    assert_int_equal(noc_sim_link_stats(s, script_ejection(s, 2))->flits, 2 * P);
    uint64_t flits = 0;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        const noc_link_stats_t *l = noc_sim_link_stats(s, c);
        assert_int_equal(l->credit_stall, 0);
        if (c != script_link(s, 1, 2))
            assert_int_equal(l->contention, 0);
        flits += l->flits;
    }
    assert_int_equal(flits, 3 * P + 2 * P + 2 * P); /* 3 links, 2 ejections, 2 injections */
    /* the injection channels (after the routers' ports): P flits from nodes 0 and 1 */
    for (int c = noc_sim_graph(s)->n_ports; c < noc_sim_n_channels(s); c++) {
        int from, local;
        noc_sim_channel_ends(s, c, &from, NULL, &local, NULL);
        assert_true(local);
        assert_int_equal(noc_sim_link_stats(s, c)->flits, from <= 1 ? P : 0);
        assert_int_equal(noc_sim_link_stats(s, c)->busy, from <= 1 ? P : 0);
    }
    const noc_stats_t *st = noc_sim_stats(s);
    assert_int_equal(st->packets, 2);
    assert_int_equal(st->latency.min, t0(1, P) + 3);
    assert_int_equal(st->latency.max, t0(2, P) + 3);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_is_network_plus_queueing),
        cmocka_unit_test(test_histogram_percentiles),
        cmocka_unit_test(test_percentile_overflow),
        cmocka_unit_test(test_histogram_bins),
        cmocka_unit_test(test_node_histogram),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_link_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
