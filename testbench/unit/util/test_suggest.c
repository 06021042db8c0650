/* test_suggest.c: "did you mean" (util/suggest.h): edit distances worked
 * by hand (one substitution, insertion, deletion, neighbour swap; case
 * ignored), the closeness rule by word length, abbreviations, and that a
 * word far from every name gets no suggestion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/suggest.h"

static void test_distances(void **state)
{
    (void)state;
    assert_int_equal(noc_edit_distance("mesh", "mesh", 3), 0);
    assert_int_equal(noc_edit_distance("mesk", "mesh", 3), 1);             /* substitution */
    assert_int_equal(noc_edit_distance("injecton_rate", "injection_rate", 3), 1); /* insertion */
    assert_int_equal(noc_edit_distance("transposee", "transpose", 3), 1);  /* deletion */
    assert_int_equal(noc_edit_distance("brodacast", "broadcast", 3), 1);   /* two neighbours swapped */
    assert_int_equal(noc_edit_distance("MESH", "mesh", 3), 0);             /* case */
    assert_int_equal(noc_edit_distance("kitten", "sitting", 5), 3);        /* the textbook case */
    assert_int_equal(noc_edit_distance("a", "abcdef", 2), 3);              /* beyond the limit: limit + 1 */
    assert_int_equal(noc_edit_distance("", "abc", 5), 3);
}

static void test_suggestions(void **state)
{
    (void)state;
    static const char *const pats[] = { "uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado" };
    const size_t n = sizeof pats / sizeof pats[0];
    assert_string_equal(noc_suggest("transpos", pats, n), "transpose");
    assert_string_equal(noc_suggest("unifrom", pats, n), "uniform");
    assert_string_equal(noc_suggest("bitrevv", pats, n), "bitrev");
    assert_null(noc_suggest("hotspot", pats, n));  /* far from all */
    assert_null(noc_suggest("uniform", pats, n));  /* a valid name needs none */
    assert_null(noc_suggest("", pats, n));
    /* 4 letters: one edit at most */
    static const char *const kinds[] = { "mesh", "ring", "torus" };
    assert_string_equal(noc_suggest("mesk", kinds, 3), "mesh");
    assert_null(noc_suggest("mzsk", kinds, 3));
    /* an abbreviation of 3 letters or more */
    static const char *const cmds[] = { "run", "sweep", "topo", "area", "draw", "validate", "params" };
    assert_string_equal(noc_suggest("valid", cmds, 7), "validate");
    assert_string_equal(noc_suggest("runn", cmds, 7), "run");
    char buf[64];
    assert_string_equal(noc_suggest_list("idael", "vc ideal rtl", buf, sizeof buf), "ideal");
    assert_string_equal(noc_suggest_list("zzz", "vc, ideal, rtl", buf, sizeof buf), "");
    assert_string_equal(noc_did_you_mean("swep", cmds, 7, buf, sizeof buf), " (did you mean 'sweep'?)");
    assert_string_equal(noc_did_you_mean("qqqqq", cmds, 7, buf, sizeof buf), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distances),
        cmocka_unit_test(test_suggestions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
