/* test_bench_smoke.c: noctua_bench runs and reports. `--quick --only 1`
 * exits 0 and prints a table whose cycles/s figure is positive; --json writes
 * the same figures as JSON; bad usage exits 2. No timing thresholds: machines
 * are noisy, and a missed target is a measurement, not a failure. */
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

#include "testbench/unit/cmd_test.h"
#include <jansson.h>

/* Split line into at most max whitespace-separated tokens (modifies it). */
static int tokens(char *line, char **tok, int max)
{
    int n = 0;
    for (char *p = strtok(line, " \t"); p && n < max; p = strtok(NULL, " \t"))
        tok[n++] = p;
    return n;
}

/* The cycles/s column of the row of workload `id` in the table, or -1. */
static double table_cycles_per_sec(const char *text, int id)
{
    char *copy = strdup(text);
    assert_non_null(copy);
    int col = -1;
    double v = -1;
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char buf[512], *tok[32];
        snprintf(buf, sizeof buf, "%s", line);
        int n = tokens(buf, tok, 32);
        if (n > 0 && strcmp(tok[0], "#") == 0) {
            for (int i = 0; i < n; i++)
                if (strcmp(tok[i], "cycles/s") == 0)
                    col = i;
        } else if (col >= 0 && n > col && atoi(tok[0]) == id) {
            char *end;
            v = strtod(tok[col], &end);
            if (*end != '\0')
                v = -1;
            break;
        }
    }
    free(copy);
    return v;
}

static void test_quick_table(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--quick --only 1", &out, NULL), 0);
    assert_non_null(strstr(out, "cycles/s"));
    assert_non_null(strstr(out, "mesh:8x8"));
    double cps = table_cycles_per_sec(out, 1);
    assert_true(cps > 0);
    /* --only 1 runs workload 1 alone */
    assert_true(table_cycles_per_sec(out, 2) < 0);
    free(out);
}

/* --fabric: one workload on any fabric, with the VCs its routing needs */
static void test_any_fabric(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--fabric bsn:ring:4 --rate 0.1 --packet-size 2 --quick", &out, NULL), 0);
    assert_non_null(strstr(out, "bsn:ring:4"));
    assert_true(table_cycles_per_sec(out, 1) > 0);
    free(out);
    out = NULL;
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--fabric blob:3 --quick", &out, NULL), 1); /* the workload fails */
    free(out);
    out = NULL;
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--fabric ring:8 --rate -1", &out, NULL), 2);
    free(out);
}

static void test_quick_json(void **state)
{
    (void)state;
    char args[512], path[300];
    snprintf(path, sizeof path, "%s/bench.json", cmd_tmpdir);
    snprintf(args, sizeof args, "--quick --only 2 --json %s", path);
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, args, NULL, NULL), 0);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    assert_non_null(root);
    assert_true(json_is_true(json_object_get(root, "quick")));
    json_t *rows = json_object_get(root, "workloads");
    assert_int_equal(json_array_size(rows), 1);
    json_t *w = json_array_get(rows, 0);
    assert_int_equal(json_integer_value(json_object_get(w, "id")), 2);
    assert_string_equal(json_string_value(json_object_get(w, "status")), "ok");
    assert_int_equal(json_integer_value(json_object_get(w, "nodes")), 64);
    assert_true(json_integer_value(json_object_get(w, "cycles")) > 0);
    assert_true(json_real_value(json_object_get(w, "cycles_per_sec")) > 0);
    assert_true(json_real_value(json_object_get(w, "flit_hops_per_sec")) > 0);
    assert_true(json_real_value(json_object_get(w, "peak_rss_mb")) > 0);
    /* workload 2 carries a target; whether it passes depends on the machine */
    json_t *t = json_object_get(w, "target");
    assert_non_null(t);
    assert_true(json_is_boolean(json_object_get(t, "pass")));
    assert_int_equal(json_integer_value(json_object_get(root, "targets")), 1);
    json_decref(root);
}

static void test_usage(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--help", &out, NULL), 0);
    assert_non_null(strstr(out, "--quick"));
    free(out);
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--list", &out, NULL), 0);
    assert_non_null(strstr(out, "mesh:64x64"));
    free(out);
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--only 99", NULL, NULL), 2);
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--only", NULL, NULL), 2);
    assert_int_equal(cmd_run_bin("NOCTUA_BENCH", NULL, "--bogus", NULL, NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quick_table),
        cmocka_unit_test(test_any_fabric),
        cmocka_unit_test(test_quick_json),
        cmocka_unit_test(test_usage),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
