/* test_compact.c: the kernel's compact layouts for large fabrics
 * (docs/scale.md, "A million nodes"): the packet free list that starts
 * without a write (the never used slots a count), and the source queues,
 * slot-major, rewound when empty and grown from NOC_SRCQ_START slots up to
 * source_queue. Expected values come from the definitions: a fresh pool
 * hands out slots 0, 1, 2, ... and takes back the last freed first; a
 * saturated source fills its queue to exactly source_queue packets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "routers/registry.h"
#include "traffic/synthetic.h"

typedef struct run {
    noc_topo_t *topo;
    noc_synthetic_t syn;
    noc_sim_t *sim;
} run_t;

static void build(run_t *r, const char *spec, const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        assert_non_null(eq);
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(&cfg, name, eq + 1, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    r->topo = noc_topo_create(spec, 0, err, sizeof err);
    if (!r->topo)
        fail_msg("%s", err);
    if (noc_synthetic_init(&r->syn, &cfg, r->topo, err, sizeof err) != 0)
        fail_msg("%s", err);
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), noc_synthetic_traffic(&r->syn), err, sizeof err);
    if (!r->sim)
        fail_msg("%s", err);
}

static void drop(run_t *r)
{
    noc_sim_destroy(r->sim);
    noc_topo_destroy(r->topo);
}

/* A fresh pool is the full stack, slot 0 on top, though nothing wrote it
 * (the never used slots are a count); pushes and pops keep LIFO order, and
 * taking every slot grows the pool to pkt_cap. */
static void test_free_list(void **state)
{
    (void)state;
    run_t r;
    build(&r, "mesh:2x2", (const char *const[]){ "injection_rate=0", NULL });
    struct noc_sim *s = r.sim;
    uint32_t cap = s->pkt_cap;
    assert_true(cap > 8);
    assert_int_equal(noc_pkt_free_count(s), cap);
    assert_int_equal(noc_pkt_free_at(s, cap - 1), 0);   /* the top */
    assert_int_equal(noc_pkt_free_at(s, 0), cap - 1);   /* the bottom */
    assert_int_equal(noc_pkt_take(s), 0);
    assert_int_equal(noc_pkt_take(s), 1);
    assert_int_equal(noc_pkt_take(s), 2);
    noc_pkt_give(s, 1);
    assert_int_equal(noc_pkt_free_count(s), cap - 2);
    assert_int_equal(noc_pkt_free_at(s, cap - 3), 1);   /* the top again */
    assert_int_equal(noc_pkt_take(s), 1);
    assert_int_equal(noc_pkt_take(s), 3);
    /* every other slot, in order, down to the last entry */
    for (uint32_t k = 4; k < cap; k++)
        assert_int_equal(noc_pkt_take(s), k);
    assert_int_equal(noc_pkt_free_count(s), 0);
    assert_int_equal(s->pkt_alloc, cap);
    /* the highest slot given back to an empty list, at place 0 */
    noc_pkt_give(s, cap - 1);
    noc_pkt_give(s, 0);
    assert_int_equal(noc_pkt_free_at(s, 0), cap - 1);
    assert_int_equal(noc_pkt_take(s), 0);
    assert_int_equal(noc_pkt_take(s), cap - 1);
    drop(&r);
}

/* Every (terminal, counter) of the queues names its own entry inside the
 * array, and a queue that empties starts again at slot 0. */
static void test_srcq_layout(void **state)
{
    (void)state;
    run_t r;
    build(&r, "mesh:3x3", (const char *const[]){ "injection_rate=0", "source_queue=6", NULL });
    struct noc_sim *s = r.sim;
    assert_int_equal(s->srcq_cap, NOC_SRCQ_START);
    assert_int_equal(s->srcq_max, 8);
    size_t T = (size_t)s->n_terms, cap = s->srcq_cap;
    char *seen = calloc(T * cap, 1);
    for (int n = 0; n < s->n_terms; n++)
        for (uint32_t i = 0; i < 2 * cap; i++) {
            noc_srcq_entry_t *e = noc_srcq_at(s, n, i);
            assert_true(e >= s->srcq && e < s->srcq + T * cap);
            if (i < cap) {
                assert_int_equal(seen[e - s->srcq], 0);
                seen[e - s->srcq] = 1;
            } else { /* counters wrap at the ring's size */
                assert_ptr_equal(e, noc_srcq_at(s, n, i - (uint32_t)cap));
            }
        }
    free(seen);
    noc_ni_t ni = { .q_head = 5, .q_tail = 7 };
    noc_srcq_pop(&ni);
    assert_int_equal(ni.q_head, 6);
    assert_int_equal(ni.q_tail, 7);
    noc_srcq_pop(&ni);
    assert_int_equal(ni.q_head, 0);
    assert_int_equal(ni.q_tail, 0);
    drop(&r);
}

/* Far past saturation every source queue fills: to exactly source_queue
 * packets, through the growth from NOC_SRCQ_START slots (limits below,
 * at and above it, and at a power of two), refusing packets only then;
 * unbounded queues grow past it and refuse none. The invariant checker
 * (check=1) counts every queued packet as its node's work. */
static void saturate(long limit, uint64_t *peak, uint64_t *lost)
{
    char q[32];
    snprintf(q, sizeof q, "source_queue=%ld", limit);
    run_t r;
    build(&r, "mesh:6x6", (const char *const[]){ "injection_rate=0.9", q, "warmup_cycles=100",
                                                 "sample_cycles=400", "max_drain_cycles=50", "check=1", NULL });
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(r.sim);
    *peak = st->source_queue_peak;
    *lost = st->packets_offered_lost;
    drop(&r);
}

static void test_srcq_fills_to_limit(void **state)
{
    (void)state;
    static const long limits[] = { 1, NOC_SRCQ_START - 1, NOC_SRCQ_START, NOC_SRCQ_START + 1, 16, 33, 100 };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        uint64_t peak, lost;
        saturate(limits[i], &peak, &lost);
        if (peak != (uint64_t)limits[i] || lost == 0)
            fail_msg("source_queue=%ld: peak %llu, refused %llu", limits[i], (unsigned long long)peak,
                     (unsigned long long)lost);
    }
    uint64_t peak, lost;
    saturate(0, &peak, &lost);
    assert_true(peak > 4 * NOC_SRCQ_START);
    assert_int_equal(lost, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_list),
        cmocka_unit_test(test_srcq_layout),
        cmocka_unit_test(test_srcq_fills_to_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
