/* test_gen.c: the generic program generators (broadcast, data-sum,
 * prefix-sum, alltoall, allgather, allreduce) on fabrics of every kind and
 * two sizes, under the papers' unit timing (with and without step
 * barriers) and the default router: the result check passes every time;
 * the unit-time counts equal what the algorithms' structure says (a
 * broadcast takes the root's eccentricity in the BFS tree, the hypercube's
 * binomial broadcast d cycles, the grid broadcast the sum of the line
 * radii; a W-word prefix sum W times the one-word count); the same
 * arguments give the same program; bad requests fail with
 * a message. */
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
#include "traffic/gen.h"

typedef struct outcome {
    noc_run_status_t status;
    int ok;             /* finished and checked */
    uint64_t cycles;
    char err[512];
} outcome_t;

/* timing: 0 default router, 1 unit, 2 unit with step barriers */
static outcome_t run_gen(const char *name, const char *spec, int timing, const noc_gen_args_t *args)
{
    outcome_t o = { 0 };
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_config_timing(&cfg, timing); /* 0 router, 1 unit, 2 unit with barriers */
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    const noc_generator_t *g = noc_gen_find(name);
    assert_non_null(g);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    if (args)
        a = *args;
    noc_program_t *p = g->make(t, &a, err, sizeof err);
    if (!p)
        fail_msg("%s on %s: %s", name, spec, err);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    assert_non_null(s);
    if (noc_pe_attach(s, p, err, sizeof err))
        fail_msg("%s", err);
    o.status = noc_pe_run(s);
    o.ok = o.status == NOC_RUN_OK && noc_pe_finished(noc_sim_pe(s), o.err, sizeof o.err) == 0 &&
           noc_pe_check(s, o.err, sizeof o.err) == 0;
    o.cycles = noc_pe_stats(noc_sim_pe(s))->cycles;
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
    return o;
}

static const char *const FABRICS[] = {
    "ring:6", "ring:9", "mesh:3x4", "mesh:4x4", "torus:4x4", "torus:3x5", "hypercube:3",
    "hypercube:5", "bsn:ring:4", "otis:mesh:2x2", "pyramid:2", "circulant:10:1,3", "complete:5", NULL,
};

static int supports(const char *gen, const char *spec)
{
    if (strcmp(gen, "prefix-sum") != 0)
        return 1;
    return strncmp(spec, "ring", 4) == 0 || strncmp(spec, "mesh", 4) == 0 || strncmp(spec, "torus", 5) == 0 ||
           strncmp(spec, "hypercube", 9) == 0 || strncmp(spec, "bsn", 3) == 0 || strncmp(spec, "otis", 4) == 0;
}

static void test_every_generator_everywhere(void **state)
{
    (void)state;
    static const char *const gens[] = { "broadcast", "data-sum", "prefix-sum", "alltoall", "allgather",
                                        "allreduce", NULL };
    for (int g = 0; gens[g]; g++)
        for (int f = 0; FABRICS[f]; f++) {
            if (!supports(gens[g], FABRICS[f]))
                continue;
            for (int timing = 0; timing <= 2; timing++) {
                outcome_t o = run_gen(gens[g], FABRICS[f], timing, NULL);
                if (!o.ok)
                    fail_msg("%s on %s (timing %d): status %d, %s", gens[g], FABRICS[f], timing,
                             (int)o.status, o.err);
            }
        }
}

static void test_broadcast_counts(void **state)
{
    (void)state;
    /* binomial tree: one cycle per dimension */
    assert_int_equal(run_gen("broadcast", "hypercube:5", 2, NULL).cycles, 5);
    /* dimension by dimension: the line radii, k/2 on a torus, k-1 from a
     * mesh corner */
    assert_int_equal(run_gen("broadcast", "torus:4x8", 2, NULL).cycles, 2 + 4);
    assert_int_equal(run_gen("broadcast", "mesh:3x4", 2, NULL).cycles, 2 + 3);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.root = 5; /* (1,1) of mesh:4x4: radius 2 in both dimensions */
    assert_int_equal(run_gen("broadcast", "mesh:4x4", 2, &a).cycles, 4);
    /* a BFS tree reaches every node at its distance: the eccentricity of
     * the root, which is the diameter on these vertex-transitive fabrics */
    assert_int_equal(run_gen("broadcast", "bsn:ring:8", 1, NULL).cycles, 10);
    assert_int_equal(run_gen("broadcast", "circulant:10:1,3", 1, NULL).cycles, 3); /* 5 = 1+1+3 */
    /* a W-word message takes W cycles to a neighbour (W - 1 behind the
     * first word), and a PE forwards it once it holds all of it: d * W */
    a.root = 0;
    a.words = 4;
    assert_int_equal(run_gen("broadcast", "hypercube:3", 1, &a).cycles, 3 * 4);
}

static void test_sum_counts(void **state)
{
    (void)state;
    /* recursive doubling: each dimension one exchange (1 cycle) and one add
     * (compute_cycles = 1) */
    assert_int_equal(run_gen("data-sum", "hypercube:4", 2, NULL).cycles, 4 * 2);
    /* step barriers only ever delay: never fewer cycles than without */
    for (int f = 0; FABRICS[f]; f++)
        assert_true(run_gen("data-sum", FABRICS[f], 2, NULL).cycles >=
                    run_gen("data-sum", FABRICS[f], 1, NULL).cycles);
}

/* A prefix sum of W-word vectors, summed element-wise (every word checked
 * by the run) on every fabric it runs on, all timings. Under unit timing
 * with barriers every message is a neighbour's, W cycles, and every add W
 * cycles (compute_cycles = 1 a word): on a hypercube a copy, then per
 * dimension an exchange and two adds (the upper PE's total and prefix, in
 * turn): W(3d + 1); on a ring of k a chain of k - 1 (receive, add): 2W(k-1). */
static void test_prefix_words(void **state)
{
    (void)state;
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    for (a.words = 2; a.words <= 3; a.words++) {
        for (int f = 0; FABRICS[f]; f++) {
            if (!supports("prefix-sum", FABRICS[f]))
                continue;
            for (int timing = 0; timing <= 2; timing++) {
                outcome_t o = run_gen("prefix-sum", FABRICS[f], timing, &a);
                if (!o.ok)
                    fail_msg("prefix-sum --words %d on %s (timing %d): status %d, %s", a.words,
                             FABRICS[f], timing, (int)o.status, o.err);
            }
        }
        for (int d = 1; d <= 5; d++) {
            char spec[32];
            snprintf(spec, sizeof spec, "hypercube:%d", d);
            assert_int_equal(run_gen("prefix-sum", spec, 2, &a).cycles,
                             (uint64_t)(a.words * (3 * d + 1)));
        }
        for (int k = 3; k <= 9; k += 3) {
            char spec[32];
            snprintf(spec, sizeof spec, "ring:%d", k);
            assert_int_equal(run_gen("prefix-sum", spec, 2, &a).cycles, (uint64_t)(2 * a.words * (k - 1)));
        }
    }
    char err[512];
    noc_topo_t *t = noc_topo_create("torus:4x4", 0, err, sizeof err);
    a.words = 0;
    assert_null(noc_gen_find("prefix-sum")->make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "--words 0"));
    noc_topo_destroy(t);
}

static void test_bad_requests(void **state)
{
    (void)state;
    char err[512];
    noc_topo_t *t = noc_topo_create("pyramid:2", 0, err, sizeof err);
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    assert_null(noc_gen_find("prefix-sum")->make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "pyramid:2"));
    a.variant = "spiral";
    assert_null(noc_gen_find("broadcast")->make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "spiral"));
    assert_null(noc_gen_find("nonesuch"));
    noc_topo_destroy(t);
}

/* Every generator makes the same program from the same arguments. */
static void test_deterministic(void **state)
{
    (void)state;
    char err[512];
    noc_topo_t *t = noc_topo_create("torus:4x4", 0, err, sizeof err);
    for (int g = 0; noc_generators[g]; g++) {
        noc_gen_args_t a;
        noc_gen_args_default(&a);
        noc_program_t *p1 = noc_generators[g]->make(t, &a, err, sizeof err);
        noc_program_t *p2 = noc_generators[g]->make(t, &a, err, sizeof err);
        if (!p1 || !p2) { /* generators for other fabrics */
            noc_prog_free(p1);
            noc_prog_free(p2);
            continue;
        }
        char *b1 = NULL, *b2 = NULL;
        size_t n1 = 0, n2 = 0;
        FILE *f1 = open_memstream(&b1, &n1), *f2 = open_memstream(&b2, &n2);
        assert_int_equal(noc_prog_write(p1, f1), 0);
        assert_int_equal(noc_prog_write(p2, f2), 0);
        fclose(f1);
        fclose(f2);
        assert_string_equal(b1, b2);
        free(b1);
        free(b2);
        noc_prog_free(p1);
        noc_prog_free(p2);
    }
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_generator_everywhere),
        cmocka_unit_test(test_broadcast_counts),
        cmocka_unit_test(test_sum_counts),
        cmocka_unit_test(test_prefix_words),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
