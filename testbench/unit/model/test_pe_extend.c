/* test_pe_extend.c: a program that grows while it runs (noc_pe_append_*,
 * and the cycle in parts, noc_sim_cycle_*), as the SystemC wrapper uses
 * them. The reference is the whole program run from cycle 0 by
 * noc_pe_run: the same program, grown in the middle of a cycle from its
 * early ops (a receive completes, and a reply, a receive, a send and three
 * calcs of the gap are appended, while a long message is in flight), must
 * give every op the same start and end cycle, the same memories and the
 * same cycle count; so must a ring grown every few cycles for thousands of
 * cycles, with steps named on the way, while its growth stays in place
 * (the same engine and program, O(1) work an op appended). And the
 * refusals: bad fields, a new op behind a passed barrier, a calc put on a
 * busy processor, memory the run may have used. */
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

static void start_on(run_t *r, const char *spec, const noc_program_t *p, const char *key, const char *value)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    if (key && noc_config_set(&cfg, key, value, err, sizeof err) != 0)
        fail_msg("%s", err);
    r->topo = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(r->topo);
    noc_traffic_t none = { NULL, NULL };
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), none, err, sizeof err);
    if (!r->sim || noc_pe_attach(r->sim, p, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void start(run_t *r, const noc_program_t *p, const char *key, const char *value)
{
    start_on(r, "mesh:3x3", p, key, value);
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

/* Rank and index within the rank of op i of p (rank by rank, or grown in
 * place). */
static int nth_of(const noc_program_t *p, uint32_t i, uint32_t *nth)
{
    const uint32_t *ranks = noc_prog_op_ranks(p);
    if (!ranks) {
        for (int r = 0; r < p->n_ranks; r++)
            if (i < p->ranks[r].op_start + p->ranks[r].n_ops) {
                *nth = i - p->ranks[r].op_start;
                return r;
            }
        fail_msg("op %u: no rank", i);
    }
    *nth = 0;
    for (uint32_t j = 0; j < i; j++)
        *nth += ranks[j] == ranks[i];
    return (int)ranks[i];
}

/* Every op of the grown run x started and ended where the same op (same
 * rank, same place in it) of the whole program's run w did. */
static void same_ops(const run_t *x, const run_t *w)
{
    const noc_program_t *xp = noc_pe_program(noc_sim_pe(x->sim)), *wp = noc_pe_program(noc_sim_pe(w->sim));
    const noc_pe_stats_t *xs = stats(x), *ws = stats(w);
    assert_int_equal(xp->n_ops, wp->n_ops);
    for (uint32_t i = 0; i < xp->n_ops; i++) {
        uint32_t nth;
        int r = nth_of(xp, i, &nth);
        uint32_t j = wp->ranks[r].op_start + nth;
        if (xs->op_start[i] != ws->op_start[j] || xs->op_end[i] != ws->op_end[j])
            fail_msg("rank %d, op %u: %llu..%llu grown, %llu..%llu whole", r, nth,
                     (unsigned long long)xs->op_start[i], (unsigned long long)xs->op_end[i],
                     (unsigned long long)ws->op_start[j], (unsigned long long)ws->op_end[j]);
    }
}

static uint32_t append(run_t *x, int r, const noc_op_t *op, int64_t dep, int start, uint64_t at)
{
    char err[512];
    noc_dep_t d = { (uint32_t)dep, (uint8_t)start };
    int64_t i = noc_pe_append_op(x->sim, r, op, dep >= 0 ? &d : NULL, dep >= 0, at, err, sizeof err);
    if (i < 0)
        fail_msg("%s", err);
    return (uint32_t)i;
}

static noc_op_t calc_op(int64_t cost)
{
    noc_op_t o;
    memset(&o, 0, sizeof o);
    o.kind = NOC_OP_CALC;
    o.cost = cost;
    o.addr = o.src = NOC_PROG_NO_ADDR;
    o.step = -1;
    return o;
}

static noc_op_t message_op(noc_op_kind_t kind, int peer, int tag, uint32_t words, int32_t addr)
{
    noc_op_t o = calc_op(0);
    o.kind = (uint8_t)kind;
    o.peer = peer;
    o.tag = tag;
    o.words = words;
    o.addr = addr;
    return o;
}

static void memory(run_t *x, int r, uint32_t addr, const int64_t *words, uint32_t n)
{
    char err[512];
    if (noc_pe_append_memory(x->sim, r, addr, words, n, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* The late ops of scenario(1, ...), appended to a run of the early ones
 * (e: their numbers) in the cycle rank 8's receive completes. The calcs of
 * the gap began when their chains could go on: a send's dependents in the
 * cycle after it, a calc's in its last. */
static void append_late(run_t *x, const ops_t *e, uint64_t e_r8, uint64_t e_s0)
{
    noc_op_t o = calc_op((int64_t)(e_r8 - e_s0 - 1));
    uint32_t g0 = append(x, 0, &o, e->s0, 0, e_s0 + 1);
    memory(x, 0, W, NULL, W);
    o = message_op(NOC_OP_RECV, 8, 2, W, W);
    append(x, 0, &o, g0, 0, NOC_NEVER);
    o = calc_op((int64_t)e_r8);
    uint32_t g2 = append(x, 2, &o, -1, 0, 0);
    memory(x, 2, 0, NULL, 2);
    o = message_op(NOC_OP_RECV, 4, 3, 2, 0);
    append(x, 2, &o, g2, 0, NOC_NEVER);
    o = calc_op((int64_t)(e_r8 - 3));
    uint32_t g4 = append(x, 4, &o, e->c4, 0, 3);
    o = message_op(NOC_OP_SEND, 2, 3, 2, 0);
    append(x, 4, &o, g4, 0, NOC_NEVER);
    o = message_op(NOC_OP_SEND, 0, 2, W, 0);
    append(x, 8, &o, e->r8, 0, NOC_NEVER);
}

static void test_grown_mid_cycle_equals_whole(void **state)
{
    (void)state;
    char err[512];
    ops_t e, f;
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
            append_late(&x, &e, e_r8, e_s0);
            grew = 1;
        }
        noc_sim_cycle_pes(x.sim, 1);
        if (noc_sim_cycle_finish(x.sim, &st) != 0)
            fail_msg("the grown run stopped in cycle %llu: %d", (unsigned long long)noc_sim_now(x.sim), (int)st);
    }
    assert_true(grew);
    assert_true(in_flight); /* rank 7's long message was on its way */
    assert_int_equal(noc_pe_check(x.sim, err, sizeof err), 0);
    const noc_pe_stats_t *ws = stats(&w), *xs = stats(&x);
    assert_int_equal(xs->ops, ws->ops);
    assert_int_equal(xs->ops_done, ws->ops_done);
    assert_int_equal(xs->cycles, ws->cycles);
    assert_int_equal(xs->messages, ws->messages);
    same_ops(&x, &w);
    for (int r = 0; r < 9; r++)
        assert_memory_equal(noc_pe_memory(noc_sim_pe(x.sim), r), noc_pe_memory(noc_sim_pe(w.sim), r),
                            whole->ranks[r].mem_words * sizeof(int64_t));
    print_message("whole and grown: %llu cycles, every op alike\n", (unsigned long long)ws->cycles);
    stop(&x);
    stop(&w);
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

static int64_t try_append(run_t *x, int r, const noc_op_t *op, int64_t dep, uint64_t at, const char *expect)
{
    char err[512] = "";
    noc_dep_t d = { (uint32_t)dep, 0 };
    int64_t i = noc_pe_append_op(x->sim, r, op, dep >= 0 ? &d : NULL, dep >= 0, at, err, sizeof err);
    if (expect) {
        print_message("refused: %s\n", err);
        assert_int_equal(i, -1);
        if (!strstr(err, expect))
            fail_msg("'%s' does not say '%s'", err, expect);
    } else if (i < 0) {
        fail_msg("%s", err);
    }
    return i;
}

static void test_refusals(void **state)
{
    (void)state;
    char err[512];
    ops_t e;
    noc_program_t *early = scenario(0, 0, 0, &e);
    run_t x;
    start(&x, early, NULL, NULL);
    /* bad fields: the op is not appended */
    noc_op_t o = message_op(NOC_OP_SEND, 8, 1, 1, 0);
    try_append(&x, 0, &o, e.r8, NOC_NEVER, "of another rank");
    try_append(&x, 0, &o, 99, NOC_NEVER, "does not exist");
    o.peer = 0;
    try_append(&x, 0, &o, -1, NOC_NEVER, "to itself");
    o = message_op(NOC_OP_RECV, 8, 2, W, W); /* rank 0's memory has W words */
    try_append(&x, 0, &o, -1, NOC_NEVER, "beyond its memory");
    o = message_op(NOC_OP_RECV, 8, 2, W, NOC_PROG_NO_ADDR);
    o.step = 0;
    try_append(&x, 0, &o, -1, NOC_NEVER, "step 0 out of range");
    assert_int_equal(stats(&x)->ops, early->n_ops);
    /* memory the run may have used */
    int64_t v = 1;
    assert_int_equal(noc_pe_append_memory(x.sim, 0, W - 1, &v, 1, err, sizeof err), -1);
    print_message("refused: %s\n", err);
    assert_non_null(strstr(err, "may have used"));
    assert_int_equal(noc_pe_append_memory(x.sim, 0, NOC_PROG_MAX_MEM, &v, 1, err, sizeof err), -1);
    print_message("refused: %s\n", err);
    noc_run_status_t st = NOC_RUN_OK;
    for (int c = 0; c < 5; c++) /* rank 4's calc runs in cycles 0 to 3 */
        assert_int_equal(noc_sim_step_checked(x.sim, &st), 0);
    o = calc_op(2);
    try_append(&x, 4, &o, e.c4, 1, "share the processor"); /* the processor of rank 4 was busy then */
    o = message_op(NOC_OP_RECV, 8, 2, 1, NOC_PROG_NO_ADDR);
    try_append(&x, 0, &o, -1, 4, "cannot have started"); /* a receive is no calc */
    o = calc_op(2);
    try_append(&x, 8, &o, e.r8, 4, "cannot have started"); /* its dependency has not completed */
    try_append(&x, 4, &o, e.c4, 6, "cannot have started"); /* a cycle not reached */
    try_append(&x, 4, &o, e.c4, 3, NULL);                  /* from the calc's end: fine */
    stop(&x);
    noc_prog_free(early);
}

/* Under sync_steps: a new op of a step whose barrier has passed, a step
 * appended after every step has passed, a calc of the gap from before its
 * step's barrier opened. */
static void test_refusals_at_barriers(void **state)
{
    (void)state;
    char err[512];
    run_t x;
    noc_run_status_t st = NOC_RUN_OK;
    noc_op_t o;
    noc_program_t *a = noc_prog_new(2, "steps");
    noc_prog_step(a, 0, "one");
    noc_prog_calc(a, 0, 1);
    noc_prog_step(a, 0, "two");
    noc_prog_calc(a, 0, 1);
    assert_int_equal(noc_prog_finish(a, err, sizeof err), 0);
    start(&x, a, "sync_steps", "1");
    for (int c = 0; c < 3; c++)
        assert_int_equal(noc_sim_step_checked(x.sim, &st), 0);
    o = calc_op(1);
    o.step = 0;
    try_append(&x, 1, &o, -1, NOC_NEVER, "barrier");
    /* a step after every step so far, appended when they have passed: its
     * ops run; then the steps before it are closed */
    assert_int_equal(noc_pe_append_step(x.sim, "three", err, sizeof err), 2);
    assert_int_equal(noc_pe_append_step(x.sim, "two", err, sizeof err), -1);
    print_message("refused: %s\n", err);
    o.step = 2;
    try_append(&x, 1, &o, -1, NOC_NEVER, NULL);
    o.step = 1;
    try_append(&x, 1, &o, -1, NOC_NEVER, "barrier");
    assert_int_equal(noc_pe_run(x.sim), NOC_RUN_OK);
    const noc_pe_stats_t *ps = stats(&x);
    assert_int_equal(ps->n_steps, 3);
    assert_string_equal(ps->steps[2].name, "three");
    assert_int_equal(ps->steps[2].first_start, 3);
    assert_int_equal(ps->steps[2].ops, 1);
    assert_int_equal(ps->cycles, 4);
    stop(&x);
    noc_prog_free(a);

    /* under sync_steps, a calc of the gap in a step from before the cycle
     * its barrier opened: a run from cycle 0 would hold it until then */
    a = noc_prog_new(2, "steps");
    noc_prog_step(a, 0, "one");
    noc_prog_calc(a, 0, 3);
    noc_prog_step(a, 0, "two");
    noc_prog_calc(a, 0, 1);
    uint32_t c1 = noc_prog_calc(a, 1, 1); /* of no step: ends in cycle 1 */
    assert_int_equal(noc_prog_finish(a, err, sizeof err), 0);
    start(&x, a, "sync_steps", "1");
    for (int c = 0; c < 6; c++) /* "two" opens in cycle 3 and ends in 4 */
        assert_int_equal(noc_sim_step_checked(x.sim, &st), 0);
    assert_int_equal(stats(&x)->op_end[c1], 1);
    assert_int_equal(stats(&x)->steps[1].first_start, 3);
    o = calc_op(4);
    o.step = 1;
    try_append(&x, 1, &o, c1, 1, "barrier");
    try_append(&x, 1, &o, c1, 3, NULL);
    assert_int_equal(noc_pe_run(x.sim), NOC_RUN_OK);
    assert_int_equal(stats(&x)->cycles, 7);
    stop(&x);
    noc_prog_free(a);
}

/* ---- a ring grown every few cycles, against the whole program ---- */

enum { RING_CYCLES = 3000 };

/* Rounds come now faster than the ring runs them (a round takes it some
 * 15 cycles: a hop on each PE's chain, 6 from rank 15 to 0), now slower:
 * ops wait for their dependencies, or a calc of the gap fills the time. */
static int ring_round_at(uint64_t t)
{
    return t % 1000 < 60 ? t % 3 == 0 : t % 40 == 0;
}

/* The ops appended, for the whole program: rank, op, dependency (index
 * of the appended op, -1), its start flag, the words sent. */
typedef struct logged {
    int rank;
    noc_op_t op;
    int64_t dep;
    int start;
    int64_t word;
} logged_t;

typedef struct ring {
    run_t *x;
    int ranks;
    logged_t *log;
    uint32_t n, cap;
    int64_t *last;     /* per rank: its last op, -1 */
    uint32_t *mem;     /* per rank: words used */
    int steps, step;   /* steps named, the current one (-1 none) */
    char names[8][16];
} ring_t;

static uint32_t ring_add(ring_t *g, int r, noc_op_t op, int64_t dep, int start, uint64_t at, int64_t word)
{
    op.step = g->step;
    if (op.kind == NOC_OP_SEND || op.kind == NOC_OP_RECV) {
        op.addr = (int32_t)g->mem[r];
        memory(g->x, r, g->mem[r]++, op.kind == NOC_OP_SEND ? &word : NULL, 1);
    }
    uint32_t i = append(g->x, r, &op, dep, start, at);
    assert_int_equal(i, g->n);
    assert_true(g->n < g->cap);
    g->log[g->n++] = (logged_t){ r, op, dep, start, word };
    g->last[r] = i;
    return i;
}

/* A round in cycle t: rank r sends a word to r + 1 and receives one from
 * r - 1, after its last op; if that ended before t, a calc of the gap
 * from then (as the SystemC wrapper does for a thread busy elsewhere). */
static void ring_round(ring_t *g, uint64_t t)
{
    char err[512];
    if (t % 1000 >= 30 && t / 1000 == (uint64_t)g->steps && g->steps < 8) { /* messages of the step
                                                                                before (or none) in flight */
        snprintf(g->names[g->steps], sizeof g->names[0], "s%llu", (unsigned long long)t);
        g->step = noc_pe_append_step(g->x->sim, g->names[g->steps], err, sizeof err);
        if (g->step < 0)
            fail_msg("%s", err);
        g->steps++;
    }
    const noc_pe_stats_t *ps = stats(g->x);
    for (int r = 0; r < g->ranks; r++) {
        int64_t chain = g->last[r];
        if (chain >= 0 && ps->op_end[chain] != NOC_NEVER && ps->op_end[chain] < t) {
            uint64_t e = ps->op_end[chain];
            chain = ring_add(g, r, calc_op((int64_t)(t - e)), chain, 0, e, 0);
        }
        uint32_t s = ring_add(g, r, message_op(NOC_OP_SEND, (r + 1) % g->ranks, (int)t, 1, 0), chain, 0, NOC_NEVER,
                              (int64_t)t * 100 + r);
        ring_add(g, r, message_op(NOC_OP_RECV, (r + g->ranks - 1) % g->ranks, (int)t, 1, 0), s, 1, NOC_NEVER, 0);
    }
}

/* The same ops as one program: every rank's in the order appended. */
static noc_program_t *ring_whole(const ring_t *g)
{
    char err[512];
    noc_program_t *p = noc_prog_new(g->ranks, "ring");
    uint32_t *index = calloc(g->n + 1, sizeof *index);
    for (int k = 0; k < g->steps; k++)
        noc_prog_declare_step(p, g->names[k]);
    for (int r = 0; r < g->ranks; r++)
        for (uint32_t i = 0; i < g->n; i++) {
            const logged_t *l = &g->log[i];
            if (l->rank != r)
                continue;
            noc_prog_step(p, r, l->op.step >= 0 ? g->names[l->op.step] : NULL);
            index[i] = noc_prog_add(p, r, &l->op);
            if (l->dep >= 0)
                noc_prog_dep(p, index[i], index[l->dep], l->start);
            if (l->op.kind == NOC_OP_SEND)
                noc_prog_init(p, r, (uint32_t)l->op.addr, l->word);
            if (l->op.kind == NOC_OP_RECV)
                noc_prog_expect(p, r, (uint32_t)l->op.addr, (int64_t)l->op.tag * 100 + l->op.peer);
        }
    free(index);
    if (noc_prog_finish(p, err, sizeof err) != 0)
        fail_msg("%s", err);
    return p;
}

static void test_grown_in_place(void **state)
{
    (void)state;
    char err[512];
    noc_program_t *none = noc_prog_new(16, "ring");
    assert_int_equal(noc_prog_finish(none, err, sizeof err), 0);
    run_t x;
    start_on(&x, "mesh:4x4", none, NULL, NULL);
    noc_sim_measure_all(x.sim);
    ring_t g = { &x, 16, NULL, 0, 200000, NULL, NULL, 0, -1, { "" } };
    g.log = calloc(g.cap, sizeof *g.log);
    g.last = malloc(16 * sizeof *g.last);
    g.mem = calloc(16, sizeof *g.mem);
    for (int r = 0; r < 16; r++)
        g.last[r] = -1;
    const noc_pe_t *pe = noc_sim_pe(x.sim);
    const noc_program_t *prog = NULL;
    noc_run_status_t st = NOC_RUN_OK;
    uint64_t t = 0;
    for (;; t++) {
        const noc_pe_stats_t *ps = stats(&x);
        if (t >= RING_CYCLES && ps->ops_done == ps->ops && noc_sim_flits_in_network(x.sim) == 0)
            break;
        if (t > 10 * RING_CYCLES)
            fail_msg("the grown ring stalls: %llu of %llu ops done", (unsigned long long)ps->ops_done,
                     (unsigned long long)ps->ops);
        noc_sim_cycle_arrivals(x.sim);
        if (t < RING_CYCLES && ring_round_at(t))
            ring_round(&g, t);
        /* in place: the same engine, and after the first append the same program */
        assert_ptr_equal(noc_sim_pe(x.sim), pe);
        if (!prog)
            prog = noc_pe_program(pe);
        assert_ptr_equal(noc_pe_program(pe), prog);
        noc_sim_cycle_pes(x.sim, 1);
        if (noc_sim_cycle_finish(x.sim, &st) != 0)
            fail_msg("the grown run stopped in cycle %llu: %d", (unsigned long long)t, (int)st);
    }
    assert_int_equal(noc_pe_finished(pe, err, sizeof err), 0);
    /* the work of the appends: O(1) an op (the tables grow by doubling), a
     * scan of the packets and a row of the link tables a step */
    uint64_t deps = 0, words = 0, gaps = 0, work = noc_pe_append_work(pe);
    for (uint32_t i = 0; i < g.n; i++) {
        deps += g.log[i].dep >= 0;
        words += g.log[i].op.words;
        gaps += g.log[i].op.kind == NOC_OP_CALC;
    }
    uint64_t bound = 4 * (g.n + deps + words) + (uint64_t)g.steps * 70000;
    print_message("%u ops (%llu calcs of a gap), %llu dependencies, %llu words, %d steps appended in %llu cycles: "
                  "%llu entries written or moved (at most %llu)\n", g.n, (unsigned long long)gaps,
                  (unsigned long long)deps, (unsigned long long)words, g.steps, (unsigned long long)t,
                  (unsigned long long)work, (unsigned long long)bound);
    assert_true(gaps > 100);
    assert_true(work <= bound);

    /* the whole program from cycle 0: every op, memory, step and link alike */
    noc_program_t *whole = ring_whole(&g);
    run_t w;
    start_on(&w, "mesh:4x4", whole, NULL, NULL);
    assert_int_equal(noc_pe_run(w.sim), NOC_RUN_OK);
    assert_int_equal(noc_pe_check(w.sim, err, sizeof err), 0);
    same_ops(&x, &w);
    const noc_pe_stats_t *xs = stats(&x), *ws = stats(&w);
    assert_int_equal(xs->cycles, ws->cycles);
    assert_int_equal(xs->n_steps, ws->n_steps);
    for (int k = 0; k <= xs->n_steps; k++) {
        assert_string_equal(xs->steps[k].name, ws->steps[k].name);
        assert_int_equal(xs->steps[k].first_start, ws->steps[k].first_start);
        assert_int_equal(xs->steps[k].last_end, ws->steps[k].last_end);
        assert_int_equal(xs->steps[k].ops, ws->steps[k].ops);
        assert_int_equal(xs->steps[k].messages, ws->steps[k].messages);
        assert_int_equal(xs->steps[k].flit_hops, ws->steps[k].flit_hops);
        for (int c = 0; c < noc_sim_n_channels(x.sim); c++) {
            assert_int_equal(noc_sim_step_flits(x.sim, k, c), noc_sim_step_flits(w.sim, k, c));
            for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
                assert_int_equal(noc_sim_step_wait(x.sim, k, c, kind), noc_sim_step_wait(w.sim, k, c, kind));
        }
    }
    for (int r = 0; r < 16; r++)
        assert_memory_equal(noc_pe_memory(pe, r), noc_pe_memory(noc_sim_pe(w.sim), r),
                            whole->ranks[r].mem_words * sizeof(int64_t));
    print_message("whole and grown: %llu cycles, every op, step and link alike\n", (unsigned long long)ws->cycles);
    stop(&w);
    stop(&x);
    noc_prog_free(whole);
    noc_prog_free(none);
    free(g.log);
    free(g.last);
    free(g.mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grown_mid_cycle_equals_whole),
        cmocka_unit_test(test_cycle_in_parts),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_refusals_at_barriers),
        cmocka_unit_test(test_grown_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
