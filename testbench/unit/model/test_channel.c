/* test_channel.c: model/channel.h. Channels as delay lines: a flit written
 * in cycle t with delay d is read in cycle t+d and not before, per-link class
 * latencies, arrival masks naming the port, several credits per cycle and VC
 * (one counter word or many), the routers' forms that take a ring slot and
 * the far end, and the work counts and active list that keep a node
 * evaluated while anything is on its way to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/channel.h"
#include "routers/registry.h"
#include "topologies/topo.h"

static noc_sim_t *make(noc_topo_t **t, const char *spec, const char *class_latency)
{
    char err[256];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    if (class_latency)
        noc_config_set(&cfg, "class_latency", class_latency, err, sizeof err);
    noc_config_set(&cfg, "link_latency", "3", err, sizeof err);
    *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(*t);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(*t), none, err, sizeof err);
    assert_non_null(s);
    return s;
}

static void test_flit_delay(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = make(&t, "mesh:2x2", "dim1:5");
    /* node 0's + x port leads to node 1 */
    int c = noc_topo_gport(t, 0, 1);
    int to = s->chan_to[c], in_port = s->chan_in_port[c];
    assert_int_equal(to, 1);
    assert_int_equal(s->chan_delay[c], 3);                       /* link_latency */
    assert_int_equal(s->chan_delay[noc_topo_gport(t, 0, 2)], 5); /* dim1 */
    for (uint32_t d = 1; d < s->cap; d++) {
        s->now = 100 + d * 10;
        noc_flit_t f = { .data = (int64_t)d, .vc = 1 };
        noc_chan_send_flit(s, c, d, &f);
        assert_int_equal(noc_work_of(s, to), 1);
        assert_true(s->listed[to]);
        noc_flit_t got;
        for (uint32_t k = 0; k < d; k++) {
            s->now = 100 + d * 10 + k;
            assert_int_equal(noc_chan_recv_flit(s, c, &got), 0);
        }
        s->now = 100 + d * 10 + d;
        uint32_t at = noc_chan_at(s, to, noc_chan_slot(s, s->now));
        assert_int_equal(noc_chan_flits_in(s, at), UINT64_C(1) << in_port);
        noc_chan_flits_seen(s, at, UINT64_C(1) << in_port);
        assert_int_equal(noc_chan_recv_flit(s, c, &got), 1);
        assert_int_equal(got.data, (int64_t)d);
        assert_int_equal(got.vc, 1);
        assert_int_equal(noc_chan_recv_flit(s, c, &got), 0); /* taken once */
        noc_work_sub(s, to, 1); /* what the flit's leaving the router would account */
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_credits(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = make(&t, "mesh:2x2", NULL);
    int c = noc_topo_gport(t, 0, 1); /* credits return to node 0 */
    s->now = 7;
    noc_chan_send_credit(s, c, 0);
    noc_chan_send_credit(s, c, 1);
    noc_chan_send_credit(s, c, 1); /* several in one cycle, even on one VC */
    assert_int_equal(noc_work_of(s, 0), 3);
    int16_t counts[2] = { 0, 0 };
    s->now = 7 + s->credit_delay - 1;
    assert_int_equal(noc_chan_recv_credits(s, c, counts), 0);
    s->now = 7 + s->credit_delay;
    uint64_t m = noc_chan_credits_in(s, noc_chan_at(s, 0, noc_chan_slot(s, s->now)));
    assert_int_equal(m, UINT64_C(1) << 1); /* port 1 of node 0 */
    assert_int_equal(noc_chan_recv_credits(s, c, counts), 3);
    assert_int_equal(counts[0], 1);
    assert_int_equal(counts[1], 2);
    assert_int_equal(noc_work_of(s, 0), 0);
    assert_int_equal(noc_chan_recv_credits(s, c, counts), 0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* The forms a router uses, with the ring slot and the far end given: the flit
 * and the credit are in exactly that slot, the arrival bits name the port,
 * and each is a unit of work of the node it reaches. */
static void test_router_forms(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = make(&t, "mesh:2x2", NULL);
    int c = noc_topo_gport(t, 0, 1); /* node 0 -> node 1 */
    int to = s->chan_to[c], bit = s->chan_in_port[c];
    int from = s->chan_from[c], obit = s->chan_out_port[c];
    s->now = 40;
    uint32_t fs = noc_chan_slot(s, s->now + 2), cs = noc_chan_slot(s, s->now + s->credit_delay);
    noc_flit_t f = { .data = 77, .pkt = 3, .dst = 1, .seq = 2, .hops = 4, .flags = NOC_FLIT_HEAD, .vc = 0,
                     .la_port = 9, .la_class = 9 };
    noc_chan_forward_flit(s, c, fs, to, bit, &f, 1, 1);
    noc_chan_set_lookahead(s, c, fs, 2, 3);
    assert_int_equal(f.hops, 4); /* the router's copy is left alone */
    assert_int_equal(noc_work_of(s, to), 1);
    assert_int_equal(noc_chan_flits_in(s, noc_chan_at(s, to, fs)), UINT64_C(1) << bit);
    for (uint32_t k = 0; k < s->cap; k++) /* in slot fs and nowhere else */
        assert_true((noc_chan_flit_at(s, c, k) != NULL) == (k == fs));
    const noc_flit_t *in = noc_chan_flit_at(s, c, fs);
    assert_int_equal(in->data, 77);
    assert_int_equal(in->seq, 2);
    assert_int_equal(in->vc, 1);
    assert_int_equal(in->hops, 5);
    assert_int_equal(in->la_port, 2);
    assert_int_equal(in->la_class, 3);
    /* a second flit for the same slot is refused, and changes nothing */
    noc_flit_t g = f;
    g.data = 78;
    assert_int_equal(noc_chan_place_flit(s, c, fs, to, bit, &g), 0);
    assert_int_equal(noc_chan_flit_at(s, c, fs)->data, 77);
    assert_int_equal(noc_work_of(s, to), 1);

    noc_chan_send_credit_to(s, c, 1, cs, from, obit);
    noc_chan_send_credit_to(s, c, 1, cs, from, obit);
    assert_int_equal(noc_work_of(s, from), 2);
    assert_int_equal(noc_chan_credits_in(s, noc_chan_at(s, from, cs)), UINT64_C(1) << obit);
    for (uint32_t k = 0; k < s->cap; k++) {
        const uint8_t *cr = noc_chan_credits_at(s, c, k);
        assert_int_equal(cr[0], 0);
        assert_int_equal(cr[1], k == cs ? 2 : 0);
    }

    /* the reader: the flit once, then the credits, off the work counts */
    s->now += 2;
    const noc_flit_t *got = noc_chan_pop_flit(s, c, noc_chan_slot(s, s->now));
    assert_non_null(got);
    assert_int_equal(got->data, 77);
    assert_null(noc_chan_pop_flit(s, c, noc_chan_slot(s, s->now)));
    assert_null(noc_chan_flit_at(s, c, fs));
    noc_work_sub(s, to, 1);
    assert_int_equal(noc_work_of(s, to), 0);
    int16_t counts[2] = { 5, 5 };
    assert_int_equal(noc_chan_pop_credits(s, c, cs, counts), 2);
    assert_int_equal(counts[0], 5);
    assert_int_equal(counts[1], 7);
    assert_int_equal(noc_work_of(s, from), 2); /* pop leaves the work to the caller */
    assert_int_equal(noc_chan_pop_credits(s, c, cs, counts), 0);
    noc_work_sub(s, from, 2);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* The credit counters of a slot are read a word at a time for up to 8 VCs
 * and one by one beyond: both give every VC its own credits, none of a
 * neighbouring channel's or slot's. */
static void test_credits_many_vcs(void **state)
{
    (void)state;
    static const char *vcs[] = { "1", "3", "8", "10" };
    for (size_t i = 0; i < sizeof vcs / sizeof *vcs; i++) {
        char err[256];
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        assert_int_equal(noc_config_set(&cfg, "num_vcs", vcs[i], err, sizeof err), 0);
        noc_topo_t *t = noc_topo_create("mesh:2x2", 0, err, sizeof err);
        assert_non_null(t);
        noc_traffic_t none = { NULL, NULL };
        noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
        if (!s)
            fail_msg("num_vcs=%s: %s", vcs[i], err);
        int V = s->V, c = noc_topo_gport(t, 0, 1), c2 = c + 1;
        s->now = 3;
        for (int v = 0; v < V; v++)
            for (int k = 0; k <= v; k++) /* v+1 credits for VC v */
                noc_chan_send_credit(s, c, v);
        noc_chan_send_credit(s, c2, V - 1);           /* the next channel, same slot */
        s->now = 4;
        noc_chan_send_credit(s, c, 0);                /* the next slot */
        s->now = 3 + s->credit_delay;
        int16_t counts[16] = { 0 };
        int want = V * (V + 1) / 2;
        assert_int_equal(noc_chan_recv_credits(s, c, counts), want);
        for (int v = 0; v < V; v++)
            assert_int_equal(counts[v], v + 1);
        assert_int_equal(counts[V], 0);
        const uint8_t *left = noc_chan_credits_at(s, c, noc_chan_slot(s, s->now));
        for (int v = 0; v < V; v++)
            assert_int_equal(left[v], 0);
        assert_int_equal(noc_chan_credits_at(s, c2, noc_chan_slot(s, s->now))[V - 1], 1);
        assert_int_equal(noc_chan_credits_at(s, c, noc_chan_slot(s, s->now + 1))[0], 1);

        /* a router's read of all its ports at once: each port's credits to
         * its own counters, the ports not asked for left in place */
        int base = noc_topo_gport(t, 1, 0), P = noc_topo_degree(t, 1) + 1;
        assert_true(P >= 3 && P * V <= 64);
        for (int p = 0; p < P; p++)
            for (int v = 0; v < V; v++)
                for (int k = 0; k < p + v; k++) /* p+v credits for VC v of port p */
                    noc_chan_send_credit_to(s, base + p, v, noc_chan_slot(s, s->now), 1, p);
        int16_t all[64] = { 0 };
        uint64_t ports = (UINT64_C(1) << P) - 2; /* all but port 0 */
        int sum = 0;
        for (int p = 1; p < P; p++)
            for (int v = 0; v < V; v++)
                sum += p + v;
        assert_int_equal(noc_chan_pop_port_credits(s, base, ports, noc_chan_slot(s, s->now), all), sum);
        for (int p = 0; p < P; p++)
            for (int v = 0; v < V; v++)
                assert_int_equal(all[p * V + v], p ? p + v : 0);
        const uint8_t *kept = noc_chan_credits_at(s, base, noc_chan_slot(s, s->now));
        for (int v = 0; v < V; v++)
            assert_int_equal(kept[v], v);
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
}

/* Work and the active list: a node is listed once however much work it
 * gets, joins the list at the merge, and leaves it at the prune only with
 * no work left; a flit placed without a send is counted by nobody. */
static void test_work_accounting(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = make(&t, "mesh:2x2", NULL);
    assert_int_equal(s->n_active, 0);
    noc_work_add(s, 2, 1);
    noc_work_add(s, 1, 2);
    noc_work_add(s, 2, 1);
    assert_int_equal(noc_work_of(s, 2), 2);
    assert_int_equal(noc_work_of(s, 1), 2);
    assert_int_equal(s->n_woken, 2);
    noc_work_merge(s);
    assert_int_equal(s->n_woken, 0);
    assert_int_equal(s->n_active, 2);
    assert_int_equal(s->active[0], 2); /* in the order they got work */
    assert_int_equal(s->active[1], 1);
    noc_work_sub(s, 2, 2);
    noc_work_prune(s, s->n_active);
    assert_int_equal(s->n_active, 1);
    assert_int_equal(s->active[0], 1);
    assert_false(s->listed[2]);
    assert_true(s->listed[1]);
    noc_work_add(s, 1, 1); /* listed already: not woken again */
    assert_int_equal(s->n_woken, 0);
    assert_int_equal(noc_work_of(s, 1), 3);

    int c = noc_topo_gport(t, 0, 1);
    noc_flit_t f = { .data = 1 };
    assert_int_equal(noc_chan_place_flit(s, c, noc_chan_slot(s, s->now + 1), s->chan_to[c], s->chan_in_port[c], &f), 1);
    assert_int_equal(noc_work_of(s, s->chan_to[c]), 3); /* node 1: unchanged */

    /* arrival masks: a reader clears only the bits it has seen */
    uint32_t at = noc_chan_at(s, s->chan_to[c], noc_chan_slot(s, s->now + 1));
    noc_chan_send_credit_to(s, c, 0, noc_chan_slot(s, s->now + 1), s->chan_to[c], NOC_NI_BIT);
    noc_chan_flits_seen(s, at, NOC_NI_MASK);
    assert_int_equal(noc_chan_flits_in(s, at), UINT64_C(1) << s->chan_in_port[c]);
    noc_chan_credits_seen(s, at, UINT64_C(1) << s->chan_in_port[c]);
    assert_int_equal(noc_chan_credits_in(s, at), NOC_NI_MASK);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A graph file's per-link latency reaches the channel; other links keep
 * their class latency. */
static void test_link_latency_from_graph(void **state)
{
    (void)state;
    char path[] = "/tmp/noctua-test-channel-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# a triangle with one slow link\n0 1 link 5\n1 2\n2 0\n", f);
    fclose(f);
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "graph:%s", path);
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    assert_non_null(s);
    int slow = 0, other = 0;
    for (int g = 0; g < noc_topo_ports(t); g++) {
        if (noc_topo_peer(t, g) < 0)
            continue;
        int a = noc_topo_port_node(t, g), b = noc_topo_port_node(t, noc_topo_peer(t, g));
        if ((a == 0 && b == 1) || (a == 1 && b == 0)) {
            assert_int_equal(s->chan_delay[g], 5);
            slow++;
        } else {
            assert_int_equal(s->chan_delay[g], 1);
            other++;
        }
    }
    assert_int_equal(slow, 2);
    assert_int_equal(other, 4);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flit_delay),
        cmocka_unit_test(test_credits),
        cmocka_unit_test(test_router_forms),
        cmocka_unit_test(test_credits_many_vcs),
        cmocka_unit_test(test_work_accounting),
        cmocka_unit_test(test_link_latency_from_graph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
