/* test_config.c: reading parameter values (model/config.c): integers are
 * decimal (a leading zero is no octal) or 0x hex, 0/1 parameters take 0 or
 * 1 only, reals take what a double can hold (subnormals too) but not
 * overflow, and a string may be as long as a path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/config.h"

static noc_config_t cfg;
static char err[512];

static int set(const char *name, const char *value)
{
    return noc_config_set(&cfg, name, value, err, sizeof err);
}

static void test_integers(void **state)
{
    (void)state;
    noc_config_defaults(&cfg);
    assert_int_equal(set("packet_size", "010"), 0);
    assert_int_equal(cfg.packet_size, 10); /* not 8 */
    assert_int_equal(set("seed", "0x10"), 0);
    assert_int_equal(cfg.seed, 16);
    assert_int_equal(set("seed", "-7"), 0);
    assert_int_equal(cfg.seed, -7);
    assert_int_equal(set("seed", " 42 "), 0);
    assert_int_equal(cfg.seed, 42);
    static const char *const bad[] = { "0x", "x10", "1.5", "", "12abc", "99999999999999999999", "--1", "0b101" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (set("seed", bad[i]) == 0)
            fail_msg("seed=%s accepted as %lld", bad[i], (long long)cfg.seed);
        assert_non_null(strstr(err, "is not an integer"));
    }
}

static void test_booleans(void **state)
{
    (void)state;
    noc_config_defaults(&cfg);
    static const char *const flags[] = { "check", "lookahead", "sync_steps", "injection_rate_uses_flits",
                                         "memory_check", "self_traffic", "booksim", "node_stats",
                                         "measure_queued", "speculative", "spec_check_elig", "spec_check_cred",
                                         "spec_mask_by_reqs", "link_credits", "use_read_write", "rtl_toggles",
                                         "vc_priority_donation", "vc_prioritize_empty", "vc_busy_when_full",
                                         "vc_shuffle_requests" };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        assert_int_equal(set(flags[i], "1"), 0);
        assert_int_equal(set(flags[i], "0"), 0);
        assert_int_not_equal(set(flags[i], "5"), 0);
        assert_non_null(strstr(err, "is not 0 or 1"));
        assert_int_not_equal(set(flags[i], "-1"), 0);
        assert_int_not_equal(set(flags[i], "yes"), 0);
    }
    size_t n;
    const noc_param_info_t *p = noc_params(&n);
    int bools = 0;
    for (size_t i = 0; i < n; i++)
        bools += p[i].type == NOC_PARAM_BOOL;
    assert_int_equal(bools, 22); /* check, lookahead, sync_steps, injection_rate_uses_flits, memory_check,
                                    self_traffic, booksim, node_stats, measure_queued, wait_for_tail_credit,
                                    hold_switch_for_packet, speculative, spec_check_elig, spec_check_cred,
                                    spec_mask_by_reqs, link_credits, use_read_write, rtl_toggles,
                                    vc_priority_donation, vc_prioritize_empty, vc_busy_when_full,
                                    vc_shuffle_requests */
}

static void test_reals(void **state)
{
    (void)state;
    noc_config_defaults(&cfg);
    assert_int_equal(set("injection_rate", "1e-320"), 0); /* subnormal: a double all the same */
    assert_true(cfg.injection_rate > 0.0 && cfg.injection_rate < 1e-300);
    assert_int_equal(set("injection_rate", "1e-400"), 0); /* underflows to 0, as near as can be */
    assert_true(cfg.injection_rate == 0.0);
    assert_int_equal(set("injection_rate", "0.25"), 0);
    assert_true(cfg.injection_rate == 0.25);
    static const char *const bad[] = { "1e999", "-1e999", "inf", "nan", "", "0.5x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (set("injection_rate", bad[i]) == 0)
            fail_msg("injection_rate=%s accepted", bad[i]);
        assert_non_null(strstr(err, "is not a number"));
    }
}

static void test_strings(void **state)
{
    (void)state;
    noc_config_defaults(&cfg);
    static char path[NOC_CONFIG_STR_MAX + 1];
    memset(path, 'a', sizeof path - 1);
    memcpy(path, "graph:/", 7);
    path[4096 + 6] = '\0'; /* a path of PATH_MAX */
    assert_int_equal(set("topology_spec", path), 0);
    assert_string_equal(cfg.topology_spec, path);
    path[4096 + 6] = 'a';
    path[sizeof path - 1] = '\0';
    assert_int_not_equal(set("topology_spec", path), 0);
    assert_non_null(strstr(err, "longer than"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_booleans),
        cmocka_unit_test(test_reals),
        cmocka_unit_test(test_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
