/* test_area_cmd.c: `noctua area` and `noctua topo SPEC --area` as a user
 * meets them, through the built binary (NOCTUA_BINARY), with the cache in
 * the scratch folder (NOCTUA_RTL_CACHE, XDG_CACHE_HOME): a small core is
 * synthesized by yosys and its counts add up (cells, NAND2 equivalents with
 * the weights of routers/rtl/area.h); the second call is a cache hit (the same
 * numbers, no synthesis, works without yosys on PATH); another arbiter is
 * another cache entry; a ring's routers sum to 4 x the 3-port core; bad
 * parameters and a missing yosys exit 2 with a message. Registered only
 * when CMake finds yosys (testbench/CMakeLists.txt). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "routers/rtl/area.h"
#include "testbench/unit/cmd_test.h"

#define CORE "P=3 V=1 DEPTH=2 FLIT_W=8"

/* The environment of every run: the caches in the scratch folder. */
static char cache_env[1200];

static int setup(void **state)
{
    if (cmd_setup(state) != 0)
        return -1;
    snprintf(cache_env, sizeof cache_env, "NOCTUA_RTL_CACHE='%s/cache' XDG_CACHE_HOME='%s/xdg'", cmd_tmpdir,
             cmd_tmpdir);
    return 0;
}

/* `[env] noctua ARGS` with the scratch caches. */
static int run_area(const char *env, const char *args, char **out, char **err)
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

static double jnum(const json_t *j, const char *key)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_number(v))
        fail_msg("no number '%s'", key);
    return json_number_value(v);
}

/* `noctua area CORE [extra]` into NAME.json; its JSON. */
static json_t *area_json(const char *env, const char *extra, const char *name, char **err_out)
{
    char args[512], *out, *err;
    snprintf(args, sizeof args, "area " CORE " %s --json %s.json", extra, name);
    int rc = run_area(env, args, &out, &err);
    if (rc != 0)
        fail_msg("noctua %s: status %d\n%s", args, rc, err);
    assert_non_null(strstr(out, "NAND2-eq"));
    assert_non_null(strstr(out, "cells"));
    free(out);
    if (err_out)
        *err_out = err;
    else
        free(err);
    char file[128];
    snprintf(file, sizeof file, "%s.json", name);
    return load_json(file);
}

static void test_area_and_cache(void **state)
{
    (void)state;
    char *err;
    json_t *a = area_json(NULL, "", "a1", &err);
    assert_non_null(strstr(err, "synthesizing noc_vc_router P=3 V=1 DEPTH=2 FLIT_W=8"));
    free(err);
    assert_false(json_is_true(json_object_get(a, "cached")));

    /* sane counts: a real core, and the sums hold */
    json_t *b = json_object_get(a, "breakdown");
    json_int_t cells = jint(a, "cells"), nand = jint(b, "nand"), inv = jint(b, "not"), ff = jint(b, "ff");
    double nand2 = jnum(a, "nand2");
    assert_true(cells > 100 && cells < 100000);
    assert_true(nand > 0 && inv > 0 && ff > 0);
    assert_int_equal(jint(b, "other"), 0);
    assert_int_equal(cells, nand + inv + ff);
    /* flip-flops: at least the FIFO storage, 3 ports x 1 VC x 2 flits x 8 bits */
    assert_true(ff >= 3 * 2 * 8);
    assert_true(fabs(nand2 - ((double)nand * NOC_AREA_W_NAND + (double)inv * NOC_AREA_W_NOT +
                              (double)ff * NOC_AREA_W_FF)) < 1e-6);
    json_t *p = json_object_get(a, "params");
    assert_int_equal(jint(p, "P"), 3);
    assert_int_equal(jint(p, "N_CLASS"), 1);
    assert_string_equal(json_string_value(json_object_get(p, "ARB")), "round_robin");

    /* the cache file is in the scratch cache and names the counts */
    const char *file = json_string_value(json_object_get(a, "cache_file"));
    assert_non_null(file);
    assert_int_equal(strncmp(file, cmd_tmpdir, strlen(cmd_tmpdir)), 0);
    char *text = cmd_slurp(file, NULL);
    assert_non_null(text);
    char want[64];
    snprintf(want, sizeof want, "\ncells %lld\n", (long long)cells);
    assert_non_null(strstr(text, want));
    free(text);

    /* the second call hits the cache: same numbers, no synthesis, and no
     * yosys needed */
    json_t *a2 = area_json("PATH=/nonexistent", "", "a2", &err);
    assert_null(strstr(err, "synthesizing"));
    free(err);
    assert_true(json_is_true(json_object_get(a2, "cached")));
    assert_int_equal(jint(a2, "cells"), cells);
    assert_true(jnum(a2, "nand2") == nand2);
    assert_string_equal(json_string_value(json_object_get(a2, "cache_file")), file);

    /* another arbiter is another core and another cache entry */
    json_t *m = area_json(NULL, "ARB=matrix", "m", NULL);
    assert_false(json_is_true(json_object_get(m, "cached")));
    assert_string_not_equal(json_string_value(json_object_get(m, "cache_file")), file);
    assert_true(jint(m, "cells") != cells);
    json_decref(m);
    json_decref(a2);
    json_decref(a);
}

static void test_topo_area(void **state)
{
    (void)state;
    json_t *core = area_json(NULL, "", "core", NULL);
    double each = jnum(core, "nand2");

    char *out, *err;
    assert_int_equal(run_area(NULL, "topo ring:4 --area V=1 DEPTH=2 FLIT_W=8 --json t.json", &out, &err), 0);
    assert_null(strstr(err, "synthesizing"));
    assert_non_null(strstr(out, "router NAND2-eq"));
    assert_non_null(strstr(out, "needs 2 VC classes"));
    free(out);
    free(err);
    json_t *t = load_json("t.json");
    json_t *a = json_object_get(json_array_get(t, 0), "area");
    assert_non_null(a);
    assert_true(fabs(jnum(a, "nand2") - 4 * each) < 1e-6);
    assert_true(fabs(jnum(a, "nand2_per_node") - each) < 1e-6);
    assert_int_equal(jint(a, "cells"), 4 * jint(core, "cells"));
    assert_int_equal(jint(a, "vc_classes_needed"), 2);
    json_t *groups = json_object_get(a, "by_ports");
    assert_int_equal(json_array_size(groups), 1);
    assert_int_equal(jint(json_array_get(groups, 0), "ports"), 3);
    assert_int_equal(jint(json_array_get(groups, 0), "routers"), 4);
    json_t *p = json_object_get(a, "params");
    assert_int_equal(jint(p, "V"), 1);
    assert_int_equal(jint(p, "N_CLASS"), 1);
    json_decref(t);
    json_decref(core);
}

static void test_bad_input(void **state)
{
    (void)state;
    static const struct { const char *args, *msg; } bad[] = {
        { "area P=0", "P=0" },
        { "area P=3 V=2 N_CLASS=3", "N_CLASS=3" },
        { "area ARB=fifo", "ARB" },
        { "area Q=1", "'Q=1'" },
        { "area DEPTH=x", "DEPTH" },
        { "area --frobnicate", "unknown option" },
        { "topo ring:4 V=1", "--area" },
        { "topo ring:4 --area P=3", "'P=3'" },
        { "topo ring:4 --area V=2 N_CLASS=3", "N_CLASS=3" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out, *err;
        int rc = run_area(NULL, bad[i].args, &out, &err);
        if (rc != 2 || !strstr(err, bad[i].msg))
            fail_msg("noctua %s: status %d, stderr: %s (expected 2 and '%s')", bad[i].args, rc, err, bad[i].msg);
        free(out);
        free(err);
    }
    /* yosys missing (an uncached core): the message names the package */
    char *out, *err;
    assert_int_equal(run_area("PATH=/nonexistent", "area P=2 V=1 DEPTH=1 FLIT_W=4", &out, &err), 2);
    assert_non_null(strstr(err, "apt-get install yosys"));
    free(out);
    free(err);
    assert_int_equal(run_area(NULL, "area --help", &out, &err), 0);
    assert_non_null(strstr(out, "NAND2"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_area_and_cache),
        cmocka_unit_test(test_topo_area),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, cmd_teardown);
}
