/* test_vc_alloc_opts.c: two of BookSim2's VC allocation options in the vc
 * router (routers/vc/vc_vcalloc.h), worked by hand on tiny meshes:
 * - vc_busy_when_full (iq_router.cpp's VC allocation asks for no output
 *   VC whose downstream buffer is full, BufferState::IsFullFor): a head
 *   facing a free but full VC and a free empty one takes the empty one
 *   with the key, the full one (its arbiter's first) without;
 * - vc_shuffle_requests (iq_router.cpp numbers the VC allocator's
 *   requesters vc * inputs + input rather than input * vcs + vc): two
 *   heads at different ports and VCs asking for one output VC in the same
 *   cycle win in the other order;
 * - refusals by name: the ideal router, and the vc router's modes the
 *   keys are not modelled with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "testbench/unit/script_traffic.h"

/* The sum of the latencies (creation to tail delivery) of node n's
 * packets, and their count in *count. */
static uint64_t lat_sum(const noc_sim_t *s, int n, uint64_t *count)
{
    const noc_node_stats_t *st = noc_sim_node_stats(s, n);
    *count = st->lat_src.n;
    return st->lat_src.sum;
}

/* vc_busy_when_full on mesh:3 (nodes 0 - 1 - 2), 2 VCs of 4 flits, the
 * ejection ports counting credits that come back 60 cycles after a flit
 * leaves (eject_credit_delay = 60). A (node 0 to node 2, 8 flits, cycle 0)
 * takes VC 0 all the way (every arbiter's first). Router 2 ejects its
 * first 4 flits on ejection VC 0 and then has no credit for it until the
 * first one's comes back, 60 cycles after it left; A's other 4 flits fill
 * router 2's west VC 0 (4 slots), so router 1's east VC 0 has no credit,
 * and A's tail has left router 1, which freed that VC: from then (about
 * cycle 15) to past cycle 60 router 1's east VC 0 is free but full, and
 * VC 1 free and empty. B (node 1 to node 2, 1 flit, cycle 30) bids at
 * router 1 for the east port from the local input port, whose arbiter has
 * granted nothing there (pointer at VC 0).
 * - Without the key B takes VC 0 and waits for a credit, which comes when
 *   router 2's west VC 0 drains, after the ejection credits: beyond cycle
 *   60, a latency above 60 - 30.
 * - With it VC 0 (full) is not asked for: B takes VC 1, and at router 2
 *   ejection VC 1 (A holds VC 0, whose credits are out; VC 1's are home):
 *   nothing in its way, its zero-load latency T0 = 2 Lloc + (H + 1) 4 + H
 *   = 2 + 8 + 1 = 11 (H = 1 hop, Lloc = 1).
 * The same with iSLIP (a whole allocator), separable output-first and
 * va_in_pointer = router. A's latency is the same either way. */
static uint64_t busy_when_full(int on, const char *extra, uint64_t *lat_a)
{
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 2, 8);  /* A */
    script_add(&sc, 30, 1, 2, 1); /* B */
    char kv_on[64];
    snprintf(kv_on, sizeof kv_on, "vc_busy_when_full=%d", on);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc,
                              (const char *const[]){ kv_on, "node_stats=1", "sample_cycles=300", "num_vcs=2",
                                                     "vc_buf_size=4", "eject_credit_delay=60", extra, NULL });
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    uint64_t na, nb;
    *lat_a = lat_sum(s, 0, &na);
    uint64_t lb = lat_sum(s, 1, &nb);
    assert_int_equal(na, 1);
    assert_int_equal(nb, 1);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    return lb;
}

static void test_busy_when_full(void **state)
{
    (void)state;
    uint64_t a0, a1;
    const char *alloc[] = { NULL, "vc_allocator=islip", "vc_allocator=separable_output_first", "va_in_pointer=router" };
    for (size_t i = 0; i < sizeof alloc / sizeof alloc[0]; i++) {
        uint64_t off = busy_when_full(0, alloc[i], &a0), on = busy_when_full(1, alloc[i], &a1);
        if (on != 11 || off <= 60 - 30)
            fail_msg("%s: B's latency %llu without the key (expected > 30), %llu with (expected 11)",
                     alloc[i] ? alloc[i] : "default", (unsigned long long)off, (unsigned long long)on);
        assert_int_equal(a0, a1); /* (A is ahead of B all the way: the same either way) */
    }
}

/* vc_shuffle_requests on mesh:3, 2 VCs: A (node 0 to node 2, 1 flit,
 * cycle 0) and B (node 1 to node 2, 1 flit, cycle 5) reach router 1 in
 * cycle 6 and bid for its east VC 0 together (each input VC's arbiter
 * starts at VC 0). Before them B' (node 1 to node 0, cycle 0, alone on
 * its ports: T0 = 11) took the NI's VC 0, so B is on local VC 1 (port 0)
 * and A on VC 0 of the west port (port 1 or 2: the local port is 0).
 * Port-major B is requester 0 * 2 + 1 = 1, A 2 or 4: east VC 0's arbiter
 * (pointer 0) grants B, whose latency is T0 = 11; A takes VC 1 the next
 * cycle, one cycle late: 16 + 1 = 17 (T0 = 16 for its 2 hops). VC-major
 * (P = 3 ports) B is 1 * 3 + 0 = 3, A 0 * 3 + 1 or 2: A first, 16, and B
 * one cycle late, 12. */
static void shuffle(int on, const char *extra, uint64_t *lat_a, uint64_t *lat_b)
{
    script_t sc = { 0 };
    script_add(&sc, 0, 0, 2, 1);  /* A */
    script_add(&sc, 0, 1, 0, 1);  /* B' */
    script_add(&sc, 5, 1, 2, 1);  /* B */
    char kv_on[64];
    snprintf(kv_on, sizeof kv_on, "vc_shuffle_requests=%d", on);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, "mesh:3", 0, &sc,
                              (const char *const[]){ kv_on, "node_stats=1", "sample_cycles=100", "num_vcs=2", extra,
                                                     NULL });
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    uint64_t na, nb;
    *lat_a = lat_sum(s, 0, &na);
    *lat_b = lat_sum(s, 1, &nb) - 11; /* (B', alone: T0) */
    assert_int_equal(na, 1);
    assert_int_equal(nb, 2);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

static void test_shuffle_requests(void **state)
{
    (void)state;
    /* the separable kinds (per-port allocators, va_in_pointer port and
     * router) and a whole kind with a single iteration (iSLIP: its grant
     * arbiters are round-robin over the requesters) */
    const char *alloc[] = { NULL, "va_in_pointer=router", "vc_allocator=separable_output_first", "vc_allocator=islip" };
    for (size_t i = 0; i < sizeof alloc / sizeof alloc[0]; i++) {
        uint64_t la, lb;
        shuffle(0, alloc[i], &la, &lb);
        if (la != 17 || lb != 11)
            fail_msg("%s, port-major: A %llu (17), B %llu (11)", alloc[i] ? alloc[i] : "default",
                     (unsigned long long)la, (unsigned long long)lb);
        shuffle(1, alloc[i], &la, &lb);
        if (la != 16 || lb != 12)
            fail_msg("%s, VC-major: A %llu (16), B %llu (12)", alloc[i] ? alloc[i] : "default",
                     (unsigned long long)la, (unsigned long long)lb);
    }
}

/* Refused by name: the ideal router; the vc router's modes the keys are
 * not modelled with. */
static void test_refusals(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        { "vc_busy_when_full=1", "router=ideal", "vc_busy_when_full" },
        { "vc_shuffle_requests=1", "router=ideal", "vc_shuffle_requests" },
        { "vc_busy_when_full=1", "speculative=1", "speculative" },
        { "vc_busy_when_full=1", "vc_alloc_delay=2", "vc_alloc_delay > 1" },
        { "vc_busy_when_full=1", "internal_speedup=2", "speedup" },
        { "vc_shuffle_requests=1", "priority=age", "priority" },
        { "vc_shuffle_requests=1", "speculative=1", "speculative" },
        { "vc_shuffle_requests=1", "output_speedup=2", "speedup" },
    };
    script_expect_refused(bad, sizeof bad / sizeof bad[0], "vc_");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_busy_when_full),
        cmocka_unit_test(test_shuffle_requests),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
