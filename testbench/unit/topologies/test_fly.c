/* test_fly.c: fly:K:N (topologies/fly.c), BookSim2's k-ary n-fly. The
 * wiring is checked against BookSim2's own formula (networks/fly.cpp,
 * _InChannel: the channel into input q of router (s, a) leaves output
 * "a's digit of weight K^(N-s-1)" of router (s-1, a with that digit
 * replaced by q)), written out here apart from fly.c's; routes against
 * dest_tag worked by hand, and every route walked terminal to terminal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "topologies/topo_internal.h"

#include "fabric_check.h"

static int ipow(int b, int e)
{
    int v = 1;
    while (e-- > 0)
        v *= b;
    return v;
}

/* noctua's global port of BookSim2's input q (out = 0) or output p (out =
 * 1) of router (s, a) of a fly:K:N: inputs follow the K locals at the last
 * stage and come first elsewhere; outputs come after K ports. */
static int gport(const noc_topo_t *t, int K, int N, int s, int a, int port, int out)
{
    int v = s * ipow(K, N - 1) + a;
    return t->port_base[v] + (out || s == N - 1 ? K : 0) + port;
}

static void check_wiring(int K, int N)
{
    char spec[32];
    snprintf(spec, sizeof spec, "fly:%d:%d", K, N);
    noc_topo_t *t = make(spec);
    int per = ipow(K, N - 1), nodes = per * K;
    assert_int_equal(noc_topo_nodes(t), N * per);
    assert_int_equal(noc_topo_terminals(t), nodes);
    for (int s = 1; s < N; s++) {
        int shift = ipow(K, N - s - 1);
        for (int a = 0; a < per; a++) {
            for (int q = 0; q < K; q++) { /* BookSim2's _InChannel, then its channel's source */
                int zero = (a / shift) % K, in_addr = a - zero * shift + q * shift, in_port = zero;
                int c = (s - 1) * nodes + in_addr * K + in_port;
                int src_addr = (c - (s - 1) * nodes) / K, src_port = c % K;
                int in = gport(t, K, N, s, a, q, 0), out = gport(t, K, N, s - 1, src_addr, src_port, 1);
                if (t->peer[in] != out)
                    fail_msg("%s: input %d of (%d,%d) is not output %d of (%d,%d)", spec, q, s, a, src_port, s - 1,
                             src_addr);
                assert_int_equal(t->peer[out], in);
            }
        }
    }
    noc_topo_destroy(t);
}

/* fly:2:3: 3 stages of 4 routers; terminal t injects at (0, t/2) and ejects
 * at (2, t/2), port t%2 both. */
static void test_shape(void **state)
{
    (void)state;
    noc_topo_t *t = make("fly:2:3");
    const noc_graph_t *g = noc_topo_graph(t);
    static const int locals[12] = {2, 2, 2, 2, 0, 0, 0, 0, 2, 2, 2, 2};
    for (int v = 0; v < 12; v++) {
        assert_int_equal(noc_topo_locals(t, v), locals[v]);
        assert_int_equal(noc_topo_degree(t, v), 4 - locals[v]);
    }
    for (int k = 0; k < 8; k++) {
        assert_int_equal(noc_graph_term_node(g, k), k / 2);
        assert_int_equal(noc_graph_term_gport(g, k), t->port_base[k / 2] + k % 2);
        assert_int_equal(noc_graph_term_enode(g, k), 8 + k / 2);
        assert_int_equal(noc_graph_term_egport(g, k), t->port_base[8 + k / 2] + k % 2);
        assert_int_equal(noc_graph_term_at(g, k / 2, k % 2), k);
        assert_int_equal(noc_graph_term_at(g, 8 + k / 2, k % 2), k);
    }
    char label[16];
    noc_topo_label(t, 6, label, sizeof label);
    assert_string_equal(label, "(1,2)");
    assert_int_equal(noc_topo_find_label(t, "(2,3)"), 11);
    noc_topo_destroy(t);
    /* one stage: one router, each terminal both ways on its port */
    t = make("fly:5:1");
    g = noc_topo_graph(t);
    assert_int_equal(noc_topo_nodes(t), 1);
    assert_int_equal(noc_topo_locals(t, 0), 5);
    assert_int_equal(noc_topo_degree(t, 0), 0);
    assert_int_equal(noc_graph_term_enode(g, 3), 0);
    assert_int_equal(noc_graph_term_egport(g, 3), 3);
    assert_int_equal(noc_topo_route_hops(t, 1, 4), 0);
    noc_topo_destroy(t);
}

static void test_wiring(void **state)
{
    (void)state;
    check_wiring(2, 2);
    check_wiring(2, 3);
    check_wiring(3, 3);
    check_wiring(4, 2);
    check_wiring(2, 5);
}

/* dest_tag: at stage s the output is the destination's base-K digit of
 * weight K^(N-1-s), at the last stage its local port dst % K. fly:2:3, 1
 * to 6 (binary 110): (0,0) output 1 -> (1,2) output 1 -> (2,3) local 0. */
static void test_routes(void **state)
{
    (void)state;
    noc_topo_t *t = make("fly:2:3");
    noc_route_t r;
    noc_topo_route(t, 0, 1, 6, &r);
    assert_int_equal(r.port, 2 + 1);
    assert_int_equal(noc_topo_port_node(t, t->peer[t->port_base[0] + r.port]), 4 + 2);
    noc_topo_route(t, 6, 1, 6, &r);
    assert_int_equal(r.port, 2 + 1);
    assert_int_equal(noc_topo_port_node(t, t->peer[t->port_base[6] + r.port]), 8 + 3);
    noc_topo_route(t, 11, 1, 6, &r);
    assert_int_equal(r.port, 0);
    assert_int_equal(r.vclass, 0);
    noc_topo_destroy(t);
    /* every route of fly:3:3: one stage a hop, N - 1 hops, out at dst's ejection port */
    t = make("fly:3:3");
    const noc_graph_t *g = noc_topo_graph(t);
    for (int a = 0; a < 27; a++) {
        for (int b = 0; b < 27; b++) {
            int cur = noc_graph_term_node(g, a), hops = 0;
            for (;;) {
                noc_topo_route(t, cur, a, b, &r);
                if (r.port < noc_topo_locals(t, cur))
                    break;
                int next = noc_topo_port_node(t, t->peer[t->port_base[cur] + r.port]);
                assert_int_equal(next / 9, cur / 9 + 1); /* up one stage: no cycle of channels */
                cur = next;
                assert_true(++hops <= 2);
            }
            assert_int_equal(hops, 2);
            assert_int_equal(t->port_base[cur] + r.port, noc_graph_term_egport(g, b));
            assert_int_equal(noc_topo_route_hops(t, a, b), 2);
        }
    }
    noc_topo_destroy(t);
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {"fly:4", "fly:1:3", "fly:4:0", "fly:4:2:1", "fly:128:2", "fly:x:2",
                                      "fly:2:17", "fly:64:4"};
    expect_refused(bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_wiring),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
