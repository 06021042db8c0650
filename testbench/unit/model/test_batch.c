/* test_batch.c: batch runs (sim_type = batch, model/batch.c), worked by
 * hand on ring:4 with neighbour traffic, where every flow has its channels
 * to itself: a node offers a packet a cycle and makes one whenever its NI
 * is empty, so a batch of B one-flit packets takes B + L1 cycles (L1: a
 * packet's latency alone); P-flit packets leave one every P cycles, each
 * timed from its offer (latency grows by P - 1 a packet); with at most one
 * unanswered, a packet every LP + 1 cycles; request/reply rounds of
 * L1 + 1 + LR + 1 cycles; two batches; a pattern's fixed points without
 * self_traffic; the limit held every cycle under load; BookSim2 files'
 * even coin; and the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/batch.h"
#include "model/sim_internal.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"
#include "testbench/unit/script_traffic.h"

/* The latency of a packet of `size` flits from node 0 to node `to` of
 * ring:4, alone, on router `router`. */
static uint64_t alone(int size, int to, const char *router)
{
    script_t sc = {0};
    script_add(&sc, 0, 0, to, size);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "ring:4", 0, &sc, (const char *const[]){router, NULL});
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(s);
    assert_int_equal(st->packets, 1);
    uint64_t lat = st->latency.sum;
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    return lat;
}

typedef struct {
    noc_topo_t *t;
    noc_synthetic_t syn;
    noc_sim_t *s;
} run_t;

/* A batch run of `spec` with parameters kv (NULL-terminated), made and
 * run to its end unless step_only. */
static void batch_run(run_t *r, const char *spec, const char *const *kv, int step_only)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, (const char *const[]){"sim_type=batch", NULL});
    script_config(&cfg, kv);
    r->t = noc_topo_create(spec, 0, err, sizeof err);
    if (!r->t || noc_synthetic_init(&r->syn, &cfg, r->t, err, sizeof err) != 0)
        fail_msg("%s", err);
    r->s = noc_sim_create(&cfg, noc_topo_graph(r->t), noc_synthetic_traffic(&r->syn), err, sizeof err);
    if (!r->s)
        fail_msg("%s", err);
    if (!step_only)
        assert_int_equal(noc_sim_run(r->s), NOC_RUN_OK);
}

static void run_free(run_t *r)
{
    noc_sim_destroy(r->s);
    noc_synthetic_free(&r->syn);
    noc_topo_destroy(r->t);
}

/* One-flit packets, no limit: packet k offered and sent at cycle k, each
 * L1 on its way; the batch ends when the last arrives. (The ideal router
 * streams a flit a cycle down a link; the vc router's allocators lose a
 * cycle now and then with a packet a cycle behind each other.) */
static void test_stream(void **state)
{
    (void)state;
    const uint64_t B = 50, L1 = alone(1, 1, "router=ideal");
    run_t r;
    batch_run(&r, "ring:4", (const char *const[]){"traffic=neighbor", "batch_size=50", "router=ideal", NULL}, 0);
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_int_equal(st->batches, 1);
    assert_int_equal(st->batch_min, B + L1);
    assert_int_equal(st->batch_max, B + L1);
    assert_int_equal(st->batch_sum, B + L1);
    assert_int_equal(st->packets, 4 * B);
    assert_int_equal(st->packets_created, 4 * B);
    assert_int_equal(st->latency.min, L1);
    assert_int_equal(st->latency.max, L1);
    assert_int_equal(st->sample, B + L1);
    assert_int_equal(st->window_flits_out, 4 * B);
    run_free(&r);
}

/* P-flit packets: the NI is empty every P cycles, and each packet is
 * timed from its offer, a cycle after the last's: packet k starts at kP,
 * offered at k, so its latency is LP + k(P - 1). */
static void test_offer_clock(void **state)
{
    (void)state;
    const uint64_t B = 20, P = 3, LP = alone(3, 1, "router=ideal");
    run_t r;
    batch_run(&r, "ring:4", (const char *const[]){"traffic=neighbor", "batch_size=20", "packet_size=3", "router=ideal", NULL},
              0);
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_int_equal(st->batch_max, (B - 1) * P + LP + 1);
    assert_int_equal(st->packets, 4 * B);
    assert_int_equal(st->latency.min, LP);
    assert_int_equal(st->latency.max, LP + (B - 1) * (P - 1));
    /* sum over k of LP + k(P - 1), per node */
    assert_int_equal(st->latency.sum, 4 * (B * LP + (P - 1) * B * (B - 1) / 2));
    assert_int_equal(st->queue_latency.sum, 4 * ((P - 1) * B * (B - 1) / 2));
    run_free(&r);
}

/* At most one unanswered: the next packet is offered the cycle after the
 * last one's tail arrived (the offers before are refused, the clock
 * moving on): one every LP + 1 cycles, each LP on its way. */
static void test_limit(void **state)
{
    (void)state;
    const uint64_t B = 10;
    for (int P = 1; P <= 3; P += 2) {
        uint64_t LP = alone(P, 1, "router=vc");
        char size[32];
        snprintf(size, sizeof size, "packet_size=%d", P);
        run_t r;
        batch_run(&r, "ring:4", (const char *const[]){"traffic=neighbor", "batch_size=10",
                                                     "max_outstanding_requests=1", size, NULL}, 0);
        const noc_stats_t *st = noc_sim_stats(r.s);
        assert_int_equal(st->batch_max, B * (LP + 1));
        assert_int_equal(st->latency.min, LP);
        assert_int_equal(st->latency.max, LP);
        assert_int_equal(st->queue_latency.max, 0);
        run_free(&r);
    }
}

/* Two batches: the second starts where the first ended, the same again;
 * each node's count starts from 0. */
static void test_two_batches(void **state)
{
    (void)state;
    const uint64_t B = 30, L1 = alone(1, 1, "router=ideal");
    run_t r;
    batch_run(&r, "ring:4", (const char *const[]){"traffic=neighbor", "batch_size=30", "batch_count=2", "router=ideal", NULL},
              0);
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_int_equal(st->batches, 2);
    assert_int_equal(st->batch_min, B + L1);
    assert_int_equal(st->batch_max, B + L1);
    assert_int_equal(st->packets, 2 * 4 * B);
    assert_int_equal(st->sample, 2 * (B + L1));
    assert_int_equal(st->latency.max, L1);
    run_free(&r);
}

/* Requests and replies, one unanswered: node n's read request to n + 1
 * takes L1; its reply of R flits is made at the tail's arrival, sent a
 * cycle later and back in LR; the next request a cycle after that. Each
 * node sends a request and a reply a round, both counted in its batch:
 * B / 2 rounds of L1 + 1 + LR + 1 cycles. A request's latency is L1, a
 * reply's 1 + LR. */
static void test_read_write(void **state)
{
    (void)state;
    const uint64_t B = 8, L1 = alone(1, 1, "num_vcs=4"), LR = alone(4, 3, "num_vcs=4"); /* (a reply goes back: 0 -> 3 is one hop) */
    run_t r;
    batch_run(&r, "ring:4",
              (const char *const[]){"traffic=neighbor", "batch_size=8", "max_outstanding_requests=1", "num_vcs=4",
                                    "use_read_write=1", "write_fraction=0", "read_reply_size=4", NULL},
              0);
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_int_equal(st->batch_max, B / 2 * (L1 + LR + 2));
    assert_int_equal(st->packets, 4 * B);
    assert_int_equal(st->flits, 4 * (B / 2) * (1 + 4));
    assert_int_equal(st->latency.min, L1);
    assert_int_equal(st->latency.max, 1 + LR);
    assert_int_equal(st->latency.sum, 4 * (B / 2) * (L1 + 1 + LR));
    run_free(&r);
}

/* transpose on mesh:2x2 maps nodes 0 and 3 to themselves: without
 * self_traffic they make no packets, yet their batches end. */
static void test_fixed_points(void **state)
{
    (void)state;
    run_t r;
    batch_run(&r, "mesh:2x2", (const char *const[]){"traffic=transpose", "batch_size=25", NULL}, 0);
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_int_equal(st->batches, 1);
    assert_int_equal(st->packets, 2 * 25);
    run_free(&r);
}

/* Under load (uniform traffic on mesh:4x4, 4-flit packets, at most 3
 * unanswered): every cycle each node's unanswered count is at most 3 and
 * equals its packets in the network and its source queue, counted from
 * the packet pool; the packets made and not arrived are the batch's. */
static void test_limit_under_load(void **state)
{
    (void)state;
    run_t r;
    batch_run(&r, "mesh:4x4", (const char *const[]){"batch_size=60", "max_outstanding_requests=3", "packet_size=4",
                                                    NULL}, 1);
    noc_sim_t *s = r.s;
    noc_batch_begin(s);
    s->win_start = 0;
    s->win_end = NOC_NEVER;
    uint32_t mine[16];
    uint64_t peak = 0;
    while (!noc_batch_issued(s) || s->batch->in_flight > 0) {
        noc_sim_step(s);
        assert_true(s->now < 100000);
        memset(mine, 0, sizeof mine);
        uint64_t live = 0;
        for (uint32_t i = 0; i < s->pkt_fresh; i++)
            if (s->pkts[i].size) {
                mine[s->pkts[i].src]++;
                live++;
            }
        for (int n = 0; n < 16; n++) {
            mine[n] += s->ni[n].q_tail - s->ni[n].q_head;
            live += s->ni[n].q_tail - s->ni[n].q_head;
            assert_true(s->batch->out[n] <= 3);
            assert_int_equal(s->batch->out[n], mine[n]);
            if (s->batch->out[n] > peak)
                peak = s->batch->out[n];
        }
        assert_int_equal(s->batch->in_flight, live);
    }
    assert_int_equal(peak, 3);
    for (int n = 0; n < 16; n++)
        assert_int_equal(s->batch->seq[n], 60);
    assert_int_equal(noc_sim_stats(s)->packets_created, 16 * 60);
    run_free(&r);
}

/* Requests and replies under load (uniform traffic on mesh:4x4, replies
 * of 3 flits, no limit, one-flit buffers): every cycle a node's unanswered count
 * equals its requests alive (in the network or its source queue), the
 * replies owed to it (queued at other NIs) and those on their way to it;
 * the packets the batch counts on their way are those in the network and
 * the source queues plus the replies issued and not yet started. */
static void test_read_write_under_load(void **state)
{
    (void)state;
    run_t r;
    batch_run(&r, "mesh:4x4", (const char *const[]){"batch_size=40", "num_vcs=4", "vc_buf_size=1",
                                                    "use_read_write=1", "read_reply_size=3", NULL}, 1);
    noc_sim_t *s = r.s;
    noc_batch_begin(s);
    s->win_start = 0;
    s->win_end = NOC_NEVER;
    uint32_t mine[16];
    while (!noc_batch_issued(s) || s->batch->in_flight > 0) {
        noc_sim_step(s);
        assert_true(s->now < 100000);
        memset(mine, 0, sizeof mine);
        uint64_t live = 0;
        for (uint32_t i = 0; i < s->pkt_fresh; i++) {
            const noc_packet_t *p = &s->pkts[i];
            if (!p->size)
                continue;
            live++;
            mine[p->type == NOC_PKT_READ_REQ || p->type == NOC_PKT_WRITE_REQ ? p->src : p->dst]++;
        }
        for (int n = 0; n < 16; n++) {
            mine[n] += s->ni[n].q_tail - s->ni[n].q_head;
            live += s->ni[n].q_tail - s->ni[n].q_head + s->batch->reply_taken[n];
            for (uint32_t i = s->repq[n].head; i != s->repq[n].tail; i++)
                mine[noc_repq_at(&s->repq[n], i)->dst]++;
        }
        for (int n = 0; n < 16; n++)
            assert_int_equal(s->batch->out[n], mine[n]);
        assert_int_equal(s->batch->in_flight, live);
    }
    run_free(&r);
}

/* A BookSim2 file's batch run tosses an even coin for a request's kind
 * (batchtrafficmanager.cpp), whatever write_fraction says; noctua's own
 * keeps write_fraction. Writes of 2 flits, reads of 1, replies of 1. */
static void test_booksim_coin(void **state)
{
    (void)state;
    const char *const base[] = {"batch_size=400", "num_vcs=4", "use_read_write=1", "write_fraction=0",
                                "write_request_size=2", NULL};
    for (int bs = 0; bs <= 1; bs++) {
        run_t r;
        batch_run(&r, "mesh:2x2", bs ? (const char *const[]){"batch_size=400", "num_vcs=4", "use_read_write=1",
                                                            "write_fraction=0", "write_request_size=2", "booksim=1",
                                                            NULL}
                                     : base, 0);
        const noc_stats_t *st = noc_sim_stats(r.s);
        /* requests R, of which W writes: flits = R + W + (replies: 1 each) */
        uint64_t replies = st->packets / 2, requests = st->packets - replies;
        double w = (double)(st->flits - 2 * replies - (requests - replies)) / (double)requests;
        if (bs)
            assert_true(w > 0.4 && w < 0.6);
        else
            assert_true(w == 0.0);
        run_free(&r);
    }
}

/* Refused by name: more threads, a program, a bad count, a bad sim_type. */
static void test_refusals(void **state)
{
    (void)state;
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, (const char *const[]){"sim_type=batch", "threads=2", NULL});
    noc_topo_t *t = noc_topo_create("mesh:4x4", 0, err, sizeof err);
    noc_synthetic_t syn;
    assert_int_equal(noc_synthetic_init(&syn, &cfg, t, err, sizeof err), 0);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), noc_synthetic_traffic(&syn), err, sizeof err));
    assert_non_null(strstr(err, "sim_type = batch"));
    noc_synthetic_free(&syn);
    noc_config_defaults(&cfg);
    assert_int_equal(noc_config_set(&cfg, "sim_type", "batches", err, sizeof err), 0);
    assert_int_not_equal(noc_sim_check_config(&cfg, err, sizeof err), 0);
    assert_non_null(strstr(err, "latency, throughput or batch"));
    noc_config_defaults(&cfg);
    assert_int_equal(noc_config_set(&cfg, "batch_size", "0", err, sizeof err), 0);
    assert_int_not_equal(noc_sim_check_config(&cfg, err, sizeof err), 0);
    assert_non_null(strstr(err, "batch_size"));
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream),        cmocka_unit_test(test_offer_clock),
        cmocka_unit_test(test_limit),         cmocka_unit_test(test_two_batches),
        cmocka_unit_test(test_read_write),    cmocka_unit_test(test_fixed_points),
        cmocka_unit_test(test_limit_under_load), cmocka_unit_test(test_read_write_under_load),
        cmocka_unit_test(test_booksim_coin),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
