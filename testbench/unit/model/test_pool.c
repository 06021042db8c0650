/* test_pool.c: the packet pool allocated by use (docs/scale.md, "A
 * million nodes"; model/sim_internal.h, noc_pkt_take / noc_pkt_grow). A run
 * whose packets in flight outgrow a small pool doubles it and delivers
 * every packet with the very figures of a run that had its whole pool from
 * the start (the pool hands out the same slots in the same order either
 * way), on one thread, on two (the parts' slots dealt between cycles) and
 * in a program run (each slot's waits grow with it); an idle run never
 * grows it. Expected values come from the definitions: doubling from s
 * slots leaves s * 2^k slots, the least such power not below the slots
 * used (or pkt_cap); a drained run has delivered every packet it made. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/pe.h"
#include "model/sim_internal.h"
#include "routers/registry.h"
#include "traffic/gen.h"
#include "traffic/synthetic.h"

typedef struct run {
    noc_topo_t *topo;
    noc_synthetic_t syn;
    noc_program_t *prog;
    noc_sim_t *sim;
} run_t;

static void config(noc_config_t *cfg, const char *const *kv)
{
    char err[512];
    noc_config_defaults(cfg);
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        assert_non_null(eq);
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(cfg, name, eq + 1, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
}

/* A synthetic run on spec with kv, its pool set to `slots` (0: as made). */
static void build(run_t *r, const char *spec, const char *const *kv, uint32_t slots)
{
    char err[512];
    noc_config_t cfg;
    config(&cfg, kv);
    memset(r, 0, sizeof *r);
    r->topo = noc_topo_create(spec, 0, err, sizeof err);
    if (!r->topo)
        fail_msg("%s", err);
    if (noc_synthetic_init(&r->syn, &cfg, r->topo, err, sizeof err) != 0)
        fail_msg("%s", err);
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), noc_synthetic_traffic(&r->syn), err, sizeof err);
    if (!r->sim)
        fail_msg("%s", err);
    if (slots)
        noc_sim_debug_pool(r->sim, slots);
}

static void drop(run_t *r)
{
    noc_sim_destroy(r->sim);
    noc_prog_free(r->prog);
    noc_topo_destroy(r->topo);
}

static void same_lat(const noc_lat_sum_t *a, const noc_lat_sum_t *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->sum, b->sum);
    assert_int_equal(a->min, b->min);
    assert_int_equal(a->max, b->max);
}

/* The figures of two runs are the same, every latency bin too. */
static void same_stats(const noc_stats_t *a, const noc_stats_t *b)
{
    assert_int_equal(a->cycles, b->cycles);
    assert_int_equal(a->packets_created, b->packets_created);
    assert_int_equal(a->packets, b->packets);
    assert_int_equal(a->flits, b->flits);
    assert_int_equal(a->window_flits_in, b->window_flits_in);
    assert_int_equal(a->window_flits_out, b->window_flits_out);
    assert_int_equal(a->flit_hops, b->flit_hops);
    same_lat(&a->latency, &b->latency);
    same_lat(&a->net_latency, &b->net_latency);
    same_lat(&a->flit_latency, &b->flit_latency);
    same_lat(&a->queue_latency, &b->queue_latency);
    same_lat(&a->hops, &b->hops);
    assert_memory_equal(a->lat_hist, b->lat_hist, (NOC_LAT_HIST + 1) * sizeof(uint32_t));
}

/* Doubling from `start` slots: the least start * 2^k not below `used`,
 * or cap. */
static uint32_t doubled(uint32_t start, uint32_t used, uint32_t cap)
{
    uint64_t n = start;
    while (n < used)
        n *= 2;
    return n > cap ? cap : (uint32_t)n;
}

/* A loaded 6x6 mesh, every packet measured and drained, checked every
 * cycle (check=1: every buffered flit belongs to a live packet): from 8
 * slots and from the whole pool, on `threads` threads. */
static void grows_and_delivers(const char *threads)
{
    const char *const kv[] = { "injection_rate=0.3", "packet_size=3", "warmup_cycles=0", "sample_cycles=300",
                               "max_drain_cycles=5000", threads, NULL };
    const char *const kv_checked[] = { "injection_rate=0.3", "packet_size=3", "warmup_cycles=0",
                                       "sample_cycles=300", "max_drain_cycles=5000", "check=1", NULL };
    int one = strcmp(threads, "threads=1") == 0;
    run_t small, whole;
    build(&small, "mesh:6x6", one ? kv_checked : kv, 8);
    assert_int_equal(small.sim->pkt_alloc, 8);
    build(&whole, "mesh:6x6", one ? kv_checked : kv, UINT32_MAX);
    assert_int_equal(whole.sim->pkt_alloc, whole.sim->pkt_cap);
    assert_int_equal(noc_sim_run(small.sim), NOC_RUN_OK);
    assert_int_equal(noc_sim_run(whole.sim), NOC_RUN_OK);
    const noc_stats_t *a = noc_sim_stats(small.sim), *b = noc_sim_stats(whole.sim);
    same_stats(a, b);
    /* every packet made in the window was delivered (no warm-up, none
     * refused by a source queue) */
    assert_true(a->drained);
    assert_int_equal(a->packets_offered_lost, 0);
    assert_true(a->packets > 500);
    assert_int_equal(a->flits, a->window_flits_offered);
    assert_int_equal(a->flits, 3 * a->packets);
    /* the pool outgrew its 8 slots, by doubling, to hold the most used */
    struct noc_sim *s = small.sim;
    assert_true(s->pkt_fresh > 8);
    assert_int_equal(s->pkt_fresh, whole.sim->pkt_fresh);
    assert_int_equal(s->pkt_alloc, doubled(8, s->pkt_fresh, s->pkt_cap));
    drop(&small);
    drop(&whole);
}

static void test_grows_one_thread(void **state)
{
    (void)state;
    grows_and_delivers("threads=1");
}

static void test_grows_two_threads(void **state)
{
    (void)state;
    grows_and_delivers("threads=2");
}

/* No packet, no slot: an idle run keeps the pool it started with, and the
 * estimate counts that pool, not the most the run could hold. */
static void test_idle_does_not_grow(void **state)
{
    (void)state;
    const char *const kv[] = { "injection_rate=0", "warmup_cycles=100", "sample_cycles=300", NULL };
    run_t r;
    build(&r, "mesh:32x32", kv, 0);
    struct noc_sim *s = r.sim;
    assert_true(s->pkt_cap > NOC_PKT_START);
    assert_int_equal(s->pkt_alloc, NOC_PKT_START);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    assert_int_equal(noc_sim_stats(s)->packets_created, 0);
    assert_int_equal(s->pkt_alloc, NOC_PKT_START);
    assert_int_equal(s->pkt_fresh, 0);
    noc_config_t cfg;
    config(&cfg, kv);
    /* (the whole pool, packets and free list, would be more than the
     * estimate of the whole run: the old estimate counted it) */
    uint64_t est = noc_sim_estimate_bytes(&cfg, noc_topo_graph(r.topo));
    assert_true(est > 0);
    assert_true(est < (uint64_t)s->pkt_cap * (sizeof(noc_packet_t) + sizeof(uint32_t)));
    drop(&r);
}

/* A program run (alltoall, each slot's waits kept for its message): from 4
 * slots and from the whole pool, the same ends of every op and the same
 * waits of every message. */
static void program_run(run_t *r, uint32_t slots)
{
    char err[512];
    noc_config_t cfg;
    config(&cfg, NULL);
    memset(r, 0, sizeof *r);
    r->topo = noc_topo_create("torus:4x4", 0, err, sizeof err);
    assert_non_null(r->topo);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    r->prog = noc_gen_find("alltoall")->make(r->topo, &a, err, sizeof err);
    if (!r->prog)
        fail_msg("%s", err);
    noc_traffic_t none = { NULL, NULL };
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), none, err, sizeof err);
    if (!r->sim || noc_pe_attach(r->sim, r->prog, err, sizeof err) != 0)
        fail_msg("%s", err);
    noc_sim_debug_pool(r->sim, slots);
    assert_int_equal(noc_sim_run(r->sim), NOC_RUN_OK);
}

static void test_program_grows(void **state)
{
    (void)state;
    run_t small, whole;
    program_run(&small, 4);
    program_run(&whole, UINT32_MAX);
    assert_non_null(small.sim->pkt_wait);
    const noc_pe_stats_t *a = noc_pe_stats(noc_sim_pe(small.sim)), *b = noc_pe_stats(noc_sim_pe(whole.sim));
    assert_int_equal(a->ops_done, a->ops);
    assert_int_equal(a->cycles, b->cycles);
    assert_int_equal(a->ops_done, b->ops_done);
    assert_memory_equal(a->op_end, b->op_end, a->ops * sizeof(uint64_t));
    assert_true(small.sim->pkt_fresh > 4);
    assert_int_equal(small.sim->pkt_alloc, doubled(4, small.sim->pkt_fresh, small.sim->pkt_cap));
    uint64_t waited = 0;
    for (uint32_t m = 0; m < a->ops; m++) {
        const uint32_t *x = noc_pe_msg_waits(noc_sim_pe(small.sim), m), *y = noc_pe_msg_waits(noc_sim_pe(whole.sim), m);
        if (!x || !y) {
            assert_ptr_equal(x, y);
            continue;
        }
        for (int k = 0; k < NOC_WAIT_KINDS; k++) {
            assert_int_equal(x[k], y[k]);
            waited += x[k];
        }
    }
    assert_true(waited > 0); /* (the comparison says something) */
    drop(&small);
    drop(&whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_one_thread),
        cmocka_unit_test(test_grows_two_threads),
        cmocka_unit_test(test_idle_does_not_grow),
        cmocka_unit_test(test_program_grows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
