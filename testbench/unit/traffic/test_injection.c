/* test_injection.c: the injection processes of traffic/synthetic.c against
 * their formulas. Bernoulli: the long-run rate is p. BookSim2's on-off
 * process (injection.cpp): a two-state Markov chain per node, off -> on with
 * probability alpha, on -> off with beta, a packet with probability r1 in an
 * on cycle; the stationary share of on cycles is alpha / (alpha + beta), so
 * the long-run rate is r1 alpha / (alpha + beta), and the chance of a packet
 * in the cycle after one is (1 - beta) r1 (the node stayed on). The missing
 * one of alpha, beta, r1 is derived from the rate p: alpha = beta p / (r1 -
 * p), beta = alpha (r1 - p) / p, r1 = p (alpha + beta) / alpha. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include "model/config.h"
#include "model/rng.h"
#include "topologies/topo.h"
#include "traffic/synthetic.h"

#define CYCLES 2000000

static noc_topo_t *topo;

static int setup(void **state)
{
    (void)state;
    char err[256];
    topo = noc_topo_create("mesh:2x2", 0, err, sizeof err);
    return topo ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    noc_topo_destroy(topo);
    return 0;
}

/* syn set up from key=value pairs over the defaults; 0 or -1 (err). */
static int make(noc_synthetic_t *syn, const char *const *kv, char *err, size_t len)
{
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    for (; *kv; kv += 2)
        if (noc_config_set(&cfg, kv[0], kv[1], err, len) != 0)
            fail_msg("%s", err);
    return noc_synthetic_init(syn, &cfg, topo, err, len);
}

/* Packets node 0 makes in CYCLES cycles, and how many of them came the
 * cycle after another. */
static void count(noc_synthetic_t *syn, long *packets, long *back_to_back)
{
    noc_traffic_t tr = noc_synthetic_traffic(syn);
    noc_rng_t rng;
    noc_rng_seed(&rng, 7, 0);
    *packets = *back_to_back = 0;
    uint64_t last = UINT64_MAX;
    for (uint64_t t = tr.ops->next(tr.ctx, 0, 0, &rng); t < CYCLES; t = tr.ops->next(tr.ctx, 0, t + 1, &rng)) {
        (*packets)++;
        *back_to_back += last != UINT64_MAX && t == last + 1;
        last = t;
    }
}

static void test_bernoulli_rate(void **state)
{
    (void)state;
    noc_synthetic_t syn;
    char err[256];
    const char *kv[] = { "injection_rate", "0.25", NULL };
    assert_int_equal(make(&syn, kv, err, sizeof err), 0);
    assert_null(syn.state);
    long n, b2b;
    count(&syn, &n, &b2b);
    assert_true(fabs((double)n / CYCLES - 0.25) < 0.005);
    assert_true(fabs((double)b2b / (double)n - 0.25) < 0.01); /* memoryless */
    noc_synthetic_free(&syn);
}

static void test_on_off_rate_and_bursts(void **state)
{
    (void)state;
    noc_synthetic_t syn;
    char err[256];
    /* alpha = beta = 0.1, r1 derived: 0.25 (0.1 + 0.1) / 0.1 = 0.5 */
    const char *kv[] = { "injection_rate", "0.25", "injection_process", "on_off", "burst_alpha", "0.1",
                         "burst_beta", "0.1", NULL };
    assert_int_equal(make(&syn, kv, err, sizeof err), 0);
    assert_true(fabs(syn.r1 - 0.5) < 1e-12);
    long n, b2b;
    count(&syn, &n, &b2b);
    assert_true(fabs((double)n / CYCLES - 0.25) < 0.005);             /* r1 alpha / (alpha + beta) */
    assert_true(fabs((double)b2b / (double)n - 0.9 * 0.5) < 0.01);     /* (1 - beta) r1, not 0.25 */
    noc_synthetic_free(&syn);
}

static void test_on_off_derived(void **state)
{
    (void)state;
    noc_synthetic_t syn;
    char err[256];
    const char *a[] = { "injection_rate", "0.2", "injection_process", "on_off", "burst_alpha", "-1",
                        "burst_beta", "0.3", "burst_r1", "0.8", NULL };
    assert_int_equal(make(&syn, a, err, sizeof err), 0);
    assert_true(fabs(syn.alpha - 0.3 * 0.2 / (0.8 - 0.2)) < 1e-12); /* 0.1 */
    noc_synthetic_free(&syn);
    const char *b[] = { "injection_rate", "0.2", "injection_process", "on_off", "burst_alpha", "0.4",
                        "burst_beta", "-1", "burst_r1", "0.6", NULL };
    assert_int_equal(make(&syn, b, err, sizeof err), 0);
    assert_true(fabs(syn.beta - 0.4 * (0.6 - 0.2) / 0.2) < 1e-12); /* 0.8 */
    long n, b2b;
    count(&syn, &n, &b2b);
    assert_true(fabs((double)n / CYCLES - 0.2) < 0.005);
    noc_synthetic_free(&syn);
    /* refused: two derived, none derived, a rate r1 cannot carry, the BookSim2 form with parameters */
    const char *bad[][11] = {
        { "injection_process", "on_off", "burst_alpha", "-1", "burst_beta", "-1", NULL },
        { "injection_process", "on_off", "burst_r1", "0.5", NULL },
        { "injection_rate", "0.6", "injection_process", "on_off", "burst_alpha", "-1", "burst_r1", "0.5", NULL },
        { "injection_process", "on_off(0.5,0.5,-1)", NULL },
        { "injection_process", "poisson", NULL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(make(&syn, bad[i], err, sizeof err), -1);
        assert_non_null(strstr(err, "injection_process"));
        noc_synthetic_free(&syn);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bernoulli_rate),
        cmocka_unit_test(test_on_off_rate_and_bursts),
        cmocka_unit_test(test_on_off_derived),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
