/* test_pe.c: the PE program engine on small hand-built programs: the
 * papers' unit-time costs with the ideal router (a one-word message to a
 * neighbour takes one cycle, k hops k cycles, a w-word message w - 1 more),
 * real data through the network (a sum around a ring), dependencies
 * (requires, irequires), compute costs, matching on any source and tag, the
 * result check naming the wrong PE, a stalled program, and the invariant
 * checker with programs on the vc router. */
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
#include "topologies/topo.h"

#include "testbench/unit/pe_run_test.h"

static const char *const IDEAL[] = { "router=ideal", NULL };

/* One word to the neighbour: sent in cycle 0, received in cycle 1; to a
 * node 3 hops away: received in cycle 3; 4 words over 3 hops: cycle 6. */
static void test_unit_time(void **state)
{
    (void)state;
    static const struct { int to; uint32_t words; uint64_t recv_end; } cases[] = {
        { 1, 1, 1 }, { 3, 1, 3 }, { 3, 4, 6 }, { 7, 2, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_program_t *p = noc_prog_new(8, "unit");
        noc_prog_init(p, 0, 0, 42);
        uint32_t sd = noc_prog_send(p, 0, cases[i].to, 0, cases[i].words, 0);
        uint32_t rv = noc_prog_recv(p, cases[i].to, 0, 0, cases[i].words, 0);
        noc_prog_expect(p, cases[i].to, 0, 42);
        run_t r;
        build(&r, "ring:8", p, IDEAL);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
        print_message("to %d, %u words: send %llu..%llu, recv %llu..%llu\n", cases[i].to,
                      cases[i].words, (unsigned long long)st->op_start[sd],
                      (unsigned long long)st->op_end[sd], (unsigned long long)st->op_start[rv],
                      (unsigned long long)st->op_end[rv]);
        assert_int_equal(st->op_start[sd], 0);
        assert_int_equal(st->op_start[rv], 0);
        assert_int_equal(st->op_end[rv], cases[i].recv_end);
        char err[256];
        assert_int_equal(noc_pe_finished(noc_sim_pe(r.sim), err, sizeof err), 0);
        assert_int_equal(noc_pe_check(r.sim, err, sizeof err), 0);
        drop(&r, p);
    }
}

/* All-port: rank 0 sends to both ring neighbours and to 4 (two hops) in
 * cycle 0; with an NI of one injection channel the words leave one a cycle. */
static void test_all_port(void **state)
{
    (void)state;
    for (int all = 0; all <= 1; all++) {
        noc_program_t *p = noc_prog_new(8, "fan-out");
        uint32_t sd[3];
        int to[3] = { 1, 7, 2 };
        for (int k = 0; k < 3; k++)
            sd[k] = noc_prog_send(p, 0, to[k], 0, 1, NOC_PROG_NO_ADDR);
        uint32_t rv[3];
        rv[0] = noc_prog_recv(p, 1, 0, 0, 1, NOC_PROG_NO_ADDR);
        rv[2] = noc_prog_recv(p, 2, 0, 0, 1, NOC_PROG_NO_ADDR);
        rv[1] = noc_prog_recv(p, 7, 0, 0, 1, NOC_PROG_NO_ADDR);
        run_t r;
        const char *kv[] = { "router=ideal", all ? "ni_ports=0" : "ni_ports=1", NULL };
        build(&r, "ring:8", p, kv);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
        print_message("%s: recv ends %llu %llu %llu\n", all ? "all-port" : "one-port",
                      (unsigned long long)st->op_end[rv[0]], (unsigned long long)st->op_end[rv[1]],
                      (unsigned long long)st->op_end[rv[2]]);
        if (all) {
            /* two lanes (degree 2): 1 and 7 in cycle 1; the third message
             * waits for a lane and shares the link to 1 */
            assert_int_equal(st->op_end[rv[0]], 1);
            assert_int_equal(st->op_end[rv[1]], 1);
            assert_int_equal(st->op_end[rv[2]], 3);
        } else {
            assert_int_equal(st->op_end[rv[0]], 1);
            assert_int_equal(st->op_end[rv[1]], 2);
            assert_int_equal(st->op_end[rv[2]], 4);
        }
        (void)sd;
        drop(&r, p);
    }
    /* the vc router takes the extra lanes on input ports of their own: the
     * words to both neighbours go in the same cycle, and the invariant
     * checker holds every cycle */
    uint64_t end[2][2];
    for (int all = 0; all <= 1; all++) {
        noc_program_t *p = noc_prog_new(8, "fan-out");
        noc_prog_send(p, 0, 1, 0, 1, NOC_PROG_NO_ADDR);
        noc_prog_send(p, 0, 7, 0, 1, NOC_PROG_NO_ADDR);
        uint32_t r1 = noc_prog_recv(p, 1, 0, 0, 1, NOC_PROG_NO_ADDR);
        uint32_t r7 = noc_prog_recv(p, 7, 0, 0, 1, NOC_PROG_NO_ADDR);
        run_t r;
        const char *kv[] = { all ? "ni_ports=0" : "ni_ports=1", "check=1", NULL };
        build(&r, "ring:8", p, kv);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
        end[all][0] = st->op_end[r1];
        end[all][1] = st->op_end[r7];
        drop(&r, p);
    }
    print_message("vc router: one-port %llu %llu, all-port %llu %llu\n", (unsigned long long)end[0][0],
                  (unsigned long long)end[0][1], (unsigned long long)end[1][0], (unsigned long long)end[1][1]);
    assert_int_equal(end[1][0], end[1][1]);     /* all-port: together */
    assert_int_equal(end[0][1], end[0][0] + 1); /* one-port: one behind the other */
    assert_int_equal(end[1][0], end[0][0]);
}

/* All-port lanes take the sends of their own link: rank 0 of ring:8 starts
 * sends to 2 and 3 (first hop on port 1, +) and then to 7 (port 2, -). The
 * lane of port 2 takes the send to 7 in cycle 0 although two older ones
 * wait (received in cycle 1); port 1's lane sends to 2 in cycle 0 (2 hops:
 * cycle 2) and to 3 in cycle 1 (3 hops: cycle 4). A lane that took the
 * rank's oldest send instead would send to 3 in cycle 0 and to 7 in 1. */
static void test_lane_takes_its_port(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(8, "lanes");
    int to[3] = { 2, 3, 7 };
    uint32_t rv[3];
    for (int k = 0; k < 3; k++)
        noc_prog_send(p, 0, to[k], 0, 1, NOC_PROG_NO_ADDR);
    for (int k = 0; k < 3; k++)
        rv[k] = noc_prog_recv(p, to[k], 0, 0, 1, NOC_PROG_NO_ADDR);
    run_t r;
    const char *kv[] = { "router=ideal", "ni_ports=0", NULL };
    build(&r, "ring:8", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    assert_int_equal(st->op_end[rv[0]], 2);
    assert_int_equal(st->op_end[rv[1]], 4);
    assert_int_equal(st->op_end[rv[2]], 1);
    drop(&r, p);
}

/* Sum around a ring of 8: rank 0 sends its value on, each rank adds its own
 * and passes the sum; rank 0 gets the total back. Real data: the expected
 * values are only right if every word travelled. */
static noc_program_t *ring_sum(int n)
{
    noc_program_t *p = noc_prog_new(n, "ring-sum");
    int64_t total = 0;
    for (int r = 0; r < n; r++) {
        noc_prog_init(p, r, 0, 10 * r + 3); /* own value at 0, incoming at 1 */
        total += 10 * r + 3;
    }
    noc_prog_step(p, 0, "pass");
    uint32_t s0 = noc_prog_send(p, 0, 1, 7, 1, 0);
    (void)s0;
    for (int r = 1; r < n; r++) {
        noc_prog_step(p, r, "pass");
        uint32_t rv = noc_prog_recv(p, r, r - 1, 7, 1, 1);
        uint32_t add = noc_prog_combine(p, r, NOC_OP_ADD, 1, 1, 0);
        uint32_t sd = noc_prog_send(p, r, (r + 1) % n, 7, 1, 1);
        noc_prog_dep(p, add, rv, 0);
        noc_prog_dep(p, sd, add, 0);
    }
    noc_prog_step(p, 0, "back");
    uint32_t back = noc_prog_recv(p, 0, n - 1, 7, 1, 1);
    (void)back;
    noc_prog_expect(p, 0, 1, total);
    return p;
}

static void test_ring_sum(void **state)
{
    (void)state;
    noc_program_t *p = ring_sum(8);
    run_t r;
    build(&r, "ring:8", p, IDEAL);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    char err[256];
    assert_int_equal(noc_pe_check(r.sim, err, sizeof err), 0);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    /* each of the 8 hops: 1 cycle on the link, then 1 cycle of add
     * (compute_cycles=1), and the send starts the cycle the add ends */
    print_message("ring sum: %llu cycles\n", (unsigned long long)st->cycles);
    assert_int_equal(st->n_steps, 2);
    assert_string_equal(st->steps[0].name, "pass");
    assert_int_equal(st->steps[1].first_start, 0); /* rank 0 posts its receive at once */
    assert_int_equal(st->steps[0].messages, 8);
    assert_int_equal(st->cycles, 8 * 2 - 1);
    assert_int_equal(st->steps[0].flit_hops, 8); /* 8 one-hop messages */
    assert_int_equal(st->steps[1].flit_hops, 0); /* the last message counts in "pass", its send's step */
    drop(&r, p);

    /* a wrong expectation names the PE */
    p = ring_sum(8);
    noc_prog_expect(p, 5, 0, 999);
    build(&r, "ring:8", p, IDEAL);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    assert_int_equal(noc_pe_check(r.sim, err, sizeof err), -1);
    assert_non_null(strstr(err, "rank 5"));
    assert_non_null(strstr(err, "999"));
    drop(&r, p);
}

/* Compute cost, irequires, any source and any tag. */
static void test_deps_and_matching(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(4, "deps");
    uint32_t c = noc_prog_calc(p, 0, 10);
    uint32_t sd = noc_prog_send(p, 0, 2, 5, 1, NOC_PROG_NO_ADDR);
    noc_prog_dep(p, sd, c, 1); /* irequires: may go as soon as the calc starts */
    uint32_t sd2 = noc_prog_send(p, 0, 2, 6, 1, NOC_PROG_NO_ADDR);
    noc_prog_dep(p, sd2, c, 0); /* requires: after the calc's 10 cycles */
    /* (ranks filled in order: op indices stay what noc_prog_add returned) */
    uint32_t r1 = noc_prog_recv(p, 2, NOC_PROG_ANY, 9, 1, 0);
    uint32_t r2 = noc_prog_recv(p, 2, 0, NOC_PROG_ANY, 1, NOC_PROG_NO_ADDR);
    uint32_t r3 = noc_prog_recv(p, 2, NOC_PROG_ANY, NOC_PROG_ANY, 1, NOC_PROG_NO_ADDR);
    noc_prog_dep(p, r3, r2, 0);
    noc_prog_init(p, 3, 0, -5);
    noc_prog_send(p, 3, 2, 9, 1, 0);
    noc_prog_expect(p, 2, 0, -5);
    run_t r;
    build(&r, "ring:4", p, IDEAL);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    char err[256];
    assert_int_equal(noc_pe_check(r.sim, err, sizeof err), 0);
    assert_int_equal(noc_pe_finished(noc_sim_pe(r.sim), err, sizeof err), 0);
    print_message("calc %llu..%llu sends %llu %llu; recvs end %llu %llu %llu\n",
                  (unsigned long long)st->op_start[c], (unsigned long long)st->op_end[c],
                  (unsigned long long)st->op_start[sd], (unsigned long long)st->op_start[sd2],
                  (unsigned long long)st->op_end[r1], (unsigned long long)st->op_end[r2],
                  (unsigned long long)st->op_end[r3]);
    assert_int_equal(st->op_end[c], 10);
    assert_int_equal(st->op_start[sd], 0);
    assert_int_equal(st->op_start[sd2], 10);
    assert_int_equal(st->op_end[r1], 1);  /* from rank 3, one hop */
    assert_int_equal(st->op_end[r2], 2);  /* rank 0's first message, two hops */
    assert_int_equal(st->op_end[r3], 12); /* the second, sent in cycle 10 */
    drop(&r, p);
}

/* sync_steps: step "b" of rank 1 waits for step "a" of rank 0 (a 5-cycle
 * computation) although nothing links them; without it, it goes at once. A
 * step that ends with a receive opens the next in the same cycle. */
static void test_sync_steps(void **state)
{
    (void)state;
    for (int sync = 0; sync <= 1; sync++) {
        noc_program_t *p = noc_prog_new(4, "sync");
        noc_prog_step(p, 0, "a");
        uint32_t c = noc_prog_calc(p, 0, 5);
        noc_prog_step(p, 1, "b");
        uint32_t sd = noc_prog_send(p, 1, 2, 0, 1, NOC_PROG_NO_ADDR);
        noc_prog_step(p, 2, "b");
        uint32_t rv = noc_prog_recv(p, 2, 1, 0, 1, NOC_PROG_NO_ADDR);
        noc_prog_step(p, 2, "c");
        uint32_t sd2 = noc_prog_send(p, 2, 3, 0, 1, NOC_PROG_NO_ADDR);
        noc_prog_step(p, 3, "c");
        uint32_t rv2 = noc_prog_recv(p, 3, 2, 0, 1, NOC_PROG_NO_ADDR);
        run_t r;
        const char *kv[] = { "router=ideal", sync ? "sync_steps=1" : "sync_steps=0", NULL };
        build(&r, "ring:4", p, kv);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
        assert_int_equal(st->op_end[c], 5);
        assert_int_equal(st->op_start[sd], sync ? 5 : 0);
        assert_int_equal(st->op_end[rv], sync ? 6 : 1);
        assert_int_equal(st->op_start[sd2], sync ? 6 : 0);
        assert_int_equal(st->op_end[rv2], sync ? 7 : 1);
        assert_int_equal(st->cycles, sync ? 7 : 5);
        drop(&r, p);
    }
}

/* A receive whose message never comes: the run stops as stalled, with the
 * waiting op in the report. */
static void test_stall(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(2, "stall");
    noc_prog_recv(p, 1, 0, 3, 1, NOC_PROG_NO_ADDR);
    run_t r;
    const char *kv[] = { "deadlock_cycles=50", NULL };
    build(&r, "ring:4", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_DEADLOCK);
    assert_true(noc_pe_stalled(noc_sim_pe(r.sim)));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    noc_pe_report_waiting(r.sim, f, 10);
    fclose(f);
    assert_non_null(strstr(buf, "waits for its message"));
    free(buf);
    char err[256];
    assert_int_equal(noc_pe_finished(noc_sim_pe(r.sim), err, sizeof err), -1);
    drop(&r, p);
}

/* The vc router carries the same program, with the invariant checker after
 * every cycle, long messages in several packets, and the same result. */
static void test_vc_router_checked(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(16, "exchange");
    /* every rank sends 5 words to rank 15 - r and gets 5 back */
    for (int r = 0; r < 16; r++) {
        for (int k = 0; k < 5; k++) {
            noc_prog_init(p, r, (uint32_t)k, 100 * r + k);
            noc_prog_expect(p, r, 5 + (uint32_t)k, 100 * (15 - r) + k);
        }
        noc_prog_send(p, r, 15 - r, 1, 5, 0);
        noc_prog_recv(p, r, 15 - r, 1, 5, 5);
    }
    run_t r;
    const char *kv[] = { "packet_size=2", "check=1", NULL };
    build(&r, "mesh:4x4", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    char err[256];
    assert_int_equal(noc_pe_finished(noc_sim_pe(r.sim), err, sizeof err), 0);
    assert_int_equal(noc_pe_check(r.sim, err, sizeof err), 0);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    assert_int_equal(st->messages, 16);
    assert_int_equal(st->words, 80);
    assert_int_equal(noc_sim_flits_in_network(r.sim), 0);
    drop(&r, p);
}

/* The order nodes are visited in changes nothing (two-phase contract), also
 * with step barriers and an all-port NI. */
static uint64_t run_hash(const char *spec, const char *const *kv, int shuffle)
{
    noc_program_t *p = ring_sum(16);
    run_t r;
    build(&r, spec, p, kv);
    if (shuffle)
        noc_sim_debug_shuffle(r.sim, (uint64_t)shuffle);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    uint64_t h = st->cycles;
    for (uint32_t i = 0; i < st->ops; i++)
        h = h * 1099511628211ULL ^ st->op_start[i] ^ (st->op_end[i] << 20);
    drop(&r, p);
    return h;
}

static void test_order_independence(void **state)
{
    (void)state;
    const char *kv[] = { "packet_size=2", NULL };
    const char *ki[] = { "router=ideal", "ni_ports=0", "sync_steps=1", NULL };
    uint64_t a = run_hash("torus:4x4", kv, 0), b = run_hash("hypercube:4", ki, 0);
    for (int seed = 1; seed <= 3; seed++) {
        assert_true(run_hash("torus:4x4", kv, seed) == a);
        assert_true(run_hash("hypercube:4", ki, seed) == b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_time),
        cmocka_unit_test(test_all_port),
        cmocka_unit_test(test_lane_takes_its_port),
        cmocka_unit_test(test_ring_sum),
        cmocka_unit_test(test_deps_and_matching),
        cmocka_unit_test(test_sync_steps),
        cmocka_unit_test(test_stall),
        cmocka_unit_test(test_vc_router_checked),
        cmocka_unit_test(test_order_independence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
