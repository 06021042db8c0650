/* test_vc_fair.c: routers/vc's fairness, apart from test_vc.c: input ports,
 * and VCs of one input port, that compete for one output all the time get
 * the shares their allocators' pointers give (round-robin and matrix
 * arbiters, the wavefront, max_size and loa allocators, the whole-router VC
 * allocators), worked from the pointers, never from the router's own
 * output; the invariant checker after every cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/sim_internal.h"
#include "routers/vc/vc.h"
#include "testbench/unit/script_traffic.h"
#include "testbench/unit/routers/vc_links.h"

/* ---- fairness ------------------------------------------------------------- */

/* Flits arriving on one channel in cycles [from, to), by source node: an
 * observer, called at the start of every cycle, sees what arrives now. */
typedef struct tally {
    int chan;
    uint64_t from, to;
    uint64_t by_src[16];
    uint64_t total;
} tally_t;

static void tally_obs(const noc_sim_t *s, void *ctx)
{
    tally_t *ty = ctx;
    if (s->now < ty->from || s->now >= ty->to)
        return;
    uint32_t i = (uint32_t)ty->chan * s->cap + (uint32_t)(s->now & s->mask);
    if (!s->ring_valid[i])
        return;
    int src = s->pkts[s->ring_flit[i].pkt].src;
    assert_true(src >= 0 && src < 16);
    ty->by_src[src]++;
    ty->total++;
}

/* Each source of srcs[] sends one long packet to dst from cycle 0; the
 * flits of each arriving over channel chan(s) in a window of W cycles. */
static tally_t compete(const char *spec, const int *srcs, int n, int dst, int to_chan_from,
                       const char *const *extra)
{
    const char *kv[16] = { "warmup_cycles=0", "sample_cycles=50", "check=1" };
    int k = 3;
    for (; extra && *extra; extra++)
        kv[k++] = *extra;
    kv[k] = NULL;
    script_t sc = { 0 };
    for (int i = 0; i < n; i++)
        script_add(&sc, 0, srcs[i], dst, 1000);
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, spec, 0, &sc, kv);
    tally_t ty = { .from = 300, .to = 300 + 1200 };
    ty.chan = to_chan_from < 0 ? script_ejection(s, dst) : script_link(s, to_chan_from, dst);
    assert_true(ty.chan >= 0);
    noc_sim_set_observer(s, tally_obs, &ty);
    run_ok(s);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    return ty;
}

static void assert_share(const tally_t *ty, int src, uint64_t want, uint64_t slack, const char *what)
{
    uint64_t got = ty->by_src[src];
    print_message("%s: node %d: %llu flits of %llu (fair share %llu)\n", what, src,
                  (unsigned long long)got, (unsigned long long)ty->total, (unsigned long long)want);
    if (got + slack < want || got > want + slack)
        fail_msg("%s: node %d got %llu flits in the window, its fair share is %llu (+-%llu)", what, src,
                 (unsigned long long)got, (unsigned long long)want, (unsigned long long)slack);
}

/* Four input ports (the neighbours of the centre of mesh:3x3) want the
 * centre's ejection port in every cycle: it carries a flit every cycle,
 * and a round-robin arbiter over n requesters that never stop grants each
 * once every n cycles, so each of the 4 gets W/4 of a W-cycle window, give
 * or take the one grant the window's ends may cut. A matrix arbiter (least
 * recently granted first) does the same. An arbiter whose pointer sticks
 * serves the same port again and again. (A packet holds an output VC of the
 * ejection port until its tail leaves: 4 VCs, so that all four packets are
 * in the switch stage at once; with 2, two of them wait for the others'
 * tails, which is wormhole switching, not unfairness.) */
static void test_fair_ports(void **state)
{
    (void)state;
    static const int srcs[] = { 1, 3, 5, 7 };
    const char *rr[] = { "num_vcs=4", NULL };
    const char *mx[] = { "num_vcs=4", "arb_type=matrix", NULL };
    const char *of[] = { "num_vcs=4", "sw_allocator=separable_output_first", NULL };
    const char *is[] = { "num_vcs=4", "sw_allocator=islip", "alloc_iters=2", NULL };
    /* BookSim2's VC allocators over all of a router's output VCs: each
     * packet's VC comes from one allocation at the router, the switch
     * allocator (round-robin input-first) shares the port as before */
    const char *vm[] = { "num_vcs=4", "vc_allocator=max_size", NULL };
    const char *vw[] = { "num_vcs=4", "vc_allocator=wavefront", NULL };
    const char *vr[] = { "num_vcs=4", "vc_allocator=rr_wavefront", NULL };
    const char *vl[] = { "num_vcs=4", "vc_allocator=loa", NULL };
    const char *const *kinds[] = { rr, mx, of, is, vm, vw, vr, vl };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        tally_t ty = compete("mesh:3x3", srcs, 4, 4, -1, kinds[k]);
        assert_int_equal(ty.total, 1200); /* the ejection port never idles */
        for (int i = 0; i < 4; i++)
            assert_share(&ty, srcs[i], 300, 1, "4 ports into one");
    }
}

/* The same four ports into the centre's ejection port under BookSim2's
 * wavefront switch allocators (model/alloc.h): the centre's 5 ports make a
 * 5 x 5 request matrix whose only requests are (1..4, 0), one allocation
 * a cycle. wavefront's priority diagonal d moves on by one a cycle and the
 * grant goes to the first requester at or after d: d = 0 and 1 both give
 * port 1, then 2, 3, 4: port 1 gets 2/5 of the cycles, the others 1/5.
 * rr_wavefront moves the diagonal to the one after the grant's (requester
 * + 0 + 1): each port a quarter. A diagonal moved per grant only, or not at
 * all on a lone request, gives other shares. max_size (maxsize.cpp) starts
 * its search from priority requester d, moved on by one each allocation:
 * wavefront's shares; so does loa (loa.cpp), whose resource's pointer
 * moves on by one each grant, not past the winner. */
static void test_wavefront_shares(void **state)
{
    (void)state;
    static const int srcs[] = { 1, 3, 5, 7 };
    char err[256];
    noc_topo_t *t = noc_topo_create("mesh:3x3", 0, err, sizeof err);
    assert_non_null(t);
    int on_port1 = noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, 4, 1)));
    noc_topo_destroy(t);
    static const char *const kinds[] = { "sw_allocator=wavefront", "sw_allocator=rr_wavefront",
                                         "sw_allocator=max_size", "sw_allocator=loa" };
    for (int k = 0; k < 4; k++) {
        int rr = k == 1;
        const char *kv[] = { "num_vcs=4", kinds[k], NULL };
        tally_t ty = compete("mesh:3x3", srcs, 4, 4, -1, kv);
        assert_int_equal(ty.total, 1200);
        for (int i = 0; i < 4; i++)
            assert_share(&ty, srcs[i], rr ? 300 : srcs[i] == on_port1 ? 480 : 240, 2, kinds[k]);
    }
}

/* The whole VC allocators (one allocator over all of a router's output
 * VCs, port * V + VC): every node of mesh:3x3 sends three 2-flit packets to
 * every other, all made at once, so that VCs of several ports are asked for
 * in one allocation and taken and freed again and again. Every packet
 * arrives, the invariant checker passes every cycle, every VC of every
 * channel carries whole packets one after another (a grant of a VC another
 * packet holds, or booked at another port than the one the packet leaves
 * by, interleaves two packets on one VC), and once the network is empty
 * every output VC is free again. */
/* Observer: on every channel, each VC carries whole packets one after
 * another (a flit that is not a head continues the packet last headed on
 * its VC there). */
typedef struct vc_owner {
    uint32_t pkt[64][8]; /* channel, VC: packet + 1 of its last head, 0 none */
    int bad;
} vc_owner_t;

static void owner_obs(const noc_sim_t *s, void *ctx)
{
    vc_owner_t *o = ctx;
    for (int c = 0; c < noc_sim_n_channels(s) && c < 64; c++) {
        uint32_t i = (uint32_t)c * s->cap + (uint32_t)(s->now & s->mask);
        if (!s->ring_valid[i])
            continue;
        const noc_flit_t *f = &s->ring_flit[i];
        uint32_t *own = &o->pkt[c][f->vc & 7];
        if (f->flags & NOC_FLIT_HEAD)
            *own = f->pkt + 1;
        else if (*own != f->pkt + 1)
            o->bad++;
    }
}

static void test_whole_va_traffic(void **state)
{
    (void)state;
    static const char *const kinds[] = { "vc_allocator=max_size", "vc_allocator=wavefront",
                                         "vc_allocator=rr_wavefront", "vc_allocator=loa", "vc_allocator=pim" };
    for (int k = 0; k < 5; k++) {
        const char *kv[] = { "warmup_cycles=0", "sample_cycles=50", "check=1", "num_vcs=2", kinds[k], NULL };
        script_t sc = { 0 };
        for (int rep = 0; rep < 3; rep++)
            for (int a = 0; a < 9; a++)
                for (int b = 0; b < 9; b++)
                    if (a != b)
                        script_add(&sc, (uint64_t)rep, a, b, 2);
        noc_topo_t *t;
        noc_sim_t *s = script_sim(&t, "mesh:3x3", 0, &sc, kv);
        vc_owner_t own;
        memset(&own, 0, sizeof own);
        noc_sim_set_observer(s, owner_obs, &own);
        run_ok(s);
        assert_int_equal(s->st.packets, 3 * 72);
        assert_int_equal(own.bad, 0);
        const vc_state_t *r = s->rstate;
        const noc_graph_t *g = noc_sim_graph(s);
        for (int n = 0; n < 9; n++) {
            const vc_node_t *nd = vc_node(r, n);
            for (int p = 0; p < g->port_base[n + 1] - g->port_base[n]; p++)
                assert_int_equal(nd->port[p].ovc_free, 3); /* both VCs */
        }
        noc_sim_destroy(s);
        noc_topo_destroy(t);
    }
}

/* VCs of one input port: on mesh:3x2 (nodes 0 1 2 / 3 4 5) nodes 0, 1 and
 * 2 stream to node 5, x first: node 0's and node 1's packets both reach
 * router 2 on its input port from node 1, on two VCs, and with node 2's
 * own packet (local port) they all want router 2's port to node 5. The
 * switch allocator shares that output between the two input ports, a
 * half each, and the input port's VC arbiter shares its half between its
 * two VCs: W/4, W/4, W/2 of a W-cycle window. (Each of those VCs has a
 * credit loop of 4 cycles and 8 credits, so it is always ready.) A VC
 * arbiter whose pointer sticks serves one VC only and starves the other. */
static void test_fair_vcs(void **state)
{
    (void)state;
    static const int srcs[] = { 0, 1, 2 };
    const char *rr[] = { "num_vcs=4", NULL };
    const char *mx[] = { "num_vcs=4", "arb_type=matrix", NULL };
    const char *const *kinds[] = { rr, mx };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        tally_t ty = compete("mesh:3x2", srcs, 3, 5, 2, kinds[k]);
        assert_int_equal(ty.total, 1200);
        assert_share(&ty, 0, 300, 2, "2 VCs of a port and a port into one");
        assert_share(&ty, 1, 300, 2, "2 VCs of a port and a port into one");
        assert_share(&ty, 2, 600, 2, "2 VCs of a port and a port into one");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fair_ports),
        cmocka_unit_test(test_wavefront_shares),
        cmocka_unit_test(test_whole_va_traffic),
        cmocka_unit_test(test_fair_vcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
