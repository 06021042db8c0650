/* test_vc_speedup.c: internal and output speedup in the vc router
 * (routers/vc/vc_speedup.c), against figures worked out from its contract
 * (docs/router.md), never from its own output:
 *   - zero-load latency of one packet over H hops with internal_speedup 1,
 *     1.5 and 2: each router takes its four stages (route, VC allocation,
 *     switch allocation, crossbar) one internal step each, from the first
 *     step of the cycle the head arrives in, and its output queue sends the
 *     head at the end of the cycle of the crossbar step; cycle t runs
 *     floor(s (t + 1)) - floor(s t) steps (BookSim2's accumulator: 1.5 runs
 *     1, 2, 1, 2, ... steps, 3 in 2 cycles);
 *   - two inputs into one output in one cycle (internal_speedup 2, and
 *     output_speedup 2), the output queue sending one a cycle;
 *   - an output queue at output_buffer_size stopping the switch;
 *   - the invariant checker after every cycle of a loaded mesh with each
 *     option (credits held by queued flits, credit messages waiting);
 *   - the refusals: the ideal and rtl routers, the stages the model does
 *     not take, programs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "routers/registry.h"
#include "testbench/unit/script_traffic.h"
#include "testbench/unit/routers/vc_links.h"
#include "traffic/synthetic.h"
#include "routers/vc/vc.h"

/* (vc_speedup.c, through vc_eval.h, whose other functions are the router's) */
int noc_vc_sp_queued_flits(const vc_state_t *r, int g, int v);

/* Internal speedup num/den: the first step of cycle t, floor(s t), and the
 * cycle that runs step u. */
typedef struct speed {
    int num, den;
} speed_t;

static uint64_t first_step(speed_t sp, uint64_t t) { return t * (uint64_t)sp.num / (uint64_t)sp.den; }

static uint64_t cycle_of(speed_t sp, uint64_t u)
{
    uint64_t t = u * (uint64_t)sp.den / (uint64_t)sp.num;
    while (first_step(sp, t + 1) <= u)
        t++;
    while (first_step(sp, t) > u)
        t--;
    return t;
}

/* A head that arrives at a router in cycle a (default stages of one step
 * each: route, VC allocation, switch allocation, then the crossbar into the
 * output queue) is sent at the end of the cycle of step first(a) + 3 and
 * arrives L cycles after that cycle plus the crossbar's st_final_delay (1). */
static uint64_t hop(speed_t sp, uint64_t a, int L) { return cycle_of(sp, first_step(sp, a) + 3) + 1 + (uint64_t)L; }

/* One packet of P flits made in cycle c0 from node 0 to node H of mesh:8
 * (links and local channels of 1 cycle): its head reaches router 0 in c0 +
 * 1, goes through H + 1 routers (the last one's output being the ejection
 * channel), and its tail arrives P - 1 cycles after it. */
static uint64_t walk(speed_t sp, uint64_t c0, int H, int P)
{
    uint64_t a = c0 + 1;
    for (int h = 0; h <= H; h++)
        a = hop(sp, a, 1);
    return a + (uint64_t)(P - 1) - c0;
}

static void one_packet(speed_t sp, uint64_t c0, int H, int P)
{
    char spd[48];
    snprintf(spd, sizeof spd, "internal_speedup=%g", (double)sp.num / sp.den);
    const char *kv[] = { spd, "sample_cycles=60", "check=1", NULL };
    script_t sc = { 0 };
    script_add(&sc, c0, 0, H, P);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:8", 0, &sc, kv);
    run_ok(s);
    const noc_stats_t *st = noc_sim_stats(s);
    uint64_t want = walk(sp, c0, H, P);
    if (st->packets != 1 || st->latency.max != want)
        fail_msg("internal_speedup %d/%d, made in %llu, H=%d, P=%d: latency %llu, worked out %llu", sp.num, sp.den,
                 (unsigned long long)c0, H, P, (unsigned long long)st->latency.max, (unsigned long long)want);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* With 1 the walk is the other instances' 4 cycles a router (R + VA + SA +
 * ST) plus the link; with 2 it is 2 cycles a router; with 1.5, 3 (its 4
 * steps end in the third cycle, whichever the phase); with 1.25 (1, 1, 1, 2
 * steps in turn) it depends on the cycle the head arrives in (made in
 * cycles 7 to 10: every phase). */
static void test_zero_load_steps(void **state)
{
    (void)state;
    static const speed_t speeds[] = { { 1, 1 }, { 2, 1 }, { 3, 2 }, { 5, 4 } };
    assert_int_equal(walk(speeds[0], 7, 3, 1), 2 + 4 * 4 + 3);
    assert_int_equal(walk(speeds[1], 7, 3, 1), 2 + 4 * 2 + 3);
    assert_int_equal(first_step(speeds[2], 2), 3); /* 1.5: 3 steps in cycles 0 and 1 */
    assert_int_equal(cycle_of(speeds[2], 2), 1);
    for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
        for (int H = 1; H <= 7; H += 2)
            for (int P = 1; P <= 5; P += 4)
                for (uint64_t c0 = 7; c0 <= 10; c0++)
                    one_packet(speeds[i], c0, H, P);
}

/* Two inputs into one output. mesh:4 (0 - 1 - 2 - 3), 1-flit packets X
 * (node 0 -> 2, made in cycle 0) and Y (node 1 -> 2). With
 * internal_speedup 2 (Y made in 3): X reaches router 0 in 1 and router 1 in
 * hop(1) = 4 (router 0's steps 2..5, sent at the end of cycle 2, arriving
 * 2 + 1 + 1), Y router 1 in 3 + 1 = 4 too. Both are routed in step 8 and
 * bid for an output VC of router 1's port to node 2 in step 9; the VC
 * allocator grants that port one VC a step (both ask for its first free
 * VC), so one gets its VC in 9 and the other in 10: they cross in steps 10
 * and 11, both in cycle 5, into the output queue, which sends one at the
 * end of cycle 5 and the other at the end of cycle 6: at router 2 in 7 and
 * 8. With output_speedup 2 and internal_speedup 1 (Y made in 5): both reach
 * router 1 in 6 (1 + 5, and 5 + 1), get their VCs in 7 and 8, cross in 8
 * and 9 (the local and west inputs on switch outputs of their own), reach
 * the queue in 9 and 10 and router 2 in 11 and 12. Which of the two goes
 * first is the VC allocator's choice: either order. */
static void test_two_inputs_one_output(void **state)
{
    (void)state;
    static const int names[][3] = { { 0, 0, 'X' }, { 1, 3, 'Y' }, { 1, 5, 'Y' }, { -1, 0, 0 } };
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 2, 1);
    script_add(&sc, 3, 1, 2, 1);
    noc_topo_t *t;
    const char *all[] = { "sample_cycles=60", "check=1", "num_vcs=2", "internal_speedup=2", NULL };
    noc_sim_t *s = script_sim(&t, "mesh:4", 0, &sc, all);
    seen_t v = { .chan = script_link(s, 1, 2), .names = names };
    noc_sim_set_observer(s, seen_obs, &v);
    run_ok(s);
    if (strcmp(v.text, "7:X0 8:Y0") != 0 && strcmp(v.text, "7:Y0 8:X0") != 0)
        fail_msg("link 1->2: %s, want X0 and Y0 in 7 and 8", v.text);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    script_t sc2 = { 0 };
    script_add(&sc2, 0, 0, 2, 1);
    script_add(&sc2, 5, 1, 2, 1);
    const char *all2[] = { "sample_cycles=60", "check=1", "num_vcs=2", "output_speedup=2", NULL };
    s = script_sim(&t, "mesh:4", 0, &sc2, all2);
    seen_t v2 = { .chan = script_link(s, 1, 2), .names = names };
    noc_sim_set_observer(s, seen_obs, &v2);
    run_ok(s);
    if (strcmp(v2.text, "11:X0 12:Y0") != 0 && strcmp(v2.text, "11:Y0 12:X0") != 0)
        fail_msg("link 1->2 (output_speedup 2): %s, want X0 and Y0 in 11 and 12", v2.text);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* The output queue of global port g (router 1's ejection port), each
 * cycle: its largest length. */
typedef struct qwatch {
    int g, most;
} qwatch_t;

static void queue_obs(const noc_sim_t *s, void *ctx)
{
    qwatch_t *w = ctx;
    const vc_state_t *r = s->rstate;
    int len = 0;
    for (int v = 0; v < r->V; v++)
        len += noc_vc_sp_queued_flits(r, w->g, v);
    w->most = len > w->most ? len : w->most;
}

/* output_buffer_size B stops the switch. Two 16-flit packets, X (node 0 ->
 * 1) and Y (node 2 -> 1), made in cycle 0, reach router 1 together, from
 * its two network ports, and stream into it at a flit a cycle each;
 * internal_speedup 2 lets the switch move two a cycle to the ejection
 * port, whose queue sends one. Without a limit the queue grows by a flit a
 * cycle (up to V x vc_buf_size = 16, an ejection port having no credits):
 * far past 3, as the
 * observer sees it at the end of a cycle. With B a request of step u needs
 * fewer than B flits in the queue, not counting those granted in step u - 1
 * (still in the crossbar). Worked by hand with both inputs always bidding,
 * B = 3, flits a, b, ... granted in turn (steps 2t and 2t + 1 in cycle t;
 * the queue after the cycle's send): cycle 0 grants a, b (nothing counted),
 * sends a: {b}; 1 grants c (b not counted in step 2), d (b counted): {c d};
 * 2 grants e, f (1, then 2 counted): {d e f}; 3 grants g (2 counted; f is
 * in the crossbar), not in step 7 (3): {e f g}; 4 none: {f g}; 5 grants h,
 * i: {g h i}; 6 grants j: {h i j}; 7 none: {i j}; and so on: at most 3 =
 * B. The same with B = 1: cycle 0 grants a, b: {b}; 1 grants c only: {c};
 * 2 none: {}; then again: at most 1. With output_speedup 2 instead (one
 * step a cycle), the two network inputs (ports 1 and 2) reach the port on
 * switch outputs of their own: both cross every cycle, and the queue grows
 * as without a limit above. */
static void test_output_buffer_size_stops_switch(void **state)
{
    (void)state;
    static const struct {
        const char *B, *speed;
        int lo, hi;
    } cases[] = { { "output_buffer_size=-1", "internal_speedup=2", 4, 32 },
                  { "output_buffer_size=1", "internal_speedup=2", 1, 1 },
                  { "output_buffer_size=3", "internal_speedup=2", 3, 3 },
                  { "output_buffer_size=-1", "output_speedup=2", 4, 32 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 1, 16);
        script_add(&sc, 0, 2, 1, 16);
        noc_topo_t *t;
        const char *all[] = { "sample_cycles=80", "check=1", "num_vcs=2", cases[i].speed, cases[i].B, NULL };
        noc_sim_t *s = script_sim(&t, "mesh:4", 0, &sc, all);
        qwatch_t w = { .g = script_ejection(s, 1), .most = 0 };
        noc_sim_set_observer(s, queue_obs, &w);
        run_ok(s);
        if (w.most < cases[i].lo || w.most > cases[i].hi)
            fail_msg("%s: the queue held up to %d flits, want %d..%d", cases[i].B, w.most, cases[i].lo, cases[i].hi);
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
}

/* Every option on a loaded mesh, the invariant checker after every cycle:
 * flits in output queues hold their credits, credit messages wait at their
 * input ports, nothing is lost or duplicated, the network drains. */
static void test_loaded_mesh_checked(void **state)
{
    (void)state;
    static const char *const opts[][3] = {
        { "internal_speedup=2", "output_buffer_size=-1", "output_speedup=1" },
        { "internal_speedup=1.5", "output_buffer_size=1", "output_speedup=1" },
        { "internal_speedup=1.7", "output_buffer_size=3", "output_speedup=2" },
        { "internal_speedup=1", "output_buffer_size=2", "output_speedup=2" },
        { "internal_speedup=3", "output_buffer_size=-1", "output_speedup=3" },
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        char err[512];
        const char *kv[] = { "injection_rate=0.6", "packet_size=4", "vc_buf_size=4", "credit_delay=2",
                             "wait_for_tail_credit=1", opts[i][0], opts[i][1], opts[i][2], NULL };
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        script_config(&cfg, kv);
        noc_topo_t *t = noc_topo_create("mesh:4x4", 0, err, sizeof err);
        assert_non_null(t);
        noc_synthetic_t syn;
        if (noc_synthetic_init(&syn, &cfg, t, err, sizeof err))
            fail_msg("%s", err);
        noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), noc_synthetic_traffic(&syn), err, sizeof err);
        if (!s)
            fail_msg("%s", err);
        uint64_t most = 0;
        for (int c = 0; c < 400; c++) {
            noc_sim_step(s);
            if (noc_sim_check(s, err, sizeof err) != 0)
                fail_msg("%s, cycle %d: %s", opts[i][0], c, err);
            uint64_t in = noc_sim_flits_in_network(s);
            most = in > most ? in : most;
        }
        assert_true(most > 40); /* (loaded: queues and credit messages in use) */
        noc_sim_destroy(s);
        noc_synthetic_free(&syn);
        noc_topo_destroy(t);
    }
}

/* What is refused, by name. */
static void test_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *kv[3];
        const char *name;
    } cases[] = {
        { { "router=ideal", "internal_speedup=2", NULL }, "internal_speedup" },
        { { "router=ideal", "output_speedup=2", NULL }, "output_speedup" },
        { { "router=ideal", "output_buffer_size=4", NULL }, "output_buffer_size" },
        { { "internal_speedup=2", "routing_delay=2", NULL }, "internal_speedup" },
        { { "internal_speedup=2", "hold_switch_for_packet=1", NULL }, "internal_speedup" },
        { { "output_speedup=2", "speculative=1", NULL }, "output_speedup" },
        { { "internal_speedup=0.5", NULL, NULL }, "internal_speedup" },
        { { "output_buffer_size=0", NULL, NULL }, "output_buffer_size" },
        { { "output_speedup=20", NULL, NULL }, "output_speedup" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        for (int k = 0; cases[i].kv[k]; k++) {
            const char *eq = strchr(cases[i].kv[k], '=');
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(eq - cases[i].kv[k]), cases[i].kv[k]);
            assert_int_equal(noc_config_set(&cfg, name, eq + 1, err, sizeof err), 0);
        }
        noc_topo_t *t = noc_topo_create("mesh:4x4", 0, err, sizeof err);
        assert_non_null(t);
        noc_traffic_t none = { NULL, NULL };
        noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
        if (s || !strstr(err, cases[i].name))
            fail_msg("case %zu: %s, want a refusal naming '%s'", i, s ? "created" : err, cases[i].name);
        noc_topo_destroy(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load_steps),
        cmocka_unit_test(test_two_inputs_one_output),
        cmocka_unit_test(test_output_buffer_size_stops_switch),
        cmocka_unit_test(test_loaded_mesh_checked),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
