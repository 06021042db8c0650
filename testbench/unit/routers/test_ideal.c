/* test_ideal.c: the ideal router against the papers' unit-time model: a
 * k-hop word takes k cycles, longer messages pipeline one word per cycle,
 * contention for a link goes to the word farther from home, and the kernel's
 * invariants hold under load, also on nodes with more ports than the
 * arrival masks have bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "routers/registry.h"
#include "testbench/unit/script_traffic.h"
#include "traffic/synthetic.h"

static noc_sim_t *make_sim(noc_topo_t **topo, const char *spec, script_t *sc, noc_synthetic_t *syn,
                           const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "router", "ideal", err, sizeof err);
    noc_config_set(&cfg, "warmup_cycles", "0", err, sizeof err);
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(&cfg, name, eq + 1, err, sizeof err))
            fail_msg("%s", err);
    }
    *topo = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(*topo);
    noc_traffic_t tr = script_traffic(sc);
    if (syn) {
        if (noc_synthetic_init(syn, &cfg, *topo, err, sizeof err))
            fail_msg("%s", err);
        tr = noc_synthetic_traffic(syn);
    }
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(*topo), tr, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

static void test_unit_time(void **state)
{
    (void)state;
    /* one word from (0) to (k) on a line of 8: k cycles; 5 words: k + 4 */
    for (int k = 1; k <= 7; k++) {
        for (int size = 1; size <= 5; size += 4) {
            script_t sc = { .n = 1, .src = { 0 }, .dst = { k }, .size = { size }, .at = { 3 } };
            noc_topo_t *t;
            const char *kv[] = { "sample_cycles=100", NULL };
            noc_sim_t *s = make_sim(&t, "mesh:8", &sc, NULL, kv);
            assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
            const noc_stats_t *st = noc_sim_stats(s);
            assert_int_equal(st->packets, 1);
            assert_int_equal(st->latency.max, (uint64_t)(k + size - 1));
            assert_int_equal(st->hops.max, (uint64_t)k);
            noc_sim_destroy(s);
            noc_topo_destroy(t);
        }
    }
}

static void test_farther_goes_first(void **state)
{
    (void)state;
    /* A: (0) -> (3), sent in cycle 0, reaches (1) in cycle 1 and wants the
     * link (1)->(2). B: (1) -> (2), sent in cycle 1, wants the same link.
     * A has 2 hops to go, B 1: A goes first, B waits a cycle. */
    script_t sc = { .n = 2, .src = { 0, 1 }, .dst = { 3, 2 }, .size = { 1, 1 }, .at = { 0, 1 } };
    noc_topo_t *t;
    const char *kv[] = { "sample_cycles=100", NULL };
    noc_sim_t *s = make_sim(&t, "mesh:4", &sc, NULL, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(s);
    assert_int_equal(st->packets, 2);
    assert_int_equal(st->latency.max, 3); /* A: no wait */
    assert_int_equal(st->latency.min, 2); /* B: one cycle of contention */
    /* the link (1)->(2) saw one contended cycle */
    int hits = 0;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (!local && from == 1 && to == 2) {
            assert_int_equal(noc_sim_link_stats(s, c)->flits, 2);
            assert_int_equal(noc_sim_link_stats(s, c)->contention, 1);
            hits++;
        }
    }
    assert_int_equal(hits, 1);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_zero_load_equals_hops(void **state)
{
    (void)state;
    noc_synthetic_t syn;
    noc_topo_t *t;
    const char *kv[] = { "injection_rate=0.0005", "sample_cycles=40000", "packet_size=2", NULL };
    noc_sim_t *s = make_sim(&t, "torus:6x6", NULL, &syn, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(s);
    assert_true(st->packets > 300);
    /* latency = hops + (size - 1) for every packet that met nobody */
    double d = noc_lat_avg(&st->latency) - (noc_lat_avg(&st->hops) + 1.0);
    assert_true(d >= 0.0 && d < 0.05);
    assert_int_equal(st->latency.min, st->hops.min + 1);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_invariants_under_load(void **state)
{
    (void)state;
    const char *specs[] = { "mesh:4x4", "torus:4x4", "hypercube:4" };
    for (int i = 0; i < 3; i++) {
        noc_synthetic_t syn;
        noc_topo_t *t;
        char err[512];
        const char *kv[] = { "injection_rate=0.5", "packet_size=3", NULL };
        noc_sim_t *s = make_sim(&t, specs[i], NULL, &syn, kv);
        for (int c = 0; c < 2000; c++) {
            noc_sim_step(s);
            if (noc_sim_check(s, err, sizeof err))
                fail_msg("%s cycle %d: %s", specs[i], c, err);
        }
        noc_sim_stop_injection(s);
        for (int c = 0; c < 5000 && noc_sim_flits_in_network(s); c++) {
            noc_sim_step(s);
            if (noc_sim_check(s, err, sizeof err))
                fail_msg("%s drain %d: %s", specs[i], c, err);
        }
        assert_int_equal(noc_sim_flits_in_network(s), 0);
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
}

/* More network ports than the arrival masks have bits (complete:70, 69 a
 * node; ports 62 and up share one bit). Every node sends 3 words to node 0
 * and node 0 sends 3 to every node, all in cycle 2, all one hop over links
 * of their own, with an all-port NI and room for every flit: each message
 * is whole 1 + 3 - 1 = 3 cycles later, as on a node with few ports. Then
 * the kernel's invariants under load, and a drain to empty. */
static void test_many_ports(void **state)
{
    (void)state;
    script_t sc = { 0 };
    for (int v = 1; v < 70; v++) {
        script_add(&sc, 2, v, 0, 3);
        script_add(&sc, 2, 0, v, 3);
    }
    noc_topo_t *t;
    const char *kv[] = { "sample_cycles=100", "ni_ports=0", "vc_buf_size=128", NULL };
    noc_sim_t *s = make_sim(&t, "complete:70", &sc, NULL, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(s);
    assert_int_equal(st->packets, 2 * 69);
    assert_int_equal(st->latency.max, 3);
    assert_int_equal(st->hops.max, 1);
    noc_sim_destroy(s);
    noc_topo_destroy(t);

    noc_synthetic_t syn;
    char err[512];
    const char *kv2[] = { "injection_rate=0.5", "packet_size=3", "vc_buf_size=2", NULL };
    s = make_sim(&t, "complete:70", NULL, &syn, kv2);
    for (int c = 0; c < 500; c++) {
        noc_sim_step(s);
        if (noc_sim_check(s, err, sizeof err))
            fail_msg("complete:70 cycle %d: %s", c, err);
    }
    noc_sim_stop_injection(s);
    for (int c = 0; c < 5000 && noc_sim_flits_in_network(s); c++)
        noc_sim_step(s);
    assert_int_equal(noc_sim_flits_in_network(s), 0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_time),
        cmocka_unit_test(test_farther_goes_first),
        cmocka_unit_test(test_zero_load_equals_hops),
        cmocka_unit_test(test_invariants_under_load),
        cmocka_unit_test(test_many_ports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
