/* test_read_write.c: request/reply traffic (use_read_write,
 * model/read_write.c). A request's reply, timed from the request's arrival
 * and sent a cycle later, on a zero-load fabric (its latency from the
 * request's alone); every flit on a VC of its kind's range, each kind's
 * range split into the routing's classes; the NI's VC choice of BookSim2
 * (outside the kind's range, the range's first VC only); the load of
 * requests and replies against the sizes; the flit-rate conversion of
 * BookSim2 files; and the refusals. */
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
#include "routers/vc/vc.h"
#include "traffic/synthetic.h"
#include "testbench/unit/script_traffic.h"

/* One scripted run to its end: its statistics into *st. */
static void script_run(const char *spec, script_t *sc, const char *const *kv, noc_stats_t *st)
{
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, spec, 0, sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    *st = *noc_sim_stats(s);
    st->lat_hist = NULL; /* (freed with the simulator) */
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A packet of `size` flits from node 0 to node 3 of mesh:4x4 (3 hops) at
 * cycle 0, alone: its latency N. */
static uint64_t alone(int size)
{
    script_t sc = {0};
    script_add(&sc, 0, 0, 3, size);
    noc_stats_t st;
    script_run("mesh:4x4", &sc, (const char *const[]){"num_vcs=4", NULL}, &st);
    assert_int_equal(st.packets, 1);
    assert_int_equal(st.queue_latency.sum, 0);
    return st.latency.sum;
}

/* The request takes N cycles (nothing else moves); its reply is made when
 * its tail arrives and starts a cycle later, back over the same 3 hops: a
 * latency of 1 + the network latency of a packet of its size alone. */
static void test_reply_timing(void **state)
{
    (void)state;
    uint64_t n1 = alone(1), n4 = alone(4), n2 = alone(2);
    assert_true(n4 == n1 + 3 && n2 == n1 + 1); /* (one flit a cycle behind the head) */
    const char *const rw[] = {"num_vcs=4", "use_read_write=1", "read_reply_size=4", "write_reply_size=2", NULL};
    struct {
        int kind;
        uint64_t reply;
    } c[] = {{NOC_PKT_READ_REQ, n4}, {NOC_PKT_WRITE_REQ, n2}};
    for (int i = 0; i < 2; i++) {
        script_t sc = {0};
        script_add_kind(&sc, 0, 0, 3, 1, c[i].kind);
        noc_stats_t st;
        script_run("mesh:4x4", &sc, rw, &st);
        assert_int_equal(st.packets, 2);
        assert_int_equal(st.flits, 1 + (c[i].kind == NOC_PKT_READ_REQ ? 4 : 2));
        assert_int_equal(st.net_latency.sum, n1 + c[i].reply);
        assert_int_equal(st.queue_latency.sum, 1);
        assert_int_equal(st.latency.sum, n1 + c[i].reply + 1);
        assert_int_equal(st.hops.sum, 6);
        assert_int_equal(st.packets_created, 2);
    }
    /* without use_read_write a request is an ordinary packet: no reply */
    script_t sc = {0};
    script_add_kind(&sc, 0, 0, 3, 1, NOC_PKT_ANY);
    noc_stats_t st;
    script_run("mesh:4x4", &sc, rw, &st);
    assert_int_equal(st.packets, 1);
}

/* Every flit in a channel (network, injection, ejection) is on a VC of its
 * packet's kind; returns a mask of the kinds seen. */
static unsigned scan_kinds(const noc_sim_t *s)
{
    unsigned seen = 0;
    for (int c = 0; c < s->n_chan; c++)
        for (uint32_t i = 0; i < s->cap; i++) {
            size_t k = (size_t)c * s->cap + i;
            if (!s->ring_valid[k])
                continue;
            const noc_flit_t *f = &s->ring_flit[k];
            int kind = s->pkts[f->pkt].type;
            if (f->vc < s->rw_lo[kind] || f->vc >= s->rw_hi[kind])
                fail_msg("channel %d: a flit of kind %d on VC %d, outside [%d, %d)", c, kind, f->vc, s->rw_lo[kind],
                         s->rw_hi[kind]);
            seen |= 1u << kind;
        }
    return seen;
}

static noc_sim_t *synthetic(noc_topo_t **t, noc_synthetic_t *syn, const char *spec, const char *const *kv)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, kv);
    *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!*t || noc_synthetic_init(syn, &cfg, *t, err, sizeof err) != 0)
        fail_msg("%s", err);
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(*t), noc_synthetic_traffic(syn), err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* Overlapping ranges of requests, replies of one VC and of two: every
 * flit stays in its kind's, all four kinds travel, and the checker finds
 * the work counts (reply queues included) right every cycle. */
static void test_kind_vcs(void **state)
{
    (void)state;
    /* (the torus's two classes need two VCs of every range) */
    const char *const kv[2][15] = {
        {"num_vcs=6", "use_read_write=1", "injection_rate=0.3", "read_request_begin_vc=0", "read_request_end_vc=1",
         "write_request_begin_vc=1", "write_request_end_vc=2", "read_reply_begin_vc=3", "read_reply_end_vc=4",
         "write_reply_begin_vc=5", "write_reply_end_vc=5", "read_reply_size=3", "write_request_size=2", NULL},
        {"num_vcs=7", "use_read_write=1", "injection_rate=0.3", "read_request_begin_vc=0", "read_request_end_vc=1",
         "write_request_begin_vc=1", "write_request_end_vc=2", "read_reply_begin_vc=3", "read_reply_end_vc=4",
         "write_reply_begin_vc=5", "write_reply_end_vc=6", "read_reply_size=3", "write_request_size=2", NULL}};
    const char *specs[] = {"mesh:4x4", "torus:4x4"};
    for (int i = 0; i < 2; i++) {
        noc_topo_t *t;
        noc_synthetic_t syn;
        noc_sim_t *s = synthetic(&t, &syn, specs[i], kv[i]);
        unsigned seen = 0;
        char err[256];
        for (int cyc = 0; cyc < 3000; cyc++) {
            noc_sim_step(s);
            seen |= scan_kinds(s);
            if (cyc % 97 == 0 && noc_sim_check(s, err, sizeof err) != 0)
                fail_msg("%s, cycle %d: %s", specs[i], cyc, err);
        }
        assert_int_equal(seen, 0x1eu); /* the four kinds, no plain packet */
        noc_sim_destroy(s);
        noc_synthetic_free(&syn);
        noc_topo_destroy(t);
    }
}

/* The vc router's masks: on a torus (two dateline classes) with 4 VCs,
 * requests on 0-1 and replies on 2-3, class c of a kind is VC lo + c; the
 * ejection (any class) takes the kind's whole range. */
static void test_kind_class_masks(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_synthetic_t syn;
    noc_sim_t *s = synthetic(&t, &syn, "torus:4x4",
                             (const char *const[]){"num_vcs=4", "use_read_write=1", NULL}); /* (-1: the halves) */
    const vc_state_t *r = s->rstate;
    assert_int_equal(noc_sim_graph(s)->n_vclasses, 2);
    const uint64_t want[NOC_PKT_TYPES][3] = {{0x3, 0xc, 0xf}, {0x1, 0x2, 0x3}, {0x1, 0x2, 0x3}, {0x4, 0x8, 0xc},
                                             {0x4, 0x8, 0xc}};
    for (int k = 0; k < NOC_PKT_TYPES; k++) {
        assert_int_equal(r->class_mask[k * VC_KIND_STRIDE + 0], want[k][0]);
        assert_int_equal(r->class_mask[k * VC_KIND_STRIDE + 1], want[k][1]);
        assert_int_equal(r->class_mask[k * VC_KIND_STRIDE + VC_ANY_CLASS], want[k][2]);
    }
    noc_sim_destroy(s);
    noc_synthetic_free(&syn);
    noc_topo_destroy(t);
}

/* The NI's VC for each packet it starts, in order (injection channels). */
typedef struct inj {
    int n;
    uint64_t id[16];
    int node[16], kind[16], vc[16];
} inj_t;

static void scan_injections(const noc_sim_t *s, inj_t *in)
{
    for (int t = 0; t < s->n_terms; t++) {
        int c = s->n_ports + t;
        for (uint32_t i = 0; i < s->cap; i++) {
            size_t k = (size_t)c * s->cap + i;
            const noc_flit_t *f = &s->ring_flit[k];
            if (!s->ring_valid[k] || !(f->flags & NOC_FLIT_HEAD))
                continue;
            uint64_t id = s->pkts[f->pkt].id;
            int known = 0;
            for (int j = 0; j < in->n; j++)
                known |= in->id[j] == id;
            if (known)
                continue;
            assert_true(in->n < 16);
            in->id[in->n] = id;
            in->node[in->n] = t;
            in->kind[in->n] = s->pkts[f->pkt].type;
            in->vc[in->n] = f->vc;
            in->n++;
        }
    }
}

/* Node 0 of mesh:2x2 (4 VCs, requests on 0-1, replies on 2-3) sends a
 * request (its pointer, 3, is outside 0-1: VC 0), answers node 1's request
 * (pointer 0, outside 2-3: VC 2), then sends two more requests: the first
 * again on VC 0 (the pointer, 2, is outside the range: only its first VC
 * is tried, as BookSim2's sources do), the next on VC 1 (round robin). */
static void test_ni_vc_choice(void **state)
{
    (void)state;
    script_t sc = {0};
    script_add_kind(&sc, 0, 0, 1, 1, NOC_PKT_READ_REQ);
    script_add_kind(&sc, 100, 0, 1, 1, NOC_PKT_READ_REQ);
    script_add_kind(&sc, 200, 0, 1, 1, NOC_PKT_WRITE_REQ);
    script_add_kind(&sc, 0, 1, 0, 1, NOC_PKT_READ_REQ);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:2x2", 0, &sc, (const char *const[]){"num_vcs=4", "use_read_write=1", NULL});
    inj_t in = {0};
    for (int cyc = 0; cyc < 400; cyc++) {
        noc_sim_step(s);
        scan_injections(s, &in);
    }
    const int kind[] = {NOC_PKT_READ_REQ, NOC_PKT_READ_REP, NOC_PKT_READ_REQ, NOC_PKT_WRITE_REQ};
    const int vc[] = {0, 2, 0, 1};
    int k = 0;
    for (int j = 0; j < in.n; j++) {
        if (in.node[j] != 0)
            continue;
        assert_true(k < 4);
        assert_int_equal(in.kind[j], kind[k]);
        assert_int_equal(in.vc[j], vc[k]);
        k++;
    }
    assert_int_equal(k, 4);
    assert_int_equal(in.n, 8); /* node 1: its request and three replies */
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* The load: reads of 1 + 1 flits and writes of 3 + 3, a quarter writes: a
 * transaction is 2 + 4 / 4 = 3 flits on average, so 0.15 flits per node
 * per cycle is 0.05 requests, and as many replies; what arrives in the
 * window is that load, and the run drains (every measured reply too). */
static void test_load(void **state)
{
    (void)state;
    const char *const kv[] = {"use_read_write=1", "write_fraction=0.25", "write_request_size=3",
                              "write_reply_size=3", "injection_rate=0.15", "sample_cycles=20000",
                              "warmup_cycles=2000", "num_vcs=4", NULL};
    noc_topo_t *t;
    noc_synthetic_t syn;
    noc_sim_t *s = synthetic(&t, &syn, "mesh:4x4", kv);
    assert_true(syn.p > 0.05 - 1e-12 && syn.p < 0.05 + 1e-12);
    assert_true(syn.flits > 3.0 - 1e-12 && syn.flits < 3.0 + 1e-12);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    const noc_stats_t *st = noc_sim_stats(s);
    double cells = 16.0 * (double)st->sample;
    double acc = (double)st->window_flits_out / cells, off = (double)st->window_flits_offered / cells;
    double pk = (double)st->packets / cells;
    print_message("accepted %.4f offered %.4f packets %.4f per node per cycle\n", acc, off, pk);
    assert_true(acc > 0.15 * 0.96 && acc < 0.15 * 1.04);
    assert_true(off > 0.15 * 0.96 && off < 0.15 * 1.04);
    assert_true(pk > 0.10 * 0.96 && pk < 0.10 * 1.04);
    assert_true(st->drained);
    assert_int_equal(st->measured_outstanding, 0);
    noc_sim_destroy(s);
    noc_synthetic_free(&syn);
    noc_topo_destroy(t);
}

/* Flits into requests: by the mean flits of a request and its reply
 * (sizes 1 + 2 and 1 + 1, even odds: 2.5), and in a BookSim2 file by
 * BookSim2's (1 + 2 + 1 + 1) / 2 = 2 in integers. */
static void test_rate_conversion(void **state)
{
    (void)state;
    char err[512];
    noc_topo_t *t = noc_topo_create("mesh:4x4", 0, err, sizeof err);
    for (int bs = 0; bs < 2; bs++) {
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        script_config(&cfg, (const char *const[]){"use_read_write=1", "read_reply_size=2", "injection_rate=0.1",
                                                  bs ? "booksim=1" : "booksim=0", NULL});
        noc_synthetic_t syn;
        assert_int_equal(noc_synthetic_init(&syn, &cfg, t, err, sizeof err), 0);
        double want = bs ? 0.05 : 0.04;
        assert_true(syn.p > want - 1e-12 && syn.p < want + 1e-12);
        assert_true(syn.flits > 2.5 - 1e-12 && syn.flits < 2.5 + 1e-12);
        noc_synthetic_free(&syn);
    }
    noc_topo_destroy(t);
}

/* Refused by name: what expect names must be in the message. */
static void refused_flags(const char *spec, unsigned flags, const char *const *kv, const char *expect)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, kv);
    noc_topo_t *t = noc_topo_create(spec, flags, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    noc_synthetic_t syn;
    noc_sim_t *s = NULL;
    if (noc_synthetic_init(&syn, &cfg, t, err, sizeof err) == 0) {
        s = noc_sim_create(&cfg, noc_topo_graph(t), noc_synthetic_traffic(&syn), err, sizeof err);
        noc_synthetic_free(&syn);
    }
    if (s)
        fail_msg("%s with %s: not refused", spec, kv[1]);
    if (!strstr(err, expect))
        fail_msg("'%s' does not name '%s'", err, expect);
    noc_topo_destroy(t);
}

static void refused(const char *spec, const char *const *kv, const char *expect)
{
    refused_flags(spec, 0, kv, expect);
}

static void test_refusals(void **state)
{
    (void)state;
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "router=ideal", NULL}, "use router=vc");
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "threads=2", NULL}, "use_read_write");
    refused_flags("mesh:4x4", NOC_TOPO_F_MIN_ADAPT, (const char *const[]){"use_read_write=1",
                  "routing_function=min_adapt", "num_vcs=4", "va_in_pointer=router", NULL}, "adaptive routing");
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "num_vcs=4", "read_reply_end_vc=7", NULL},
            "'read_reply_end_vc'");
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "num_vcs=4", "write_request_begin_vc=2",
                                              "write_request_end_vc=1", NULL}, "'write_request_begin_vc'");
    refused("torus:4x4", (const char *const[]){"use_read_write=1", "num_vcs=4", "read_request_end_vc=0", NULL},
            "2 VC classes");
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "num_vcs=1", NULL}, "num_vcs = 1");
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "write_reply_size=0", NULL}, "'write_reply_size'");
    refused("mesh:4x4", (const char *const[]){"use_read_write=1", "write_fraction=1.5", NULL}, "'write_fraction'");
}

/* The first-VC rule when that VC has no credit: one-flit buffers; node 1's
 * request reaches node 0 in cycle N (its latency alone), when node 0
 * sends request R1 (VC 0) and queues R2. In N + 1 the reply goes first
 * (VC 2); in N + 2 R2's pointer (2) is outside 0-1, so only VC 0 is
 * tried, whose one credit R1 still holds (it is back a few cycles later,
 * after R1 has left the router): R2 waits and then takes VC 0, where a
 * search of the whole range would take VC 1 at once. */
static void test_ni_first_vc_waits(void **state)
{
    (void)state;
    script_t one = {0};
    script_add(&one, 0, 1, 0, 1);
    noc_stats_t st;
    script_run("mesh:2x2", &one, (const char *const[]){"num_vcs=4", "vc_buf_size=1", NULL}, &st);
    uint64_t N = st.latency.sum;
    script_t sc = {0};
    script_add_kind(&sc, N, 0, 1, 1, NOC_PKT_READ_REQ);
    script_add_kind(&sc, N + 1, 0, 1, 1, NOC_PKT_READ_REQ);
    script_add_kind(&sc, 0, 1, 0, 1, NOC_PKT_READ_REQ);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:2x2", 0, &sc,
                              (const char *const[]){"num_vcs=4", "vc_buf_size=1", "use_read_write=1", NULL});
    inj_t in = {0};
    for (int cyc = 0; cyc < 200; cyc++) {
        noc_sim_step(s);
        scan_injections(s, &in);
    }
    const int kind[] = {NOC_PKT_READ_REQ, NOC_PKT_READ_REP, NOC_PKT_READ_REQ};
    int k = 0;
    for (int j = 0; j < in.n; j++) {
        if (in.node[j] != 0)
            continue;
        assert_true(k < 3);
        assert_int_equal(in.kind[j], kind[k]);
        assert_int_equal(in.vc[j], k == 1 ? 2 : 0);
        k++;
    }
    assert_int_equal(k, 3);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reply_timing),  cmocka_unit_test(test_kind_vcs),
        cmocka_unit_test(test_kind_class_masks), cmocka_unit_test(test_ni_vc_choice),
        cmocka_unit_test(test_ni_first_vc_waits),
        cmocka_unit_test(test_load),          cmocka_unit_test(test_rate_conversion),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
