/* test_pe_goal.c: GOAL schedules with LogGOPSim's meaning (docs/programs.md,
 * "GOAL semantics"): messages from one sender to one receiver are matched in
 * the order they were sent whatever the network reorders (a 32-word and a
 * 1-word message with the same tag, on vc routers with many VCs, where the
 * short one overtakes in the network); every CPU of a rank has its own
 * timeline; idle time is jumped over with the figures ticking gives. */
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

/* Rank 0 sends 32 words then 1 word to rank 1, same tag; rank 1 receives
 * 32 then 1 (the second receive after the first). With 8 VCs on the vc
 * router the 1-word message arrives first (it did, before the fix: "a
 * message of 32 words arrived for a receive of 1 words"); each receive must
 * still take the message sent in its place, with its data. */
static void test_no_overtake(void **state)
{
    (void)state;
    static const char *const kvs[][3] = {
        { "router=vc", "num_vcs=8", NULL }, { "router=vc", "num_vcs=4", NULL },
        { "router=vc", "num_vcs=16", NULL }, { "router=ideal", "ni_ports=0", NULL },
    };
    static const char *const specs[] = { "mesh:2x2", "ring:4", "torus:3x3" };
    for (size_t k = 0; k < sizeof kvs / sizeof kvs[0]; k++)
        for (size_t f = 0; f < sizeof specs / sizeof specs[0]; f++) {
            noc_program_t *p = noc_prog_new(2, "overtake");
            for (int i = 0; i < 33; i++)
                noc_prog_init(p, 0, (uint32_t)i, 100 + i);
            uint32_t s1 = noc_prog_send(p, 0, 1, 5, 32, 0);
            uint32_t s2 = noc_prog_send(p, 0, 1, 5, 1, 32);
            uint32_t r1 = noc_prog_recv(p, 1, 0, 5, 32, 0);
            uint32_t r2 = noc_prog_recv(p, 1, 0, 5, 1, 32);
            noc_prog_dep(p, r2, r1, 0);
            for (int i = 0; i < 33; i++)
                noc_prog_expect(p, 1, (uint32_t)i, 100 + i);
            run_t r;
            build(&r, specs[f], p, kvs[k]);
            assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
            char err[512] = "";
            int rc = noc_pe_check(r.sim, err, sizeof err);
            const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
            print_message("%s %s %s: s1 %llu..%llu s2 %llu..%llu r1 ..%llu r2 ..%llu: %s\n", specs[f],
                          kvs[k][0], kvs[k][1], (unsigned long long)st->op_start[s1],
                          (unsigned long long)st->op_end[s1], (unsigned long long)st->op_start[s2],
                          (unsigned long long)st->op_end[s2], (unsigned long long)st->op_end[r1],
                          (unsigned long long)st->op_end[r2], err);
            assert_int_equal(rc, 0);
            assert_true(st->op_end[r2] >= st->op_end[r1]);
            drop(&r, p);
        }
}

static uint32_t calc_on(noc_program_t *p, int r, int64_t cycles, int cpu)
{
    noc_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = NOC_OP_CALC;
    op.cost = cycles;
    op.cpu = (uint8_t)cpu;
    op.addr = op.src = NOC_PROG_NO_ADDR;
    op.step = -1;
    return noc_prog_add(p, r, &op);
}

/* Every CPU of a rank has its own timeline (LogGOPSim's nexto[host][cpu]):
 * calc 100 on cpu 0 and calc 50 on cpu 1 end in cycle 100, both on one
 * CPU in 150; on one CPU ops run in the order they became ready. */
static void test_cpus(void **state)
{
    (void)state;
    static const struct { int a, b, c; uint64_t cycles, end_c; } cases[] = {
        { 0, 1, -1, 100, 0 }, { 0, 0, -1, 150, 0 }, { 1, 1, -1, 150, 0 }, { 3, 200, -1, 100, 0 },
        { 0, 1, 0, 130, 130 }, { 0, 1, 1, 100, 80 },
    };
    static const char *const kv[] = { "router=ideal", NULL };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_program_t *p = noc_prog_new(2, "cpus");
        calc_on(p, 1, 100, cases[i].a);
        calc_on(p, 1, 50, cases[i].b);
        uint32_t c = cases[i].c >= 0 ? calc_on(p, 1, 30, cases[i].c) : 0;
        run_t r;
        build(&r, "mesh:2x2", p, kv);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
        print_message("cpus %d %d %d: %llu cycles\n", cases[i].a, cases[i].b, cases[i].c,
                      (unsigned long long)st->cycles);
        assert_int_equal(st->cycles, cases[i].cycles);
        if (cases[i].c >= 0)
            assert_int_equal(st->op_end[c], cases[i].end_c);
        drop(&r, p);
    }
}

static void count_cycle(const noc_sim_t *s, void *ctx)
{
    (void)s;
    ++*(uint64_t *)ctx;
}

/* Ranks 0 and 1 swap messages around long calcs on two CPUs: the run
 * ticked cycle by cycle (an observer attached: no jumps) and the run that
 * jumps over idle time give the same cycles, op times and link figures. */
static noc_program_t *calc_and_talk(int64_t big)
{
    noc_program_t *p = noc_prog_new(2, "skip");
    noc_prog_step(p, 0, "a");
    noc_prog_step(p, 1, "a");
    uint32_t c0 = calc_on(p, 0, big, 0);
    uint32_t c1 = calc_on(p, 0, big / 3, 1);
    uint32_t s0 = noc_prog_send(p, 0, 1, 1, 8, NOC_PROG_NO_ADDR);
    noc_prog_dep(p, s0, c1, 0);
    uint32_t s1 = noc_prog_send(p, 0, 1, 2, 3, NOC_PROG_NO_ADDR);
    noc_prog_dep(p, s1, c0, 0);
    noc_prog_step(p, 0, "b");
    uint32_t c2 = calc_on(p, 0, 7, 0);
    noc_prog_dep(p, c2, s1, 0);
    uint32_t r0 = noc_prog_recv(p, 1, 0, 1, 8, NOC_PROG_NO_ADDR);
    uint32_t c3 = calc_on(p, 1, big, 2);
    noc_prog_dep(p, c3, r0, 0);
    noc_prog_step(p, 1, "b");
    uint32_t r1 = noc_prog_recv(p, 1, 0, 2, 3, NOC_PROG_NO_ADDR);
    noc_prog_dep(p, r1, c3, 0);
    return p;
}

static void test_skip_idle(void **state)
{
    (void)state;
    static const char *const kvs[][4] = {
        { "router=vc", "num_vcs=4", NULL, NULL }, { "router=ideal", NULL, NULL, NULL },
        { "router=vc", "sync_steps=1", NULL, NULL }, { "router=ideal", "sync_steps=1", "ni_ports=0", NULL },
    };
    for (size_t k = 0; k < sizeof kvs / sizeof kvs[0]; k++) {
        run_t r[2];
        noc_program_t *p[2];
        uint64_t ticks[2] = { 0, 0 };
        for (int j = 0; j < 2; j++) {
            p[j] = calc_and_talk(3000);
            build(&r[j], "mesh:3x3", p[j], kvs[k]);
            if (j == 0)
                noc_sim_set_observer(r[j].sim, count_cycle, &ticks[j]);
            assert_int_equal(noc_pe_run(r[j].sim), NOC_RUN_OK);
        }
        const noc_pe_stats_t *a = noc_pe_stats(noc_sim_pe(r[0].sim)), *b = noc_pe_stats(noc_sim_pe(r[1].sim));
        print_message("%s %s: %llu cycles, %llu skipped\n", kvs[k][0], kvs[k][1] ? kvs[k][1] : "",
                      (unsigned long long)b->cycles,
                      (unsigned long long)noc_pe_skipped_cycles(noc_sim_pe(r[1].sim)));
        assert_int_equal(noc_pe_skipped_cycles(noc_sim_pe(r[0].sim)), 0);
        assert_true(noc_pe_skipped_cycles(noc_sim_pe(r[1].sim)) > 3000);
        assert_int_equal(ticks[0], r[0].sim->now);
        assert_int_equal(a->cycles, b->cycles);
        assert_int_equal(r[0].sim->now, r[1].sim->now);
        assert_int_equal(r[0].sim->st.cycles, r[1].sim->st.cycles);
        for (uint32_t i = 0; i < a->ops; i++) {
            assert_int_equal(a->op_start[i], b->op_start[i]);
            assert_int_equal(a->op_end[i], b->op_end[i]);
        }
        assert_memory_equal(r[0].sim->lst, r[1].sim->lst, (size_t)r[0].sim->n_chan * sizeof *r[0].sim->lst);
        for (int j = 0; j < 2; j++)
            drop(&r[j], p[j]);
    }
}

/* calc 10^10 ends in cycle 10^10 after a handful of loop iterations. */
static void test_skip_long_calc(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(2, "long");
    uint32_t c = calc_on(p, 1, 10000000000LL, 0);
    uint32_t d = calc_on(p, 1, 5, 0);
    noc_prog_dep(p, d, c, 0);
    run_t r;
    build(&r, "mesh:2x2", p, NULL);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    uint64_t skipped = noc_pe_skipped_cycles(noc_sim_pe(r.sim));
    print_message("%llu cycles, %llu ticked\n", (unsigned long long)st->cycles,
                  (unsigned long long)(r.sim->now - skipped));
    assert_int_equal(st->cycles, 10000000005ULL);
    assert_true(r.sim->now - skipped < 100);
    drop(&r, p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_overtake),
        cmocka_unit_test(test_cpus),
        cmocka_unit_test(test_skip_idle),
        cmocka_unit_test(test_skip_long_calc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
