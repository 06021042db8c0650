/* test_channel.c: channels as delay lines: a flit written in cycle t with
 * delay d is read in cycle t+d and not before, per-link class latencies,
 * arrival masks naming the port, several credits per cycle and VC, and the
 * work counts that keep a node on the active list while anything is on its
 * way to it. */
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
    noc_sim_t *s = noc_sim_create(&cfg, *t, none, err, sizeof err);
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
    noc_sim_t *s = noc_sim_create(&cfg, t, none, err, sizeof err);
    assert_non_null(s);
    int slow = 0, other = 0;
    for (int g = 0; g < t->n_ports; g++) {
        if (t->peer[g] < 0)
            continue;
        int a = noc_topo_port_node(t, g), b = noc_topo_port_node(t, t->peer[g]);
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
        cmocka_unit_test(test_link_latency_from_graph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
