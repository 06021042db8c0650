/* test_rng.c: random streams (model/rng.h): determinism, independence of
 * streams and seeds, range and rough uniformity of noc_rng_below and
 * noc_rng_unit, and the mean of noc_rng_geometric. All seeds are fixed, so
 * the statistical checks are reproducible; tolerances are several standard
 * deviations wide. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "model/rng.h"

static void test_deterministic(void **state)
{
    (void)state;
    noc_rng_t a, b;
    noc_rng_seed(&a, 99, 3);
    noc_rng_seed(&b, 99, 3);
    for (int i = 0; i < 10000; i++)
        assert_true(noc_rng_next(&a) == noc_rng_next(&b));
    /* Re-seeding restarts the sequence. */
    noc_rng_seed(&a, 99, 3);
    noc_rng_t c;
    noc_rng_seed(&c, 99, 3);
    uint64_t first = noc_rng_next(&c);
    assert_true(noc_rng_next(&a) == first);
}

/* Fraction of equal bits between two sequences: about one half when they
 * are unrelated. */
static double bit_agreement(noc_rng_t *a, noc_rng_t *b, int draws, int *equal_words)
{
    long same = 0;
    *equal_words = 0;
    for (int i = 0; i < draws; i++) {
        uint64_t x = noc_rng_next(a), y = noc_rng_next(b);
        if (x == y)
            (*equal_words)++;
        same += 64 - __builtin_popcountll(x ^ y);
    }
    return (double)same / (64.0 * draws);
}

static void test_streams_independent(void **state)
{
    (void)state;
    static const uint64_t pairs[][4] = {
        /* seed, stream, seed, stream */
        {1, 0, 1, 1},
        {1, 1, 1, 2},
        {0, 0, 1, 0},
        {7, 5, 5, 7},
        {0, 0, 0, 1},
    };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        noc_rng_t a, b;
        noc_rng_seed(&a, pairs[p][0], pairs[p][1]);
        noc_rng_seed(&b, pairs[p][2], pairs[p][3]);
        int equal;
        double agree = bit_agreement(&a, &b, 20000, &equal);
        assert_int_equal(equal, 0);
        /* 1.28M bits: standard deviation of the fraction is ~0.00044. */
        assert_true(fabs(agree - 0.5) < 0.005);
    }
    /* A stream is not a shifted copy of its neighbour. */
    noc_rng_t a, b;
    noc_rng_seed(&a, 5, 0);
    noc_rng_seed(&b, 5, 1);
    uint64_t sa[64], sb[64];
    for (int i = 0; i < 64; i++) {
        sa[i] = noc_rng_next(&a);
        sb[i] = noc_rng_next(&b);
    }
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            assert_true(sa[i] != sb[j]);
}

static void test_below_range(void **state)
{
    (void)state;
    static const uint32_t ns[] = {1, 2, 3, 7, 10, 1000, 65537, 0x80000001u, UINT32_MAX};
    noc_rng_t r;
    noc_rng_seed(&r, 11, 0);
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        uint32_t max = 0;
        for (int i = 0; i < 20000; i++) {
            uint32_t v = noc_rng_below(&r, ns[k]);
            assert_true(v < ns[k]);
            max = v > max ? v : max;
        }
        if (ns[k] == 1)
            assert_int_equal(max, 0);
        else if (ns[k] <= 1000)
            assert_int_equal(max, ns[k] - 1); /* the top value does come up */
        else
            assert_true(max > ns[k] / 2);
    }
}

static void test_below_uniform(void **state)
{
    (void)state;
    enum { N = 10, DRAWS = 200000 };
    noc_rng_t r;
    noc_rng_seed(&r, 2024, 9);
    long count[N] = {0};
    for (int i = 0; i < DRAWS; i++)
        count[noc_rng_below(&r, N)]++;
    double expect = DRAWS / (double)N, chi2 = 0.0;
    for (int v = 0; v < N; v++) {
        /* sd ~ 134: allow 5 sd per bucket */
        assert_true(fabs((double)count[v] - expect) < 700.0);
        chi2 += ((double)count[v] - expect) * ((double)count[v] - expect) / expect;
    }
    /* 9 degrees of freedom: P(chi2 > 30) ~ 0.0004. */
    assert_true(chi2 < 30.0);
}

static void test_unit_range_and_mean(void **state)
{
    (void)state;
    enum { DRAWS = 200000 };
    noc_rng_t r;
    noc_rng_seed(&r, 77, 1);
    double sum = 0.0;
    int low = 0;
    for (int i = 0; i < DRAWS; i++) {
        double u = noc_rng_unit(&r);
        assert_true(u >= 0.0 && u < 1.0);
        sum += u;
        low += u < 0.25;
    }
    /* mean sd ~ 0.00065, fraction sd ~ 0.00097 */
    assert_true(fabs(sum / DRAWS - 0.5) < 0.004);
    assert_true(fabs((double)low / DRAWS - 0.25) < 0.005);
}

static void test_geometric_mean(void **state)
{
    (void)state;
    static const double ps[] = {0.9, 0.5, 0.25, 0.1, 0.02};
    enum { DRAWS = 200000 };
    noc_rng_t r;
    noc_rng_seed(&r, 5, 5);
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        double p = ps[k], sum = 0.0;
        long zeros = 0;
        for (int i = 0; i < DRAWS; i++) {
            uint64_t g = noc_rng_geometric(&r, p);
            sum += (double)g;
            zeros += g == 0;
        }
        double mean = (1.0 - p) / p;
        /* sd of the sample mean is sqrt((1-p)/p^2 / DRAWS): under 0.8% of
         * the mean for these p; allow 3%. */
        assert_true(fabs(sum / DRAWS - mean) < 0.03 * mean + 0.002);
        /* P(X = 0) = p. */
        assert_true(fabs((double)zeros / DRAWS - p) < 0.006);
    }
    for (int i = 0; i < 100; i++)
        assert_true(noc_rng_geometric(&r, 1.0) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_streams_independent),
        cmocka_unit_test(test_below_range),
        cmocka_unit_test(test_below_uniform),
        cmocka_unit_test(test_unit_range_and_mean),
        cmocka_unit_test(test_geometric_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
