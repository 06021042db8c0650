/* test_gen_scatter.c: the scatter and gather generators (traffic/
 * gen_scatter.c): Tarkov and Tsarenko's counts under the papers' unit
 * timing (router=ideal, all-port NI), with and without step barriers: a
 * scatter from a corner of torus:8x8 in ceil((N-1)/4) = 16 cycles with the
 * root's four arcs the hottest links, the same count on other tori and on
 * the optimal 2-D circulants, W times it for W-word fragments, the naive
 * scatter slower; the gather, its reverse, in the same counts; every fabric
 * kind at two sizes under both timings and the default router with the
 * result check passing; the same arguments giving the same program, which
 * runs the same from its text form; bad requests failing with a message
 * that names the program. */
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
#include "traffic/gen_util.h"

extern const noc_generator_t noc_gen_scatter, noc_gen_gather;

enum { ROUTER_VC = NOC_TIMING_ROUTER, UNIT = NOC_TIMING_UNIT, UNIT_SYNC = NOC_TIMING_UNIT_SYNC }; /* the default router; --timing unit; the same with --sync steps */

typedef struct outcome {
    int ok;               /* ran to the end, finished, result check passed */
    uint64_t cycles;
    uint64_t root_min;    /* flits on the root's least and most loaded arc: out of the */
    uint64_t root_max;    /* root for a scatter, into it for a gather */
    uint64_t other_max;   /* flits on the busiest other network link */
    char err[512];
} outcome_t;

typedef struct request {
    const char *variant;  /* NULL: the default (tarkov) */
    int words, root;      /* 0 words: 1 */
} request_t;

static noc_gen_args_t args_of(const request_t *rq)
{
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.variant = rq->variant;
    a.words = rq->words ? rq->words : 1;
    a.root = rq->root;
    return a;
}

static noc_sim_t *sim_for(const noc_topo_t *t, int timing)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_config_timing(&cfg, timing);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* The flits on the root's arcs and on the other links. */
static void link_loads(noc_sim_t *s, int root, int scatter, outcome_t *o)
{
    o->root_min = UINT64_MAX;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (local)
            continue;
        uint64_t f = noc_sim_link_stats(s, c)->flits;
        if ((scatter ? from : to) == root) {
            o->root_min = f < o->root_min ? f : o->root_min;
            o->root_max = f > o->root_max ? f : o->root_max;
        } else if (f > o->other_max) {
            o->other_max = f;
        }
    }
}

/* Run program p on t; p stays the caller's. */
static outcome_t run_program(const noc_topo_t *t, const noc_program_t *p, int timing, int root, int scatter)
{
    outcome_t o;
    memset(&o, 0, sizeof o);
    noc_sim_t *s = sim_for(t, timing);
    if (noc_pe_attach(s, p, o.err, sizeof o.err) != 0)
        fail_msg("%s", o.err);
    o.ok = noc_pe_run(s) == NOC_RUN_OK && noc_pe_finished(noc_sim_pe(s), o.err, sizeof o.err) == 0 &&
           noc_pe_check(s, o.err, sizeof o.err) == 0;
    o.cycles = noc_pe_stats(noc_sim_pe(s))->cycles;
    link_loads(s, root, scatter, &o);
    noc_sim_destroy(s);
    return o;
}

static outcome_t run(const noc_generator_t *g, const char *spec, int timing, const request_t *rq)
{
    char err[512];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    noc_gen_args_t a = args_of(rq);
    noc_program_t *p = g->make(t, &a, err, sizeof err);
    if (!p)
        fail_msg("%s on %s: %s", g->name, spec, err);
    outcome_t o = run_program(t, p, timing, a.root, g == &noc_gen_scatter);
    if (!o.ok)
        fail_msg("%s %s on %s (timing %d): %s", g->name, a.variant ? a.variant : "tarkov", spec, timing, o.err);
    noc_prog_free(p);
    noc_topo_destroy(t);
    return o;
}

/* Cycles under unit timing, the same with and without step barriers. */
static uint64_t unit_cycles(const noc_generator_t *g, const char *spec, const request_t *rq)
{
    uint64_t sync = run(g, spec, UNIT_SYNC, rq).cycles, plain = run(g, spec, UNIT, rq).cycles;
    print_message("%-8s %-6s %-18s W=%d root %d: %llu cycles\n", g->name, rq->variant ? rq->variant : "tarkov",
                  spec, rq->words ? rq->words : 1, rq->root, (unsigned long long)sync);
    assert_int_equal(sync, plain); /* one step: the barrier changes nothing */
    return sync;
}

/* The paper's count, ceil((N-1)/deg(root)) * W, and the eccentricity. */
static void paper_count(const char *spec, const request_t *rq, uint64_t *count, uint64_t *ecc)
{
    char err[512];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(t);
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, rq->root, &tr);
    int deg = noc_topo_degree(t, rq->root), w = rq->words ? rq->words : 1;
    *count = (uint64_t)((noc_topo_nodes(t) - 1 + deg - 1) / deg * w);
    *ecc = (uint64_t)(tr.height * w);
    noc_gen_tree_free(&tr);
    noc_topo_destroy(t);
}

/* The figure: scatter from a corner of torus:8x8 in
 * ceil(63/4) = 16 cycles (with and without --sync steps), the root's four
 * arcs carrying 16, 16, 16 and 15 fragments, more than any other link; the
 * naive scatter (36 cycles) slower. The gather the same, reversed. */
static void test_torus8x8_corner(void **state)
{
    (void)state;
    request_t tarkov = { NULL, 1, 0 }, naive = { "naive", 1, 0 };
    for (int gi = 0; gi < 2; gi++) {
        const noc_generator_t *g = gi ? &noc_gen_gather : &noc_gen_scatter;
        assert_int_equal(unit_cycles(g, "torus:8x8", &tarkov), 16);
        outcome_t o = run(g, "torus:8x8", UNIT_SYNC, &tarkov);
        assert_int_equal(o.root_min, 15);
        assert_int_equal(o.root_max, 16);
        assert_true(o.other_max < o.root_min);
        uint64_t slow = unit_cycles(g, "torus:8x8", &naive);
        assert_true(slow > 16);
        /* REGRESSION PIN: 36 and 32 are noctua's own counts of the naive
         * variants (taken from its output, not derived): no paper gives
         * their cost, and it depends on how the fragments of one root link
         * queue. Only "slower than 16" is the claim; the pin catches a
         * change in how they run. */
        assert_int_equal(slow, gi ? 32 : 36);
    }
}

/* Other tori and the optimal 2-D circulants C(2k^2+2k+1; k, k+1) and
 * C(64; 1, 10) (diameter 6, the least for 64 nodes): the paper's count,
 * ceil((N-1)/4) (ceil(63/6) on the 3-D torus), for scatter and gather; the
 * naive variants never faster. */
static void test_paper_fabrics(void **state)
{
    (void)state;
    static const struct { const char *spec; uint64_t cycles; } cases[] = {
        { "torus:4x4", 4 },         { "torus:5x5", 6 },         { "torus:6x6", 9 },
        { "torus:8x4", 8 },         { "torus:16x16", 64 },      { "torus:4x4x4", 11 },
        { "circulant:13:2,3", 3 },  { "circulant:25:3,4", 6 },  { "circulant:41:4,5", 10 },
        { "circulant:61:5,6", 15 }, { "circulant:64:1,10", 16 },
    };
    request_t tarkov = { NULL, 1, 0 }, naive = { "naive", 1, 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t count, ecc;
        paper_count(cases[i].spec, &tarkov, &count, &ecc);
        assert_int_equal(count, cases[i].cycles);
        for (int gi = 0; gi < 2; gi++) {
            const noc_generator_t *g = gi ? &noc_gen_gather : &noc_gen_scatter;
            uint64_t c = unit_cycles(g, cases[i].spec, &tarkov);
            assert_int_equal(c, cases[i].cycles);
            assert_true(unit_cycles(g, cases[i].spec, &naive) >= c);
        }
    }
}

/* W-word fragments: every fragment is forwarded whole, each hop W cycles,
 * so the count is W times the paper's. */
static void test_words(void **state)
{
    (void)state;
    static const struct { const char *spec; int words; uint64_t cycles; } cases[] = {
        { "torus:8x8", 2, 32 }, { "torus:8x8", 3, 48 }, { "circulant:41:4,5", 4, 40 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        request_t rq = { NULL, cases[i].words, 0 };
        assert_int_equal(unit_cycles(&noc_gen_scatter, cases[i].spec, &rq), cases[i].cycles);
        assert_int_equal(unit_cycles(&noc_gen_gather, cases[i].spec, &rq), cases[i].cycles);
    }
}

/* Any root: the torus is vertex-transitive (16 from node 27 = (3,3)); the
 * centre (1,1) of mesh:4x4 has degree 4 (ceil(15/4) = 4); hypercube:5 from
 * 01001 with 3 words: ceil(31/5) * 3 = 21. A root other than node 0 moves
 * its own fragment between address 0 and root*W: the result check covers
 * it. */
static void test_other_roots(void **state)
{
    (void)state;
    static const struct { const char *spec; int words, root; uint64_t cycles; } cases[] = {
        { "torus:8x8", 1, 27, 16 }, { "torus:8x8", 2, 27, 32 }, { "mesh:4x4", 1, 5, 4 },
        { "hypercube:5", 3, 9, 21 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        request_t rq = { NULL, cases[i].words, cases[i].root };
        for (int gi = 0; gi < 2; gi++) {
            const noc_generator_t *g = gi ? &noc_gen_gather : &noc_gen_scatter;
            assert_int_equal(unit_cycles(g, cases[i].spec, &rq), cases[i].cycles);
            run(g, cases[i].spec, ROUTER_VC, &rq);
        }
    }
}

static const char *const FABRICS[] = {
    "ring:6", "ring:9", "mesh:3x4", "mesh:4x4", "torus:3x5", "torus:4x4", "hypercube:3", "hypercube:5",
    "bsn:ring:4", "bsn:mesh:3x3", "otis:mesh:2x2", "otis:ring:5", "pyramid:2", "pyramid:3",
    "multilevel:3:1,2", "multilevel:2:2", "circulant:10:1,3", "circulant:41:4,5", "complete:5",
    "complete:8", "graph:petersen.txt", "graph:heawood.txt", NULL,
};

/* graph:NAME: a file of examples/graphs. */
static void spec_path(const char *spec, char *buf, size_t len)
{
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    if (strncmp(spec, "graph:", 6) == 0)
        snprintf(buf, len, "graph:%s/examples/graphs/%s", src ? src : ".", spec + 6);
    else
        snprintf(buf, len, "%s", spec);
}

/* Every fabric kind, two sizes: both generators, both variants, the unit
 * timing with and without barriers and the default router: the result is
 * right every time, and the unit-time count is never below the bound
 * max(ceil((N-1)/deg(root)), eccentricity). Tarkov's takes exactly the
 * larger of the eccentricity and the fragments on the root's fullest arc,
 * which is ceil((N-1)/deg(root)) on all of these but the pyramids and
 * multilevel structures: from a base corner most nodes are on shortest
 * paths through the one parent arc only (pyramid:3: 6, 6 and 72 fragments,
 * 72 cycles). */
static void test_every_fabric(void **state)
{
    (void)state;
    static const char *const variants[] = { "tarkov", "naive" };
    for (int f = 0; FABRICS[f]; f++) {
        char spec[512];
        spec_path(FABRICS[f], spec, sizeof spec);
        for (int gi = 0; gi < 2; gi++)
            for (int v = 0; v < 2; v++) {
                const noc_generator_t *g = gi ? &noc_gen_gather : &noc_gen_scatter;
                request_t rq = { variants[v], 1, 0 };
                uint64_t count, ecc, c = unit_cycles(g, spec, &rq);
                paper_count(spec, &rq, &count, &ecc);
                assert_true(c >= count && c >= ecc);
                run(g, spec, ROUTER_VC, &rq);
                if (v == 1)
                    continue;
                uint64_t fullest = run(g, spec, UNIT, &rq).root_max;
                assert_int_equal(c, fullest > ecc ? fullest : ecc);
                int forced = strncmp(spec, "pyramid", 7) == 0 || strncmp(spec, "multilevel", 10) == 0;
                if (!forced)
                    assert_int_equal(c, count > ecc ? count : ecc);
            }
    }
}

/* The program as text. */
static char *text_of(const noc_program_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(noc_prog_write(p, f), 0);
    fclose(f);
    return buf;
}

/* The same arguments give the same program; its text form (what
 * `noctua run --program-file` reads) runs in the same cycles. */
static void test_same_program_and_text(void **state)
{
    (void)state;
    char err[512];
    noc_topo_t *t = noc_topo_create("circulant:41:4,5", 0, err, sizeof err);
    assert_non_null(t);
    for (int gi = 0; gi < 2; gi++) {
        const noc_generator_t *g = gi ? &noc_gen_gather : &noc_gen_scatter;
        request_t rq = { NULL, 2, 3 };
        noc_gen_args_t a = args_of(&rq);
        noc_program_t *p1 = g->make(t, &a, err, sizeof err), *p2 = g->make(t, &a, err, sizeof err);
        assert_non_null(p1);
        assert_non_null(p2);
        char *s1 = text_of(p1), *s2 = text_of(p2);
        assert_string_equal(s1, s2);
        noc_program_t *back = noc_prog_read_string(s1, "scatter.goal", err, sizeof err);
        if (!back)
            fail_msg("%s", err);
        outcome_t o = run_program(t, back, UNIT, 3, !gi);
        assert_true(o.ok);
        assert_int_equal(o.cycles, 2 * 10); /* W = 2 words times ceil(40/4) */
        free(s1);
        free(s2);
        noc_prog_free(p1);
        noc_prog_free(p2);
        noc_prog_free(back);
    }
    noc_topo_destroy(t);
}

/* The facts hook: the paper's count, the bound and the root's arc loads. */
static void test_facts(void **state)
{
    (void)state;
    char err[512], buf[1024];
    noc_topo_t *t = noc_topo_create("torus:8x8", 0, err, sizeof err);
    assert_non_null(t);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    noc_gen_scatter.facts(t, &a, buf, sizeof buf);
    print_message("%s", buf);
    assert_non_null(strstr(buf, "paper count = ceil((N-1)/deg(root)) * W = 16 cycles"));
    assert_non_null(strstr(buf, "root eccentricity = 8"));
    assert_non_null(strstr(buf, "tarkov root arc loads = 15 16 16 16 fragments"));
    a.words = 3;
    noc_gen_gather.facts(t, &a, buf, 40); /* truncated: still a string */
    assert_true(strlen(buf) < 40);
    noc_topo_destroy(t);
}

/* make returns NULL with a message naming the program and the fault. */
static void expect_error(const noc_generator_t *g, const char *spec, const noc_gen_args_t *a, const char *what)
{
    char err[512] = "";
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(t);
    noc_program_t *p = g->make(t, a, err, sizeof err);
    print_message("%s\n", err);
    assert_null(p);
    assert_true(strncmp(err, g->name, strlen(g->name)) == 0);
    if (!strstr(err, what))
        fail_msg("'%s' does not say '%s'", err, what);
    noc_topo_destroy(t);
}

static void test_bad_requests(void **state)
{
    (void)state;
    for (int gi = 0; gi < 2; gi++) {
        const noc_generator_t *g = gi ? &noc_gen_gather : &noc_gen_scatter;
        noc_gen_args_t a;
        noc_gen_args_default(&a);
        a.words = 0;
        expect_error(g, "torus:4x4", &a, "--words");
        a.words = 1 << 21;
        expect_error(g, "torus:4x4", &a, "memory");
        noc_gen_args_default(&a);
        a.root = 16;
        expect_error(g, "torus:4x4", &a, "root 16 is not a node of torus:4x4");
        a.root = -1;
        expect_error(g, "torus:4x4", &a, "root -1");
        noc_gen_args_default(&a);
        a.variant = "binomial";
        expect_error(g, "torus:4x4", &a, "unknown variant 'binomial'");
        /* 69 out-arcs at the root: more than the plan's masks hold */
        noc_gen_args_default(&a);
        expect_error(g, "complete:70", &a, "out-arcs");
        a.variant = "naive"; /* which the naive variant does not need */
        char err[512];
        noc_topo_t *t = noc_topo_create("complete:70", 0, err, sizeof err);
        noc_program_t *p = g->make(t, &a, err, sizeof err);
        assert_non_null(p);
        noc_prog_free(p);
        noc_topo_destroy(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus8x8_corner),
        cmocka_unit_test(test_paper_fabrics),
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_other_roots),
        cmocka_unit_test(test_every_fabric),
        cmocka_unit_test(test_same_program_and_text),
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_bad_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
