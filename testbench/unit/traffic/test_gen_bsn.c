/* test_gen_bsn.c: the BSN algorithms of Wei and Xiao (broadcast, data sum,
 * prefix sum) and the OTIS broadcast and data sum (traffic/gen_bsn.c,
 * traffic/gen_otis.c), run on the PE engine: every program on every basis it
 * supports, at two sizes at least, under the papers' timing (ideal router,
 * all-port PEs, a barrier at every step), the same without barriers, and
 * the default router; the result check passes in every run, and the
 * papers' counts hold under the first: broadcast 2·D(Ω)+2 = the BSN's
 * diameter, data sum 2·D(Ω)+2 (4 on bsn:complete:n, where the paper says
 * 5: see docs/algorithms/bsn.md), prefix sum 3 + 2·prefix(Ω) +
 * 2·ecc_Ω(n-1), so 4n-1 on an array basis; OTIS broadcast and data sum
 * 2·D(Ω)+1. Every count is checked against its formula, computed from the
 * basis (diameters and eccentricities by breadth-first search); the
 * literal counts in the tables are those formulas worked out by hand.
 * Bad fabrics and arguments give messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/config.h"
#include "model/pe.h"
#include "model/sim.h"
#include "routers/registry.h"
#include "traffic/gen_fabric.h"

typedef noc_program_t *(*make_fn)(const noc_topo_t *, const noc_gen_args_t *, char *, size_t);

/* The three timings every program runs under. */
enum { UNIT_SYNC, UNIT, VC, N_TIMINGS };
static const char *const timing_name[N_TIMINGS] = { "unit+sync", "unit", "vc" };

/* What one run measured. */
typedef struct measured {
    uint64_t cycles;
    int n_steps;
    uint64_t step_end[16];    /* last_end of each step */
    uint64_t flits[2];        /* flit-hops on the intra (0) and swap / optical (1) links */
} measured_t;

static noc_topo_t *topo(const char *spec)
{
    char err[512];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    return t;
}

static void config(noc_config_t *cfg, int timing)
{
    noc_config_defaults(cfg);
    noc_config_timing(cfg, timing == VC ? NOC_TIMING_ROUTER : timing == UNIT ? NOC_TIMING_UNIT
                                                                               : NOC_TIMING_UNIT_SYNC);
}

/* Run program p on t: it must finish with the right result everywhere. */
static measured_t run_on(noc_topo_t *t, const noc_program_t *p, int timing)
{
    char err[512];
    noc_config_t cfg;
    config(&cfg, timing);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    if (noc_pe_attach(s, p, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(noc_pe_run(s), NOC_RUN_OK);
    if (noc_pe_finished(noc_sim_pe(s), err, sizeof err) != 0 || noc_pe_check(s, err, sizeof err) != 0)
        fail_msg("%s on %s (%s): %s", p->name, noc_topo_spec(t), timing_name[timing], err);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    measured_t m;
    memset(&m, 0, sizeof m);
    m.cycles = st->cycles;
    m.n_steps = st->n_steps;
    for (int k = 0; k < st->n_steps && k < 16; k++)
        m.step_end[k] = st->steps[k].last_end;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (!local)
            m.flits[cls ? 1 : 0] += noc_sim_link_stats(s, c)->flits;
    }
    noc_sim_destroy(s);
    return m;
}

/* Make the program for spec and run it under every timing; returns what
 * the papers' timing measured, and the cycles of the others in *unit and
 * *vc (if not NULL). */
static measured_t run_all3(const char *spec, make_fn make, const noc_gen_args_t *a, uint64_t *unit,
                           uint64_t *vc)
{
    char err[512];
    noc_topo_t *t = topo(spec);
    noc_program_t *p = make(t, a, err, sizeof err);
    if (!p)
        fail_msg("%s: %s", spec, err);
    measured_t m[N_TIMINGS];
    for (int k = 0; k < N_TIMINGS; k++)
        m[k] = run_on(t, p, k);
    print_message("%-20s %-16s root %4d words %d: %3llu cycles (unit+sync), %3llu (unit), %4llu (vc)\n",
                  spec, p->name, a->root, a->words, (unsigned long long)m[UNIT_SYNC].cycles,
                  (unsigned long long)m[UNIT].cycles, (unsigned long long)m[VC].cycles);
    noc_prog_free(p);
    noc_topo_destroy(t);
    if (unit)
        *unit = m[UNIT].cycles;
    if (vc)
        *vc = m[VC].cycles;
    return m[UNIT_SYNC];
}

static measured_t run_all(const char *spec, make_fn make, const noc_gen_args_t *a)
{
    return run_all3(spec, make, a, NULL, NULL);
}

static noc_gen_args_t args(int root, int words)
{
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.root = root;
    a.words = words;
    return a;
}

/* Eccentricity of node v in t, and the diameter (largest one). */
static int ecc(const noc_topo_t *t, int v)
{
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, v, &tr);
    int h = tr.height;
    noc_gen_tree_free(&tr);
    return h;
}

static int diameter(const noc_topo_t *t)
{
    int d = 0;
    for (int v = 0; v < noc_topo_nodes(t); v++)
        if (ecc(t, v) > d)
            d = ecc(t, v);
    return d;
}

/* Cycles of step k (the barrier makes the steps follow one another). */
static uint64_t step_len(const measured_t *m, int k)
{
    return m->step_end[k] - (k ? m->step_end[k - 1] : 0);
}

/* Broadcast from node 0: 2·D(Ω)+2 cycles, which is the BSN's diameter
 * (and root 0's eccentricity): 1 + D + 1 + D by step; one message per PE,
 * 2n-1 of them over swap links. */
static void test_bsn_broadcast(void **state)
{
    (void)state;
    static const struct { const char *spec; uint64_t cycles; } cases[] = {
        { "bsn:ring:8", 10 },      { "bsn:mesh:4x4", 14 },  { "bsn:complete:4", 4 },
        { "bsn:ring:5", 6 },       { "bsn:mesh:3x3", 10 },  { "bsn:complete:7", 4 },
        { "bsn:mesh:8", 16 },      { "bsn:torus:3x4", 8 },  { "bsn:hypercube:3", 8 },
        { "bsn:hypercube:2", 6 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(0, 1);
        measured_t m = run_all(cases[i].spec, noc_gen_bsn_broadcast, &a);
        noc_topo_t *t = topo(cases[i].spec);
        int d = diameter(noc_topo_basis(t));
        assert_int_equal(m.cycles, cases[i].cycles);
        assert_int_equal(m.cycles, 2 * d + 2);
        assert_int_equal(m.cycles, ecc(t, 0));
        if (noc_topo_nodes(t) <= 128)
            assert_int_equal(m.cycles, diameter(t));
        assert_int_equal(m.n_steps, 4);
        assert_int_equal(step_len(&m, 0), 1);
        assert_int_equal(step_len(&m, 1), d);
        assert_int_equal(step_len(&m, 2), 1);
        assert_int_equal(step_len(&m, 3), d);
        int n = noc_topo_nodes(noc_topo_basis(t));
        assert_int_equal(m.flits[1], 2 * n - 1);
        assert_int_equal(m.flits[0] + m.flits[1], noc_topo_nodes(t) - 1);
        noc_topo_destroy(t);
    }
}

/* Roots elsewhere, W words. With barriers: 2 + 2·max(ecc_Ω(g0),
 * ecc_Ω(p0)) steps of W cycles each (a message is received whole before it
 * is passed on). Without them each half runs on at its own pace: 2 +
 * ecc_Ω(g0) + ecc_Ω(p0) steps, the root's eccentricity in the BSN, so the
 * broadcast is optimal from every root; on vertex-transitive bases (and
 * wherever ecc_Ω(g0) = ecc_Ω(p0)) the barriers cost nothing. */
static void test_bsn_broadcast_roots(void **state)
{
    (void)state;
    static const struct { const char *spec; int root, words; } cases[] = {
        { "bsn:ring:8", 100, 1 },  { "bsn:ring:8", 27, 1 },   { "bsn:mesh:4x4", 256 + 5 * 16 + 10, 1 },
        { "bsn:mesh:4x4", 17, 2 }, { "bsn:complete:5", 49, 1 }, { "bsn:hypercube:3", 127, 3 },
        { "bsn:ring:6", 0, 4 },    { "bsn:mesh:4x4", 1, 1 },    { "bsn:mesh:3x3", 9 + 3 + 1, 1 },
        { "bsn:mesh:5", 25 + 5 * 2 + 4, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(cases[i].root, cases[i].words);
        uint64_t unit;
        measured_t m = run_all3(cases[i].spec, noc_gen_bsn_broadcast, &a, &unit, NULL);
        noc_topo_t *t = topo(cases[i].spec);
        int n = noc_topo_nodes(noc_topo_basis(t)), g0 = (a.root % (n * n)) / n, p0 = a.root % n;
        int eg = ecc(noc_topo_basis(t), g0), ep = ecc(noc_topo_basis(t), p0), e = eg > ep ? eg : ep;
        assert_int_equal(m.cycles, (uint64_t)((2 + 2 * e) * a.words));
        assert_int_equal(unit, (uint64_t)((2 + eg + ep) * a.words));
        assert_int_equal(2 + eg + ep, ecc(t, a.root));
        noc_topo_destroy(t);
    }
}

/* Data sum: group sum (D), swap (1), group sum (D), swap (1), add (0):
 * 2·D(Ω)+2; 4 on a complete basis, where the paper counts 5 (its step 5
 * is a local addition, free in its own model). */
static void test_bsn_data_sum(void **state)
{
    (void)state;
    static const struct { const char *spec; uint64_t cycles; } cases[] = {
        { "bsn:complete:3", 4 }, { "bsn:complete:4", 4 },  { "bsn:complete:6", 4 },
        { "bsn:ring:8", 10 },    { "bsn:ring:5", 6 },      { "bsn:mesh:8", 16 },
        { "bsn:mesh:4x4", 14 },  { "bsn:mesh:3x2", 8 },    { "bsn:torus:3x4", 8 },
        { "bsn:hypercube:3", 8 }, { "bsn:hypercube:1", 4 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(0, 1);
        measured_t m = run_all(cases[i].spec, noc_gen_bsn_data_sum, &a);
        assert_int_equal(m.cycles, cases[i].cycles);
        noc_topo_t *t = topo(cases[i].spec);
        assert_int_equal(m.cycles, 2 * diameter(noc_topo_basis(t)) + 2);
        assert_int_equal(step_len(&m, 0), diameter(noc_topo_basis(t)));
        noc_topo_destroy(t);
        assert_int_equal(m.n_steps, 5);
        assert_int_equal(step_len(&m, 1), 1);
        assert_int_equal(step_len(&m, 3), 1);
        assert_int_equal(step_len(&m, 4), 0);
        assert_int_equal(step_len(&m, 0), step_len(&m, 2));
    }
    /* several words, and a basis without its own group sum (a tree from a
     * centre: 2·radius per group sum; the Petersen graph has radius 2) */
    noc_gen_args_t a = args(0, 3);
    measured_t m = run_all("bsn:complete:4", noc_gen_bsn_data_sum, &a);
    assert_int_equal(m.cycles, 12);
    char spec[512];
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    snprintf(spec, sizeof spec, "bsn:graph:%s/examples/graphs/petersen.txt", src ? src : ".");
    a = args(0, 1);
    m = run_all(spec, noc_gen_bsn_data_sum, &a);
    assert_int_equal(m.cycles, 2 * 4 + 2);
}

/* Data sum, variant paper: Table 4's accounting, three group data sums and
 * two swaps, 3·D(Ω)+2: 5 on a complete basis, 3n−1 on an array of n, 6m−4
 * on an m × m mesh (Step 5 charged as long as a group data sum). */
static void test_bsn_data_sum_paper(void **state)
{
    (void)state;
    static const struct { const char *spec; uint64_t paper; } cases[] = {
        { "bsn:complete:3", 5 }, { "bsn:complete:4", 5 }, { "bsn:mesh:8", 3 * 8 - 1 },
        { "bsn:mesh:5", 3 * 5 - 1 }, { "bsn:mesh:4x4", 6 * 4 - 4 }, { "bsn:mesh:3x3", 6 * 3 - 4 },
        { "bsn:ring:8", 0 }, { "bsn:torus:3x4", 0 }, { "bsn:hypercube:3", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(0, 1);
        a.variant = "paper";
        measured_t m = run_all(cases[i].spec, noc_gen_bsn_data_sum, &a);
        noc_topo_t *t = topo(cases[i].spec);
        uint64_t d = (uint64_t)diameter(noc_topo_basis(t));
        noc_topo_destroy(t);
        if (cases[i].paper)
            assert_int_equal(m.cycles, cases[i].paper);
        assert_int_equal(m.cycles, 3 * d + 2);
        assert_int_equal(step_len(&m, 4), step_len(&m, 0));
    }
    /* a basis without its own group sum: 2·radius each (Petersen: 4) */
    char spec[512];
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    snprintf(spec, sizeof spec, "bsn:graph:%s/examples/graphs/petersen.txt", src ? src : ".");
    noc_gen_args_t a = args(0, 1);
    a.variant = "paper";
    assert_int_equal(run_all(spec, noc_gen_bsn_data_sum, &a).cycles, 3 * 4 + 2);
}

/* Steps of a prefix sum within a group (docs/algorithms/bsn.md, steps 1
 * and 3): a sweep along a line of n (ring, or a 1-D mesh or torus: the wrap
 * link unused), n - 1; a 2-D mesh or torus k0 x k1, (k0-1) + (k1-1); a
 * hypercube of dimension D, D (recursive doubling); a complete graph, 1. */
static int group_prefix(const noc_topo_t *b)
{
    if (noc_gen_is(b, "complete"))
        return 1;
    if (noc_gen_is(b, "hypercube"))
        return noc_topo_dims(b);
    if (noc_topo_dims(b) == 1)
        return noc_topo_nodes(b) - 1;
    return (noc_topo_k(b, 0) - 1) + (noc_topo_k(b, 1) - 1);
}

/* Prefix sum (Table 2): 3 transmissions, 2 group prefix sums and 2
 * broadcasts from processor n-1 of a group (its eccentricity in Ω):
 * 3 + 2·prefix(Ω) + 2·ecc_Ω(n-1), by step prefix, 1, prefix, 1, ecc, 1,
 * ecc, 0. So 4n-1 on an array basis mesh:n, at most 4n-1 on a ring, 7 on
 * a complete basis and 8m-5 on an m x m mesh (Table 4). */
static void test_bsn_prefix_sum(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "bsn:mesh:8",      "bsn:mesh:5",      "bsn:ring:8",    "bsn:ring:5",
        "bsn:complete:4",  "bsn:complete:6",  "bsn:mesh:4x4",  "bsn:mesh:3x3",
        "bsn:hypercube:3", "bsn:hypercube:2", "bsn:torus:3x3", "bsn:mesh:2",
        "bsn:torus:3x4",   "bsn:mesh:2x5",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(0, 1);
        measured_t m = run_all(cases[i], noc_gen_bsn_prefix_sum, &a);
        noc_topo_t *t = topo(cases[i]);
        const noc_topo_t *b = noc_topo_basis(t);
        int n = noc_topo_nodes(b), pre = group_prefix(b), e = ecc(b, n - 1);
        assert_int_equal(m.cycles, (uint64_t)(3 + 2 * pre + 2 * e));
        assert_int_equal(m.n_steps, 8);
        const int steps[8] = { pre, 1, pre, 1, e, 1, e, 0 };
        for (int k = 0; k < 8; k++)
            assert_int_equal(step_len(&m, k), steps[k]);
        if (noc_gen_is(b, "ring") || noc_topo_dims(b) == 1)
            assert_true(m.cycles <= (uint64_t)(4 * n - 1));
        if (noc_gen_is(b, "mesh") && noc_topo_dims(b) == 1)
            assert_int_equal(m.cycles, 4 * n - 1);
        if (noc_gen_is(b, "mesh") && noc_topo_dims(b) == 2 && noc_topo_k(b, 0) == noc_topo_k(b, 1))
            assert_int_equal(m.cycles, 8 * noc_topo_k(b, 0) - 5);
        if (noc_gen_is(b, "complete"))
            assert_int_equal(m.cycles, 7);
        noc_topo_destroy(t);
    }
    /* 2 words: twice as long (a message is passed on once it is whole) */
    noc_gen_args_t a = args(0, 2);
    measured_t m = run_all("bsn:ring:6", noc_gen_bsn_prefix_sum, &a);
    assert_int_equal(m.cycles, 2 * (3 + 2 * 5 + 2 * 3)); /* prefix 5, ecc_ring:6 = 3 */
    a.seed = 99;
    run_all("bsn:mesh:3x4", noc_gen_bsn_prefix_sum, &a);
}

/* OTIS: broadcast ecc(p0) + 1 + ecc(g0), 2·D(Ω)+1 from node 0 (4m-3 on
 * an m x m mesh basis, Table 4), the OTIS diameter; data sum 2·D(Ω)+1. */
static void test_otis(void **state)
{
    (void)state;
    static const struct { const char *spec; int root; uint64_t bcast, sum; } cases[] = {
        { "otis:mesh:4x4", 0, 13, 13 }, { "otis:mesh:3x3", 0, 9, 9 }, { "otis:ring:8", 0, 9, 9 },
        { "otis:ring:5", 7, 5, 5 },     { "otis:complete:4", 0, 3, 3 }, { "otis:complete:5", 13, 3, 3 },
        { "otis:hypercube:3", 0, 7, 7 }, { "otis:mesh:4x4", 5 * 16 + 5, 9, 13 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(cases[i].root, 1);
        measured_t m = run_all(cases[i].spec, noc_gen_otis_broadcast, &a);
        assert_int_equal(m.cycles, cases[i].bcast);
        assert_int_equal(m.n_steps, 3);
        noc_topo_t *t = topo(cases[i].spec);
        int n = noc_topo_nodes(noc_topo_basis(t));
        assert_int_equal(m.cycles, ecc(noc_topo_basis(t), a.root % n) + 1 + ecc(noc_topo_basis(t), a.root / n));
        if (a.root == 0) {
            assert_int_equal(m.cycles, 2 * diameter(noc_topo_basis(t)) + 1);
            assert_int_equal(m.cycles, diameter(t));
        }
        assert_int_equal(m.flits[0] + m.flits[1], noc_topo_nodes(t) - 1);
        assert_int_equal(m.flits[1], n - 1);
        m = run_all(cases[i].spec, noc_gen_otis_data_sum, &a);
        assert_int_equal(m.cycles, cases[i].sum);
        assert_int_equal(m.cycles, 2 * diameter(noc_topo_basis(t)) + 1); /* from any root */
        assert_int_equal(m.n_steps, 3);
        noc_topo_destroy(t);
    }
    noc_gen_args_t a = args(3, 2);
    run_all("otis:torus:3x3", noc_gen_otis_broadcast, &a);
    run_all("otis:torus:3x3", noc_gen_otis_data_sum, &a);
}

/* OTIS prefix sum: the BSN's Table 2 on one part, 2 transmissions (over
 * the transpose links), 2 group prefix sums and 1 broadcast from processor
 * n-1: 2 + 2·prefix(Ω) + ecc_Ω(n-1), by step prefix, 1, prefix, 1, ecc, 0.
 * On an m x m mesh 6m - 4, within Table 4's OTIS-Mesh 8m - 6 (Wang and
 * Sahni's count, read as 8·N^(1/4) - 6 with N = m^4 PEs). */
static void test_otis_prefix_sum(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "otis:mesh:2x2", "otis:mesh:3x3", "otis:mesh:4x4", "otis:mesh:5x5", "otis:mesh:8",
        "otis:ring:8",   "otis:ring:5",   "otis:complete:4", "otis:hypercube:3", "otis:torus:3x4",
        "otis:mesh:2x3",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_gen_args_t a = args(0, 1);
        measured_t m = run_all(cases[i], noc_gen_otis_prefix_sum, &a);
        noc_topo_t *t = topo(cases[i]);
        const noc_topo_t *b = noc_topo_basis(t);
        int n = noc_topo_nodes(b), pre = group_prefix(b), e = ecc(b, n - 1);
        assert_int_equal(m.cycles, (uint64_t)(2 + 2 * pre + e));
        assert_int_equal(m.n_steps, 6);
        const int steps[6] = { pre, 1, pre, 1, e, 0 };
        for (int k = 0; k < 6; k++)
            assert_int_equal(step_len(&m, k), steps[k]);
        if (noc_gen_is(b, "mesh") && noc_topo_dims(b) == 2 && noc_topo_k(b, 0) == noc_topo_k(b, 1)) {
            int side = noc_topo_k(b, 0);
            assert_int_equal(m.cycles, (uint64_t)(6 * side - 4));
            assert_true(m.cycles <= (uint64_t)(8 * side - 6)); /* Table 4 */
        }
        noc_topo_destroy(t);
    }
    /* a complete basis: five transfers of one time unit */
    noc_gen_args_t a = args(0, 1);
    assert_int_equal(run_all("otis:complete:6", noc_gen_otis_prefix_sum, &a).cycles, 5);
    /* W words: W times as long (store-and-forward at every PE) */
    a = args(0, 3);
    assert_int_equal(run_all("otis:mesh:3x3", noc_gen_otis_prefix_sum, &a).cycles, 3 * (6 * 3 - 4));
}

/* The message when make refuses, which must name the program and the
 * reason. */
static void refused(const char *spec, make_fn make, noc_gen_args_t a, const char *prog,
                    const char *why)
{
    char err[512] = "";
    noc_topo_t *t = topo(spec);
    assert_null(make(t, &a, err, sizeof err));
    print_message("%s: %s\n", spec, err);
    assert_non_null(strstr(err, prog));
    assert_non_null(strstr(err, why));
    noc_topo_destroy(t);
}

static void test_errors(void **state)
{
    (void)state;
    noc_gen_args_t a = args(0, 1);
    refused("mesh:4x4", noc_gen_bsn_broadcast, a, "broadcast", "not a bsn");
    refused("otis:ring:4", noc_gen_bsn_data_sum, a, "data-sum", "not a bsn");
    refused("bsn:ring:4", noc_gen_otis_broadcast, a, "broadcast", "not an otis");
    refused("torus:4x4", noc_gen_otis_data_sum, a, "data-sum", "not an otis");
    refused("bsn:mesh:2x2x2", noc_gen_bsn_prefix_sum, a, "prefix-sum", "mesh:2x2x2");
    refused("bsn:circulant:7:1,2", noc_gen_bsn_prefix_sum, a, "prefix-sum", "no node order");
    refused("bsn:ring:4", noc_gen_bsn_broadcast, args(32, 1), "broadcast", "root 32");
    refused("otis:ring:4", noc_gen_otis_broadcast, args(-1, 1), "broadcast", "root -1");
    refused("bsn:ring:4", noc_gen_bsn_prefix_sum, args(0, 0), "prefix-sum", "--words 0");
    refused("otis:ring:4", noc_gen_otis_data_sum, args(0, -2), "data-sum", "--words -2");
    refused("otis:ring:4", noc_gen_otis_prefix_sum, args(0, 0), "prefix-sum", "--words 0");
    refused("bsn:ring:4", noc_gen_otis_prefix_sum, args(0, 1), "prefix-sum", "not an otis");
    refused("otis:circulant:7:1,2", noc_gen_otis_prefix_sum, args(0, 1), "prefix-sum", "no node order");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bsn_broadcast),  cmocka_unit_test(test_bsn_broadcast_roots),
        cmocka_unit_test(test_bsn_data_sum),
        cmocka_unit_test(test_bsn_data_sum_paper),   cmocka_unit_test(test_bsn_prefix_sum),
        cmocka_unit_test(test_otis),           cmocka_unit_test(test_otis_prefix_sum),           cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
