/* test_program_report.c: two figures of a program run's report worked
 * out by hand: utilisation (busy cycles over the cycles of the interval a
 * table covers: the run's for the run's tables, the step's for a step's
 * links) and the critical chain (elements that tile cycle 0 to the
 * finishing cycle, each with why it started when it did), on tiny
 * programs under unit timing, and the chain's sum on collectives over
 * several fabrics, timings and sync modes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>

#include "testbench/unit/cmd_test.h"

static json_t *run_json(const char *args)
{
    char cmd[1200], path[700];
    snprintf(cmd, sizeof cmd, "run %s --json r.json", args);
    int rc = cmd_run(cmd, NULL, NULL);
    if (rc != 0)
        fail_msg("'%s' exited %d", cmd, rc);
    snprintf(path, sizeof path, "%s/r.json", cmd_tmpdir);
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    return j;
}

/* (cmocka 1.1.5 has no assert_double_equal) */
static void near(double got, double want, double eps)
{
    if (!(got >= want - eps && got <= want + eps))
        fail_msg("%.12g, expected %.12g", got, want);
}

static json_int_t num(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("'%s' is not an integer", key);
    return json_integer_value(v);
}

/* The link from -> to of a links[] array, or NULL. */
static json_t *link_of(json_t *links, const char *from, const char *to)
{
    size_t i;
    json_t *l;
    json_array_foreach(links, i, l) {
        if (strcmp(json_string_value(json_object_get(l, "from")), from) == 0 &&
            strcmp(json_string_value(json_object_get(l, "to")), to) == 0)
            return l;
    }
    return NULL;
}

/* Every utilisation is busy over its table's cycles: the run's (the report's
 * `cycles`) for links[], the step's `cycles` for a step's links. */
static void check_denominators(json_t *j)
{
    json_int_t T = num(j, "cycles");
    assert_int_equal(num(j, "utilisation_cycles"), T);
    size_t i, k;
    json_t *l, *st;
    json_array_foreach(json_object_get(j, "links"), i, l) {
        double want = (double)num(l, "busy") / (double)T;
        near(json_real_value(json_object_get(l, "utilisation")), want, 1e-9);
    }
    json_array_foreach(json_object_get(j, "steps"), k, st) {
        json_int_t c = num(st, "cycles");
        json_array_foreach(json_object_get(st, "links"), i, l) {
            double want = c ? (double)num(l, "busy") / (double)c : 0.0;
            near(json_real_value(json_object_get(l, "utilisation")), want, 1e-9);
        }
    }
}

/* Rank 0 sends 15 words to its neighbour (step s1); rank 1, once they
 * are in, sends 5 back (step s2). Unit timing: a W-word message to a
 * neighbour sent in cycle t is in at t + W, so the first is in at 15, the
 * second leaves at 15 and is in at 20 (rank 0 posts its receive when its
 * send is done: 14, its turn in 15). Link (0)->(1) is busy 15 cycles,
 * every cycle of s1 (0..15): 1.0 in s1's table, 15/20 in the run's;
 * (1)->(0) busy 5, every cycle of s2 (15..20): 1.0 there, 5/20 in the run's. */
static const char util_goal[] = "num_ranks 2\n"
                                "rank 0 {\n step s1\n a: send 15w to 1 tag 1\n"
                                " step s2\n b: recv 5w from 1 tag 2\n b requires a\n}\n"
                                "rank 1 {\n step s1\n a: recv 15w from 0 tag 1\n"
                                " step s2\n b: send 5w to 0 tag 2\n b requires a\n}\n";

static void test_utilisation_one_window(void **state)
{
    (void)state;
    char path[700], args[900];
    cmd_write("util.goal", util_goal, path, sizeof path);
    snprintf(args, sizeof args, "ring:3 --program-file %s --timing unit", path);
    json_t *j = run_json(args);
    assert_int_equal(num(j, "cycles"), 20);
    json_t *links = json_object_get(j, "links");
    near(json_real_value(json_object_get(link_of(links, "(0)", "(1)"), "utilisation")), 0.75, 1e-9);
    near(json_real_value(json_object_get(link_of(links, "(1)", "(0)"), "utilisation")), 0.25, 1e-9);
    json_t *steps = json_object_get(j, "steps");
    json_t *s1 = json_array_get(steps, 0), *s2 = json_array_get(steps, 1);
    assert_int_equal(num(s1, "cycles"), 15);
    assert_int_equal(num(s2, "cycles"), 5);
    json_t *l1 = link_of(json_object_get(s1, "links"), "(0)", "(1)");
    json_t *l2 = link_of(json_object_get(s2, "links"), "(1)", "(0)");
    assert_int_equal(num(l1, "busy"), 15);
    assert_int_equal(num(l2, "busy"), 5);
    assert_true(json_real_value(json_object_get(l1, "utilisation")) == 1.0); /* exactly */
    assert_true(json_real_value(json_object_get(l2, "utilisation")) == 1.0);
    /* the classes' mean: 20 busy cycles over the ring's 6 channels and 20 cycles */
    json_t *cl = json_array_get(json_object_get(j, "classes"), 0);
    near(json_real_value(json_object_get(cl, "utilisation_avg")), 20.0 / (6.0 * 20.0), 1e-9);
    near(json_real_value(json_object_get(cl, "utilisation_max")), 0.75, 1e-9);
    check_denominators(j);
    json_decref(j);
    /* the text says what it divides by, and the hottest link is 15/20 */
    char *out;
    snprintf(args, sizeof args, "run ring:3 --program-file %s --timing unit", path);
    assert_int_equal(cmd_run(args, &out, NULL), 0);
    assert_non_null(strstr(out, "utilisation   busy cycles / the 20 cycles of the run"));
    assert_non_null(strstr(out, "(0)->(1) dim0 75.0%"));
    free(out);
    /* the vc router and the barriers: the same one window */
    const char *more[] = { "ring:3 --program-file %s", "ring:3 --program-file %s --sync steps",
                           "mesh:4x4 --program data-sum --sync steps%.0s", "bsn:ring:4 --program prefix-sum%.0s" };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        snprintf(args, sizeof args, more[i], path);
        j = run_json(args);
        check_denominators(j);
        json_decref(j);
    }
}

/* One expected element of a chain. */
typedef struct want {
    const char *kind, *why;
    json_int_t start, end;
} want_t;

static void check_chain(const char *args, const want_t *w, size_t n)
{
    json_t *j = run_json(args);
    json_t *cp = json_object_get(j, "critical_path"), *chain = json_object_get(cp, "chain");
    json_int_t T = num(j, "cycles");
    if (json_array_size(chain) != n)
        fail_msg("%s: %zu elements, expected %zu", args, json_array_size(chain), n);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(chain, i);
        const char *kind = json_string_value(json_object_get(e, "kind"));
        const char *why = json_string_value(json_object_get(e, "why"));
        if (strcmp(kind, w[i].kind) || strcmp(why, w[i].why) || num(e, "start") != w[i].start ||
            num(e, "end") != w[i].end)
            fail_msg("%s: element %zu is %s %lld..%lld (%s), expected %s %lld..%lld (%s)", args, i, kind,
                     (long long)num(e, "start"), (long long)num(e, "end"), why, w[i].kind,
                     (long long)w[i].start, (long long)w[i].end, w[i].why);
    }
    assert_int_equal(num(cp, "cycles"), T);
    json_decref(j);
}

/* Rank 0: calc 5 and calc 3 on its one CPU (the second waits for the
 * first), then a 2-word send; rank 1 receives it, computes 2 (step A),
 * then 4 (step B). Unit timing: 0..5, 5..8, the send 8..9 (its last word
 * enters the network in cycle 9), in at 10, 10..12, 12..16. */
static const char hand_goal[] = "num_ranks 2\n"
                                "rank 0 {\n step A\n c1: calc 5\n c2: calc 3\n"
                                " s: send 2w to 1 tag 1\n s requires c2\n}\n"
                                "rank 1 {\n step A\n r: recv 2w from 0 tag 1\n a1: calc 2\n a1 requires r\n"
                                " step B\n a2: calc 4\n a2 requires a1\n}\n";

static void test_chain_by_hand(void **state)
{
    (void)state;
    char path[700], args[900];
    cmd_write("hand.goal", hand_goal, path, sizeof path);
    static const want_t plain[] = {
        { "compute", "start", 0, 5 },     { "compute", "processor", 5, 8 },   { "send", "dependency", 8, 9 },
        { "network", "injected", 9, 10 }, { "compute", "dependency", 10, 12 }, { "compute", "dependency", 12, 16 },
    };
    snprintf(args, sizeof args, "ring:3 --program-file %s --timing unit", path);
    check_chain(args, plain, 6);
    /* with barriers: step A ends with a computation in cycle 12, so step B
     * opens in 12 (a computation ends before the barrier's turn) */
    static const want_t synced[] = {
        { "compute", "start", 0, 5 },      { "compute", "processor", 5, 8 },    { "send", "dependency", 8, 9 },
        { "network", "injected", 9, 10 },  { "compute", "dependency", 10, 12 }, { "barrier", "steps done", 12, 12 },
        { "compute", "barrier", 12, 16 },
    };
    snprintf(args, sizeof args, "ring:3 --program-file %s --timing unit --sync steps", path);
    check_chain(args, synced, 7);
    /* a step that ends with a send (its last of 3 words in at cycle 2)
     * opens the next in the cycle after: a barrier of one cycle */
    cmd_write("sendend.goal",
              "num_ranks 2\nrank 0 {\n step A\n s: send 3w to 1 tag 1\n step B\n c: calc 2\n}\n"
              "rank 1 {\n step A\n c0: calc 1\n step B\n r: recv 3w from 0 tag 1\n}\n",
              path, sizeof path);
    static const want_t send_end[] = {
        { "send", "start", 0, 2 }, { "barrier", "steps done", 2, 3 }, { "compute", "barrier", 3, 5 },
    };
    snprintf(args, sizeof args, "ring:3 --program-file %s --timing unit --sync steps", path);
    check_chain(args, send_end, 3);
    /* an op released by a send's end starts at its PE's next turn (the
     * send completes in the NI, after the PE's turn in that cycle): the
     * send 0..1, c from 2 to 12 */
    cmd_write("turn.goal",
              "num_ranks 2\nrank 0 {\n s: send 2w to 1 tag 1\n c: calc 10\n c requires s\n}\n"
              "rank 1 {\n r: recv 2w from 0 tag 1\n}\n",
              path, sizeof path);
    static const want_t turn[] = {
        { "send", "start", 0, 1 }, { "start", "dependency", 1, 2 }, { "compute", "turn", 2, 12 },
    };
    snprintf(args, sizeof args, "ring:3 --program-file %s --timing unit", path);
    check_chain(args, turn, 3);
    /* an irequires links two starts: c0 0..1, c1 1..4, c2 (its own CPU)
     * from c1's start, 1..6 */
    cmd_write("irq.goal",
              "num_ranks 1\nrank 0 {\n c0: calc 1\n c1: calc 3\n c1 requires c0\n"
              " c2: calc 5 cpu 1\n c2 irequires c1\n}\n",
              path, sizeof path);
    static const want_t irq[] = {
        { "compute", "start", 0, 1 }, { "start", "dependency", 1, 1 }, { "compute", "dependency started", 1, 6 },
    };
    snprintf(args, sizeof args, "ring:3 --program-file %s --timing unit", path);
    check_chain(args, irq, 3);
}

/* On collectives: the elements tile 0..cycles (each starts where the one
 * before ends), their cycles add up to the finishing cycle, an op waits at
 * most one cycle for its turn, and the text's total is the run's cycles. */
static void test_chain_sums(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "bsn:ring:9 --program prefix-sum --sync steps",
        "bsn:ring:4 --program prefix-sum",
        "bsn:ring:4 --program prefix-sum --timing unit --sync steps",
        "mesh:4x4 --program data-sum --timing unit",
        "mesh:4x4 --program data-sum --sync steps ni_ports=0",
        "torus:4x4 --program scatter",
        "hypercube:4 --program broadcast --sync steps",
        "ring:8 --program alltoall --timing unit",
        "otis:ring:4 --program prefix-sum --sync steps",
        "mesh:3x3 --program allreduce ni_ports=0", /* (not router=rtl: a build may lack the RTL core) */
        "torus:4x4 --program shift --q 3 --timing unit --sync steps",
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        json_t *j = run_json(runs[r]);
        json_int_t T = num(j, "cycles"), at = 0, sum = 0, messages = 0;
        json_t *cp = json_object_get(j, "critical_path"), *chain = json_object_get(cp, "chain");
        assert_true(json_array_size(chain) > 0);
        size_t i;
        json_t *e;
        json_array_foreach(chain, i, e) {
            json_int_t s = num(e, "start"), t = num(e, "end");
            if (s != at || t < s)
                fail_msg("%s: element %zu is %lld..%lld, after one that ended in %lld", runs[r], i, (long long)s,
                         (long long)t, (long long)at);
            assert_int_equal(num(e, "cycles"), t - s);
            const char *kind = json_string_value(json_object_get(e, "kind"));
            const char *why = json_string_value(json_object_get(e, "why"));
            assert_true(strcmp(why, "start") != 0 || i == 0); /* only the first waited for nothing */
            assert_true(i != 0 || strcmp(why, "start") == 0);
            if (strcmp(kind, "start") == 0)
                assert_true(t - s <= 1);
            messages += strcmp(kind, "network") == 0;
            sum += t - s;
            at = t;
        }
        if (sum != T || at != T)
            fail_msg("%s: the chain adds up to %lld and ends in %lld, the run in %lld", runs[r], (long long)sum,
                     (long long)at, (long long)T);
        assert_int_equal(num(cp, "cycles"), T);
        assert_int_equal(num(cp, "messages"), messages);
        size_t n = json_array_size(chain);
        json_decref(j);
        /* the text */
        char cmd[1200], *out, want[96], cyc[64];
        snprintf(cmd, sizeof cmd, "run %s", runs[r]);
        assert_int_equal(cmd_run(cmd, &out, NULL), 0);
        snprintf(cyc, sizeof cyc, "  cycles        %lld", (long long)T);
        snprintf(want, sizeof want, "  critical path %lld cycles, %zu element", (long long)T, n);
        assert_non_null(strstr(out, cyc));
        if (!strstr(out, want))
            fail_msg("%s: no '%s' in\n%s", runs[r], want, out);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utilisation_one_window),
        cmocka_unit_test(test_chain_by_hand),
        cmocka_unit_test(test_chain_sums),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
