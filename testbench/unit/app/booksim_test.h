/* booksim_test.h: the helpers the BookSim2-file tests share (include after
 * cmocka.h): put a file in the test's directory, run noctua with --json and
 * read the report, and a number of it. */
#ifndef NOC_BOOKSIM_TEST_H
#define NOC_BOOKSIM_TEST_H
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "testbench/unit/cmd_test.h"

static inline void put(const char *name, const char *text)
{
    char path[512];
    cmd_write(name, text, path, sizeof path);
}

/* noctua ARGS --json - --quiet, which must succeed: its report. */
static inline json_t *run_json(const char *args)
{
    char cmd[1200], *out = NULL, *err = NULL;
    snprintf(cmd, sizeof cmd, "%s --json - --quiet", args);
    int rc = cmd_run(cmd, &out, &err);
    if (rc != 0)
        fail_msg("noctua %s: exit %d: %s", cmd, rc, err ? err : "");
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", je.text);
    free(out);
    free(err);
    return j;
}

/* j[a][b] (j[a] with b NULL), which must be there. */
static inline double jnum(json_t *j, const char *a, const char *b)
{
    json_t *v = json_object_get(j, a);
    if (b)
        v = json_object_get(v, b);
    assert_non_null(v);
    return json_number_value(v);
}
#endif
