/* test_options.c: the option tables of cli/options.h: a unique prefix of
 * a long option (--jso for --json), which getopt_long alone would take, is
 * refused with a message naming the option in full; exact names, --name=V,
 * short options and operands after the options still parse; in order,
 * operands come back in their place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/options.h"

enum { O_JSON, O_LABELS, O_NO_LABELS, O_OUT };
static const noc_opt_t table[] = {
    [O_JSON] = { "json", 0, "FILE", "the report as JSON" },
    [O_LABELS] = { "labels", 0, NULL, "labels" },
    [O_NO_LABELS] = { "no-labels", 0, NULL, "no labels" },
    [O_OUT] = { "", 'o', "FILE", "the output" },
    { NULL, 0, NULL, NULL },
};

static int parse_all(int argc, char **argv, const char **json, int *labels, int *first_operand)
{
    noc_opts_t p;
    noc_opts_init(&p, "test", table, argc, argv);
    int k;
    while ((k = noc_opts_next(&p)) >= 0) {
        if (k == O_JSON)
            *json = p.value;
        else if (k == O_LABELS)
            *labels = 1;
        else if (k == O_NO_LABELS)
            *labels = 0;
    }
    *first_operand = p.next_positional;
    return k;
}

static void test_abbreviation_refused(void **state)
{
    (void)state;
    char a0[] = "test", a1[] = "--jso", a2[] = "out.json";
    char *argv[] = { a0, a1, a2, NULL };
    const char *json = NULL;
    int labels = -1, op = 0;
    assert_int_equal(parse_all(3, argv, &json, &labels, &op), -2);
    assert_null(json);
    char b1[] = "--lab";
    char *argv2[] = { a0, b1, NULL };
    assert_int_equal(parse_all(2, argv2, &json, &labels, &op), -2);
    assert_int_equal(labels, -1);
    char c1[] = "--json=x";
    char c2[] = "--no";
    char *argv3[] = { a0, c1, c2, NULL };
    assert_int_equal(parse_all(3, argv3, &json, &labels, &op), -2);
}

static void test_exact_names_parse(void **state)
{
    (void)state;
    char a0[] = "test", a1[] = "--json", a2[] = "--lab", a3[] = "--labels", a4[] = "SPEC", a5[] = "-o",
         a6[] = "pic.svg";
    /* "--lab" here is --json's value, not an option */
    char *argv[] = { a0, a1, a2, a3, a4, a5, a6, NULL };
    const char *json = NULL;
    int labels = -1, op = 0;
    assert_int_equal(parse_all(7, argv, &json, &labels, &op), -1);
    assert_string_equal(json, "--lab");
    assert_int_equal(labels, 1);
    assert_int_equal(op, 6); /* getopt_long moved the operand last */
    assert_string_equal(argv[op], "SPEC");
    char b1[] = "--json=r.json";
    char *argv2[] = { a0, b1, NULL };
    json = NULL;
    assert_int_equal(parse_all(2, argv2, &json, &labels, &op), -1);
    assert_string_equal(json, "r.json");
}

/* In order: operands come back in their place among the options (noctua
 * run's key=value and --router: the later wins), those after "--" too,
 * and argv is left as it was (a second pass sees the same order). */
static void test_operands_in_order(void **state)
{
    (void)state;
    char a0[] = "test", a1[] = "k=1", a2[] = "--labels", a3[] = "k=2", a4[] = "--json", a5[] = "j",
         a6[] = "--", a7[] = "--no-labels";
    char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, NULL };
    const char *want[] = { "op:k=1", "labels", "op:k=2", "json:j", "op:--no-labels" };
    for (int pass = 0; pass < 2; pass++) {
        noc_opts_t p;
        noc_opts_init(&p, "test", table, 8, argv);
        noc_opts_in_order(&p);
        int k, n = 0;
        char got[64];
        while ((k = noc_opts_next(&p)) != -1) {
            assert_true(k != -2);
            if (k == NOC_OPTS_OPERAND)
                snprintf(got, sizeof got, "op:%s", p.value);
            else if (k == O_JSON)
                snprintf(got, sizeof got, "json:%s", p.value);
            else
                snprintf(got, sizeof got, "%s", table[k].name);
            assert_true(n < 5);
            assert_string_equal(got, want[n]);
            n++;
        }
        assert_int_equal(n, 5);
        assert_string_equal(argv[1], "k=1"); /* not moved */
        assert_string_equal(argv[3], "k=2");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abbreviation_refused),
        cmocka_unit_test(test_exact_names_parse),
        cmocka_unit_test(test_operands_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
