/* test_classes.c: traffic classes (classes > 1, traffic/classes.c, the
 * NI's class turns in model/ni.c, the per-class figures and sampling).
 * Worked by hand on ring:4 with neighbour traffic on the ideal router,
 * where every flow has its channels to itself and only the injection
 * channel is shared: two backlogged classes of P-flit packets take turns a
 * flit at a time, so each packet's flits leave two cycles apart and its
 * network latency is L1 + 2(P - 1) (L1: a one-flit packet's alone), each
 * class getting half the channel; with hold_switch_for_packet, or with one
 * VC (a VC held by one class's packet is not another's), whole packets
 * take turns (seen on the injection channel). Then each class's rate, size and pattern
 * (the mean hops of uniform and transpose on mesh:4x4, worked out below),
 * the list rule, the sampler's per-class tests, the refusals and the
 * BookSim2 vectors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/booksim.h"
#include "model/sample.h"
#include "model/sim_internal.h"
#include "traffic/classes.h"
#include "testbench/unit/script_traffic.h"

/* The latency of a packet of `size` flits from node 0 to node 1 of
 * ring:4, alone, on `router`. */
static uint64_t alone(int size, const char *router)
{
    script_t sc = {0};
    script_add(&sc, 0, 0, 1, size);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "ring:4", 0, &sc, (const char *const[]){router, NULL});
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    uint64_t lat = noc_sim_stats(s)->latency.sum;
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    return lat;
}

typedef struct {
    noc_topo_t *t;
    noc_class_traffic_t ct;
    noc_sim_t *s;
} run_t;

/* A run of spec with classes and parameters kv (NULL-terminated); 0, or
 * -1 with the message in err when it is refused. */
static int class_run(run_t *r, const char *spec, const char *const *kv, char *err, size_t errlen)
{
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, kv);
    memset(r, 0, sizeof *r);
    r->t = noc_topo_create(spec, 0, err, errlen);
    if (!r->t)
        fail_msg("%s", err);
    if (noc_class_traffic_init(&r->ct, &cfg, r->t, err, errlen) != 0)
        return -1;
    r->s = noc_sim_create(&cfg, noc_topo_graph(r->t), noc_class_traffic(&r->ct), err, errlen);
    if (!r->s)
        return -1;
    assert_int_equal(noc_sim_run(r->s), NOC_RUN_OK);
    return 0;
}

static void run_free(run_t *r)
{
    noc_sim_destroy(r->s);
    noc_class_traffic_free(&r->ct);
    noc_topo_destroy(r->t);
}

static const noc_class_stats_t *cls(const run_t *r, int c)
{
    int C;
    const noc_class_stats_t *cs = noc_sim_class_stats(r->s, &C);
    assert_non_null(cs);
    assert_true(c < C);
    return &cs[c];
}

/* Two classes of 4-flit packets, each offered a flit a cycle at every
 * node (twice what the injection channel carries): both always have a
 * packet waiting, the turns alternate every flit. */
static void test_flit_turns(void **state)
{
    (void)state;
    const uint64_t L1 = alone(1, "router=ideal"), P = 4;
    char err[512];
    run_t r;
    if (class_run(&r, "ring:4",
                  (const char *const[]){"router=ideal", "traffic=neighbor", "classes=2", "packet_size=4",
                                        "injection_rate=1", "num_vcs=2", "sample_cycles=2000", NULL},
                  err, sizeof err))
        fail_msg("%s", err);
    for (int c = 0; c < 2; c++) {
        const noc_class_stats_t *cs = cls(&r, c);
        assert_true(cs->packets > 100);
        assert_int_equal(cs->net_latency.min, L1 + 2 * (P - 1));
        assert_int_equal(cs->net_latency.max, L1 + 2 * (P - 1));
        /* half the channel each: 1000 flits a node in the 2000 cycles, give or take a packet */
        assert_true(cs->window_flits_in >= 4 * (1000 - P) && cs->window_flits_in <= 4 * (1000 + P));
    }
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_int_equal(st->packets, cls(&r, 0)->packets + cls(&r, 1)->packets);
    assert_int_equal(st->window_flits_out, cls(&r, 0)->window_flits_out + cls(&r, 1)->window_flits_out);
    run_free(&r);
}

/* What node 0's NI sent, flit by flit (an observer reads its injection
 * channel at the start of each cycle: the flit sent the cycle before). */
typedef struct {
    int n, switches, mid_switches; /* flits seen; class changes; of which inside a packet */
    int last_cls;
} seen_t;

static void watch_injection(const noc_sim_t *s, void *ctx)
{
    seen_t *w = ctx;
    int c = s->n_ports + 0;
    if (s->now == 0)
        return;
    uint32_t i = (uint32_t)c * s->cap + (uint32_t)((s->now - 1 + s->chan_delay[c]) & s->mask);
    if (!s->ring_valid[i])
        return;
    const noc_flit_t *f = &s->ring_flit[i];
    int cl = s->pkts[f->pkt].cls;
    if (w->n++ > 0 && cl != w->last_cls) {
        w->switches++;
        w->mid_switches += f->seq != 0;
    }
    w->last_cls = cl;
}

/* Whole packets take turns: with hold_switch_for_packet (the class
 * under way keeps the channel while its VC has credits), and with one VC
 * (the other class finds it held until the tail has left); without
 * either the classes alternate every flit. Seen on node 0's injection
 * channel (mesh:2x2, bitcomp: node 0 to node 3), the classes backlogged. */
static void test_packet_turns(void **state)
{
    (void)state;
    const char *variant[3][2] = { { "hold_switch_for_packet=1", "num_vcs=4" }, { "num_vcs=1", "num_vcs=1" },
                                  { "num_vcs=4", "num_vcs=4" } };
    for (int v = 0; v < 3; v++) {
        char err[512];
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        script_config(&cfg, (const char *const[]){"traffic=bitcomp", "classes=2", "packet_size=4", "injection_rate=1",
                                                  variant[v][0], variant[v][1], NULL});
        noc_topo_t *t = noc_topo_create("mesh:2x2", 0, err, sizeof err);
        noc_class_traffic_t ct;
        assert_int_equal(noc_class_traffic_init(&ct, &cfg, t, err, sizeof err), 0);
        noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), noc_class_traffic(&ct), err, sizeof err);
        if (!s)
            fail_msg("%s", err);
        seen_t w = { 0, 0, 0, -1 };
        for (int k = 0; k < 400; k++) /* (backlogged from the first cycles: offered twice what the NI sends) */
            noc_sim_step(s);
        noc_sim_set_observer(s, watch_injection, &w);
        for (int k = 0; k < 2000; k++)
            noc_sim_step(s);
        assert_true(w.n > 1000);
        if (v < 2) { /* whole packets: a switch at a head only, and at every head (the other class waits) */
            assert_int_equal(w.mid_switches, 0);
            assert_true(w.switches >= w.n / 4 - 2);
        } else { /* a switch after every flit that had the other class waiting with a credit */
            assert_true(w.mid_switches > w.n / 2);
        }
        noc_sim_destroy(s);
        noc_class_traffic_free(&ct);
        noc_topo_destroy(t);
    }
}

/* Each class its own rate, size and pattern, below saturation on
 * mesh:4x4: class 0 one-flit uniform packets at 0.1 flits a node and
 * cycle, class 1 four-flit transpose packets at 0.05. Mean hops: uniform
 * without self traffic, the sum of |dx| + |dy| over the 240 ordered pairs
 * (each dimension's 16 pairs of coordinates sum to 20, over 16 rows: 2 x
 * 320) / 240 = 8/3; transpose sends (x,y) to (y,x), 2|x - y| hops, the 4
 * nodes with x = y sending nothing: 6 nodes at 2, 4 at 4, 2 at 6, 10/3. */
static void test_rates_sizes_patterns(void **state)
{
    (void)state;
    char err[512];
    run_t r;
    if (class_run(&r, "mesh:4x4",
                  (const char *const[]){"classes=2", "class_injection_rate=0.1,0.05", "class_packet_size=1,4",
                                        "class_traffic=uniform,transpose", "sample_cycles=20000", NULL},
                  err, sizeof err))
        fail_msg("%s", err);
    const noc_class_stats_t *c0 = cls(&r, 0), *c1 = cls(&r, 1);
    assert_int_equal(c0->flits, c0->packets);
    assert_int_equal(c1->flits, 4 * c1->packets);
    double w = 16.0 * 20000.0; /* node-cycles of the window */
    assert_float_equal((double)c0->window_flits_offered / w, 0.1, 0.004);
    /* transpose: only 12 of the 16 nodes make packets */
    assert_float_equal((double)c1->window_flits_offered / w, 0.05 * 12 / 16, 0.004);
    assert_float_equal(noc_lat_avg(&c0->hops), 8.0 / 3.0, 0.03);
    assert_float_equal(noc_lat_avg(&c1->hops), 10.0 / 3.0, 0.05);
    run_free(&r);
}

/* A class alone (class 0 sends nothing): its packets leave at once, as a
 * single class's would (the NI's turn comes with any class's packet). */
static void test_lone_class(void **state)
{
    (void)state;
    char err[512];
    run_t r;
    if (class_run(&r, "mesh:4x4", (const char *const[]){"classes=2", "class_injection_rate=0,0.1", NULL}, err,
                  sizeof err))
        fail_msg("%s", err);
    assert_int_equal(cls(&r, 0)->packets, 0);
    assert_true(cls(&r, 1)->packets > 10000);
    assert_float_equal((double)cls(&r, 1)->window_flits_out / (16.0 * 10000.0), 0.1, 0.005);
    const noc_stats_t *st = noc_sim_stats(r.s);
    assert_true(noc_lat_avg(&st->queue_latency) < 1.0); /* (a packet waits only for the one before it) */
    run_free(&r);
}

/* The list rule: commas split, except inside parentheses and braces; a
 * short list repeats its last value; an empty one is the default. */
static void test_lists(void **state)
{
    (void)state;
    char items[NOC_MAX_CLASSES][256], err[256];
    assert_int_equal(noc_class_list("k", "0.1,0.2", "9", 3, items, err, sizeof err), 0);
    assert_string_equal(items[0], "0.1");
    assert_string_equal(items[1], "0.2");
    assert_string_equal(items[2], "0.2");
    assert_int_equal(noc_class_list("k", "", "9", 2, items, err, sizeof err), 0);
    assert_string_equal(items[1], "9");
    assert_int_equal(noc_class_list("k", "hotspot({0,1},{2,3}), uniform", "", 2, items, err, sizeof err), 0);
    assert_string_equal(items[0], "hotspot({0,1},{2,3})");
    assert_string_equal(items[1], "uniform");
    assert_int_equal(noc_class_list("class_traffic", "a,b,c", "", 2, items, err, sizeof err), -1);
    assert_non_null(strstr(err, "class_traffic"));
    assert_non_null(strstr(err, "more values than there are classes (2)"));
    assert_int_equal(noc_class_list("k", "1,,2", "", 3, items, err, sizeof err), -1);
    assert_non_null(strstr(err, "empty"));
}

/* BookSim2's _SingleSim tests each class: one class past latency_thres
 * stops the run as unstable; one class's change past a threshold keeps
 * every class warming up or unconverged. */
static void test_sampler(void **state)
{
    (void)state;
    noc_sampler_t sm = { .warmup_periods = 0, .max_samples = 20, .warmup_thres = 0.05, .acc_warmup_thres = 0.05,
                         .stopping_thres = 0.05, .acc_stopping_thres = 0.05, .latency_thres = 100.0 };
    noc_sampler_start(&sm);
    double lat[2] = { 20.0, 30.0 }, acc[2] = { 0.1, 0.1 }, thr[2] = { 20.0, 30.0 };
    noc_sampler_period_classes(&sm, 2, lat, acc, thr); /* (the first period: every change is 1) */
    lat[1] = 40.0;
    thr[1] = 40.0;
    noc_sampler_period_classes(&sm, 2, lat, acc, thr); /* class 1 changed by 25%: still warming up */
    assert_int_equal(sm.state, NOC_SAMPLING_WARMUP);
    noc_sampler_period_classes(&sm, 2, lat, acc, thr); /* both steady: warmed up */
    assert_int_equal(sm.state, NOC_SAMPLING_RUNNING);
    for (int k = 0; k < 2; k++)
        noc_sampler_period_classes(&sm, 2, lat, acc, thr);
    assert_int_equal(sm.converged, 2);
    acc[1] = 0.2; /* class 1's throughput moves: the count starts again */
    noc_sampler_period_classes(&sm, 2, lat, acc, thr);
    assert_int_equal(sm.converged, 0);
    thr[1] = 101.0; /* class 1 past latency_thres, class 0 well below */
    noc_sampler_period_classes(&sm, 2, lat, acc, thr);
    assert_int_equal(sm.state, NOC_SAMPLING_DONE);
    assert_int_equal(sm.stop, NOC_STOP_UNSTABLE);
}

/* What classes are not built with is refused by name. */
static void test_refusals(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        { "use_read_write=1", "use_read_write" }, { "sim_type=batch", "batch" },
        { "ni_ports=0", "ni_ports" }, { "classes=9", "classes" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512] = "";
        run_t r;
        assert_int_equal(class_run(&r, "mesh:4x4", (const char *const[]){"classes=2", "num_vcs=4", bad[i][0], NULL},
                                   err, sizeof err),
                         -1);
        assert_non_null(strstr(err, bad[i][1]));
        noc_class_traffic_free(&r.ct);
        noc_topo_destroy(r.t);
    }
    char err[512] = "";
    run_t r;
    assert_int_equal(class_run(&r, "mesh:4x4",
                               (const char *const[]){"classes=2", "class_packet_size=1,0", NULL}, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "traffic class 1"));
    assert_non_null(strstr(err, "packet_size"));
    noc_topo_destroy(r.t);
}

/* BookSim2 text s (lines), read as a file named path; what it says
 * about the lines into diag (NULL: stderr). */
static int bs_load(noc_config_t *cfg, const char *path, const char *s, char *err, size_t errlen, FILE *diag)
{
    char *copy = strdup(s), *lines[16];
    noc_bs_text_t t = { path, lines, 0 };
    for (char *p = copy, *e; *p && t.n < 16; p = e + 1) {
        e = strchr(p, '\n');
        *e = '\0';
        lines[t.n++] = p;
    }
    noc_config_defaults(cfg);
    int rc = noc_bs_load(cfg, &t, diag ? diag : stderr, err, errlen);
    free(copy);
    return rc;
}

/* A BookSim2 file's vectors: noctua's class_ lists, and the first value
 * to the key; too many values, several sizes in a class and vectors of
 * other keys refused with their lines. */
static void test_booksim_vectors(void **state)
{
    (void)state;
    const char *good = "topology = mesh; k = 4; n = 2; routing_function = dim_order; classes = 3;\n"
                       "injection_rate = {0.1,0.05};\npacket_size = {1,4,2};\n"
                       "traffic = {uniform,hotspot({{0,3},{1,2}})};\ninjection_process = {bernoulli,on_off};\n";
    noc_config_t cfg;
    char err[2048];
    if (bs_load(&cfg, "good.cfg", good, err, sizeof err, NULL) != 0)
        fail_msg("%s", err);
    assert_int_equal(cfg.classes, 3);
    assert_string_equal(cfg.class_injection_rate, "0.1,0.05");
    assert_string_equal(cfg.class_packet_size, "1,4,2");
    assert_string_equal(cfg.class_traffic, "uniform,hotspot({0,3},{1,2})");
    assert_string_equal(cfg.class_injection_process, "bernoulli,on_off");
    assert_float_equal(cfg.injection_rate, 0.1, 1e-12);
    assert_int_equal(cfg.packet_size, 1);
    static const char *const bad[][2] = {
        { "injection_rate = {0.1,0.05,0.2};\n", "3 values for 2 traffic classes" },
        { "packet_size = {{1,2},4};\n", "several sizes in a class" },
        { "latency_thres = {100,200};\n", "per-class vectors are not honoured for this key" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "topology = mesh; k = 4; n = 2; routing_function = dim_order; classes = 2;\n%s",
                 bad[i][0]);
        FILE *diag = tmpfile();
        assert_int_equal(bs_load(&cfg, "bad.cfg", text, err, sizeof err, diag), -1);
        char said[1024] = "";
        rewind(diag);
        size_t got = fread(said, 1, sizeof said - 1, diag);
        said[got] = '\0';
        fclose(diag);
        if (!strstr(said, bad[i][1]) || !strstr(said, "bad.cfg:2"))
            fail_msg("%s", said);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flit_turns),      cmocka_unit_test(test_packet_turns), cmocka_unit_test(test_rates_sizes_patterns),
        cmocka_unit_test(test_lone_class),
        cmocka_unit_test(test_lists),           cmocka_unit_test(test_sampler),      cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_booksim_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
