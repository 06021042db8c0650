/* test_check.c: the invariant checker (noc_sim_check, model/check.c) fed
 * broken states. The other tests call it after every cycle and rely on it
 * to fail; here a network with traffic in flight gets exactly one fault at a
 * time, made through sim_internal.h (and the vc router's own layout for its
 * registers), and the checker must report it with a message that names that
 * kind of fault: a credit too many or too few (in flight, held by a router,
 * held by an NI), a flit duplicated, dropped from a channel or from a
 * buffer, or carrying a dead packet, a work count off by one, a node with
 * work off the active list. The untouched state must pass. */
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
#include "testbench/unit/script_traffic.h"
#include "traffic/synthetic.h"

typedef struct run {
    noc_topo_t *topo;
    noc_synthetic_t syn;
    noc_sim_t *sim;
} run_t;

/* mesh:4x4 under uniform traffic at 0.5 flits/node/cycle, 3-flit packets,
 * run for 300 cycles with the checker passing after every one: flits on
 * links, in buffers and credits on their way back everywhere. */
static void loaded(run_t *r, const char *router)
{
    char err[512], rt[64];
    snprintf(rt, sizeof rt, "router=%s", router);
    const char *kv[] = { "injection_rate=0.5", "packet_size=3", "vc_buf_size=4", "credit_delay=2",
                         "link_latency=2", rt, NULL };
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    script_config(&cfg, kv);
    r->topo = noc_topo_create("mesh:4x4", 0, err, sizeof err);
    assert_non_null(r->topo);
    if (noc_synthetic_init(&r->syn, &cfg, r->topo, err, sizeof err))
        fail_msg("%s", err);
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), noc_synthetic_traffic(&r->syn), err, sizeof err);
    if (!r->sim)
        fail_msg("%s", err);
    for (int c = 0; c < 300; c++) {
        noc_sim_step(r->sim);
        if (noc_sim_check(r->sim, err, sizeof err) != 0)
            fail_msg("cycle %d, before any fault: %s", c, err);
    }
    assert_true(noc_sim_flits_in_network(r->sim) > 20);
}

static void drop(run_t *r)
{
    noc_sim_destroy(r->sim);
    noc_synthetic_free(&r->syn);
    noc_topo_destroy(r->topo);
}

/* The checker must fail, with `what` in its message. */
static void expect_fault(const run_t *r, const char *fault, const char *what)
{
    char err[512] = "";
    int rc = noc_sim_check(r->sim, err, sizeof err);
    print_message("%s: %d \"%s\"\n", fault, rc, err);
    if (rc != -1)
        fail_msg("%s: the checker found nothing wrong", fault);
    if (!strstr(err, what))
        fail_msg("%s: the checker says \"%s\", which does not name the fault (\"%s\")", fault, err, what);
}

/* A network link (not local) holding a flit in some slot of its ring: its
 * channel and ring index in *ring (-1 if none). */
static int flit_on_link(const struct noc_sim *s, uint32_t *ring)
{
    for (int c = 0; c < s->n_ports; c++) {
        if (s->chan_local[c])
            continue;
        for (uint32_t k = 0; k < s->cap; k++)
            if (s->ring_valid[(uint32_t)c * s->cap + k]) {
                *ring = (uint32_t)c * s->cap + k;
                return c;
            }
    }
    return -1;
}

static void test_clean_state_passes(void **state)
{
    (void)state;
    const char *routers[] = { "vc", "ideal" };
    for (int i = 0; i < 2; i++) {
        run_t r;
        char err[512] = "";
        loaded(&r, routers[i]);
        assert_int_equal(noc_sim_check(r.sim, err, sizeof err), 0);
        assert_string_equal(err, "");
        drop(&r);
    }
    /* an empty network too */
    script_t sc = { 0 };
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "ring:4", 0, &sc, NULL);
    char err[512];
    noc_sim_step(s);
    assert_int_equal(noc_sim_check(s, err, sizeof err), 0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* One credit too many on its way back up a link. */
static void test_credit_in_flight(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    int c = 1; /* node 0's first network link */
    assert_false(s->chan_local[c]);
    uint32_t k = (uint32_t)((s->now + 1) & s->mask);
    s->ring_credit[((size_t)c * s->cap + k) * (size_t)s->V + 1]++;
    expect_fault(&r, "a credit too many in flight", "credits on channel 1 VC 1");
    drop(&r);
}

/* One credit lost by the router that holds it (routers/vc's counters). */
static void test_credit_held_by_router(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    vc_state_t *vs = s->rstate;
    int n = 5, p = 1, v = 0;
    vc_node_t *nd = vc_node(vs, n);
    nd->credits[p * vs->V + v]--;
    char want[64];
    snprintf(want, sizeof want, "credits on channel %d VC %d", s->graph->port_base[n] + p, v);
    expect_fault(&r, "a router's credit lost", want);
    drop(&r);
}

/* One credit too many held by an NI for its router's local input VC. */
static void test_credit_held_by_ni(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    int n = 6;
    s->ni_credits[(size_t)n * (size_t)s->V + 1]++;
    char want[64];
    snprintf(want, sizeof want, "credits on channel %d VC 1", s->n_ports + n);
    expect_fault(&r, "an NI's credit too many", want);
    drop(&r);
}

/* One flit copied into a free slot of another link. */
static void test_flit_duplicated(void **state)
{
    (void)state;
    const char *routers[] = { "vc", "ideal" };
    for (int i = 0; i < 2; i++) {
        run_t r;
        loaded(&r, routers[i]);
        struct noc_sim *s = r.sim;
        uint32_t at;
        int c = flit_on_link(s, &at);
        assert_true(c >= 0);
        int c2 = c + 1 < s->n_ports ? c + 1 : c - 1;
        uint32_t free_at = UINT32_MAX;
        for (uint32_t k = 0; k < s->cap && free_at == UINT32_MAX; k++)
            if (!s->ring_valid[(uint32_t)c2 * s->cap + k])
                free_at = (uint32_t)c2 * s->cap + k;
        assert_true(free_at != UINT32_MAX);
        s->ring_flit[free_at] = s->ring_flit[at];
        s->ring_valid[free_at] = 1;
        expect_fault(&r, "a flit duplicated", "is in two places");
        drop(&r);
    }
}

/* One flit gone from a link. */
static void test_flit_dropped_from_link(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    uint32_t at;
    assert_true(flit_on_link(s, &at) >= 0);
    s->ring_valid[at] = 0;
    char want[96];
    snprintf(want, sizeof want, "flit count: %llu flits found in the network, %llu expected",
             (unsigned long long)(s->in_network - 1), (unsigned long long)s->in_network);
    expect_fault(&r, "a flit dropped from a link", want);
    drop(&r);
}

/* One flit gone from a router's input buffer (the front of a VC that holds
 * two or more). */
static void test_flit_dropped_from_buffer(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    vc_state_t *vs = s->rstate;
    int done = 0;
    for (int n = 0; n < s->n_nodes && !done; n++) {
        vc_node_t *nd = vc_node(vs, n);
        int P = s->graph->port_base[n + 1] - s->graph->port_base[n];
        for (int l = 0; l < P * vs->V && !done; l++)
            if (noc_fifo_count(nd->ivc[l].head, nd->ivc[l].tail) >= 2) {
                nd->ivc[l].head++;
                done = 1;
            }
    }
    assert_true(done);
    expect_fault(&r, "a flit dropped from a buffer", "flit count");
    drop(&r);
}

/* One flit that names a packet slot nobody uses. */
static void test_flit_of_dead_packet(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    uint32_t at;
    assert_true(flit_on_link(s, &at) >= 0);
    assert_true(s->pkt_free_n > 0);
    s->ring_flit[at].pkt = s->pkt_free[s->pkt_free_n - 1]; /* a slot given back, free */
    expect_fault(&r, "a flit of a dead packet", "belongs to no live packet");
    drop(&r);
}

/* One work count one too high, another one too low, a node with work off
 * the active list. */
static void test_work_count(void **state)
{
    (void)state;
    run_t r;
    loaded(&r, "vc");
    struct noc_sim *s = r.sim;
    s->work[3]++;
    expect_fault(&r, "a work count one too high", "node 3: work count");
    s->work[3]--;
    int busy = -1;
    for (int n = 0; n < s->n_nodes && busy < 0; n++)
        if (s->work[n] > 0)
            busy = n;
    assert_true(busy >= 0);
    s->work[busy]--;
    char want[64];
    snprintf(want, sizeof want, "node %d: work count", busy);
    expect_fault(&r, "a work count one too low", want);
    s->work[busy]++;
    char err[512];
    assert_int_equal(noc_sim_check(s, err, sizeof err), 0); /* repaired */
    s->listed[busy] = 0;
    snprintf(want, sizeof want, "node %d has work but is not on the active list", busy);
    expect_fault(&r, "a busy node off the active list", want);
    s->listed[busy] = 1;
    drop(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_state_passes),
        cmocka_unit_test(test_credit_in_flight),
        cmocka_unit_test(test_credit_held_by_router),
        cmocka_unit_test(test_credit_held_by_ni),
        cmocka_unit_test(test_flit_duplicated),
        cmocka_unit_test(test_flit_dropped_from_link),
        cmocka_unit_test(test_flit_dropped_from_buffer),
        cmocka_unit_test(test_flit_of_dead_packet),
        cmocka_unit_test(test_work_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
