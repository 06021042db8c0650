/* test_energy_gates.c: router_leakage=gates (docs/energy.md, "Leakage from
 * the gate count") as a user meets it, through the built binary
 * (NOCTUA_BINARY), with the caches in the scratch folder: on mesh:2 (two
 * 2-port routers) with 8-bit flits, 1 VC of 2 flits, the run synthesizes
 * the 2-port core once (yosys) and charges each router its cells, which
 * are `noctua area P=2 V=1 DEPTH=2 FLIT_W=8`'s: NAND, NOT and flip-flops,
 * the flip-flops with an enable counted from its cell kinds ($_DFFE_...).
 * A router's static power is then, from those counts and the table's
 * figures, nand x leak_nand + not x leak_not + ff x leak_ff + enables x
 * (3 leak_nand + leak_not) nW, plus its output clock, clock_output_bit x 2
 * outputs x 8 bits uW. A second run reads the cache: the same report
 * without yosys on PATH. Registered only with yosys (NOCTUA_AREA,
 * testbench/CMakeLists.txt). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "testbench/unit/cmd_test.h"

static char cache_env[1200];

static int setup(void **state)
{
    if (cmd_setup(state) != 0)
        return -1;
    snprintf(cache_env, sizeof cache_env, "NOCTUA_RTL_CACHE='%s/cache' XDG_CACHE_HOME='%s/xdg'", cmd_tmpdir,
             cmd_tmpdir);
    return 0;
}

static int run(const char *env, const char *args, char **out, char **err)
{
    char e[1400];
    snprintf(e, sizeof e, "%s %s", cache_env, env ? env : "");
    return cmd_run_bin("NOCTUA_BINARY", e, args, out, err);
}

static json_t *load_json(const char *name)
{
    char path[512];
    json_error_t jerr;
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    json_t *j = json_load_file(path, 0, &jerr);
    if (!j)
        fail_msg("%s: %s", path, jerr.text);
    return j;
}

static json_int_t jint(const json_t *j, const char *key)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_integer(v))
        fail_msg("no integer '%s'", key);
    return json_integer_value(v);
}

static double jreal(const json_t *j, const char *key)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_number(v))
        fail_msg("no number '%s'", key);
    return json_number_value(v);
}

/* 8-bit flits; leakage 3 nW a NAND, 2 a NOT, 20 a flip-flop; 0.5 uW of
 * output clock a bit; no other static power, no dynamic energy. */
static const char table[] = "name = gates8\nflit_bits = 8\nbuffer_write = 0\nbuffer_read = 0\nroute = 0\n"
                            "vc_alloc = 0\nsw_alloc = 0\ncrossbar = 0\ncredit = 0\ninject = 0\neject = 0\n"
                            "leak_buffer_bit = 0\nclock_ghz = 1\nlink_bit_mm = 0\nstatic_link_bit_mm = 0\n"
                            "pitch_mm = 1\nleak_crossbar = 0\nclock_output_bit = 0.5\nleak_nand = 3\n"
                            "leak_not = 2\nleak_ff = 20\n";

#define RUN "run mesh:2 flit_width=8 num_vcs=1 vc_buf_size=2 sample_cycles=200 warmup_cycles=20 " \
            "injection_rate=0.2 energy=gates8.txt router_leakage=gates node_stats=1"

static void test_gates_from_the_core(void **state)
{
    (void)state;
    char path[400], *out, *err;
    cmd_write("gates8.txt", table, path, sizeof path);
    assert_int_equal(run(NULL, "area P=2 V=1 DEPTH=2 FLIT_W=8 --json area.json", &out, &err), 0);
    free(out);
    free(err);
    json_t *a = load_json("area.json"), *bd = json_object_get(a, "breakdown");
    json_int_t nand = jint(bd, "nand"), inv = jint(bd, "not"), ff = jint(bd, "ff"), ffe = 0;
    const char *kind;
    json_t *n;
    json_object_foreach(json_object_get(a, "cell_kinds"), kind, n)
        if (strncmp(kind, "$_DFFE_", 7) == 0)
            ffe += json_integer_value(n);
    assert_true(nand > 0 && inv > 0 && ff > 0 && ffe > 0);
    double router_mw = 1e-6 * (3.0 * nand + 2.0 * inv + 20.0 * ff + (3 * 3.0 + 2.0) * ffe) + 0.5e-3 * 2 * 8;

    assert_int_equal(run(NULL, RUN " --json r1.json", &out, &err), 0);
    assert_non_null(strstr(out, "    gates       "));
    assert_non_null(strstr(out, "router gates"));
    free(out);
    free(err);
    json_t *r = load_json("r1.json"), *e = json_object_get(r, "energy");
    assert_string_equal(json_string_value(json_object_get(json_object_get(e, "table"), "router_leakage")), "gates");
    json_t *g = json_object_get(e, "gates");
    assert_int_equal(jint(g, "nand"), 2 * nand);
    assert_int_equal(jint(g, "not"), 2 * inv);
    assert_int_equal(jint(g, "ff"), 2 * ff);
    assert_int_equal(jint(g, "ff_enable"), 2 * ffe);
    json_t *routers = json_object_get(e, "routers");
    assert_int_equal(json_array_size(routers), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *st = json_object_get(json_array_get(routers, i), "static_mw");
        double got = jreal(st, "router");
        if (fabs(got - router_mw) > 1e-9 * router_mw)
            fail_msg("router %zu: %.9g mW, expected %.9g from the core's counts", i, got, router_mw);
        assert_true(jreal(st, "buffers") == 0);
    }
    assert_true(fabs(jreal(json_object_get(e, "static_mw"), "routers") - 2 * router_mw) <= 1e-9 * router_mw);

    /* the second run reads the cache: no yosys needed, the same figures */
    assert_int_equal(run("PATH=/nonexistent", RUN " --json r2.json", &out, &err), 0);
    free(out);
    assert_null(strstr(err, "synthesizing"));
    free(err);
    json_t *r2 = load_json("r2.json");
    assert_true(json_equal(json_object_get(r2, "energy"), e));
    json_decref(r2);
    json_decref(r);
    json_decref(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gates_from_the_core),
    };
    return cmocka_run_group_tests(tests, setup, cmd_teardown);
}
