/* test_pe_extend.c: a program that grows while it runs (noc_pe_extend,
 * noc_pe_prestart, and the cycle in parts, noc_sim_cycle_*), as the
 * SystemC wrapper uses them. The reference is the whole program run from
 * cycle 0 by noc_pe_run: the same program, grown in the middle of a cycle
 * from its early ops (a receive completes, and a reply, a receive, a send
 * and three calcs of the gap are added, while a long message of a later rank, whose
 * ops are renumbered, is in flight), must give every op the same start and
 * end cycle, the same memories and the same cycle count. And the
 * refusals: a changed op, a new op behind a passed barrier, a calc put on
 * a busy processor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/pe.h"
#include "model/sim.h"
#include "routers/registry.h"
#include "topologies/topo.h"

enum { W = 8, LONG = 64 };

/* The ops of the scenario, by name; NONE where a program lacks one. */
typedef struct ops {
    uint32_t s0, r8, c8, c4, s7, r1;       /* early */
    uint32_t g0, r0, s8, g2, r2, g4, s4;   /* late */
} ops_t;
#define NONE UINT32_MAX

/* On mesh:3x3: rank 0 sends W words to rank 8, which (late) sends them
 * back once they have arrived; rank 4 computes, then (late) waits until
 * then and sends 2 words to rank 2; rank 7 sends LONG words to rank 1 from
 * cycle 0. late = 0: the early ops only. e_r8 and e_s0: the cycles rank
 * 8's receive and rank 0's send end (from a run of the early ops), for the
 * calcs of the gap (what a SystemC thread busy elsewhere gets). */
static noc_program_t *scenario(int late, uint64_t e_r8, uint64_t e_s0, ops_t *o)
{
    noc_program_t *p = noc_prog_new(9, "grow");
    memset(o, 0xff, sizeof *o);
    for (uint32_t i = 0; i < W; i++)
        noc_prog_init(p, 0, i, 100 + (int64_t)i);
    o->s0 = noc_prog_send(p, 0, 8, 1, W, 0);
    if (late) {
        o->g0 = noc_prog_calc(p, 0, (int64_t)(e_r8 - e_s0 - 1)); /* from the cycle after the send */
        noc_prog_dep(p, o->g0, o->s0, 0);
        o->r0 = noc_prog_recv(p, 0, 8, 2, W, W);
        noc_prog_dep(p, o->r0, o->g0, 0);
        for (uint32_t i = 0; i < W; i++)
            noc_prog_expect(p, 0, W + i, 100 + (int64_t)i);
    }
    noc_prog_init(p, 1, LONG - 1, 0);
    o->r1 = noc_prog_recv(p, 1, 7, 0, LONG, 0);
    noc_prog_expect(p, 1, LONG - 1, 7000 + LONG - 1);
    if (late) {
        o->g2 = noc_prog_calc(p, 2, (int64_t)e_r8);
        o->r2 = noc_prog_recv(p, 2, 4, 3, 2, 0);
        noc_prog_dep(p, o->r2, o->g2, 0);
        noc_prog_expect(p, 2, 1, 56);
    }
    noc_prog_init(p, 4, 0, 55);
    noc_prog_init(p, 4, 1, 56);
    o->c4 = noc_prog_calc(p, 4, 3);
    if (late) {
        o->g4 = noc_prog_calc(p, 4, (int64_t)(e_r8 - 3));
        noc_prog_dep(p, o->g4, o->c4, 0);
        o->s4 = noc_prog_send(p, 4, 2, 3, 2, 0);
        noc_prog_dep(p, o->s4, o->g4, 0);
    }
    for (uint32_t i = 0; i < LONG; i++)
        noc_prog_init(p, 7, i, 7000 + (int64_t)i);
    o->s7 = noc_prog_send(p, 7, 1, 0, LONG, 0);
    o->r8 = noc_prog_recv(p, 8, 0, 1, W, 0);
    o->c8 = noc_prog_calc(p, 8, 2); /* ready in the cycle the program grows */
    noc_prog_dep(p, o->c8, o->r8, 0);
    if (late) {
        o->s8 = noc_prog_send(p, 8, 0, 2, W, 0);
        noc_prog_dep(p, o->s8, o->r8, 0);
    }
    char err[256];
    if (noc_prog_finish(p, err, sizeof err) != 0)
        fail_msg("%s", err);
    return p;
}

typedef struct run {
    noc_topo_t *topo;
    noc_sim_t *sim;
} run_t;

static void start(run_t *r, const noc_program_t *p, const char *key, const char *value)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    if (key && noc_config_set(&cfg, key, value, err, sizeof err) != 0)
        fail_msg("%s", err);
    r->topo = noc_topo_create("mesh:3x3", 0, err, sizeof err);
    assert_non_null(r->topo);
    noc_traffic_t none = { NULL, NULL };
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), none, err, sizeof err);
    if (!r->sim || noc_pe_attach(r->sim, p, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void stop(run_t *r)
{
    noc_sim_destroy(r->sim);
    noc_topo_destroy(r->topo);
}

static const noc_pe_stats_t *stats(const run_t *r)
{
    return noc_pe_stats(noc_sim_pe(r->sim));
}

static void test_grown_mid_cycle_equals_whole(void **state)
{
    (void)state;
    char err[512];
    ops_t e, f, g;
    /* the early ops alone: when rank 8's receive and rank 0's send end */
    noc_program_t *early = scenario(0, 0, 0, &e);
    run_t a;
    start(&a, early, NULL, NULL);
    assert_int_equal(noc_pe_run(a.sim), NOC_RUN_OK);
    uint64_t e_r8 = stats(&a)->op_end[e.r8], e_s0 = stats(&a)->op_end[e.s0];
    stop(&a);
    print_message("early ops alone: rank 0's send ends in cycle %llu, rank 8's receive in %llu\n",
                  (unsigned long long)e_s0, (unsigned long long)e_r8);
    assert_true(e_r8 > e_s0 + 1 && e_r8 > 3);

    /* the whole program from cycle 0 */
    noc_program_t *whole = scenario(1, e_r8, e_s0, &f);
    run_t w;
    start(&w, whole, NULL, NULL);
    assert_int_equal(noc_pe_run(w.sim), NOC_RUN_OK);
    assert_int_equal(noc_pe_check(w.sim, err, sizeof err), 0);
    assert_int_equal(stats(&w)->op_end[f.r8], e_r8);
    assert_int_equal(stats(&w)->op_start[f.s8], e_r8);
    assert_int_equal(stats(&w)->op_start[f.s4], e_r8);

    /* the early ops, grown when rank 8's receive completes */
    noc_program_t *grown = scenario(1, e_r8, e_s0, &g);
    run_t x;
    start(&x, early, NULL, NULL);
    noc_sim_measure_all(x.sim);
    int grew = 0, in_flight = 0;
    noc_run_status_t st = NOC_RUN_OK;
    for (int guard = 0; guard < 100000; guard++) {
        const noc_pe_stats_t *ps = stats(&x);
        if (grew && ps->ops_done == ps->ops && noc_sim_flits_in_network(x.sim) == 0)
            break;
        noc_sim_cycle_arrivals(x.sim);
        if (!grew && stats(&x)->op_end[e.r8] != NOC_NEVER) {
            assert_int_equal(noc_sim_now(x.sim), e_r8);
            in_flight = stats(&x)->op_end[e.r1] == NOC_NEVER && noc_sim_flits_in_network(x.sim) > 0;
            uint32_t m[16];
            m[e.s0] = g.s0;
            m[e.r1] = g.r1;
            m[e.c4] = g.c4;
            m[e.s7] = g.s7;
            m[e.r8] = g.r8;
            m[e.c8] = g.c8;
            uint64_t at[16];
            for (int i = 0; i < 16; i++)
                at[i] = NOC_NEVER;
            at[g.g0] = e_s0 + 1; /* the calcs of the gap began when their chains could go on: */
            at[g.g4] = 3;      /* a send's dependents in the cycle after it, a calc's in its last */
            at[g.g2] = 0;
            if (noc_pe_extend(x.sim, grown, m, at, err, sizeof err) != 0)
                fail_msg("%s", err);
            grew = 1;
        }
        noc_sim_cycle_pes(x.sim, 1);
        if (noc_sim_cycle_finish(x.sim, &st) != 0)
            fail_msg("the grown run stopped in cycle %llu: %d", (unsigned long long)noc_sim_now(x.sim), (int)st);
    }
    assert_true(grew);
    assert_true(in_flight); /* rank 7's long message was renumbered on its way */
    assert_true(g.s7 != e.s7);
    assert_int_equal(noc_pe_check(x.sim, err, sizeof err), 0);
    const noc_pe_stats_t *ws = stats(&w), *xs = stats(&x);
    assert_int_equal(xs->ops, ws->ops);
    assert_int_equal(xs->ops_done, ws->ops_done);
    assert_int_equal(xs->cycles, ws->cycles);
    assert_int_equal(xs->messages, ws->messages);
    for (uint32_t i = 0; i < whole->n_ops; i++) {
        if (xs->op_start[i] != ws->op_start[i] || xs->op_end[i] != ws->op_end[i])
            fail_msg("op %u: %llu..%llu grown, %llu..%llu whole", i, (unsigned long long)xs->op_start[i],
                     (unsigned long long)xs->op_end[i], (unsigned long long)ws->op_start[i],
                     (unsigned long long)ws->op_end[i]);
    }
    for (int r = 0; r < 9; r++)
        assert_memory_equal(noc_pe_memory(noc_sim_pe(x.sim), r), noc_pe_memory(noc_sim_pe(w.sim), r),
                            whole->ranks[r].mem_words * sizeof(int64_t));
    print_message("whole and grown: %llu cycles, every op alike\n", (unsigned long long)ws->cycles);
    stop(&x);
    stop(&w);
    noc_prog_free(grown);
    noc_prog_free(whole);
    noc_prog_free(early);
}

/* The cycle in parts is the cycle: the whole program stepped through
 * noc_sim_cycle_* ends every op where noc_pe_run does. */
static void test_cycle_in_parts(void **state)
{
    (void)state;
    ops_t f;
    noc_program_t *p = scenario(1, 20, 10, &f);
    run_t w, x;
    start(&w, p, NULL, NULL);
    assert_int_equal(noc_pe_run(w.sim), NOC_RUN_OK);
    start(&x, p, NULL, NULL);
    noc_sim_measure_all(x.sim);
    noc_run_status_t st = NOC_RUN_OK;
    while (stats(&x)->ops_done < stats(&x)->ops || noc_sim_flits_in_network(x.sim) > 0) {
        noc_sim_cycle_arrivals(x.sim);
        noc_sim_cycle_pes(x.sim, 1);
        noc_sim_cycle_pes(x.sim, 0); /* again: nothing new to start */
        assert_int_equal(noc_sim_cycle_finish(x.sim, &st), 0);
    }
    for (uint32_t i = 0; i < p->n_ops; i++) {
        assert_int_equal(stats(&x)->op_start[i], stats(&w)->op_start[i]);
        assert_int_equal(stats(&x)->op_end[i], stats(&w)->op_end[i]);
    }
    assert_int_equal(stats(&x)->cycles, stats(&w)->cycles);
    stop(&x);
    stop(&w);
    noc_prog_free(p);
}

static void test_refusals(void **state)
{
    (void)state;
    char err[512];
    ops_t e, g;
    noc_program_t *early = scenario(0, 0, 0, &e);
    noc_program_t *grown = scenario(1, 20, 10, &g);
    run_t x;
    start(&x, early, NULL, NULL);
    uint32_t m[16];
    m[e.s0] = g.s0;
    m[e.r1] = g.r1;
    m[e.c4] = g.c4;
    m[e.s7] = g.s7;
    m[e.c8] = g.c8;
    m[e.r8] = g.s8; /* the receive is not that send */
    assert_int_equal(noc_pe_extend(x.sim, grown, m, NULL, err, sizeof err), -1);
    print_message("%s\n", err);
    assert_non_null(strstr(err, "is not op"));
    m[e.r8] = g.r8;
    noc_run_status_t st = NOC_RUN_OK;
    for (int c = 0; c < 5; c++) /* rank 4's calc runs in cycles 0 to 3 */
        assert_int_equal(noc_sim_step_checked(x.sim, &st), 0);
    uint64_t at[16];
    for (int i = 0; i < 16; i++)
        at[i] = NOC_NEVER;
    at[g.g4] = 1; /* the processor of rank 4 was busy then */
    assert_int_equal(noc_pe_extend(x.sim, grown, m, at, err, sizeof err), -1);
    print_message("%s\n", err);
    assert_non_null(strstr(err, "share the processor"));
    at[g.g4] = NOC_NEVER;
    at[g.r0] = 4; /* a receive is no calc */
    assert_int_equal(noc_pe_extend(x.sim, grown, m, at, err, sizeof err), -1);
    print_message("%s\n", err);
    at[g.r0] = NOC_NEVER;
    at[g.g4] = 3; /* from the calc's end: fine */
    assert_int_equal(noc_pe_extend(x.sim, grown, m, at, err, sizeof err), 0);
    stop(&x);
    noc_prog_free(grown);
    noc_prog_free(early);

    /* under sync_steps, a new op of a step whose barrier has passed */
    noc_program_t *a = noc_prog_new(2, "steps");
    noc_prog_step(a, 0, "one");
    noc_prog_calc(a, 0, 1);
    noc_prog_step(a, 0, "two");
    noc_prog_calc(a, 0, 1);
    assert_int_equal(noc_prog_finish(a, err, sizeof err), 0);
    noc_program_t *b = noc_prog_new(2, "steps");
    noc_prog_step(b, 0, "one");
    noc_prog_calc(b, 0, 1);
    noc_prog_step(b, 0, "two");
    noc_prog_calc(b, 0, 1);
    noc_prog_step(b, 1, "one");
    noc_prog_calc(b, 1, 1);
    assert_int_equal(noc_prog_finish(b, err, sizeof err), 0);
    start(&x, a, "sync_steps", "1");
    for (int c = 0; c < 3; c++)
        assert_int_equal(noc_sim_step_checked(x.sim, &st), 0);
    const uint32_t mab[] = { 0, 1 };
    assert_int_equal(noc_pe_extend(x.sim, b, mab, NULL, err, sizeof err), -1);
    print_message("%s\n", err);
    assert_non_null(strstr(err, "barrier"));
    stop(&x);
    noc_prog_free(a);
    noc_prog_free(b);

    /* a new step before the running one's (no barriers): the old step
     * moves to index 1 with its figures */
    a = noc_prog_new(2, "steps");
    noc_prog_declare_step(a, "one");
    noc_prog_step(a, 0, "two");
    noc_prog_calc(a, 0, 2);
    assert_int_equal(noc_prog_finish(a, err, sizeof err), 0);
    assert_int_equal(a->n_steps, 1);
    b = noc_prog_new(2, "steps");
    noc_prog_declare_step(b, "one");
    noc_prog_step(b, 0, "two");
    noc_prog_calc(b, 0, 2);
    noc_prog_step(b, 1, "one");
    noc_prog_calc(b, 1, 1);
    assert_int_equal(noc_prog_finish(b, err, sizeof err), 0);
    start(&x, a, NULL, NULL);
    assert_int_equal(noc_sim_step_checked(x.sim, &st), 0);
    const uint32_t mab1[] = { 0 };
    if (noc_pe_extend(x.sim, b, mab1, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(noc_pe_run(x.sim), NOC_RUN_OK);
    const noc_pe_stats_t *ps = stats(&x);
    assert_int_equal(ps->n_steps, 2);
    assert_string_equal(ps->steps[1].name, "two");
    assert_int_equal(ps->steps[1].first_start, 0);
    assert_int_equal(ps->steps[1].ops, 1);
    assert_int_equal(ps->steps[0].first_start, 1);
    assert_int_equal(ps->cycles, 2);
    stop(&x);
    noc_prog_free(a);
    noc_prog_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grown_mid_cycle_equals_whole),
        cmocka_unit_test(test_cycle_in_parts),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
