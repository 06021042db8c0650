/* test_gen_pyramid.c: the pyramid algorithms (traffic/gen_pyramid.c) and
 * the pyramid-on-hypercube embeddings (traffic/embed.c) of Ziavras's paper.
 * Embeddings: the paper's Fig. 1 placement for P_3, levels above the base
 * on distinct PEs (the new mapping), the expansion, dilation and congestion
 * against the paper's claims for P_1 .. P_6, and the e-cube routes the
 * measures walk equal the hypercube fabric's routing. Programs:
 * pyramid-sum and pyramid-broadcast on pyramid:2, pyramid:3, multilevel
 * structures and hypercube:4, :6 (both embeddings), under unit timing with
 * and without step barriers and the default router: the result check
 * passes every time; unit-time counts: the broadcast N cycles on P_N (one
 * per level), on the hypercube each level step its level pair's dilation
 * (Stout 2N, the new mapping 3N - 1); the sum 4 per level on the pyramid
 * (a message, three adds) and under Stout, 4 and then 5 under the new
 * mapping; per-step flit-hops equal the dilations of the edges used and
 * the hottest link of a step carries 2 flits (the congestion); the apex
 * counts the perimeter; the cost-model variants; facts; bad fabrics,
 * variants and words fail with a message naming the program. */
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
#include "traffic/embed.h"
#include "traffic/gen.h"
#include "traffic/gen_util.h"

extern const noc_generator_t noc_gen_pyramid_sum, noc_gen_pyramid_broadcast;

#define SUM (&noc_gen_pyramid_sum)
#define BCAST (&noc_gen_pyramid_broadcast)

/* ---- running a program ---- */

enum { DEFAULT_ROUTER = NOC_TIMING_ROUTER, UNIT = NOC_TIMING_UNIT, UNIT_SYNC = NOC_TIMING_UNIT_SYNC };

typedef struct outcome {
    uint64_t cycles;
    int n_steps;
    uint64_t step_cycles[16], step_hops[16]; /* last_end - first_start, flit-hops */
} outcome_t;

/* Run g on spec with the given timing (and extra key=value settings); the
 * run must finish with the right result. */
static outcome_t run(const noc_generator_t *g, const char *spec, const char *variant, int words,
                     int timing, const char *const *extra)
{
    outcome_t o;
    memset(&o, 0, sizeof o);
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_config_timing(&cfg, timing);
    for (; extra && *extra; extra += 2)
        if (noc_config_set(&cfg, extra[0], extra[1], err, sizeof err) != 0)
            fail_msg("%s", err);
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.variant = variant;
    a.words = words;
    noc_program_t *p = g->make(t, &a, err, sizeof err);
    if (!p)
        fail_msg("%s on %s: %s", g->name, spec, err);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    if (noc_pe_attach(s, p, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (noc_pe_run(s) != NOC_RUN_OK)
        fail_msg("%s on %s (%s, timing %d): the run did not end", g->name, spec,
                 variant ? variant : "auto", timing);
    if (noc_pe_finished(noc_sim_pe(s), err, sizeof err) != 0 || noc_pe_check(s, err, sizeof err) != 0)
        fail_msg("%s on %s (%s, timing %d): %s", g->name, spec, variant ? variant : "auto", timing, err);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    o.cycles = st->cycles;
    o.n_steps = st->n_steps < 16 ? st->n_steps : 16;
    for (int k = 0; k < o.n_steps; k++) {
        o.step_cycles[k] = st->steps[k].last_end - st->steps[k].first_start;
        o.step_hops[k] = st->steps[k].flit_hops;
    }
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
    return o;
}

static uint64_t run_cycles(const noc_generator_t *g, const char *spec, const char *variant, int timing)
{
    return run(g, spec, variant, 1, timing, NULL).cycles;
}

/* ---- a survey (printed; the assertions follow in the tests below) ---- */

static void test_survey(void **state)
{
    (void)state;
    static const struct { const char *spec, *variant; } cases[] = {
        { "pyramid:2", NULL }, { "pyramid:3", NULL }, { "pyramid:4", NULL },
        { "hypercube:4", "stout" }, { "hypercube:6", "stout" }, { "hypercube:8", "stout" },
        { "hypercube:4", "ziavras" }, { "hypercube:6", "ziavras" }, { "hypercube:8", "ziavras" },
        { "multilevel:4:2,2", NULL }, { "multilevel:3:1", NULL }, { "multilevel:4:1,2", NULL },
    };
    const noc_generator_t *gens[] = { SUM, BCAST };
    for (int gi = 0; gi < 2; gi++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            uint64_t c[3];
            for (int tm = 0; tm < 3; tm++)
                c[tm] = run_cycles(gens[gi], cases[i].spec, cases[i].variant, tm);
            print_message("%-18s %-17s %-8s sync %3llu  unit %3llu  vc %4llu\n", gens[gi]->name,
                          cases[i].spec, cases[i].variant ? cases[i].variant : "direct",
                          (unsigned long long)c[UNIT_SYNC], (unsigned long long)c[UNIT],
                          (unsigned long long)c[DEFAULT_ROUTER]);
        }
    static const char *const COST[] = { "link_latency", "2", "compute_cycles", "1", NULL };
    static const char *const cost_cases[][2] = {
        { "pyramid:3", "direct-cost" }, { "pyramid:4", "direct-cost" },
        { "hypercube:6", "stout-cost" }, { "hypercube:8", "stout-cost" },
        { "hypercube:6", "ziavras-cost" }, { "hypercube:8", "ziavras-cost" },
    };
    for (int gi = 0; gi < 2; gi++)
        for (size_t i = 0; i < sizeof cost_cases / sizeof cost_cases[0]; i++) {
            outcome_t o = run(gens[gi], cost_cases[i][0], cost_cases[i][1], 1, UNIT_SYNC, COST);
            print_message("%-18s %-17s %-13s cost model, sync %3llu:", gens[gi]->name,
                          cost_cases[i][0], cost_cases[i][1], (unsigned long long)o.cycles);
            for (int k = 0; k < o.n_steps; k++)
                print_message(" %llu", (unsigned long long)o.step_cycles[k]);
            print_message("\n");
        }
}

/* ---- embeddings ---- */

static int ungray(int g)
{
    int i = 0;
    for (; g; g >>= 1)
        i ^= g;
    return i;
}

/* The paper's Fig. 1 (P_3 on H_6, rows and columns in Gray-code order,
 * address = row code then column code): level 1 on rows and columns
 * 0, 3, 4, 7 (codes ending in 0) under both mappings; the new mapping's
 * level 2 on rows 0, 7 and columns 1, 6, its apex at row 0, column 2. */
static void test_fig1(void **state)
{
    (void)state;
    for (int kind = 0; kind < NOC_EMBED_KINDS; kind++) {
        noc_embed_t e = { (noc_embed_kind_t)kind, 3, 1, 0 };
        static const int l1[4] = { 0, 3, 4, 7 };
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) {
                int x = noc_embed_node(&e, 1, r, c);
                assert_int_equal(ungray(x >> 3), l1[r]);
                assert_int_equal(ungray(x & 7), l1[c]);
            }
        for (int r = 0; r < 8; r++) /* the base: perfect, Gray rows and columns */
            for (int c = 0; c < 8; c++) {
                int x = noc_embed_node(&e, 0, r, c);
                assert_int_equal(ungray(x >> 3), r);
                assert_int_equal(ungray(x & 7), c);
            }
    }
    noc_embed_t z = { NOC_EMBED_ZIAVRAS, 3, 1, 0 }, st = { NOC_EMBED_STOUT, 3, 1, 0 };
    static const int l2[2] = { 0, 7 }, l2c[2] = { 1, 6 };
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) {
            int x = noc_embed_node(&z, 2, r, c);
            assert_int_equal(ungray(x >> 3), l2[r]);
            assert_int_equal(ungray(x & 7), l2c[c]);
            x = noc_embed_node(&st, 2, r, c); /* Stout: codes ending in 00 */
            assert_int_equal(ungray(x >> 3), l2[r]);
            assert_int_equal(ungray(x & 7), l2[c]);
        }
    int apex = noc_embed_node(&z, 3, 0, 0);
    assert_int_equal(ungray(apex >> 3), 0);
    assert_int_equal(ungray(apex & 7), 2);
    assert_int_equal(noc_embed_node(&st, 3, 0, 0), 0);
    /* the generators' order (row_high = 0) only swaps the two halves */
    noc_embed_t zc = { NOC_EMBED_ZIAVRAS, 3, 0, 0 };
    assert_int_equal(noc_embed_node(&zc, 3, 0, 0), ((apex & 7) << 3) | (apex >> 3));
    assert_int_equal(noc_embed_parse("stout"), NOC_EMBED_STOUT);
    assert_int_equal(noc_embed_parse("ziavras"), NOC_EMBED_ZIAVRAS);
    assert_int_equal(noc_embed_parse("lai-white"), NOC_EMBED_KINDS);
    assert_string_equal(noc_embed_name(NOC_EMBED_ZIAVRAS), "ziavras");
}

/* The paper's claims, section 2 and 3, for P_1 .. P_6: expansion
 * 4^n / ((4^(n+1) - 1) / 3) < 1 for both; Stout: lateral dilation 1,
 * maximum dilation 2, congestion 2; the new mapping: levels 0-1 dilation 2
 * and congestion 2, higher levels dilation 3 and congestion 2, levels above
 * the base on distinct PEs. Measured beyond the claims (documented):
 * Stout's diagonal child shares a link with a sibling edge (3 with the
 * mesh edges), all edges at once, and the paper's address order under
 * e-cube (congestion 4). */
static void test_embed_claims(void **state)
{
    (void)state;
    for (int n = 1; n <= 6; n++) {
        noc_embed_cost_t s, z, zr;
        noc_embed_t es = { NOC_EMBED_STOUT, n, 0, 0 }, ez = { NOC_EMBED_ZIAVRAS, n, 0, 0 },
                    ezr = { NOC_EMBED_ZIAVRAS, n, 1, 0 };
        assert_int_equal(noc_embed_measure(&es, &s), 0);
        assert_int_equal(noc_embed_measure(&ez, &z), 0);
        assert_int_equal(noc_embed_measure(&ezr, &zr), 0);
        print_message("P_%d: stout dil %d cong %d all %d load %d | ziavras dil %d cong %d all %d load "
                      "%d | ziavras row-high cong %d all %d\n", n, s.dilation, s.congestion,
                      s.congestion_all, s.load, z.dilation, z.congestion, z.congestion_all, z.load,
                      zr.congestion, zr.congestion_all);
        assert_int_equal(s.cube_nodes, 1 << (2 * n));
        assert_int_equal(s.pyramid_nodes, ((1 << (2 * n + 2)) - 1) / 3);
        assert_true(s.cube_nodes < s.pyramid_nodes);
        assert_int_equal(s.dilation, 2);
        assert_int_equal(s.dilation_lateral, 1);
        assert_int_equal(s.congestion, 2);
        assert_int_equal(s.load, n + 1);              /* PE 0: node (k,0,0) of every level */
        assert_int_equal(z.dilation_lateral, 1);
        assert_int_equal(z.dilation_level[1], 2);
        assert_int_equal(z.congestion_level[1], 2);
        for (int k = 2; k <= n; k++) {
            assert_int_equal(s.dilation_level[k], 2);
            assert_int_equal(z.dilation_level[k], 3);
            assert_int_equal(z.congestion_level[k], 2);
            assert_int_equal(zr.dilation_level[k], 3);   /* renaming dimensions keeps dilation */
            assert_int_equal(zr.congestion_level[k], 4); /* ... not e-cube congestion */
            assert_int_equal(z.congestion_siblings[k], 2);
        }
        assert_int_equal(z.dilation, n == 1 ? 2 : 3);
        assert_int_equal(z.congestion, 2);
        assert_int_equal(z.upper_shared, 0);          /* levels >= 1 on distinct PEs */
        assert_int_equal(z.load, 2);
        for (int k = 1; k <= n; k++)
            assert_int_equal(s.congestion_siblings[k], 3); /* the diagonal child's route */
        assert_int_equal(z.congestion_all, n == 1 ? 3 : 5);
        assert_int_equal(s.congestion_all, n <= 4 ? 3 : n - 1);
    }
    noc_embed_cost_t c;
    noc_embed_t bad = { NOC_EMBED_STOUT, NOC_EMBED_MAX_N + 1, 0, 0 };
    assert_int_equal(noc_embed_measure(&bad, &c), -1);
}

/* The measures walk e-cube routes (lowest differing bit first): the
 * hypercube fabric's routing takes exactly those, for every pyramid edge. */
static void test_routes_are_ecube(void **state)
{
    (void)state;
    char err[256];
    for (int n = 1; n <= 3; n++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hypercube:%d", 2 * n);
        noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
        assert_non_null(t);
        for (int kind = 0; kind < NOC_EMBED_KINDS; kind++) {
            noc_embed_t e = { (noc_embed_kind_t)kind, n, 0, 0 };
            for (int k = 1; k <= n; k++)
                for (int r = 0; r < 1 << (n - k); r++)
                    for (int c = 0; c < 1 << (n - k); c++)
                        for (int i = 0; i < 4; i++) {
                            int u = noc_embed_node(&e, k, r, c);
                            int v = noc_embed_node(&e, k - 1, 2 * r + (i >> 1), 2 * c + (i & 1));
                            for (int dir = 0; dir < 2; dir++) {
                                int from = dir ? v : u, to = dir ? u : v;
                                for (int x = from; x != to;) {
                                    noc_route_t rt;
                                    noc_topo_route(t, x, from, to, &rt);
                                    int low = __builtin_ctz((unsigned)(x ^ to));
                                    assert_int_equal(rt.port, low + 1); /* port d+1 flips bit d */
                                    x ^= 1 << low;
                                }
                            }
                        }
        }
        noc_topo_destroy(t);
    }
}

/* ---- the programs ---- */

static const char *const FABRICS[][2] = {
    { "pyramid:2", NULL },           { "pyramid:3", NULL },          { "pyramid:3", "direct" },
    { "hypercube:4", "stout" },      { "hypercube:6", "stout" },     { "hypercube:4", "ziavras" },
    { "hypercube:6", NULL },         { "hypercube:2", "stout" },     { "pyramid:1", NULL },
    { "multilevel:4:2,2", NULL },    { "multilevel:3:1", NULL },     { "multilevel:4:1,2", NULL },
};

/* Both programs on every fabric, under the three timings, one and three
 * words: the result check passes (run() fails otherwise). */
static void test_results(void **state)
{
    (void)state;
    const noc_generator_t *gens[] = { SUM, BCAST };
    for (int gi = 0; gi < 2; gi++)
        for (size_t i = 0; i < sizeof FABRICS / sizeof FABRICS[0]; i++)
            for (int tm = 0; tm < 3; tm++)
                for (int w = 1; w <= 3; w += 2)
                    run(gens[gi], FABRICS[i][0], FABRICS[i][1], w, tm, NULL);
}

/* Unit timing with step barriers. Broadcast: one cycle per level on P_N;
 * on H_2N a level step takes its level pair's dilation (the sends leave
 * farthest first, and two routes that share a link are one cycle apart):
 * Stout 2 per level, the new mapping 2 for level 0 and 3 above. Sum: a
 * level of the pyramid is a message and three adds (4); Stout the same
 * (the diagonal child's value arrives while the near ones are added); the
 * new mapping 5 above level 1 (its fourth child is 3 hops away). Without
 * barriers the counts are the same: a level cannot start before its data. */
static void test_unit_counts(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        char pyr[32], cube[32];
        snprintf(pyr, sizeof pyr, "pyramid:%d", n);
        snprintf(cube, sizeof cube, "hypercube:%d", 2 * n);
        uint64_t want[][2] = {
            { (uint64_t)n, (uint64_t)(4 * n) },             /* pyramid */
            { (uint64_t)(2 * n), (uint64_t)(4 * n) },       /* stout */
            { (uint64_t)(3 * n - 1), (uint64_t)(5 * n - 1) }, /* ziavras */
        };
        const char *specs[] = { pyr, cube, cube }, *vars[] = { "direct", "stout", "ziavras" };
        for (int m = 0; m < 3; m++)
            for (int tm = UNIT; tm <= UNIT_SYNC; tm++) {
                outcome_t b = run(BCAST, specs[m], vars[m], 1, tm, NULL);
                outcome_t s = run(SUM, specs[m], vars[m], 1, tm, NULL);
                assert_int_equal(b.cycles, want[m][0]);
                assert_int_equal(s.cycles, want[m][1]);
                if (tm != UNIT_SYNC)
                    continue;
                assert_int_equal(b.n_steps, n);
                assert_int_equal(s.n_steps, n);
                for (int k = 0; k < n; k++) { /* broadcast step k: level top-1-k receives */
                    int pair = n - k;         /* levels pair-1 .. pair */
                    uint64_t d = m == 0 ? 1 : m == 1 ? 2 : pair == 1 ? 2 : 3;
                    assert_int_equal(b.step_cycles[k], d);
                    assert_int_equal(s.step_cycles[k], m == 2 && k > 0 ? 5 : 4);
                }
            }
    }
    /* multilevel: 16 children a node (m = 2): a message and 15 adds */
    assert_int_equal(run(SUM, "multilevel:4:2,2", NULL, 1, UNIT_SYNC, NULL).cycles, 32);
    assert_int_equal(run(BCAST, "multilevel:4:2,2", NULL, 1, UNIT_SYNC, NULL).cycles, 2);
}

/* multilevel:5:2,3: a 32 x 32 base, an 8 x 8 level of 16 children a node,
 * an apex of 64 children, so 64 network ports plus one up: more than the
 * arrival masks' bits (the ideal router takes them). A sum level is a
 * message and 4^m - 1 adds: 4^2 + 4^3 = 80; a broadcast a level a cycle,
 * 2, when the apex's injection buffer holds its 64 words at once
 * (num_vcs x vc_buf_size >= 64), else later but still right. */
static void test_many_children(void **state)
{
    (void)state;
    assert_int_equal(run(SUM, "multilevel:5:2,3", NULL, 1, UNIT_SYNC, NULL).cycles, 16 + 64);
    static const char *const roomy[] = { "vc_buf_size", "32", NULL };
    assert_int_equal(run(BCAST, "multilevel:5:2,3", NULL, 1, UNIT_SYNC, roomy).cycles, 2);
    assert_true(run(BCAST, "multilevel:5:2,3", NULL, 1, UNIT, NULL).cycles >= 2);
    assert_int_equal(run(SUM, "multilevel:5:2,3", NULL, 2, UNIT, NULL).cycles, 2 * (16 + 64));
}

/* Flit-hops of every level step = the dilations of the edges that carry a
 * message (children on the parent's PE send nothing), and the hottest link
 * of a step carries 2 flits: the congestion of one direction of the level
 * pair's edges. */
static void test_hops_and_hot_links(void **state)
{
    (void)state;
    char err[256];
    for (int kind = 0; kind < NOC_EMBED_KINDS; kind++)
        for (int gi = 0; gi < 2; gi++) {
            int n = 3;
            noc_embed_t e = { (noc_embed_kind_t)kind, n, 0, 0 };
            noc_config_t cfg;
            noc_config_defaults(&cfg);
            noc_config_timing(&cfg, NOC_TIMING_UNIT_SYNC);
            noc_topo_t *t = noc_topo_create("hypercube:6", 0, err, sizeof err);
            noc_gen_args_t a;
            noc_gen_args_default(&a);
            a.variant = noc_embed_name(e.kind);
            const noc_generator_t *g = gi ? BCAST : SUM;
            noc_program_t *p = g->make(t, &a, err, sizeof err);
            assert_non_null(p);
            noc_traffic_t none = { NULL, NULL };
            noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
            assert_int_equal(noc_pe_attach(s, p, err, sizeof err), 0);
            assert_int_equal(noc_pe_run(s), NOC_RUN_OK);
            const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
            for (int step = 0; step < n; step++) {
                int k = gi ? n - step : step + 1; /* the level pair k-1, k */
                uint64_t hops = 0;
                for (int r = 0; r < 1 << (n - k); r++)
                    for (int c = 0; c < 1 << (n - k); c++)
                        for (int i = 0; i < 4; i++)
                            hops += (uint64_t)__builtin_popcount(
                                (unsigned)(noc_embed_node(&e, k, r, c) ^
                                           noc_embed_node(&e, k - 1, 2 * r + (i >> 1), 2 * c + (i & 1))));
                assert_int_equal(st->steps[step].flit_hops, hops);
                assert_true(noc_sim_has_step_tables(s));
                uint32_t hot = 0;
                for (int ch = 0; ch < noc_sim_n_channels(s); ch++) {
                    int from, to, local, cls;
                    noc_sim_channel_ends(s, ch, &from, &to, &local, &cls);
                    uint32_t f = noc_sim_step_flits(s, step, ch);
                    if (!local && f > hot)
                        hot = f;
                }
                assert_int_equal(hot, 2);
            }
            noc_sim_destroy(s);
            noc_prog_free(p);
            noc_topo_destroy(t);
        }
}

/* The apex's count is the perimeter, counted here on our own from the
 * image (pixel = value % 4 != 0; boundary: a 1 with a 0 or the edge among
 * its four neighbours), and the facts say so. */
static int test_pixel(int s, int r, int c) { return noc_gen_value(1, r * s + c, 0) % 4 != 0; }

static void test_perimeter(void **state)
{
    (void)state;
    char err[512];
    static const char *const specs[][2] = { { "pyramid:3", NULL }, { "hypercube:6", "stout" },
                                            { "hypercube:6", "ziavras" } };
    int s = 8, perimeter = 0;
    for (int r = 0; r < s; r++)
        for (int c = 0; c < s; c++) {
            if (!test_pixel(s, r, c))
                continue;
            int edge = r == 0 || c == 0 || r == s - 1 || c == s - 1;
            perimeter += edge || !test_pixel(s, r - 1, c) || !test_pixel(s, r + 1, c) ||
                         !test_pixel(s, r, c - 1) || !test_pixel(s, r, c + 1);
        }
    print_message("perimeter of the 8x8 image (seed 1): %d boundary pixels\n", perimeter);
    assert_true(perimeter > 0 && perimeter < 64);
    for (size_t i = 0; i < 3; i++) {
        noc_config_t cfg;
        noc_config_defaults(&cfg);
        noc_topo_t *t = noc_topo_create(specs[i][0], 0, err, sizeof err);
        noc_gen_args_t a;
        noc_gen_args_default(&a);
        a.variant = specs[i][1];
        noc_program_t *p = SUM->make(t, &a, err, sizeof err);
        assert_non_null(p);
        noc_traffic_t none = { NULL, NULL };
        noc_sim_t *sim = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
        assert_int_equal(noc_pe_attach(sim, p, err, sizeof err), 0);
        assert_int_equal(noc_pe_run(sim), NOC_RUN_OK);
        int apex_rank = noc_topo_levels(t) ? noc_topo_level_first(t, 3) : 0;
        if (!noc_topo_levels(t)) { /* on the hypercube: where the mapping put the apex */
            noc_embed_t e = { noc_embed_parse(a.variant), 3, 0, 0 };
            apex_rank = noc_embed_node(&e, 3, 0, 0);
        }
        int32_t at = noc_topo_levels(t) ? 0 : 3 * 4; /* level 3's region: 3 * slot, slot = 4 words */
        assert_int_equal(noc_pe_memory(noc_sim_pe(sim), apex_rank)[at], perimeter);
        char facts[2048] = "", want[64];
        SUM->facts(t, &a, facts, sizeof facts);
        snprintf(want, sizeof want, "perimeter = %d\n", perimeter);
        assert_non_null(strstr(facts, want));
        noc_sim_destroy(sim);
        noc_prog_free(p);
        noc_topo_destroy(t);
    }
}

/* The cost-model variants (examples/ziavras_cost.ini: link_latency 2,
 * compute_cycles 1, with load 2, setup 1, add 1 as ops). A level of the
 * sum costs setup + dilation x 2 + add where the farthest child decides
 * (Stout: 1 + 4 + 1 = 6; the new mapping above level 1: 1 + 6 + 1 = 8);
 * on the pyramid the parent's four receive setups and three adds (7). */
static void test_cost_model(void **state)
{
    (void)state;
    static const char *const COST[] = { "link_latency", "2", "compute_cycles", "1", NULL };
    for (int n = 2; n <= 5; n++) {
        char pyr[32], cube[32];
        snprintf(pyr, sizeof pyr, "pyramid:%d", n);
        snprintf(cube, sizeof cube, "hypercube:%d", 2 * n);
        uint64_t direct = run(SUM, pyr, "direct-cost", 1, UNIT_SYNC, COST).cycles;
        uint64_t stout = run(SUM, cube, "stout-cost", 1, UNIT_SYNC, COST).cycles;
        uint64_t ziavras = run(SUM, cube, "ziavras-cost", 1, UNIT_SYNC, COST).cycles;
        assert_int_equal(direct, 2 + 7 * (uint64_t)n);
        assert_int_equal(stout, 2 + 6 * (uint64_t)n);
        assert_int_equal(ziavras, 2 + 6 + 8 * (uint64_t)(n - 1));
        assert_int_equal(run(BCAST, pyr, "direct-cost", 1, UNIT_SYNC, COST).cycles, 6 * (uint64_t)n);
        assert_int_equal(run(BCAST, cube, "stout-cost", 1, UNIT_SYNC, COST).cycles, 5 * (uint64_t)n);
        assert_int_equal(run(BCAST, cube, "ziavras-cost", 1, UNIT_SYNC, COST).cycles,
                         5 + 7 * (uint64_t)(n - 1));
        /* and they stay right on the default router */
        run(SUM, cube, "ziavras-cost", 2, DEFAULT_ROUTER, NULL);
        run(BCAST, pyr, "direct-cost", 2, DEFAULT_ROUTER, NULL);
    }
}

/* Table 1 of the paper, "one level active" (perimeter counting): Stout
 * 28, 37, 46 and the new mapping 40, 53, 66 for n = 3, 4, 5. The
 * store-and-forward reading (docs/algorithms/pyramid.md): a hop costs a
 * transmit setup, the transmission and a receive setup (after the arrival),
 * 1 + 2 + 1; a level of the sum costs its farthest child's D hops and one
 * add, 4D + 1 (the nearer children's receives and adds fit in meanwhile);
 * the run starts with the load, 2. Stout: D = 2 at every level; the new
 * mapping: 2 for levels 0-1, 3 above; lockstep: every level the mapping's
 * largest dilation. On the pyramid itself (direct-sf) a level is one hop
 * and the parent's 4 receive setups and 3 adds: 1 + 2 + 4 + 3. The paper's
 * figures are 1 + n (4D + 1) with D = 2 (Stout) and 3 (new), every level:
 * the lockstep counts less 1. */
enum { LOAD = 2, SETUP = 1, XMIT = 2, ADD = 1 };
static uint64_t level_cost(int d) { return (uint64_t)d * (2 * SETUP + XMIT) + ADD; }

static void test_table1(void **state)
{
    (void)state;
    static const char *const COST[] = { "link_latency", "2", "compute_cycles", "1", NULL };
    static const uint64_t paper_stout[] = { 28, 37, 46 }, paper_new[] = { 40, 53, 66 }; /* Table 1 */
    for (int n = 1; n <= 5; n++) {
        char pyr[32], cube[32];
        snprintf(pyr, sizeof pyr, "pyramid:%d", n);
        snprintf(cube, sizeof cube, "hypercube:%d", 2 * n);
        uint64_t N = (uint64_t)n;
        uint64_t stout = run(SUM, cube, "stout-sf", 1, UNIT_SYNC, COST).cycles;
        uint64_t stout_ls = run(SUM, cube, "stout-lockstep", 1, UNIT_SYNC, COST).cycles;
        uint64_t ziavras = run(SUM, cube, "ziavras-sf", 1, UNIT_SYNC, COST).cycles;
        uint64_t ziavras_ls = run(SUM, cube, "ziavras-lockstep", 1, UNIT_SYNC, COST).cycles;
        uint64_t direct = run(SUM, pyr, "direct-sf", 1, UNIT_SYNC, COST).cycles;
        print_message("n = %d: stout-sf %llu, stout-lockstep %llu, ziavras-sf %llu, ziavras-lockstep %llu, "
                      "direct-sf %llu\n", n, (unsigned long long)stout, (unsigned long long)stout_ls,
                      (unsigned long long)ziavras, (unsigned long long)ziavras_ls, (unsigned long long)direct);
        assert_int_equal(stout, LOAD + N * level_cost(2));
        assert_int_equal(stout_ls, stout); /* Stout: dilation 2 at every level */
        assert_int_equal(ziavras, LOAD + level_cost(2) + (N - 1) * level_cost(3));
        assert_int_equal(ziavras_ls, LOAD + N * level_cost(n > 1 ? 3 : 2)); /* P_1: levels 0-1 only */
        assert_int_equal(direct, LOAD + N * (SETUP + XMIT + 4 * SETUP + 3 * ADD));
        if (n >= 3) {
            /* the paper's figures are this formula, and the lockstep counts less 1 */
            assert_int_equal(paper_stout[n - 3], 1 + N * level_cost(2));
            assert_int_equal(paper_new[n - 3], 1 + N * level_cost(3));
            assert_int_equal(stout_ls - 1, paper_stout[n - 3]);
            assert_int_equal(ziavras_ls - 1, paper_new[n - 3]);
        }
        /* right results with 2 words, and on the default router */
        run(SUM, cube, "ziavras-lockstep", 2, UNIT_SYNC, COST);
        run(SUM, cube, "stout-sf", 2, DEFAULT_ROUTER, NULL);
        run(SUM, pyr, "direct-sf", 3, UNIT, NULL);
    }
    run(SUM, "multilevel:4:1,2", "direct-sf", 2, UNIT_SYNC, COST);
    /* the broadcast has no store-and-forward variants: refused by name */
    char err[512] = "";
    noc_topo_t *t = noc_topo_create("hypercube:6", 0, err, sizeof err);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.variant = "stout-sf";
    assert_null(BCAST->make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "pyramid-broadcast: unknown variant 'stout-sf'"));
    noc_topo_destroy(t);
}

/* Do pyramids a and b (levels >= 1) share a PE? */
static int uppers_meet(const noc_embed_t *a, const noc_embed_t *b)
{
    int n = a->n;
    char *used = calloc((size_t)1 << (2 * n), 1);
    assert_non_null(used);
    for (int k = 1; k <= n; k++)
        for (int r = 0; r < 1 << (n - k); r++)
            for (int c = 0; c < 1 << (n - k); c++)
                used[noc_embed_node(a, k, r, c)] = 1;
    int meet = 0;
    for (int k = 1; k <= n; k++)
        for (int r = 0; r < 1 << (n - k); r++)
            for (int c = 0; c < 1 << (n - k); c++)
                meet |= used[noc_embed_node(b, k, r, c)];
    free(used);
    return meet;
}

/* Several pyramids on one base (section 3): Stout's mapping leaves three
 * PEs of every base square free for "three more pyramids with the same
 * base and dilation"; the new one "can emulate only two", the second
 * marked with primes in Fig. 1: levels >= 1 in the rows whose code ends
 * in 1. Fig. 1's primed entries (paper's order, row code high): 1' at
 * rows 1, 2, 5, 6 (codes 001, 011, 111, 101) and the 1s' columns; 2' at
 * rows 1, 6 and columns 1, 6; 3' at row 1, column 2. */
static void test_second_pyramid(void **state)
{
    (void)state;
    noc_embed_t z1 = { NOC_EMBED_ZIAVRAS, 3, 1, 1 };
    static const int r1[4] = { 1, 2, 5, 6 }, c1[4] = { 0, 3, 4, 7 }, r2[2] = { 1, 6 }, c2[2] = { 1, 6 };
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int x = noc_embed_node(&z1, 1, r, c);
            assert_int_equal(ungray(x >> 3), r1[r]);
            assert_int_equal(ungray(x & 7), c1[c]);
        }
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) {
            int x = noc_embed_node(&z1, 2, r, c);
            assert_int_equal(ungray(x >> 3), r2[r]);
            assert_int_equal(ungray(x & 7), c2[c]);
        }
    int apex = noc_embed_node(&z1, 3, 0, 0);
    assert_int_equal(ungray(apex >> 3), 1);
    assert_int_equal(ungray(apex & 7), 2);
    for (int n = 1; n <= 6; n++)
        for (int kind = 0; kind < NOC_EMBED_KINDS; kind++) {
            noc_embed_t e[4];
            noc_embed_cost_t c[4];
            int meet[4][4];
            for (int i = 0; i < 4; i++) {
                e[i] = (noc_embed_t){ (noc_embed_kind_t)kind, n, 0, i };
                assert_int_equal(noc_embed_measure(&e[i], &c[i]), 0);
                for (int b = 0; b < 1 << (2 * n); b++) /* the same base */
                    assert_int_equal(noc_embed_node(&e[i], 0, b >> n, b & ((1 << n) - 1)),
                                     noc_embed_node(&e[0], 0, b >> n, b & ((1 << n) - 1)));
                for (int j = 0; j < i; j++)
                    meet[i][j] = meet[j][i] = uppers_meet(&e[j], &e[i]);
            }
            int stout = kind == NOC_EMBED_STOUT;
            for (int i = 1; i < 4; i++) {
                if (stout || i == 1) { /* beside the first, as costly */
                    assert_int_equal(c[i].dilation, c[0].dilation);
                    assert_int_equal(c[i].congestion, c[0].congestion);
                    assert_int_equal(c[i].upper_shared, c[0].upper_shared);
                }
                for (int j = 0; j < i; j++)
                    if (stout || n == 1) /* four pyramids, apart */
                        assert_false(meet[i][j]);
            }
            if (stout || n == 1)
                continue;
            assert_false(meet[0][1]); /* the primed pyramid */
            assert_true(meet[0][2]);
            for (int a = 0; a < 4; a++) /* no three of them apart: "only two" */
                for (int b = a + 1; b < 4; b++)
                    for (int d = b + 1; d < 4; d++)
                        assert_true(meet[a][b] || meet[a][d] || meet[b][d]);
        }
}

/* Multilevel structures on H_2n (section 3): level j at pyramid level
 * m_1 + ... + m_j. The paper: dilation 2 m_i between levels i-1 and i
 * (Stout's placement, "the first algorithm"); 2 m_1 and 2 m_i + 1 for
 * i > 1 (the new one's extension), congestion "still 2". Every
 * composition m_1 + ... + m_L <= n, n <= 6. The congestion is 2 only for
 * m_i = 1: a parent's 4^m - 1 remote children enter its PE over the 2m
 * links of the bits they differ in (minimal routes), so at least
 * ceil((4^m - 1) / 2m); e-cube routing gives 2^(2m - 1). */
static void test_multilevel_embedding(void **state)
{
    (void)state;
    int d[NOC_EMBED_MAX_N + 1], c[NOC_EMBED_MAX_N + 1], m[NOC_EMBED_MAX_N];
    for (int n = 1; n <= 6; n++)
        for (int total = 1; total <= n; total++)
            for (int cuts = 0; cuts < 1 << (total - 1); cuts++) {
                int levels = 0, run = 1;
                for (int b = 0; b < total - 1; b++, run++)
                    if (cuts >> b & 1) {
                        m[levels++] = run;
                        run = 0;
                    }
                m[levels++] = run;
                for (int kind = 0; kind < NOC_EMBED_KINDS; kind++) {
                    noc_embed_t e = { (noc_embed_kind_t)kind, n, 0, 0 };
                    assert_int_equal(noc_embed_multilevel(&e, m, levels, d, c), 0);
                    for (int i = 1; i <= levels; i++) {
                        int mi = m[i - 1];
                        int want = 2 * mi + (kind == NOC_EMBED_ZIAVRAS && i > 1);
                        assert_int_equal(d[i], want);
                        assert_int_equal(c[i], 1 << (2 * mi - 1));
                        assert_true(c[i] >= ((1 << (2 * mi)) - 1 + 2 * mi - 1) / (2 * mi));
                    }
                }
            }
    noc_embed_t e = { NOC_EMBED_STOUT, 3, 0, 0 };
    int too_high[2] = { 2, 2 }, zero[2] = { 1, 0 };
    assert_int_equal(noc_embed_multilevel(&e, too_high, 2, d, c), -1);
    assert_int_equal(noc_embed_multilevel(&e, zero, 2, d, c), -1);
}

/* The busiest PE's processor time per object under the store-and-forward
 * cost model, walked from the embedding (n >= 1; kind < 0: P_n itself):
 * a base node's load (2), per pyramid edge the source's transmission
 * setup (1), 2 on every PE in the middle of its e-cube route (reception
 * and transmission setups), the destination's reception setup (1) - none
 * of it for a child on its parent's PE - and a parent's adds (one a child
 * but the first). */
static uint64_t busiest_pe(int n, int kind)
{
    int pes = kind < 0 ? ((1 << (2 * n + 2)) - 1) / 3 : 1 << (2 * n);
    uint64_t *work = calloc((size_t)pes, sizeof *work), most = 0;
    assert_non_null(work);
    noc_embed_t e = { kind < 0 ? NOC_EMBED_STOUT : (noc_embed_kind_t)kind, n, 0, 0 };
    int first[16] = { 0 };
    for (int k = 1; k <= n + 1; k++)
        first[k] = first[k - 1] + (1 << (n - k + 1)) * (1 << (n - k + 1));
    for (int k = 0; k <= n; k++)
        for (int r = 0; r < 1 << (n - k); r++)
            for (int c = 0; c < 1 << (n - k); c++) {
                int pv = kind < 0 ? first[k] + r * (1 << (n - k)) + c : noc_embed_node(&e, k, r, c);
                if (k == 0) {
                    work[pv] += 2;
                    continue;
                }
                work[pv] += 3; /* four children, three adds */
                for (int i = 0; i < 4; i++) {
                    int cr = 2 * r + (i >> 1), cc = 2 * c + (i & 1);
                    int pc = kind < 0 ? first[k - 1] + cr * (1 << (n - k + 1)) + cc
                                      : noc_embed_node(&e, k - 1, cr, cc);
                    if (pc == pv)
                        continue;
                    work[pc] += 1;
                    work[pv] += 1;
                    for (int at = pc; kind >= 0 && (at ^ pv) != ((at ^ pv) & -(at ^ pv));) {
                        at ^= (at ^ pv) & -(at ^ pv);
                        work[at] += 2;
                    }
                }
            }
    for (int v = 0; v < pes; v++)
        most = work[v] > most ? work[v] : most;
    free(work);
    return most;
}

/* "Multiple levels active" (Table 1's pipelined columns): -pipe runs the
 * W objects as separate messages without step barriers, every node taking
 * the objects in order. Its period, 1/throughput, is the busiest PE's
 * processor time per object: on the pyramid a parent's four reception
 * setups, three adds and a transmission setup (8; 7 on P_1, whose parent
 * is the apex); Stout's PE 0, a node of every level, 2 + 6n; the new
 * mapping's apex PE, which also holds a base node and relays two routes
 * of level 1 and four of every level 2 .. n-1, 4n + 4. */
static void test_pipeline(void **state)
{
    (void)state;
    static const char *const COST[] = { "link_latency", "2", "compute_cycles", "1", "sync_steps", "0", NULL };
    for (int n = 1; n <= 4; n++) {
        char pyr[32], cube[32];
        snprintf(pyr, sizeof pyr, "pyramid:%d", n);
        snprintf(cube, sizeof cube, "hypercube:%d", 2 * n);
        const char *specs[] = { pyr, cube, cube }, *vars[] = { "direct-pipe", "stout-pipe", "ziavras-pipe" };
        int kinds[] = { -1, NOC_EMBED_STOUT, NOC_EMBED_ZIAVRAS };
        for (int i = 0; i < 3; i++) {
            if (i == 0 && n == 4)
                continue; /* pyramid:4 is slow to run 32 objects on: P_1 .. P_3 suffice */
            uint64_t t1 = run(SUM, specs[i], vars[i], 1, UNIT, COST).cycles;
            uint64_t t16 = run(SUM, specs[i], vars[i], 16, UNIT, COST).cycles;
            uint64_t t32 = run(SUM, specs[i], vars[i], 32, UNIT, COST).cycles;
            uint64_t bound = busiest_pe(n, kinds[i]);
            print_message("n = %d %s: 1 object %llu, 16 %llu, 32 %llu: period %.2f, busiest PE %llu\n", n,
                          vars[i], (unsigned long long)t1, (unsigned long long)t16, (unsigned long long)t32,
                          (double)(t32 - t16) / 16, (unsigned long long)bound);
            if (i == 0)
                assert_int_equal(bound, n == 1 ? 7 : 8);
            if (i == 1)
                assert_int_equal(bound, 2 + 6 * (uint64_t)n);
            if (i == 2) /* the apex's PE: 3 + 7 + 2 relays at level 1, 4 at levels 2 .. n-1 */
                assert_int_equal(bound, n == 1 ? 8 : 4 * (uint64_t)n + 4);
            if (i == 2 && n == 2) /* the busiest PE idles now and then (12.69 in the long run) */
                assert_true(t32 - t16 > 16 * bound);
            else
                assert_int_equal(t32 - t16, 16 * bound);
        }
    }
    /* a multilevel structure with a mesh on top has no apex to pipeline to: refused */
    char err[512] = "";
    noc_topo_t *t = noc_topo_create("multilevel:3:1", 0, err, sizeof err);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.variant = "direct-pipe";
    assert_null(SUM->make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "pyramid-sum: variant direct-pipe pipelines the objects up to an apex"));
    noc_topo_destroy(t);
}

/* The facts hook reports the embedding and its measures. */
static void test_facts(void **state)
{
    (void)state;
    char err[256];
    static const struct { const char *spec, *variant, *lines[4]; } cases[] = {
        { "hypercube:6", "stout",
          { "embedding = stout\n", "expansion = 0.753\n", "dilation = 2\n", "congestion = 2\n" } },
        { "hypercube:6", NULL,
          { "embedding = ziavras\n", "upper_shared = 0\n", "dilation = 3\n", "levels 1-2 = dilation 3, congestion 2" } },
        { "pyramid:3", NULL, { "embedding = direct", "dilation = 1\n", "congestion = 1\n", "level_steps = 3\n" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        noc_topo_t *t = noc_topo_create(cases[i].spec, 0, err, sizeof err);
        noc_gen_args_t a;
        noc_gen_args_default(&a);
        a.variant = cases[i].variant;
        const noc_generator_t *gens[] = { SUM, BCAST };
        for (int gi = 0; gi < 2; gi++) {
            char facts[2048] = "";
            gens[gi]->facts(t, &a, facts, sizeof facts);
            for (int l = 0; l < 4; l++)
                if (!strstr(facts, cases[i].lines[l]))
                    fail_msg("%s on %s: no '%s' in\n%s", gens[gi]->name, cases[i].spec, cases[i].lines[l],
                             facts);
        }
        noc_topo_destroy(t);
    }
}

/* Bad fabrics, variants and words: NULL with a message naming the program. */
static void test_errors(void **state)
{
    (void)state;
    static const struct { const char *spec, *variant; int words; const char *msg; } cases[] = {
        { "mesh:4x4", NULL, 1, "runs on pyramid:N" },
        { "torus:4x4", "direct", 1, "not on torus:4x4" },
        { "hypercube:5", NULL, 1, "even dimension" },
        { "hypercube:4", "direct", 1, "variant direct needs a pyramid" },
        { "pyramid:3", "stout", 1, "embeds P_N into a hypercube" },
        { "multilevel:4:2,2", "ziavras-cost", 1, "embeds P_N into a hypercube" },
        { "pyramid:3", "lai-white", 1, "unknown variant 'lai-white'" },
        { "pyramid:3", "direct-lockstep", 1, "unknown variant 'direct-lockstep'" },
        { "pyramid:3", NULL, 0, "--words 0" },
        { "hypercube:6", NULL, -2, "--words -2" },
    };
    const noc_generator_t *gens[] = { SUM, BCAST };
    for (int gi = 0; gi < 2; gi++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            char err[512] = "";
            noc_topo_t *t = noc_topo_create(cases[i].spec, 0, err, sizeof err);
            assert_non_null(t);
            noc_gen_args_t a;
            noc_gen_args_default(&a);
            a.variant = cases[i].variant;
            a.words = cases[i].words;
            noc_program_t *p = gens[gi]->make(t, &a, err, sizeof err);
            if (p)
                fail_msg("%s on %s: expected an error", gens[gi]->name, cases[i].spec);
            print_message("%s\n", err);
            assert_non_null(strstr(err, gens[gi]->name));
            assert_non_null(strstr(err, cases[i].msg));
            char facts[256] = ""; /* the facts hook stays silent */
            gens[gi]->facts(t, &a, facts, sizeof facts);
            assert_string_equal(facts, "");
            noc_topo_destroy(t);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig1),
        cmocka_unit_test(test_embed_claims),
        cmocka_unit_test(test_routes_are_ecube),
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_unit_counts),
        cmocka_unit_test(test_hops_and_hot_links),
        cmocka_unit_test(test_perimeter),
        cmocka_unit_test(test_cost_model),
        cmocka_unit_test(test_table1),
        cmocka_unit_test(test_pipeline),
        cmocka_unit_test(test_second_pyramid),
        cmocka_unit_test(test_multilevel_embedding),
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_survey),
        cmocka_unit_test(test_many_children),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
