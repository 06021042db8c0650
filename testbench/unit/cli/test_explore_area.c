/* test_explore_area.c: `noctua explore --area` through the built binary
 * (NOCTUA_BINARY), with the synthesis cache in the scratch folder: a
 * 2-fabric exploration's router_area and total_area equal `noctua topo SPEC
 * --area` with the row's VCs, depth and flit width (a small core, so that
 * yosys takes seconds), and area becomes an objective of the front.
 * Registered only when CMake finds yosys (testbench/CMakeLists.txt). */
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

static json_t *load(const char *name)
{
    char path[600];
    json_error_t e;
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    return j;
}

static void run_ok(const char *args)
{
    char *out, *err;
    int rc = cmd_run_bin("NOCTUA_BINARY", cache_env, args, &out, &err);
    if (rc != 0)
        fail_msg("noctua %s: status %d\n%s", args, rc, err);
    free(out);
    free(err);
}

static void test_area_rows(void **state)
{
    (void)state;
    run_ok("explore mesh:2x2 ring:5 num_vcs=2 vc_buf_size=2 flit_width=8 --area -q -o ar");
    json_t *j = load("ar.json");
    const json_t *rows = json_object_get(j, "rows");
    const char *specs[2] = { "mesh:2x2", "ring:5" };
    int nodes[2] = { 4, 5 };
    for (size_t i = 0; i < 2; i++) {
        const json_t *r = json_array_get(rows, i);
        char args[300];
        snprintf(args, sizeof args, "topo %s --area V=2 DEPTH=2 FLIT_W=8 --json t%zu.json", specs[i], i);
        run_ok(args);
        snprintf(args, sizeof args, "t%zu.json", i);
        json_t *t = load(args);
        double want = json_real_value(json_object_get(json_object_get(json_array_get(t, 0), "area"), "nand2"));
        double total = json_real_value(json_object_get(r, "total_area"));
        double per = json_real_value(json_object_get(r, "router_area"));
        assert_true(want > 0);
        assert_true(fabs(total - want) < 0.051); /* (a row kept by --resume has the CSV's one decimal) */
        assert_true(fabs(per - want / nodes[i]) < 0.051);
        json_decref(t);
    }
    const json_t *objs = json_object_get(json_object_get(j, "objectives"), "broadcast");
    int has_area = 0;
    for (size_t k = 0; k < json_array_size(objs); k++)
        has_area |= strcmp(json_string_value(json_array_get(objs, k)), "total_area") == 0;
    assert_true(has_area);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_area_rows),
    };
    return cmocka_run_group_tests(tests, setup, cmd_teardown);
}
