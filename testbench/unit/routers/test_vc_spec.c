/* test_vc_spec.c: speculative switch allocation in routers/vc (speculative
 * = 1, BookSim2's; routers/vc/vc_spec.c), against figures worked by hand
 * from the pipeline of docs/router.md, never from its own output:
 *   - zero load: a head bids for the switch in the cycle it bids for its
 *     VC, so with nothing in its way it crosses each of the H+1 routers one
 *     cycle (vc_alloc_delay) sooner: T0 − (H+1), with every kind of
 *     spec_sw_allocator; with spec_check_elig = 0 and spec_check_cred = 1
 *     nobody bids speculatively (as in BookSim2): T0;
 *   - a speculative request loses to a non-speculative one for the same
 *     output, even where the output's round-robin pointer favours it;
 *   - a speculative grant that stands is lost when the head got no VC.
 * The invariant checker runs after every cycle of all of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "testbench/unit/script_traffic.h"
#include "testbench/unit/routers/vc_links.h"

/* ---- zero load ------------------------------------------------------------ */

/* One packet of P flits over H hops of mesh:8 (src -> dst) with route
 * stage R (lookahead: 0), crossbar ST and links of L cycles, VA = SA = 1,
 * local channels of 1 cycle, and the settings kv: its latency must be
 *   2 + (H+1)·(R + VA + SA + ST) + H·L + (P−1) − saved·(H+1). */
static void spec_packet(int src, int dst, int H, int P, int lookahead, int R, int ST, int L, const char *const *kv,
                        int saved)
{
    char s_r[32], s_st[32], s_l[32], s_la[32];
    snprintf(s_r, sizeof s_r, "routing_delay=%d", R);
    snprintf(s_st, sizeof s_st, "st_final_delay=%d", ST);
    snprintf(s_l, sizeof s_l, "link_latency=%d", L);
    snprintf(s_la, sizeof s_la, "lookahead=%d", lookahead);
    const char *all[16] = { s_r, s_st, s_l, s_la, "sample_cycles=50", "check=1" };
    int k = 6;
    for (; *kv; kv++)
        all[k++] = *kv;
    all[k] = NULL;
    script_t sc = { 0 };
    script_add(&sc, 7, src, dst, P);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:8", 0, &sc, all);
    run_ok(s);
    const noc_stats_t *st = noc_sim_stats(s);
    int Re = lookahead ? 0 : R;
    uint64_t want = (uint64_t)(2 + (H + 1) * (Re + 1 + 1 + ST) + H * L + (P - 1) - saved * (H + 1));
    if (st->packets != 1 || st->latency.max != want)
        fail_msg("%d->%d (H=%d P=%d R=%d lookahead=%d ST=%d L=%d, %s %s): latency %llu, formula %llu", src, dst, H,
                 P, R, lookahead, ST, L, all[6], all[7] ? all[7] : "", (unsigned long long)st->latency.max,
                 (unsigned long long)want);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_spec_zero_load(void **state)
{
    (void)state;
    static const char *const prio[] = { "speculative=1", NULL };
    static const char *const sep[] = { "speculative=1", "spec_sw_allocator=separable_input_first", NULL };
    static const char *const of[] = { "speculative=1", "spec_sw_allocator=separable_output_first",
                                      "sw_allocator=separable_output_first", NULL };
    static const char *const wf[] = { "speculative=1", "sw_allocator=wavefront", NULL };
    static const char *const is[] = { "speculative=1", "sw_allocator=islip", "spec_sw_allocator=islip", NULL };
    static const char *const unchecked[] = { "speculative=1", "spec_check_elig=0", "spec_check_cred=0", NULL };
    static const char *const none[] = { "speculative=1", "spec_check_elig=0", "spec_check_cred=1", NULL };
    static const char *const off[] = { "speculative=0", NULL };
    static const struct {
        const char *const *kv;
        int saved;
    } runs[] = { { prio, 1 }, { sep, 1 }, { of, 1 }, { wf, 1 }, { is, 1 }, { unchecked, 1 }, { none, 0 }, { off, 0 } };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        for (int H = 1; H <= 7; H += 3)
            for (int P = 1; P <= 4; P += 3) {
                spec_packet(0, H, H, P, 0, 1, 1, 1, runs[i].kv, runs[i].saved);
                spec_packet(7, 7 - H, H, P, 0, 1, 1, 1, runs[i].kv, runs[i].saved);
            }
    /* other pipelines: lookahead routing; a longer route stage, no crossbar
     * stage and 3-cycle links */
    for (int H = 1; H <= 7; H++) {
        spec_packet(0, H, H, 2, 1, 1, 1, 1, prio, 1);
        spec_packet(7, 7 - H, H, 3, 0, 2, 0, 3, prio, 1);
    }
}

/* ---- speculative against non-speculative ---------------------------------- */

/* mesh:3 (0 - 1 - 2), default timing otherwise, 2 VCs:
 *   X: node 0 -> 2, 1 flit, made in cycle 0: reaches router 0 in 1, is
 *      routed there in 1 and bids for a VC and (speculatively) the switch
 *      in 2: crosses in 2 and reaches router 1 in 2 + SA+ST+L = 5;
 *   Z: node 1 -> 2, 8 flits, made in cycle 3: reaches router 1 in 4..11;
 *      Z0 bids for VC 0 of the port to node 2 and the switch in 5, alone:
 *      crosses in 5; its VC then bids from 6, a flit a cycle.
 * In 6 X (routed in 5) gets VC 1 of that port and bids speculatively, Z1
 * non-speculatively. The output's arbiter points past the local port (Z0
 * was granted in 5), which would favour X; but a speculative request ranks
 * below: Z1 crosses in 6. X, holding its VC, bids from 7 as Z2 does, and
 * the pointer (past the local port again) gives it the output: X0 in 7,
 * then Z2..Z7 in 8..13. Arrivals at router 2: 3 cycles after crossing.
 * (Had X's request ranked with Z1's, X0 would cross in 6: "9:X0".)
 * The same with a second allocator for the speculative requests: its grant
 * to X in 6 is dropped, as the output has a non-speculative request and
 * grant (either spec_mask_by_reqs).
 * Without speculation every head crosses a cycle later (Z0 in 6, X
 * reaches router 1 in 6 and bids for the switch from 8): Z0 6, Z1 7, X0 8
 * (the pointer past the local port), Z2..Z7 9..14. */
static void test_spec_loses_to_nonspec(void **state)
{
    (void)state;
    static const int names[][3] = { { 0, 0, 'X' }, { 1, 3, 'Z' }, { -1, 0, 0 } };
    static const char *const prio[] = { "num_vcs=2", "speculative=1", NULL };
    static const char *const sep0[] = { "num_vcs=2", "speculative=1", "spec_sw_allocator=separable_input_first",
                                        "spec_mask_by_reqs=0", NULL };
    static const char *const sep1[] = { "num_vcs=2", "speculative=1", "spec_sw_allocator=separable_input_first",
                                        "spec_mask_by_reqs=1", NULL };
    static const char *const off[] = { "num_vcs=2", "speculative=0", NULL };
    static const char *const *const kvs[] = { prio, sep0, sep1, off };
    for (size_t i = 0; i < sizeof kvs / sizeof kvs[0]; i++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 0, 2, 1);
        script_add(&sc, 3, 1, 2, 8);
        expect_link("mesh:3", &sc, kvs[i], names, 1, 2,
                    kvs[i] == off ? "9:Z0 10:Z1 11:X0 12:Z2 13:Z3 14:Z4 15:Z5 16:Z6 17:Z7"
                                  : "8:Z0 9:Z1 10:X0 11:Z2 12:Z3 13:Z4 14:Z5 15:Z6 16:Z7");
    }
}

/* ---- a head behind a tail ------------------------------------------------- */

/* Two 1-flit packets in one VC (num_vcs=1) from node 0 to node 1 of
 * mesh:2, made in cycles 10 and 11. The first reaches router 0 in 11, is
 * routed, bids for its VC and the switch in 12 and crosses (T0 − 2 = 9,
 * test_spec_zero_load). The second arrives behind it in 12, is at the
 * front from 13, routed in 13, bids and crosses in 14: a cycle later than
 * alone, 10. (Its VC's allocation had filed the first to bid for the
 * switch from 13; that must not hold for the second, which has no VC then.)
 * At router 1 the VC is empty again when each arrives. */
static void test_spec_head_behind_tail(void **state)
{
    (void)state;
    script_t sc = { 0 };
    script_add(&sc, 10, 0, 1, 1);
    script_add(&sc, 11, 0, 1, 1);
    const char *kv[] = { "num_vcs=1", "speculative=1", "sample_cycles=50", "check=1", NULL };
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:2", 0, &sc, kv);
    run_ok(s);
    const noc_stats_t *st = noc_sim_stats(s);
    assert_int_equal(st->packets, 2);
    assert_int_equal(st->net_latency.min, 9);
    assert_int_equal(st->net_latency.max, 10);
    assert_int_equal(st->queue_latency.max, 0);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* ---- a lost speculation ---------------------------------------------------- */

/* A speculative grant whose head got no VC is lost. mesh:3, 1 VC, 8-flit
 * buffers, credits taking 8 cycles back to a network interface:
 *   H: node 1 -> 2, 12 flits, made in cycle 0: its NI sends H0..H7 in
 *      0..7 (8 credits), reaching router 1 in 1..8; H0 gets the one VC of
 *      the port to node 2 and crosses in 2 (speculatively), H1..H7 in 3..9;
 *      H0's credit is back in the NI in 2 + 8 = 10, so H8..H11 reach router
 *      1 in 11..14 and cross as they arrive: in cycle 10 H holds the VC
 *      with no flit to send;
 *   X: node 0 -> 2, 1 flit, made in cycle 2: crosses router 0 in 4 and
 *      reaches router 1 in 7, bidding from 8 for the VC H holds (to its
 *      tail, 14) and, with spec_check_elig = spec_check_cred = 0 (bid
 *      whatever the VCs' state), speculatively for the switch: it loses to
 *      H's flits but in 10, where its speculative grant stands and is lost
 *      (no VC); in 15 it gets the VC and crosses.
 * With the checks on (the defaults) X does not bid while the VC is held:
 * the same crossings. Arrivals at router 2: 3 cycles after crossing. */
static void test_spec_lost_without_vc(void **state)
{
    (void)state;
    static const int names[][3] = { { 1, 0, 'H' }, { 0, 2, 'X' }, { -1, 0, 0 } };
    static const char *const blind[] = { "num_vcs=1", "inject_credit_delay=8", "speculative=1", "spec_check_elig=0",
                                         "spec_check_cred=0", NULL };
    static const char *const sep[] = { "num_vcs=1", "inject_credit_delay=8", "speculative=1", "spec_check_elig=0",
                                       "spec_check_cred=0", "spec_sw_allocator=separable_input_first", NULL };
    static const char *const checked[] = { "num_vcs=1", "inject_credit_delay=8", "speculative=1", NULL };
    static const char *const *const kvs[] = { blind, sep, checked };
    for (size_t i = 0; i < sizeof kvs / sizeof kvs[0]; i++) {
        script_t sc = { 0 };
        script_add(&sc, 0, 1, 2, 12);
        script_add(&sc, 2, 0, 2, 1);
        expect_link("mesh:3", &sc, kvs[i], names, 1, 2,
                    "5:H0 6:H1 7:H2 8:H3 9:H4 10:H5 11:H6 12:H7 14:H8 15:H9 16:H10 17:H11 18:X0");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_zero_load),
        cmocka_unit_test(test_spec_loses_to_nonspec),
        cmocka_unit_test(test_spec_lost_without_vc),
        cmocka_unit_test(test_spec_head_behind_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
