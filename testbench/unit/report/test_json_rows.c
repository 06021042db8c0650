/* test_json_rows.c: a JSON report with tables written row by row
 * (noc_report_write_json_tables, report/json_write.c) is byte for byte what
 * jansson writes for the whole tree (noc_report_write_json): a table
 * first, in the middle and last, a second one, nested values, strings with escapes and
 * line breaks, reals, skipped rows and a table with no rows at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/json_internal.h"

/* Row i of the test table: every third one skipped, the others nested. */
static json_t *row(const void *ctx, size_t i)
{
    const int *skip_all = ctx;
    if (*skip_all || i % 3 == 2)
        return NULL;
    return json_pack("{s:s, s:I, s:f, s:{s:[i, i], s:{}}, s:[]}", "label", i ? "a\"b\nc" : "(0,1)", "index", (json_int_t)i,
                     "utilisation", 1.0 / (double)(i + 3), "deep", "pair", (int)i, -(int)i, "none", "empty");
}

static json_t *doc(const char *at, json_t *table, json_t *more)
{
    json_t *j = json_object();
    if (strcmp(at, "first") == 0)
        json_object_set_new(j, "links", table);
    json_object_set_new(j, "noctua", json_string("0.1.0"));
    json_object_set_new(j, "phases", json_pack("{s:I, s:[f, f]}", "warmup", (json_int_t)50, "x", 0.5, 1e-7));
    if (strcmp(at, "middle") == 0)
        json_object_set_new(j, "links", table);
    json_object_set_new(j, "saturated", json_false());
    json_object_set_new(j, "more", more);
    json_object_set_new(j, "nothing", json_null());
    if (strcmp(at, "last") == 0)
        json_object_set_new(j, "links", table);
    return j;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1 << 16, 1);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void same(const char *at, size_t n, int skip_all)
{
    char err[256], a[] = "/tmp/noctua-json-rows-XXXXXX", b[] = "/tmp/noctua-json-rows-XXXXXX";
    int fa = mkstemp(a), fb = mkstemp(b);
    assert_true(fa >= 0 && fb >= 0);
    close(fa);
    close(fb);
    json_t *table = json_array(), *more = json_array();
    int none = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *r = row(&skip_all, i);
        if (r)
            json_array_append_new(table, r);
    }
    for (size_t i = 0; i < 4; i++) {
        json_t *r = row(&none, i);
        if (r)
            json_array_append_new(more, r);
    }
    assert_int_equal(noc_report_write_json(doc(at, table, more), a, err, sizeof err), 0);
    /* (a table whose key j lacks is not written) */
    const noc_json_table_t tabs[] = { { "links", n, row, &skip_all }, { "absent", 3, row, &none },
                                      { "more", 4, row, &none } };
    assert_int_equal(noc_report_write_json_tables(doc(at, json_array(), json_array()), tabs, 3, b, err, sizeof err), 0);
    char *x = slurp(a), *y = slurp(b);
    if (strcmp(x, y) != 0)
        fail_msg("table %s, %zu rows: whole tree\n%s\nrow by row\n%s", at, n, x, y);
    free(x);
    free(y);
    unlink(a);
    unlink(b);
}

static void test_same_bytes(void **state)
{
    (void)state;
    const char *at[] = { "first", "middle", "last" };
    for (int k = 0; k < 3; k++) {
        same(at[k], 7, 0);
        same(at[k], 1, 0);
        same(at[k], 0, 0);
        same(at[k], 5, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
