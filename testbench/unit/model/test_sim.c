/* test_sim.c: the kernel and the vc router together: zero-load latency
 * against the pipeline's formula, the invariant checker after every cycle on
 * random traffic, determinism, independence from the order nodes are
 * visited in, deadlock detection on a cyclic routing, saturation, and links
 * narrower than a flit. */
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

/* Build a run from a SPEC and "key=value" settings (NULL-terminated). */
static void build(run_t *r, const char *spec, unsigned flags, const char *const *kv)
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
    r->topo = noc_topo_create(spec, flags, err, sizeof err);
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

/* Zero-load latency of docs/router.md: a packet of P flits crossing H links
 * passes H+1 routers of R+VA+SA+ST cycles each, H links of L cycles and the
 * two local channels. Links of S cycles a flit (narrower than a flit) add
 * S-1 per hop to the head and space the flits S apart, a gap the last
 * router closes by up to R+VA cycles, since body flits skip those stages. */
static double zero_load(double H, int R, int VA, int SA, int ST, int L, int local, int P, int S)
{
    double head = 2.0 * local + (H + 1.0) * (R + VA + SA + ST) + H * (L + S - 1);
    int gap = (P - 1) * S - (R + VA);
    return head + (gap > P - 1 ? gap : P - 1);
}

static void check_zero_load_ser(const char *spec, const char *const *kv, int R, int VA, int SA,
                                int ST, int L, int P, int S)
{
    run_t r;
    build(&r, spec, 0, kv);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(r.sim);
    assert_true(st->packets > 200);
    double hops = noc_lat_avg(&st->hops);
    double want = zero_load(hops, R, VA, SA, ST, L, 1, P, S);
    double got = noc_lat_avg(&st->latency);
    print_message("%s: %llu packets, avg hops %.3f, latency %.3f, formula %.3f\n", spec,
                  (unsigned long long)st->packets, hops, got, want);
    assert_true(got >= want - 1e-9);   /* nothing is faster than zero load */
    assert_true(got - want < 1.0);     /* within one cycle on average */
    drop(&r);
}

static void check_zero_load(const char *spec, const char *const *kv, int R, int VA, int SA, int ST,
                            int L, int P)
{
    check_zero_load_ser(spec, kv, R, VA, SA, ST, L, P, 1);
}

static void test_zero_load_mesh(void **state)
{
    (void)state;
    const char *kv[] = { "injection_rate=0.002", "sample_cycles=40000", "warmup_cycles=100", NULL };
    check_zero_load("mesh:4x4", kv, 1, 1, 1, 1, 1, 1);
    const char *kv4[] = { "injection_rate=0.004", "packet_size=4", "sample_cycles=40000", NULL };
    check_zero_load("mesh:8x8", kv4, 1, 1, 1, 1, 1, 4);
}

static void test_zero_load_torus_pipeline(void **state)
{
    (void)state;
    const char *kv[] = { "injection_rate=0.002", "sample_cycles=40000", "routing_delay=2",
                         "vc_alloc_delay=1", "sw_alloc_delay=2", "st_final_delay=0",
                         "link_latency=3", NULL };
    check_zero_load("torus:4x4", kv, 2, 1, 2, 0, 3, 1);
    const char *kla[] = { "injection_rate=0.002", "sample_cycles=40000", "lookahead=1",
                          "packet_size=3", NULL };
    check_zero_load("torus:5x5", kla, 0, 1, 1, 1, 1, 3);
    const char *khc[] = { "injection_rate=0.002", "sample_cycles=40000", NULL };
    check_zero_load("hypercube:5", khc, 1, 1, 1, 1, 1, 1);
}

/* The invariant checker after every cycle, on loads up to past saturation. */
static void checked_run(const char *spec, const char *const *kv)
{
    run_t r;
    char err[512];
    build(&r, spec, 0, kv);
    for (int c = 0; c < 3000; c++) {
        noc_sim_step(r.sim);
        if (noc_sim_check(r.sim, err, sizeof err) != 0)
            fail_msg("%s cycle %d: %s", spec, c, err);
    }
    noc_sim_stop_injection(r.sim);
    for (int c = 0; c < 20000 && (noc_sim_flits_in_network(r.sim) > 0); c++) {
        noc_sim_step(r.sim);
        if (noc_sim_check(r.sim, err, sizeof err) != 0)
            fail_msg("%s drain cycle %d: %s", spec, c, err);
    }
    assert_int_equal(noc_sim_flits_in_network(r.sim), 0);
    drop(&r);
}

static void test_invariants_random(void **state)
{
    (void)state;
    const char *a[] = { "injection_rate=0.6", "packet_size=4", NULL };
    checked_run("mesh:4x4", a);
    const char *b[] = { "injection_rate=0.9", "packet_size=3", "num_vcs=4", "vc_buf_size=2",
                        "vc_allocator=islip", "sw_allocator=separable_output_first",
                        "arb_type=matrix", "alloc_iters=2", NULL };
    checked_run("torus:4x4", b);
    const char *c[] = { "injection_rate=0.5", "packet_size=5", "lookahead=1", "credit_delay=3",
                        "link_latency=2", "class_latency=dim2:4", NULL };
    checked_run("hypercube:4", c);
    const char *d[] = { "injection_rate=0.3", "traffic=tornado", "num_vcs=3", "vc_buf_size=1",
                        "routing_delay=0", "vc_alloc_delay=0", "sw_alloc_delay=0",
                        "st_final_delay=0", NULL };
    checked_run("torus:3x3x3", d);
    const char *e[] = { "injection_rate=0.4", "traffic=transpose", "packet_size=2", NULL };
    checked_run("mesh:3x3", e);
}

/* Fingerprint of a run: latency sums and every link's counters. */
static uint64_t fingerprint(noc_sim_t *s)
{
    const noc_stats_t *st = noc_sim_stats(s);
    uint64_t h = 1469598103934665603ULL;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ULL)
    MIX(st->cycles);
    MIX(st->packets);
    MIX(st->latency.sum);
    MIX(st->latency.max);
    MIX(st->net_latency.sum);
    MIX(st->hops.sum);
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        const noc_link_stats_t *l = noc_sim_link_stats(s, c);
        MIX(l->flits);
        MIX(l->contention);
        MIX(l->credit_stall);
        MIX(l->peak_queue);
    }
#undef MIX
    return h;
}

static uint64_t run_fp(const char *spec, const char *const *kv, int shuffle_seed)
{
    run_t r;
    build(&r, spec, 0, kv);
    if (shuffle_seed)
        noc_sim_debug_shuffle(r.sim, (uint64_t)shuffle_seed);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    uint64_t fp = fingerprint(r.sim);
    drop(&r);
    return fp;
}

static void test_determinism(void **state)
{
    (void)state;
    const char *kv[] = { "injection_rate=0.3", "packet_size=3", "sample_cycles=3000", "seed=7", NULL };
    const char *kv2[] = { "injection_rate=0.3", "packet_size=3", "sample_cycles=3000", "seed=8", NULL };
    uint64_t a = run_fp("torus:4x4", kv, 0), b = run_fp("torus:4x4", kv, 0);
    assert_true(a == b);
    assert_true(run_fp("torus:4x4", kv2, 0) != a);
}

static void test_order_independence(void **state)
{
    (void)state;
    /* The same run with nodes visited in three different random orders. */
    const char *kv[] = { "injection_rate=0.45", "packet_size=2", "sample_cycles=3000", NULL };
    uint64_t base = run_fp("mesh:4x4", kv, 0);
    for (int seed = 1; seed <= 3; seed++)
        assert_true(run_fp("mesh:4x4", kv, seed) == base);
    const char *kt[] = { "injection_rate=0.8", "packet_size=4", "sample_cycles=2000",
                         "vc_allocator=islip", "lookahead=1", NULL };
    uint64_t tb = run_fp("torus:4x4", kt, 0);
    assert_true(run_fp("torus:4x4", kt, 11) == tb);
}

static void test_deadlock_detected(void **state)
{
    (void)state;
    /* A ring without dateline classes has a cyclic channel dependency; long
     * packets with shallow buffers close the cycle. */
    const char *kv[] = { "injection_rate=0.8", "packet_size=8", "num_vcs=1", "vc_buf_size=2",
                         "traffic=tornado", "deadlock_cycles=200", "sample_cycles=20000", NULL };
    run_t r;
    build(&r, "ring:8", NOC_TOPO_F_NO_DATELINE, kv);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_DEADLOCK);
    assert_true(noc_sim_stats(r.sim)->deadlock);
    assert_true(noc_sim_flits_in_network(r.sim) > 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    noc_sim_report_stuck(r.sim, f, 5);
    fclose(f);
    assert_non_null(strstr(buf, "packet"));
    assert_non_null(strstr(buf, "head at router ("));
    free(buf);
    drop(&r);
    /* The same load with the dateline classes (2 VCs) does not deadlock. */
    const char *ok[] = { "injection_rate=0.8", "packet_size=8", "num_vcs=2", "vc_buf_size=2",
                         "traffic=tornado", "deadlock_cycles=200", "sample_cycles=20000", NULL };
    build(&r, "ring:8", 0, ok);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    assert_true(noc_sim_stats(r.sim)->saturated);
    drop(&r);
}

static void test_saturation_is_a_result(void **state)
{
    (void)state;
    const char *kv[] = { "injection_rate=0.7", "sample_cycles=4000", NULL };
    run_t r;
    build(&r, "mesh:8x8", 0, kv);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(r.sim);
    assert_true(st->saturated);
    double acc = (double)st->window_flits_out / (64.0 * (double)st->sample);
    assert_true(acc < 0.5);   /* below the bisection bound of uniform traffic */
    assert_true(acc > 0.2);
    assert_int_equal(noc_sim_flits_in_network(r.sim), 0); /* drained in the end */
    drop(&r);
    const char *low[] = { "injection_rate=0.1", "sample_cycles=4000", NULL };
    build(&r, "mesh:8x8", 0, low);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    assert_false(noc_sim_stats(r.sim)->saturated);
    drop(&r);
}

/* Links narrower than a flit (link_width, class_width) serialise it: each
 * hop costs ceil(flit_width / width) - 1 more cycles at zero load, and a
 * link carries one flit every ceil(flit_width / width) cycles. */
static void test_serialised_links(void **state)
{
    (void)state;
    /* 64-bit flits on 16-bit links: 4 cycles a flit, i.e. a link latency of
     * 1 + 3 in the zero-load formula (one-flit packets) */
    const char *kv[] = { "injection_rate=0.002", "sample_cycles=40000", "link_width=16", NULL };
    check_zero_load_ser("mesh:4x4", kv, 1, 1, 1, 1, 1, 1, 4);
    const char *kp[] = { "injection_rate=0.002", "sample_cycles=40000", "packet_size=4",
                         "link_width=32", NULL };
    check_zero_load_ser("mesh:8x8", kp, 1, 1, 1, 1, 1, 4, 2);
    const char *kq[] = { "injection_rate=0.001", "sample_cycles=40000", "packet_size=3",
                         "flit_width=128", "link_width=32", "link_latency=2", NULL };
    check_zero_load_ser("torus:4x4", kq, 1, 1, 1, 1, 2, 3, 4);
    /* the ideal router too: one hop is link latency + 3 */
    const char *ki[] = { "injection_rate=0.002", "sample_cycles=40000", "router=ideal",
                         "flit_width=32", "link_width=8", NULL };
    run_t r;
    build(&r, "ring:8", 0, ki);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(r.sim);
    /* a k-hop packet takes 4k cycles when nothing is in its way (the rare
     * collision adds a little on average) */
    assert_true(st->packets > 100);
    assert_int_equal(st->latency.min, 4);
    assert_true(st->latency.sum >= 4 * st->hops.sum);
    assert_true(noc_lat_avg(&st->latency) - 4.0 * noc_lat_avg(&st->hops) < 0.1);
    drop(&r);

    /* Throughput: each node sends to its ring neighbour over its own link;
     * a 4-cycle link carries 0.25 flits a cycle, so offering 0.5 saturates
     * at 0.25 and keeps the link busy all the time. */
    const char *kt[] = { "injection_rate=0.5", "traffic=neighbor", "sample_cycles=4000",
                         "flit_width=64", "class_width=dim0:16", NULL };
    build(&r, "ring:8", 0, kt);
    assert_int_equal(noc_sim_run(r.sim), NOC_RUN_OK);
    st = noc_sim_stats(r.sim);
    double acc = (double)st->window_flits_out / (8.0 * (double)st->sample);
    print_message("ring:8 neighbour at 0.5 over 4-cycle links: accepted %.4f\n", acc);
    assert_true(st->saturated);
    assert_true(acc > 0.24 && acc < 0.2501);
    uint64_t busiest = 0;
    for (int c = 0; c < noc_sim_n_channels(r.sim); c++) {
        const noc_link_stats_t *l = noc_sim_link_stats(r.sim, c);
        if (l->busy > busiest)
            busiest = l->busy;
        assert_true(l->busy >= l->flits);
    }
    assert_true(busiest >= st->sample * 95 / 100 && busiest <= st->sample + 4);
    drop(&r);

    /* the invariants and the two-phase contract hold with serialising links */
    const char *kc[] = { "injection_rate=0.6", "packet_size=3", "flit_width=32",
                         "class_width=dim0:8,dim2:16", NULL };
    checked_run("hypercube:3", kc);
    const char *ko[] = { "injection_rate=0.5", "packet_size=2", "sample_cycles=2000",
                         "class_width=dim1:20", NULL };
    uint64_t base = run_fp("torus:4x4", ko, 0);
    assert_true(run_fp("torus:4x4", ko, 5) == base);
    const char *kn[] = { "injection_rate=0.5", "packet_size=2", "sample_cycles=2000", NULL };
    assert_true(run_fp("torus:4x4", kn, 0) != base); /* and they do change the run */
}

static void test_bad_config(void **state)
{
    (void)state;
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    assert_int_equal(noc_config_set(&cfg, "no_such_thing", "1", err, sizeof err), -1);
    assert_non_null(strstr(err, "no_such_thing"));
    assert_int_equal(noc_config_set(&cfg, "num_vcs", "two", err, sizeof err), -1);
    assert_non_null(strstr(err, "num_vcs"));
    noc_topo_t *t = noc_topo_create("torus:4x4", 0, err, sizeof err);
    assert_non_null(t);
    noc_traffic_t none = { NULL, NULL };
    noc_config_set(&cfg, "num_vcs", "1", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "num_vcs"));
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "vc_buf_size", "0", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "vc_buf_size"));
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "class_latency", "dim7:2", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "dim7"));
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "class_width", "dim1:0", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "class_width"));
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "class_width", "swap:8", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "no link class 'swap'"));
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "link_width", "1", err, sizeof err); /* 64 cycles a flit: the limit */
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    assert_non_null(s);
    noc_sim_destroy(s);
    noc_config_set(&cfg, "flit_width", "65", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "at most 64"));
    noc_config_defaults(&cfg); /* a whole VC allocator: 5 ports x 13 VCs are more than 64 output VCs */
    noc_config_set(&cfg, "vc_allocator", "max_size", err, sizeof err);
    noc_config_set(&cfg, "num_vcs", "13", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "more than the 64"));
    noc_config_set(&cfg, "num_vcs", "12", err, sizeof err);
    s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    assert_non_null(s);
    noc_sim_destroy(s);
    noc_config_set(&cfg, "vc_allocator", "select", err, sizeof err);
    noc_config_set(&cfg, "alloc_iters", "2", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "select with 2 rounds is not modelled"));
    noc_config_set(&cfg, "vc_allocator", "pim(2)", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "unknown allocator 'pim(2)'"));
    noc_config_defaults(&cfg);
    noc_config_set(&cfg, "router", "warp", err, sizeof err);
    assert_null(noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err));
    assert_non_null(strstr(err, "warp"));
    noc_topo_destroy(t);
}

/* The progress hook (noc_sim_set_progress): called once every `every`
 * cycles, after the cycle, with the run's phase; and the run is the same
 * cycle for cycle with or without it. */
typedef struct seen {
    uint64_t calls, last, phases[3];
} seen_t;

static void count_progress(const noc_sim_t *s, void *ctx)
{
    seen_t *v = ctx;
    noc_sim_where_t w;
    noc_sim_where(s, &w);
    assert_true(w.now >= v->last + 16 || v->calls == 0);
    v->last = w.now;
    v->calls++;
    v->phases[w.phase]++;
}

static void test_progress_hook(void **state)
{
    (void)state;
    static const char *const kv[] = { "injection_rate=0.2", "warmup_cycles=100", "sample_cycles=300", NULL };
    run_t a, b;
    build(&a, "mesh:4x4", 0, kv);
    build(&b, "mesh:4x4", 0, kv);
    seen_t v = { 0 };
    noc_sim_set_progress(b.sim, count_progress, &v, 16);
    assert_int_equal(noc_sim_run(a.sim), NOC_RUN_OK);
    assert_int_equal(noc_sim_run(b.sim), NOC_RUN_OK);
    const noc_stats_t *sa = noc_sim_stats(a.sim), *sb = noc_sim_stats(b.sim);
    assert_int_equal(sa->cycles, sb->cycles);
    assert_int_equal(sa->latency.sum, sb->latency.sum);
    assert_int_equal(sa->flit_hops, sb->flit_hops);
    assert_int_equal(v.calls, sb->cycles / 16); /* after cycles 16, 32, ... */
    assert_int_equal(v.phases[0], 100 / 16);     /* warm-up: cycles 16 .. 96 */
    assert_true(v.phases[1] >= 300 / 16);
    drop(&a);
    drop(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load_mesh),
        cmocka_unit_test(test_progress_hook),
        cmocka_unit_test(test_zero_load_torus_pipeline),
        cmocka_unit_test(test_invariants_random),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_order_independence),
        cmocka_unit_test(test_deadlock_detected),
        cmocka_unit_test(test_saturation_is_a_result),
        cmocka_unit_test(test_serialised_links),
        cmocka_unit_test(test_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
