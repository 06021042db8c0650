/* test_pattern_bs.c: the traffic patterns of BookSim2's traffic.cpp that
 * noctua's first eight lacked (traffic/pattern.h): neighbor_all (BookSim2's
 * neighbor), randperm, diagonal, asymmetric, taper64, badperm_yarc,
 * hotspot with a list of nodes and weights, background. Destinations are
 * worked by hand from BookSim2's definitions (digits of radix k, dimension
 * 0 the lowest); the random ones are checked in proportion over many draws,
 * within 5 standard deviations of the binomial count (the seeds are fixed,
 * so a pass is a pass every time, and a wrong probability of a few percent
 * fails). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "traffic/pattern.h"

#include "testbench/unit/traffic/topo_cache_test.h"

/* Set up `value` (NAME or NAME(ARGS)) on t, as the traffic parameter is. */
static int setup(noc_pattern_t *p, const char *value, const noc_topo_t *t, int64_t perm_seed, char *err,
                 size_t errlen)
{
    char args[256];
    int has;
    noc_pattern_kind_t k = noc_pattern_split(value, args, sizeof args, &has);
    if (k == NOC_PAT_COUNT) {
        snprintf(err, errlen, "unknown");
        return -1;
    }
    noc_pattern_opts_t o = { 0, 0.0, perm_seed, has ? args : NULL };
    return noc_pattern_setup(p, k, t, &o, err, errlen);
}

static void setup_ok(noc_pattern_t *p, const char *value, const noc_topo_t *t, int self)
{
    char err[512];
    if (setup(p, value, t, 0, err, sizeof err) != 0)
        fail_msg("%s on %s: %s", value, noc_topo_spec(t), err);
    p->self = self;
}

/* The one destination of a deterministic pattern. */
static int dest1(const char *value, const noc_topo_t *t, int s)
{
    noc_pattern_t p;
    noc_rng_t rng;
    noc_rng_seed(&rng, 3, 3);
    setup_ok(&p, value, t, 1);
    int d = noc_pattern_dest(&p, s, &rng);
    noc_pattern_free(&p);
    return d;
}

/* count out of n draws against probability q: within 5 sd of n*q. */
static void near_binomial(long count, long n, double q, const char *what)
{
    double mean = (double)n * q, sd = sqrt((double)n * q * (1.0 - q));
    if (fabs((double)count - mean) > 5.0 * sd + 1e-9)
        fail_msg("%s: %ld of %ld draws, expected %.1f +- %.1f", what, count, n, mean, 5.0 * sd);
}

/* draws from source s into hist (n entries, cleared first). */
static void draw(const noc_pattern_t *p, int s, long draws, long *hist, int n, uint64_t seed)
{
    noc_rng_t rng;
    noc_rng_seed(&rng, seed, 7);
    memset(hist, 0, (size_t)n * sizeof *hist);
    for (long i = 0; i < draws; i++) {
        int d = noc_pattern_dest(p, s, &rng);
        assert_in_range(d, 0, n - 1);
        hist[d]++;
    }
}

static void test_names_and_split(void **state)
{
    (void)state;
    static const char *const names[] = { "neighbor_all", "randperm", "diagonal", "asymmetric", "taper64",
                                         "badperm_yarc", "background" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        noc_pattern_kind_t k = noc_pattern_parse(names[i]);
        assert_int_not_equal(k, NOC_PAT_COUNT);
        assert_string_equal(noc_pattern_name(k), names[i]);
        assert_non_null(strstr(noc_pattern_list(), names[i]));
    }
    char args[64];
    int has;
    assert_int_equal(noc_pattern_split("hotspot({1,2},{3,4})", args, sizeof args, &has), NOC_PAT_HOTSPOT);
    assert_true(has);
    assert_string_equal(args, "{1,2},{3,4}");
    assert_int_equal(noc_pattern_split("randperm(7)", args, sizeof args, &has), NOC_PAT_RANDPERM);
    assert_string_equal(args, "7");
    assert_int_equal(noc_pattern_split("neighbor", args, sizeof args, &has), NOC_PAT_NEIGHBOR);
    assert_false(has);
    assert_int_equal(noc_pattern_split("hotspot(", args, sizeof args, &has), NOC_PAT_COUNT);
    assert_int_equal(noc_pattern_split("hotspot(1)x", args, sizeof args, &has), NOC_PAT_COUNT);
    assert_int_equal(noc_pattern_split("hotspot({1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25})",
                                       args, sizeof args, &has), NOC_PAT_COUNT); /* does not fit */
}

/* BookSim2's neighbor: d_x = s_x + 1 mod k in every digit x. */
static void test_neighbor_all(void **state)
{
    (void)state;
    const noc_topo_t *m = topo("mesh:4x4");
    assert_int_equal(dest1("neighbor_all", m, 0), 5);   /* (0,0) -> (1,1) */
    assert_int_equal(dest1("neighbor_all", m, 3), 4);   /* (3,0) -> (0,1) */
    assert_int_equal(dest1("neighbor_all", m, 6), 11);  /* (2,1) -> (3,2) */
    assert_int_equal(dest1("neighbor_all", m, 15), 0);  /* (3,3) -> (0,0) */
    assert_int_equal(dest1("neighbor", m, 0), 1);       /* noctua's own: first dimension only */
    const noc_topo_t *c = topo("torus:4x4x4");
    assert_int_equal(dest1("neighbor_all", c, 21), 42); /* (1,1,1) -> (2,2,2) */
    assert_int_equal(dest1("neighbor_all", c, 63), 0);
    assert_int_equal(dest1("neighbor_all", topo("ring:8"), 7), 0);
    assert_int_equal(dest1("neighbor_all", topo("hypercube:3"), 6), 7); /* no grid: s + 1 mod n */
}

/* Diagonal: s + 1 mod n when RandomInt(2) (0, 1 or 2) is 0, else s. */
static void test_diagonal(void **state)
{
    (void)state;
    const noc_topo_t *m = topo("mesh:4x4");
    noc_pattern_t p;
    long hist[16];
    enum { DRAWS = 30000 };
    setup_ok(&p, "diagonal", m, 1);
    static const int src[] = { 5, 15 }, next[] = { 6, 0 };
    for (int i = 0; i < 2; i++) {
        draw(&p, src[i], DRAWS, hist, 16, 11 + (uint64_t)i);
        assert_int_equal(hist[src[i]] + hist[next[i]], DRAWS);
        near_binomial(hist[next[i]], DRAWS, 1.0 / 3.0, "diagonal: s + 1");
    }
    noc_pattern_free(&p);
}

/* Asymmetric: (s mod n/2) + {0 or n/2}, even odds. */
static void test_asymmetric(void **state)
{
    (void)state;
    noc_pattern_t p;
    long hist[16];
    enum { DRAWS = 20000 };
    setup_ok(&p, "asymmetric", topo("mesh:4x4"), 1);
    static const int src[] = { 3, 12, 8 }, lo[] = { 3, 4, 0 };
    for (int i = 0; i < 3; i++) {
        draw(&p, src[i], DRAWS, hist, 16, 20 + (uint64_t)i);
        assert_int_equal(hist[lo[i]] + hist[lo[i] + 8], DRAWS);
        near_binomial(hist[lo[i]], DRAWS, 0.5, "asymmetric: low half");
    }
    noc_pattern_free(&p);
    /* an odd count as BookSim2 takes it: half = 4 of 9, node 8 never drawn */
    setup_ok(&p, "asymmetric", topo("mesh:3x3"), 1);
    long h9[9];
    draw(&p, 6, 4000, h9, 9, 5);
    assert_int_equal(h9[2] + h9[6], 4000);
    noc_pattern_free(&p);
}

/* Taper64: half the time (64 + s + 8a + b) mod 64, a and b each -1, 0 or 1
 * equally likely; half the time uniform over the 64 nodes (BookSim2's, the
 * source included). From s = 0: the 9 near nodes 55 56 57 63 0 1 7 8 9 get
 * 1/18 + 1/128 each, the others 1/128. */
static void test_taper64(void **state)
{
    (void)state;
    noc_pattern_t p;
    long hist[64];
    enum { DRAWS = 200000 };
    setup_ok(&p, "taper64", topo("mesh:8x8"), 1);
    draw(&p, 0, DRAWS, hist, 64, 31);
    static const int near[] = { 55, 56, 57, 63, 0, 1, 7, 8, 9 };
    int is_near[64] = { 0 };
    for (int i = 0; i < 9; i++)
        is_near[near[i]] = 1;
    for (int d = 0; d < 64; d++)
        near_binomial(hist[d], DRAWS, (is_near[d] ? 1.0 / 18.0 : 0.0) + 1.0 / 128.0, "taper64");
    noc_pattern_free(&p);
    char err[256];
    assert_int_equal(setup(&p, "taper64", topo("mesh:4x4"), 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "64"));
    assert_non_null(strstr(err, "16"));
}

/* badperm_yarc: row = s / k, d = RandomInt(k - 1) * k + row. */
static void test_badperm_yarc(void **state)
{
    (void)state;
    noc_pattern_t p;
    long hist[64];
    enum { DRAWS = 20000 };
    setup_ok(&p, "badperm_yarc", topo("mesh:4x4"), 1);
    draw(&p, 6, DRAWS, hist, 16, 41); /* row 1: 1, 5, 9, 13 */
    static const int col1[] = { 1, 5, 9, 13 };
    for (int i = 0; i < 4; i++)
        near_binomial(hist[col1[i]], DRAWS, 0.25, "badperm_yarc row 1");
    assert_int_equal(hist[1] + hist[5] + hist[9] + hist[13], DRAWS);
    draw(&p, 15, 1000, hist, 16, 42); /* row 3: 3, 7, 11, 15 */
    assert_int_equal(hist[3] + hist[7] + hist[11] + hist[15], 1000);
    noc_pattern_free(&p);
    setup_ok(&p, "badperm_yarc", topo("mesh:4x4x4"), 1);
    draw(&p, 63, 1000, hist, 64, 43); /* row 15: 15, 19, 23, 27 */
    assert_int_equal(hist[15] + hist[19] + hist[23] + hist[27], 1000);
    noc_pattern_free(&p);
    char err[256];
    assert_int_equal(setup(&p, "badperm_yarc", topo("ring:8"), 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "badperm_yarc"));
    assert_int_equal(setup(&p, "badperm_yarc", topo("mesh:4x2"), 0, err, sizeof err), -1);
    assert_int_equal(setup(&p, "badperm_yarc", topo("hypercube:4"), 0, err, sizeof err), -1);
}

/* randperm: a permutation, fixed by perm_seed (or its argument), the same
 * for the same seed, another for another seed, and every permutation
 * equally likely over seeds. */
static void test_randperm(void **state)
{
    (void)state;
    const noc_topo_t *m = topo("mesh:8x8");
    noc_pattern_t a, b, c;
    char err[256];
    assert_int_equal(setup(&a, "randperm", m, 12, err, sizeof err), 0);
    assert_int_equal(setup(&b, "randperm(12)", m, 99, err, sizeof err), 0); /* the argument wins */
    assert_int_equal(setup(&c, "randperm", m, 13, err, sizeof err), 0);
    noc_rng_t rng;
    noc_rng_seed(&rng, 1, 1);
    int seen[64] = { 0 }, differ = 0;
    for (int s = 0; s < 64; s++) {
        int d = noc_pattern_dest(&a, s, &rng);
        assert_in_range(d, 0, 63);
        seen[d]++;
        assert_int_equal(noc_pattern_dest(&a, s, &rng), d); /* fixed for the run */
        assert_int_equal(noc_pattern_dest(&b, s, &rng), d);
        differ += noc_pattern_dest(&c, s, &rng) != d;
    }
    for (int d = 0; d < 64; d++)
        assert_int_equal(seen[d], 1);
    assert_true(differ > 0);
    noc_pattern_free(&a);
    noc_pattern_free(&b);
    noc_pattern_free(&c);
    /* 4 nodes: each of the 24 permutations in 1/24 of 24000 seeds */
    const noc_topo_t *four = topo("ring:4");
    static long count[256];
    enum { SEEDS = 24000 };
    for (int64_t sd = 0; sd < SEEDS; sd++) {
        noc_pattern_t p;
        assert_int_equal(setup(&p, "randperm", four, sd, err, sizeof err), 0);
        int code = 0;
        for (int s = 0; s < 4; s++)
            code = code * 4 + noc_pattern_dest(&p, s, &rng);
        count[code]++;
        noc_pattern_free(&p);
    }
    int perms = 0;
    for (int code = 0; code < 256; code++)
        if (count[code]) {
            perms++;
            near_binomial(count[code], SEEDS, 1.0 / 24.0, "randperm on 4 nodes");
        }
    assert_int_equal(perms, 24);
    assert_int_equal(setup(&a, "randperm(x)", m, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "randperm(x)"));
}

/* hotspot({nodes},{weights}): node i with weight_i / sum. */
static void test_hotspot_list(void **state)
{
    (void)state;
    const noc_topo_t *m = topo("mesh:4x4");
    noc_pattern_t p;
    long hist[16];
    enum { DRAWS = 40000 };
    setup_ok(&p, "hotspot({3,9},{1,3})", m, 0);
    draw(&p, 3, DRAWS, hist, 16, 51);
    assert_int_equal(hist[3] + hist[9], DRAWS);
    near_binomial(hist[3], DRAWS, 0.25, "hotspot weight 1 of 4");
    noc_pattern_free(&p);
    setup_ok(&p, "hotspot({2,4,6})", m, 0);
    draw(&p, 0, DRAWS, hist, 16, 52);
    for (int d = 2; d <= 6; d += 2)
        near_binomial(hist[d], DRAWS, 1.0 / 3.0, "hotspot, equal weights");
    assert_int_equal(hist[2] + hist[4] + hist[6], DRAWS);
    noc_pattern_free(&p);
    assert_int_equal(dest1("hotspot(5)", m, 0), 5);
    assert_int_equal(dest1("hotspot( { 7 } , { 2 } )", m, 1), 7);
    static const struct { const char *v, *says; } bad[] = {
        { "hotspot({3,16})", "node 16" }, { "hotspot({3,-1})", "node -1" }, { "hotspot({3},{0})", "weight 0" },
        { "hotspot({3,4},{1})", "2 hot nodes but 1 weights" }, { "hotspot({3,)", "expected" },
        { "hotspot(a)", "expected" }, { "hotspot({1},{2},{3})", "expected" },
        { "hotspot({1,2},{2147483647,1})", "2^31" },
    };
    char err[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(setup(&p, bad[i].v, m, 0, err, sizeof err), -1);
        if (!strstr(err, bad[i].says) || !strstr(err, bad[i].v + 7))
            fail_msg("%s: '%s' does not say '%s' and the value", bad[i].v, err, bad[i].says);
    }
}

/* background({excluded}): uniform over the others (the source too with
 * self, as BookSim2's; without, not the source). */
static void test_background(void **state)
{
    (void)state;
    const noc_topo_t *m = topo("mesh:4x4");
    noc_pattern_t p;
    long hist[16];
    enum { DRAWS = 42000 };
    setup_ok(&p, "background({0,5})", m, 1);
    draw(&p, 3, DRAWS, hist, 16, 61);
    assert_int_equal(hist[0] + hist[5], 0);
    for (int d = 0; d < 16; d++)
        if (d != 0 && d != 5)
            near_binomial(hist[d], DRAWS, 1.0 / 14.0, "background, self");
    p.self = 0;
    draw(&p, 3, DRAWS, hist, 16, 62);
    assert_int_equal(hist[0] + hist[5] + hist[3], 0);
    for (int d = 0; d < 16; d++)
        if (d != 0 && d != 5 && d != 3)
            near_binomial(hist[d], DRAWS, 1.0 / 13.0, "background, no self");
    noc_pattern_free(&p);
    setup_ok(&p, "background({0,1,2,3,4,5,6,7,8,9,10,11,12,13,14})", m, 0);
    draw(&p, 15, 100, hist, 16, 63);
    assert_int_equal(hist[15], 100); /* only the source left: nothing is sent */
    noc_pattern_free(&p);
    char err[512];
    assert_int_equal(setup(&p, "background", m, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "background({3,5})"));
    assert_int_equal(setup(&p, "background({0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15})", m, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "every node"));
    assert_int_equal(setup(&p, "background(16)", m, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "node 16"));
    assert_int_equal(setup(&p, "uniform(3)", m, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "takes no arguments"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_split),
        cmocka_unit_test_teardown(test_neighbor_all, free_topos),
        cmocka_unit_test_teardown(test_diagonal, free_topos),
        cmocka_unit_test_teardown(test_asymmetric, free_topos),
        cmocka_unit_test_teardown(test_taper64, free_topos),
        cmocka_unit_test_teardown(test_badperm_yarc, free_topos),
        cmocka_unit_test_teardown(test_randperm, free_topos),
        cmocka_unit_test_teardown(test_hotspot_list, free_topos),
        cmocka_unit_test_teardown(test_background, free_topos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
