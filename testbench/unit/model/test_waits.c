/* test_waits.c: the wait attribution of program runs (model/waits.c,
 * docs/programs.md "Waits"). Every cycle a message is held back is counted
 * once, for one resource, so for one-word messages the time is accounted
 * for exactly:
 *   send start .. its flit leaves the NI    = the message's NI waits
 *   its flit leaves the NI .. it arrives    = the zero-load latency of its
 *                                             hops + its other waits
 * with the zero-load latency worked from the pipeline (docs/router.md): on
 * the vc router with the default delays the injection channel takes 1
 * cycle and each of the h + 1 routers on the way 5 (route 1, VA 1, switch
 * allocation and traversal 2, link 1): 1 + 5 (h + 1); on the ideal router
 * h. A hot spot with small buffers makes every resource hold something up,
 * and the per-step tables hold the same sums as the messages. */
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
#include "routers/rtl/rtl_model.h"
#include "topologies/topo.h"

#include "testbench/unit/pe_run_test.h"

#define SIDE 4
#define N (SIDE * SIDE)

/* Hops between nodes a and b of torus:4x4 (node = y * 4 + x), minimal. */
static int torus_hops(int a, int b)
{
    int dx = abs(a % SIDE - b % SIDE), dy = abs(a / SIDE - b / SIDE);
    return (dx < SIDE - dx ? dx : SIDE - dx) + (dy < SIDE - dy ? dy : SIDE - dy);
}

static uint64_t vc_zero_load(int h) { return 1 + 5 * (uint64_t)(h + 1); }
static uint64_t ideal_zero_load(int h) { return (uint64_t)h; }

typedef struct msg {
    uint32_t op;
    int from, to;
} msg_t;

/* Every rank sends one word to node 0 (the hot spot) and to three others
 * (all sends start in cycle 0); each message has a tag of its own. The ops
 * are added rank by rank (a program's op numbers are in rank order). */
static noc_program_t *hot_spot(msg_t *m, int *n_msg)
{
    int k = 0;
    for (int i = 0; i < N; i++) {
        int to[4] = { 0, (i * 5 + 3) % N, (i * 7 + 1) % N, (i + 8) % N };
        for (int j = 0; j < 4; j++)
            if (to[j] != i)
                m[k++] = (msg_t){ 0, i, to[j] };
    }
    *n_msg = k;
    noc_program_t *p = noc_prog_new(N, "hot-spot");
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < k; i++)
            if (m[i].from == r)
                m[i].op = noc_prog_send(p, r, m[i].to, i, 1, NOC_PROG_NO_ADDR);
        for (int i = 0; i < k; i++)
            if (m[i].to == r)
                noc_prog_recv(p, r, m[i].from, i, 1, NOC_PROG_NO_ADDR);
    }
    return p;
}

/* The identities of the header on every message of the run on r, and the
 * per-step tables' sums against the messages'; by[] gets the totals. */
static void check_accounting(run_t *r, const msg_t *m, int n_msg, uint64_t (*zero_load)(int), uint64_t *by)
{
    const noc_pe_t *pe = noc_sim_pe(r->sim);
    const noc_pe_stats_t *st = noc_pe_stats(pe);
    memset(by, 0, NOC_WAIT_KINDS * sizeof *by);
    for (int i = 0; i < n_msg; i++) {
        const uint32_t *w = noc_pe_msg_waits(pe, m[i].op);
        assert_non_null(w);
        uint64_t net = 0;
        for (int kind = 0; kind < NOC_WAIT_KINDS; kind++) {
            by[kind] += w[kind];
            if (kind != NOC_WAIT_NI)
                net += w[kind];
        }
        uint64_t start = st->op_start[m[i].op], left = st->op_end[m[i].op];
        uint64_t arrived = noc_pe_msg_arrived(pe, m[i].op);
        int h = torus_hops(m[i].from, m[i].to);
        if (left - start != w[NOC_WAIT_NI] || arrived - left != zero_load(h) + net)
            fail_msg("message %d->%d (%d hops): sent %llu, left the NI %llu, arrived %llu; waits ni %u buffer %u "
                     "vc %u switch %u link %u credit %u",
                     m[i].from, m[i].to, h, (unsigned long long)start, (unsigned long long)left,
                     (unsigned long long)arrived, w[0], w[1], w[2], w[3], w[4], w[5]);
    }
    for (int kind = 0; kind < NOC_WAIT_KINDS; kind++) {
        uint64_t tab = 0;
        for (int k = 0; k <= st->n_steps; k++)
            for (int c = 0; c < noc_sim_n_channels(r->sim); c++)
                tab += noc_sim_step_wait(r->sim, k, c, kind);
        assert_int_equal(tab, by[kind]);
    }
}

/* One message alone waits for nothing and takes the zero-load latency. */
static void test_alone(void **state)
{
    (void)state;
    for (int to = 1; to < N; to += 3) {
        for (int ideal = 0; ideal <= 1; ideal++) {
            noc_program_t *p = noc_prog_new(N, "one");
            msg_t m = { noc_prog_send(p, 0, to, 0, 1, NOC_PROG_NO_ADDR), 0, to };
            noc_prog_recv(p, to, 0, 0, 1, NOC_PROG_NO_ADDR);
            run_t r;
            const char *kv[] = { ideal ? "router=ideal" : "router=vc", NULL };
            build(&r, "torus:4x4", p, kv);
            assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
            uint64_t by[NOC_WAIT_KINDS];
            check_accounting(&r, &m, 1, ideal ? ideal_zero_load : vc_zero_load, by);
            for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
                assert_int_equal(by[kind], 0);
            drop(&r, p);
        }
    }
}

/* The hot spot on the vc router, every cycle accounted for: with 4 VCs of
 * 2 flits each resource but the switch holds something up; with 8 VCs of
 * one flit (no packet behind another in a buffer) two VCs of one input
 * port are ready for different outputs in the same cycle, and one loses
 * the switch while its output goes unused. */
static void test_hot_spot_vc(void **state)
{
    (void)state;
    static const struct {
        const char *vcs, *depth;
        unsigned held; /* kinds that must have held something up (bit per kind) */
    } cases[] = {
        { "num_vcs=4", "vc_buf_size=2",
          1u << NOC_WAIT_NI | 1u << NOC_WAIT_BUFFER | 1u << NOC_WAIT_VC | 1u << NOC_WAIT_LINK | 1u << NOC_WAIT_CREDIT },
        { "num_vcs=8", "vc_buf_size=1", 1u << NOC_WAIT_NI | 1u << NOC_WAIT_SWITCH | 1u << NOC_WAIT_CREDIT },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        msg_t m[4 * N];
        int n_msg;
        noc_program_t *p = hot_spot(m, &n_msg);
        run_t r;
        const char *kv[] = { cases[i].vcs, cases[i].depth, NULL };
        build(&r, "torus:4x4", p, kv);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        uint64_t by[NOC_WAIT_KINDS];
        check_accounting(&r, m, n_msg, vc_zero_load, by);
        print_message("%s %s: ni %llu buffer %llu vc %llu switch %llu link %llu credit %llu\n", cases[i].vcs,
                      cases[i].depth, (unsigned long long)by[0], (unsigned long long)by[1], (unsigned long long)by[2],
                      (unsigned long long)by[3], (unsigned long long)by[4], (unsigned long long)by[5]);
        for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
            if ((cases[i].held >> kind) & 1)
                assert_true(by[kind] > 0);
        drop(&r, p);
    }
}

/* A 32-word message in packets of 4 flits into one VC of 2 flits (mesh):
 * the NI injects a flit a cycle but for the cycles the router's injection
 * buffer is full (within a packet, and before the next packet can start),
 * counted as credit waits at the injection channel, so the send takes 31
 * cycles more than its start plus those. */
static void test_injection_credits(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(N, "stream");
    uint32_t sd = noc_prog_send(p, 0, 10, 0, 32, NOC_PROG_NO_ADDR);
    noc_prog_recv(p, 10, 0, 0, 32, NOC_PROG_NO_ADDR);
    run_t r;
    const char *kv[] = { "num_vcs=1", "vc_buf_size=2", "packet_size=4", NULL };
    build(&r, "mesh:4x4", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    int inj = noc_lane_chan(r.sim, 0, 0);
    uint32_t stalls = noc_sim_step_wait(r.sim, 0, inj, NOC_WAIT_CREDIT);
    print_message("send %llu..%llu, %u credit waits at the injection channel\n",
                  (unsigned long long)st->op_start[sd], (unsigned long long)st->op_end[sd], stalls);
    assert_true(stalls > 0);
    assert_int_equal(noc_pe_msg_waits(noc_sim_pe(r.sim), sd)[NOC_WAIT_NI], 0);
    assert_int_equal(st->op_end[sd] - st->op_start[sd], 31 + stalls);
    drop(&r, p);
}

/* The same on the ideal router: it has no VCs to allocate, no switch and
 * no FIFO order, so only the NI, the links and the credits hold flits. */
static void test_hot_spot_ideal(void **state)
{
    (void)state;
    msg_t m[4 * N];
    int n_msg;
    noc_program_t *p = hot_spot(m, &n_msg);
    run_t r;
    const char *kv[] = { "router=ideal", "vc_buf_size=1", "num_vcs=2", NULL };
    build(&r, "torus:4x4", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    uint64_t by[NOC_WAIT_KINDS];
    check_accounting(&r, m, n_msg, ideal_zero_load, by);
    print_message("ideal: ni %llu link %llu credit %llu\n", (unsigned long long)by[0], (unsigned long long)by[4],
                  (unsigned long long)by[5]);
    assert_true(by[NOC_WAIT_LINK] > 0);
    assert_int_equal(by[NOC_WAIT_BUFFER] + by[NOC_WAIT_VC] + by[NOC_WAIT_SWITCH], 0);
    drop(&r, p);
}

/* The ideal router's kinds of wait at a link (count_waits: another flit
 * won it, or no free VC of the flit's class downstream), each alone, on a
 * line of nodes (mesh:L): one-word messages `sends` (from, to pairs, in send
 * order per rank); by[] gets the run's totals. */
static void line_waits(const char *spec, int ranks, const int (*sends)[2], int n, const char *const *kv, uint64_t *by)
{
    noc_program_t *p = noc_prog_new(ranks, "line");
    uint32_t op[8];
    for (int r = 0; r < ranks; r++) {
        for (int i = 0; i < n; i++)
            if (sends[i][0] == r)
                op[i] = noc_prog_send(p, r, sends[i][1], i, 1, NOC_PROG_NO_ADDR);
        for (int i = 0; i < n; i++)
            if (sends[i][1] == r)
                noc_prog_recv(p, r, sends[i][0], i, 1, NOC_PROG_NO_ADDR);
    }
    run_t r;
    build(&r, spec, p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    memset(by, 0, NOC_WAIT_KINDS * sizeof *by);
    for (int i = 0; i < n; i++) {
        const uint32_t *w = noc_pe_msg_waits(noc_sim_pe(r.sim), op[i]);
        for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
            by[kind] += w[kind];
    }
    print_message("%s: ni %llu link %llu credit %llu\n", spec, (unsigned long long)by[NOC_WAIT_NI],
                  (unsigned long long)by[NOC_WAIT_LINK], (unsigned long long)by[NOC_WAIT_CREDIT]);
    drop(&r, p);
}

static void test_ideal_wait_kinds(void **state)
{
    (void)state;
    uint64_t by[NOC_WAIT_KINDS];
    /* link: 1's second flit leaves its NI in cycle 1, when 0's flit reaches
     * node 1: both want the link 1 -> 2, free VCs downstream; one waits */
    static const int meet[3][2] = { { 0, 3 }, { 1, 3 }, { 1, 3 } };
    const char *big[] = { "router=ideal", "vc_buf_size=8", "num_vcs=2", NULL };
    line_waits("mesh:4", 4, meet, 3, big, by);
    assert_int_equal(by[NOC_WAIT_LINK], 1); /* (then it trails by a cycle: no other meeting) */
    assert_int_equal(by[NOC_WAIT_CREDIT], 0);
    /* credit: one VC of one flit, three flits in a row from 0 to 2 */
    static const int row[3][2] = { { 0, 2 }, { 0, 2 }, { 0, 2 } };
    const char *small[] = { "router=ideal", "vc_buf_size=1", "num_vcs=1", NULL };
    line_waits("mesh:3", 3, row, 3, small, by);
    assert_true(by[NOC_WAIT_CREDIT] > 0); /* a buffer holds its flit until the credit is back */
    assert_int_equal(by[NOC_WAIT_LINK], 0); /* one NI sends them one a cycle: never two at one link */
}

/* The rtl router (the Verilog core as datapath) is the vc router cycle for
 * cycle, so every message waits for the same resources as long: its
 * wrapper reads the buffer waits off its mirror and the VC waits off the
 * first cycle a head bids for the switch. */
static void test_rtl_same(void **state)
{
    (void)state;
    if (!noc_rtl_model_cache()) {
        print_message("built without Verilator: no rtl router\n");
        skip();
    }
    msg_t m[4 * N];
    int n_msg;
    uint32_t (*w)[NOC_WAIT_KINDS] = calloc(4 * N, sizeof *w);
    uint64_t by[2][NOC_WAIT_KINDS];
    for (int rtl = 0; rtl <= 1; rtl++) {
        noc_program_t *p = hot_spot(m, &n_msg);
        run_t r;
        const char *kv[] = { rtl ? "router=rtl" : "router=vc", NULL };
        build(&r, "mesh:4x4", p, kv);
        assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
        memset(by[rtl], 0, sizeof by[rtl]);
        for (int i = 0; i < n_msg; i++) {
            const uint32_t *mw = noc_pe_msg_waits(noc_sim_pe(r.sim), m[i].op);
            for (int kind = 0; kind < NOC_WAIT_KINDS; kind++) {
                by[rtl][kind] += mw[kind];
                if (rtl)
                    assert_int_equal(mw[kind], w[i][kind]);
                else
                    w[i][kind] = mw[kind];
            }
        }
        drop(&r, p);
    }
    print_message("mesh:4x4: buffer %llu vc %llu link %llu on both\n", (unsigned long long)by[1][NOC_WAIT_BUFFER],
                  (unsigned long long)by[1][NOC_WAIT_VC], (unsigned long long)by[1][NOC_WAIT_LINK]);
    assert_true(by[1][NOC_WAIT_BUFFER] > 0 && by[1][NOC_WAIT_VC] > 0);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alone),
        cmocka_unit_test(test_hot_spot_vc),
        cmocka_unit_test(test_hot_spot_ideal),
        cmocka_unit_test(test_ideal_wait_kinds),
        cmocka_unit_test(test_injection_credits),
        cmocka_unit_test(test_rtl_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
