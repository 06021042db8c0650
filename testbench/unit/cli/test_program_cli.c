/* test_program_cli.c: program runs as a user meets them: `noctua run SPEC
 * --program NAME` with its report and JSON (cycles, result, steps, links),
 * --emit and --program-file giving the same run back, GOAL files from
 * elsewhere, a wrong result (exit 1, naming the PE), a malformed program
 * (exit 2 with its line), a receive nothing matches (exit 3, never a hang),
 * and the help texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>

#include "testbench/unit/cmd_test.h"

static json_t *load_json(const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    return j;
}

static void test_broadcast_report(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("run ring:8 --program broadcast --timing unit --sync steps", &out, &err), 0);
    assert_non_null(strstr(out, "result        ok"));
    assert_non_null(strstr(out, "cycles        4\n")); /* the ring's radius: 4 hops */
    assert_non_null(strstr(out, "dim0"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("run hypercube:4 --program broadcast --timing unit --json b.json", NULL, NULL), 0);
    json_t *j = load_json("b.json");
    assert_int_equal(json_integer_value(json_object_get(j, "cycles")), 4);
    assert_string_equal(json_string_value(json_object_get(j, "result")), "ok");
    json_t *steps = json_object_get(j, "steps");
    assert_int_equal(json_array_size(steps), 4);
    assert_string_equal(json_string_value(json_object_get(json_array_get(steps, 2), "name")), "dim2");
    assert_true(json_is_integer(json_object_get(json_array_get(steps, 2), "cycles")));
    json_t *links = json_object_get(j, "links");
    assert_int_equal(json_array_size(links), 64);
    long flits = 0;
    for (size_t i = 0; i < json_array_size(links); i++)
        flits += (long)json_integer_value(json_object_get(json_array_get(links, i), "flits"));
    assert_int_equal(flits, 15); /* one word to each of the 15 other PEs, one hop each */
    json_decref(j);
    /* --sync both: the barrier run's counts beside the overlapping run's */
    assert_int_equal(cmd_run("run mesh:4x4 --program data-sum --timing unit --sync both --json c.json", NULL, NULL), 0);
    j = load_json("c.json");
    json_int_t plain = json_integer_value(json_object_get(j, "cycles"));
    json_int_t synced = json_integer_value(json_object_get(j, "cycles_synced"));
    assert_true(synced >= plain && plain > 0);
    steps = json_object_get(j, "steps");
    for (size_t i = 0; i < json_array_size(steps); i++)
        assert_true(json_is_integer(json_object_get(json_array_get(steps, i), "cycles_synced")));
    json_decref(j);
}

/* --emit writes the program; reading it back runs the same cycles. */
static void test_emit_and_rerun(void **state)
{
    (void)state;
    assert_int_equal(cmd_run("run torus:4x4 --program data-sum --words 2 --emit sum.goal --json a.json", NULL, NULL), 0);
    assert_int_equal(cmd_run("run torus:4x4 --program-file sum.goal --json b.json", NULL, NULL), 0);
    json_t *a = load_json("a.json"), *b = load_json("b.json");
    assert_int_equal(json_integer_value(json_object_get(a, "cycles")),
                     json_integer_value(json_object_get(b, "cycles")));
    assert_string_equal(json_string_value(json_object_get(b, "result")), "ok");
    assert_true(json_equal(json_object_get(a, "steps"), json_object_get(b, "steps")));
    json_decref(a);
    json_decref(b);
    /* --emit-only writes without running; '-' is stdout */
    char *out;
    assert_int_equal(cmd_run("run mesh:2x2 --program broadcast --emit - --emit-only", &out, NULL), 0);
    assert_non_null(strstr(out, "num_ranks 4\n"));
    assert_null(strstr(out, "result"));
    free(out);
}

/* A plain GOAL schedule (no data) runs; a wrong expectation fails with 1. */
static void test_goal_and_wrong_result(void **state)
{
    (void)state;
    char path[700], args[900];
    cmd_write("tree.goal",
              "num_ranks 4\n"
              "rank 0 {\nl1: send 8b to 1 tag 0\nl2: send 8b to 2 tag 0\n}\n"
              "rank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 3 tag 0\nl2 requires l1\n}\n"
              "rank 2 {\nl1: recv 8b from 0 tag 0\n}\n"
              "rank 3 {\nl1: recv 8b from 1 tag 0\n}\n",
              path, sizeof path);
    snprintf(args, sizeof args, "run ring:4 --program-file %s --timing unit --json g.json", path);
    assert_int_equal(cmd_run(args, NULL, NULL), 0);
    json_t *j = load_json("g.json");
    /* rank 0's two words both leave by link 0->1 (0 -> 2 goes that way
     * round), and that link's injection lane sends them in order: 0 -> 1
     * arrives in cycle 1, 0 -> 2 in cycle 3; 1 -> 3 (the other way round,
     * two hops) in cycle 3 */
    assert_int_equal(json_integer_value(json_object_get(j, "cycles")), 3);
    /* no expect values: nothing was checked, and the report says so */
    assert_string_equal(json_string_value(json_object_get(j, "result")), "ok");
    assert_int_equal(json_integer_value(json_object_get(j, "values_checked")), 0);
    json_decref(j);
    char *plain;
    snprintf(args, sizeof args, "run ring:4 --program-file %s --timing unit", path);
    assert_int_equal(cmd_run(args, &plain, NULL), 0);
    assert_non_null(strstr(plain, "result        not data-checked"));
    assert_null(strstr(plain, "values checked"));
    free(plain);
    /* a generator's program is checked value by value */
    assert_int_equal(cmd_run("run ring:4 --program broadcast --words 3 --json b.json", NULL, NULL), 0);
    j = load_json("b.json");
    assert_int_equal(json_integer_value(json_object_get(j, "values_checked")), 4 * 3);
    json_decref(j);

    cmd_write("wrong.goal",
              "num_ranks 2\nrank 0 {\n init 0 5\n send 1w to 1 addr 0\n}\n"
              "rank 1 {\n recv 1w from 0 addr 0\n expect 0 6\n}\n",
              path, sizeof path);
    char *out, *err;
    snprintf(args, sizeof args, "run ring:4 --program-file %s", path);
    assert_int_equal(cmd_run(args, &out, &err), 1);
    assert_non_null(strstr(out, "result        wrong"));
    assert_non_null(strstr(err, "PE (1)"));
    assert_non_null(strstr(err, "expected 6"));
    free(out);
    free(err);
}

/* --timing loggp: LogGOPSim's model with its default parameters (L 2500,
 * o 1500, g 1000, G 6), worked by hand on a tree: rank 0 sends 8 bytes to
 * 1 at 0 and to 2 at 1500 (its CPU busy o); rank 1 takes its message at
 * 0 + o + L = 4000, is busy until 4000 + o + 7 G = 5542 and forwards to 3,
 * whose message arrives at 5542 + 4000 and ends at 9542 + 1542 = 11084;
 * rank 2 ends at 5500 + 1542. L = 100 shortens the two-hop chain by
 * 2 x 2400. What needs a network is refused by name. */
static void test_loggp(void **state)
{
    (void)state;
    char path[700], args[900], *out, *err;
    cmd_write("tree_lgp.goal",
              "num_ranks 4\n"
              "rank 0 {\nl1: send 8b to 1 tag 0\nl2: send 8b to 2 tag 0\n}\n"
              "rank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 3 tag 0\nl2 requires l1\n}\n"
              "rank 2 {\nl1: recv 8b from 0 tag 0\n}\n"
              "rank 3 {\nl1: recv 8b from 1 tag 0\n}\n",
              path, sizeof path);
    snprintf(args, sizeof args, "run ring:4 --program-file %s --timing loggp --json l.json", path);
    assert_int_equal(cmd_run(args, NULL, NULL), 0);
    json_t *j = load_json("l.json");
    assert_string_equal(json_string_value(json_object_get(j, "timing")), "loggp");
    assert_int_equal(json_integer_value(json_object_get(j, "finish")), 11084);
    assert_int_equal(json_integer_value(json_object_get(j, "finish_rank")), 3);
    json_t *rf = json_object_get(j, "rank_finish");
    static const int want[4] = { 3000, 7042, 7042, 11084 };
    for (int r = 0; r < 4; r++)
        assert_int_equal(json_integer_value(json_array_get(rf, (size_t)r)), want[r]);
    assert_int_equal(json_integer_value(json_object_get(j, "eager")), 3);
    json_decref(j);
    snprintf(args, sizeof args, "run ring:4 --program-file %s --timing loggp loggp_L=100", path);
    assert_int_equal(cmd_run(args, &out, NULL), 0);
    assert_non_null(strstr(out, "finish        6284 time units, at rank 3"));
    assert_non_null(strstr(out, "L=100 o=1500 g=1000 G=6 O=0 S=65535"));
    free(out);
    /* a generator's data, checked under the model too */
    assert_int_equal(cmd_run("run hypercube:3 --program prefix-sum --timing loggp", &out, NULL), 0);
    assert_non_null(strstr(out, "result        ok: 8 values checked"));
    free(out);
    static const char *const refused[][2] = {
        { "--sync steps", "--sync steps" }, { "--waves w.fst", "--waves" }, { "--csv c.csv", "--csv" },
        { "loggp_G=-1", "loggp_G" },
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        snprintf(args, sizeof args, "run ring:4 --program-file %s --timing loggp %s", path, refused[k][0]);
        assert_int_equal(cmd_run(args, NULL, &err), 2);
        if (!strstr(err, refused[k][1]))
            fail_msg("%s: %s", refused[k][0], err);
        free(err);
    }
}

/* A program's fabric is built with the routing asked for: routing that
 * draws or adapts is refused by name, an unknown one or one for another
 * fabric too (they once ran dimension order silently). */
static void test_program_routing(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "run mesh:4x4 routing_function=valiant --program broadcast", "routes every packet its own random way" },
        { "run mesh:4x4 routing_function=xy_yx --program broadcast", "routes every packet its own random way" },
        { "run torus:4x4 routing_function=xy_yx --program broadcast", "xy_yx is built for meshes" },
        { "run mesh:4x4 routing_function=bogus --program broadcast", "unknown routing 'bogus'" },
        { "run mesh:4x4 routing_function=min_adapt va_in_pointer=router --program broadcast",
          "runs it for synthetic traffic only" },
        { "run mesh:4x4 num_vcs=4 use_read_write=1 --program broadcast", "request/reply traffic is synthetic" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err = NULL;
        assert_int_equal(cmd_run(cases[i][0], NULL, &err), 2);
        if (!strstr(err, cases[i][1]))
            fail_msg("%s: expected '%s' in: %s", cases[i][0], cases[i][1], err);
        free(err);
    }
}

static void test_bad_programs(void **state)
{
    (void)state;
    char path[700], args[900], *out, *err;
    cmd_write("bad.goal", "num_ranks 2\nrank 0 {\n l1: send 1w to 1\n l1 requires l9\n}\n", path, sizeof path);
    snprintf(args, sizeof args, "run ring:4 --program-file %s", path);
    assert_int_equal(cmd_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "bad.goal:4:"));
    free(out);
    free(err);
    /* a send to a rank the fabric lacks */
    cmd_write("big.goal", "num_ranks 9\nrank 0 {\n send 1w to 8\n}\nrank 8 {\n recv 1w from 0\n}\n",
              path, sizeof path);
    snprintf(args, sizeof args, "run ring:4 --program-file %s", path);
    assert_int_equal(cmd_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "9 ranks"));
    free(out);
    free(err);
    /* a receive nothing matches: reported, exit 3 */
    cmd_write("stall.goal", "num_ranks 2\nrank 1 {\n recv 1w from 0 tag 4\n}\n", path, sizeof path);
    snprintf(args, sizeof args, "run ring:4 --program-file %s deadlock_cycles=100", path);
    assert_int_equal(cmd_run(args, &out, &err), 3);
    assert_non_null(strstr(err, "STALLED"));
    assert_non_null(strstr(err, "waits for its message"));
    free(out);
    free(err);
    /* unknown program, unknown variant, --root that names no node */
    assert_int_equal(cmd_run("run ring:4 --program nonesuch", NULL, &err), 2);
    assert_non_null(strstr(err, "broadcast"));
    free(err);
    assert_int_equal(cmd_run("run ring:4 --program broadcast --variant spiral", NULL, &err), 2);
    assert_non_null(strstr(err, "tree"));
    free(err);
    assert_int_equal(cmd_run("run ring:4 --program broadcast --root 9", NULL, &err), 2);
    assert_non_null(strstr(err, "--root"));
    free(err);
    assert_int_equal(cmd_run("run ring:4 --emit x.goal", NULL, &err), 2);
    free(err);
}

/* noctua validate: every case agrees with its formula, and docs/validation.md
 * holds the table the command prints now. */
static void test_validate(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("validate --markdown", &out, NULL), 0);
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    assert_non_null(src);
    char path[700];
    snprintf(path, sizeof path, "%s/docs/validation.md", src);
    char *doc = cmd_slurp(path, NULL);
    assert_non_null(doc);
    const char *begin = strstr(doc, "<!-- validate:begin -->\n"), *end = strstr(doc, "<!-- validate:end -->");
    assert_non_null(begin);
    assert_non_null(end);
    begin += strlen("<!-- validate:begin -->\n");
    if (strlen(out) != (size_t)(end - begin) || strncmp(out, begin, strlen(out)) != 0)
        fail_msg("docs/validation.md is stale: put the output of `build/noctua validate --markdown` between its markers");
    free(doc);
    free(out);
}

static void test_help(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("run --program broadcast --help", &out, NULL), 0);
    assert_non_null(strstr(out, "--root"));
    assert_non_null(strstr(out, "variants"));
    free(out);
    assert_int_equal(cmd_run("run --program list --help", &out, NULL), 0);
    assert_non_null(strstr(out, "data-sum"));
    free(out);
    assert_int_equal(cmd_run("run --help", &out, NULL), 0);
    assert_non_null(strstr(out, "--program-file"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast_report),
        cmocka_unit_test(test_emit_and_rerun),
        cmocka_unit_test(test_goal_and_wrong_result),
        cmocka_unit_test(test_loggp), cmocka_unit_test(test_bad_programs),
        cmocka_unit_test(test_program_routing),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
