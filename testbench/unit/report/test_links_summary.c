/* test_links_summary.c: the --json report's channel tables summarised
 * (json_tables, report/links_summary.c). The pieces by hand: the k highest
 * keys of a stream with ties, a utilisation's tenth, the auto limit. Then
 * whole runs: a summary's rows, idle count, tenths and busiest rows are what
 * the full table of the same run gives when counted and sorted here (run
 * reports, local channels and a program's per-step links); auto lists
 * every row on a small fabric and summarises one over the limit, with a
 * note; a bad value is refused by name. */
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
#include "report/links_summary.h"

static void test_top_by_hand(void **state)
{
    (void)state;
    noc_top_t t;
    const uint64_t keys[] = { 5, 9, 9, 1, 7, 9 };
    noc_top_init(&t, 3);
    for (size_t i = 0; i < 6; i++)
        noc_top_add(&t, i, keys[i]);
    /* the three 9s, in the order they came */
    assert_int_equal(t.n, 3);
    assert_int_equal(t.id[0], 1);
    assert_int_equal(t.id[1], 2);
    assert_int_equal(t.id[2], 5);
    noc_top_init(&t, 5);
    for (size_t i = 0; i < 6; i++)
        noc_top_add(&t, i, keys[i]);
    const size_t want[] = { 1, 2, 5, 4, 0 };
    assert_int_equal(t.n, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(t.id[i], want[i]);
        assert_int_equal(t.key[i], keys[want[i]]);
    }
    /* fewer entries than k: all of them, highest first; k = 0: none */
    noc_top_init(&t, 16);
    noc_top_add(&t, 7, 0);
    noc_top_add(&t, 8, 3);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.id[0], 8);
    assert_int_equal(t.id[1], 7);
    noc_top_init(&t, 0);
    noc_top_add(&t, 1, 1);
    assert_int_equal(t.n, 0);
}

static void test_tenths_and_limit(void **state)
{
    (void)state;
    assert_int_equal(noc_util_tenth(0, 100.0), 0);
    assert_int_equal(noc_util_tenth(9, 100.0), 0);
    assert_int_equal(noc_util_tenth(10, 100.0), 1);
    assert_int_equal(noc_util_tenth(1, 3.0), 3);
    assert_int_equal(noc_util_tenth(99, 100.0), 9);
    assert_int_equal(noc_util_tenth(100, 100.0), 9);
    assert_int_equal(noc_json_tables_full("auto", 131072), 1);
    assert_int_equal(noc_json_tables_full("auto", 131073), 0);
    assert_int_equal(noc_json_tables_full("full", 10000000), 1);
    assert_int_equal(noc_json_tables_full("summary", 1), 0);
}

static json_t *run_json(const char *args)
{
    char cmd[1024], *out = NULL;
    snprintf(cmd, sizeof cmd, "run %s --json - --quiet", args);
    assert_int_equal(cmd_run(cmd, &out, NULL), 0);
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    free(out);
    assert_non_null(j);
    return j;
}

static const char *sort_key = "busy";
static double key(json_t *row) { return json_number_value(json_object_get(row, sort_key)); }

/* sum: a summary ({rows, idle?, utilisation?, hottest}); rows: the full
 * table of the same run. Both counted and sorted here. */
static void same_as_table(json_t *sum, json_t *rows, int tenths)
{
    size_t n = json_array_size(rows);
    assert_non_null(sum);
    assert_int_equal(json_integer_value(json_object_get(sum, "rows")), n);
    json_t **sorted = calloc(n + 1, sizeof *sorted);
    uint64_t bins[10] = { 0 }, idle = 0;
    for (size_t i = 0; i < n; i++) {
        sorted[i] = json_array_get(rows, i);
        idle += json_integer_value(json_object_get(sorted[i], "flits")) == 0;
        int b = (int)(json_real_value(json_object_get(sorted[i], "utilisation")) * 10.0);
        bins[b > 9 ? 9 : b]++;
    }
    /* busiest first, ties in the table's order (an insertion sort is stable) */
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && key(sorted[k - 1]) < key(sorted[k]); k--) {
            json_t *t = sorted[k];
            sorted[k] = sorted[k - 1];
            sorted[k - 1] = t;
        }
    json_t *hot = json_object_get(sum, "hottest");
    size_t want = n < NOC_JSON_HOTTEST ? n : NOC_JSON_HOTTEST;
    assert_int_equal(json_array_size(hot), want);
    for (size_t i = 0; i < want; i++)
        assert_true(json_equal(json_array_get(hot, i), sorted[i]));
    if (tenths) {
        assert_int_equal(json_integer_value(json_object_get(sum, "idle")), idle);
        json_t *u = json_object_get(sum, "utilisation");
        assert_int_equal(json_array_size(u), 10);
        for (size_t b = 0; b < 10; b++)
            assert_int_equal(json_integer_value(json_object_get(json_array_get(u, b), "count")), bins[b]);
    }
    free(sorted);
}

static void run_summary(const char *args, size_t links, size_t locals)
{
    char a[512];
    snprintf(a, sizeof a, "%s json_tables=full", args);
    json_t *full = run_json(a);
    snprintf(a, sizeof a, "%s json_tables=summary", args);
    json_t *sum = run_json(a);
    assert_null(json_object_get(sum, "links"));
    assert_null(json_object_get(sum, "local_channels"));
    assert_string_equal(json_string_value(json_object_get(sum, "json_tables")), "summary");
    assert_null(json_object_get(full, "json_tables"));
    assert_int_equal(json_array_size(json_object_get(full, "links")), links);
    assert_int_equal(json_array_size(json_object_get(full, "local_channels")), locals);
    same_as_table(json_object_get(sum, "links_summary"), json_object_get(full, "links"), 1);
    same_as_table(json_object_get(sum, "local_channels_summary"), json_object_get(full, "local_channels"), 1);
    /* the rest of the report is the same */
    assert_true(json_equal(json_object_get(sum, "classes"), json_object_get(full, "classes")));
    assert_true(json_equal(json_object_get(sum, "latency"), json_object_get(full, "latency")));
    json_decref(full);
    json_decref(sum);
}

static void test_run_summary(void **state)
{
    (void)state;
    /* 31 links each way of a 5x4 mesh: more rows than the 16 busiest; 20 injection and 20 ejection channels */
    run_summary("mesh:5x4 injection_rate=0.25 traffic=tornado sample_cycles=400 warmup_cycles=50", 62, 40);
    /* a butterfly's routers of the middle stage have ejection ports that
     * eject nowhere: not rows of local_channels (8 terminals, 8 x 2 rows) */
    run_summary("fly:2:3 injection_rate=0.3 sample_cycles=400 warmup_cycles=50", 32, 16);
}

static void test_program_steps(void **state)
{
    (void)state;
    json_t *full = run_json("torus:4x4 --program alltoall json_tables=full");
    json_t *sum = run_json("torus:4x4 --program alltoall json_tables=summary");
    same_as_table(json_object_get(sum, "links_summary"), json_object_get(full, "links"), 1);
    json_t *fs = json_object_get(full, "steps"), *ss = json_object_get(sum, "steps");
    assert_true(json_array_size(fs) > 0);
    assert_int_equal(json_array_size(fs), json_array_size(ss));
    for (size_t k = 0; k < json_array_size(fs); k++) {
        json_t *rows = json_object_get(json_array_get(fs, k), "links");
        assert_true(json_array_size(rows) > NOC_JSON_HOTTEST);
        same_as_table(json_object_get(json_array_get(ss, k), "links_summary"), rows, 0);
    }
    json_decref(full);
    json_decref(sum);
}

/* energy.links: the 16 of most energy (total_pj); draw --load says why it
 * cannot draw a summarised report */
static void test_energy_and_draw(void **state)
{
    (void)state;
    const char *args = "mesh:5x4 injection_rate=0.25 traffic=tornado sample_cycles=400 energy=default";
    char a[512], *err = NULL;
    snprintf(a, sizeof a, "%s json_tables=full", args);
    json_t *full = run_json(a);
    snprintf(a, sizeof a, "%s json_tables=summary", args);
    json_t *sum = run_json(a);
    sort_key = "total_pj";
    same_as_table(json_object_get(json_object_get(sum, "energy"), "links_summary"),
                  json_object_get(json_object_get(full, "energy"), "links"), 0);
    sort_key = "busy";
    assert_null(json_object_get(json_object_get(sum, "energy"), "links"));
    json_decref(full);
    json_decref(sum);
    snprintf(a, sizeof a, "run mesh:4x4 injection_rate=0.2 json_tables=summary --json s.json --quiet");
    assert_int_equal(cmd_run(a, NULL, NULL), 0);
    assert_int_equal(cmd_run("draw mesh:4x4 --load s.json -o s.svg", NULL, &err), 2);
    assert_non_null(strstr(err, "json_tables=full"));
    free(err);
}

static void test_auto_and_refusal(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    /* 150x150: 89,400 links, 22,500 injection and ejection channels each: 134,400 */
    assert_int_equal(cmd_run("run mesh:150x150 injection_rate=0 sample_cycles=5 warmup_cycles=0 --json - --quiet",
                             &out, &err), 0);
    json_t *j = json_loads(out, 0, NULL);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "links_summary"), "rows")), 89400);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "links_summary"), "idle")), 89400);
    assert_null(json_object_get(j, "links"));
    assert_non_null(strstr(err, "summarises the 134400 channels"));
    json_decref(j);
    free(out);
    free(err);
    j = run_json("mesh:3x3 injection_rate=0.1 sample_cycles=100");
    assert_int_equal(json_array_size(json_object_get(j, "links")), 24);
    json_decref(j);
    assert_int_equal(cmd_run("run mesh:3x3 json_tables=some --quiet", NULL, &err), 2);
    assert_non_null(strstr(err, "json_tables"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_by_hand),
        cmocka_unit_test(test_tenths_and_limit),
        cmocka_unit_test(test_run_summary),
        cmocka_unit_test(test_program_steps),
        cmocka_unit_test(test_energy_and_draw),
        cmocka_unit_test(test_auto_and_refusal),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
