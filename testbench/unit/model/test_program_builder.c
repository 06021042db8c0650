/* test_program_builder.c: the traffic programs' builder (model/program.c):
 * its checks at noc_prog_finish (peers, tags, words, dependencies within a
 * rank, dependency cycles, addresses, memory), the final layout when ranks
 * are filled in any order, scale (10^6 ops, a 10^6-op cycle found without
 * recursion), and the op kinds' names. The text form's tests are
 * testbench/unit/traffic/test_program_{read,errors,write,examples}.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "model/program.h"
#include "testbench/unit/program_test.h"

static void test_builder_errors(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(4, NULL);
    noc_prog_send(p, 0, 4, 0, 1, NOC_PROG_NO_ADDR);
    finish_err(p, "rank 0: send: rank 4 out of range [0, 4)", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_recv(p, 0, -2, 0, 1, NOC_PROG_NO_ADDR);
    finish_err(p, "recv: rank -2 out of range", "(or any)");

    p = noc_prog_new(4, NULL);
    noc_prog_send(p, 2, 1, NOC_PROG_ANY, 1, NOC_PROG_NO_ADDR);
    finish_err(p, "rank 2: send: tag -1 must be >= 0", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_recv(p, 0, 1, -5, 1, NOC_PROG_NO_ADDR);
    finish_err(p, "recv: tag -5 must be >= 0", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_send(p, 3, 1, 0, 0, NOC_PROG_NO_ADDR);
    finish_err(p, "rank 3: send: a message or combine has at least one word", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_combine(p, 1, NOC_OP_ADD, 0, 0, 0);
    finish_err(p, "add: a message or combine has at least one word", NULL);

    p = noc_prog_new(4, NULL);
    uint32_t a = noc_prog_calc(p, 0, 1), b = noc_prog_calc(p, 1, 1);
    noc_prog_dep(p, a, b, 0);
    finish_err(p, "depends on op 0 of rank 1; dependencies stay within a rank", NULL);

    p = noc_prog_new(4, NULL);
    a = noc_prog_calc(p, 0, 1);
    noc_prog_dep(p, a, 7, 0);
    finish_err(p, "no such op", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_calc(p, 0, -1);
    finish_err(p, "calc: -1 cycles must be >= 0", NULL);

    p = noc_prog_new(4, NULL);
    noc_op_t op = {0};
    op.kind = NOC_OP_MAX;
    op.words = 1;
    op.cost = -2;
    noc_prog_add(p, 0, &op);
    finish_err(p, "max: cost -2 must be >= 0", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_init(p, 2, 5, 1);
    noc_prog_init(p, 2, 6, 1);
    noc_prog_init(p, 2, 5, 2);
    finish_err(p, "rank 2: word 5 has two init values", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_expect(p, 3, 0, 1);
    noc_prog_expect(p, 2, 0, 1);
    noc_prog_expect(p, 3, 0, 1);
    finish_err(p, "rank 3: word 0 has two expect values", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_calc(p, 9, 1);
    finish_err(p, "noc_prog_add: rank 9 out of range [0, 4)", NULL);

    p = noc_prog_new(4, NULL);
    noc_prog_init(p, -1, 0, 0);
    finish_err(p, "noc_prog_init: rank -1 out of range", NULL);

    p = noc_prog_new(0, NULL);
    finish_err(p, "at least one rank", NULL);

    p = noc_prog_new(2, "bad name");
    finish_err(p, "program name \"bad name\"", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_step(p, 0, "x y");
    noc_prog_calc(p, 0, 1);
    finish_err(p, "step name \"x y\"", NULL);

    /* bytes and words must agree */
    p = noc_prog_new(2, NULL);
    op = (noc_op_t){0};
    op.kind = NOC_OP_SEND;
    op.peer = 1;
    op.words = 1;
    op.in_bytes = 1;
    op.bytes = 9;
    op.addr = NOC_PROG_NO_ADDR;
    noc_prog_add(p, 0, &op);
    finish_err(p, "send: 9 bytes are 2 words, not 1", NULL);

    /* the line is named when there is one */
    p = noc_prog_new(4, NULL);
    op.in_bytes = 0;
    op.tag = -3;
    op.line = 17;
    noc_prog_add(p, 3, &op);
    finish_err(p, "rank 3, line 17: send: tag -3 must be >= 0", NULL);
}

static void test_cycles(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(2, NULL);
    noc_prog_calc(p, 1, 1);
    uint32_t a = noc_prog_calc(p, 1, 1), b = noc_prog_calc(p, 1, 1), c = noc_prog_calc(p, 1, 1);
    uint32_t d = noc_prog_calc(p, 1, 1);
    noc_prog_dep(p, d, c, 0); /* d waits for the cycle, is not on it */
    noc_prog_dep(p, a, b, 0);
    noc_prog_dep(p, b, c, 1);
    noc_prog_dep(p, c, a, 0);
    finish_err(p, "rank 1: dependency cycle: op ", "(each requires the next)");

    /* irequires alone can deadlock too */
    p = noc_prog_new(1, NULL);
    a = noc_prog_calc(p, 0, 1);
    b = noc_prog_calc(p, 0, 1);
    noc_prog_dep(p, a, b, 1);
    noc_prog_dep(p, b, a, 1);
    finish_err(p, "dependency cycle: op 0 -> op 1 -> op 0", NULL);

    /* a long cycle is shortened */
    p = noc_prog_new(1, NULL);
    for (uint32_t i = 0; i < 20; i++)
        noc_prog_calc(p, 0, 1);
    for (uint32_t i = 0; i < 20; i++)
        noc_prog_dep(p, i, (i + 1) % 20, 0);
    finish_err(p, "op 0 -> op 1 -> op 2", "op 7 -> ...");

    /* diamonds are fine */
    p = noc_prog_new(1, NULL);
    a = noc_prog_calc(p, 0, 1);
    b = noc_prog_calc(p, 0, 1);
    c = noc_prog_calc(p, 0, 1);
    d = noc_prog_calc(p, 0, 1);
    noc_prog_dep(p, b, a, 0);
    noc_prog_dep(p, c, a, 1);
    noc_prog_dep(p, d, b, 0);
    noc_prog_dep(p, d, c, 0);
    finish_ok(p);
    noc_prog_free(p);
}

static void test_bad_addresses(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(2, NULL);
    noc_prog_send(p, 0, 1, 0, 1, -5);
    finish_err(p, "send: bad address -5", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_combine(p, 1, NOC_OP_COPY, 1, 3, NOC_PROG_NO_ADDR);
    finish_err(p, "rank 1: copy: bad address -1", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_combine(p, 1, NOC_OP_ADD, 1, -1, 0);
    finish_err(p, "add: bad address -1", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_recv(p, 0, 1, 0, 2, NOC_PROG_MAX_MEM - 1);
    finish_err(p, "recv reaches word 16777216, beyond the 16777216 words", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_send(p, 0, 1, 0, UINT32_MAX, 5);
    finish_err(p, "send reaches word", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_init(p, 1, NOC_PROG_MAX_MEM, 1);
    finish_err(p, "rank 1: init of word 16777216, beyond", NULL);

    p = noc_prog_new(2, NULL);
    noc_prog_mem(p, 0, NOC_PROG_MAX_MEM + 1);
    finish_err(p, "rank 0: memory of 16777217 words is more than the 16777216", NULL);

    /* the last word is fine */
    p = noc_prog_new(2, NULL);
    noc_prog_recv(p, 0, 1, 0, 1, NOC_PROG_MAX_MEM - 1);
    noc_prog_expect(p, 1, NOC_PROG_MAX_MEM - 1, 3);
    finish_ok(p);
    assert_int_equal(p->ranks[0].mem_words, NOC_PROG_MAX_MEM);
    assert_int_equal(p->ranks[1].mem_words, NOC_PROG_MAX_MEM);
    noc_prog_free(p);
}

/* Ops added to ranks in any order come out grouped by rank, in order, with
 * the dependencies following them. */
static void test_interleaved_ranks(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(3, NULL);
    uint32_t x[6];
    for (int i = 0; i < 6; i++)
        x[i] = noc_prog_calc(p, 2 - i % 3, i);
    noc_prog_dep(p, x[3], x[0], 0); /* rank 2: op 1 requires op 0 */
    noc_prog_dep(p, x[4], x[1], 1); /* rank 1 */
    noc_prog_dep(p, x[2], x[5], 0); /* rank 0: op 0 requires op 1 */
    finish_ok(p);
    for (int r = 0; r < 3; r++) {
        assert_int_equal(p->ranks[r].op_start, 2 * r);
        assert_int_equal(p->ranks[r].n_ops, 2);
    }
    assert_int_equal(op_of(p, 0, 0)->cost, 2);
    assert_int_equal(op_of(p, 0, 1)->cost, 5);
    assert_int_equal(op_of(p, 2, 1)->cost, 3);
    assert_dep(p, 2, 1, 0, 0, 0);
    assert_dep(p, 1, 1, 0, 0, 1);
    assert_dep(p, 0, 0, 0, 1, 0);
    assert_int_equal(op_of(p, 0, 1)->n_deps, 0);
    noc_prog_free(p);
}

/* 10^6 ops and dependencies in one rank: quick, and no recursion. */
static void test_million(void **state)
{
    (void)state;
    const uint32_t n = 1000000;
    for (int cycle = 0; cycle < 2; cycle++) {
        clock_t t0 = clock();
        noc_program_t *p = noc_prog_new(2, NULL);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = noc_prog_combine(p, 0, NOC_OP_ADD, 1, (int32_t)(i % 1000), 0);
            if (i)
                noc_prog_dep(p, k, k - 1, 0);
        }
        if (cycle) {
            noc_prog_dep(p, 0, n - 1, 0);
            finish_err(p, "dependency cycle: op 0 -> op 999999 -> op 999998", NULL);
            continue;
        }
        finish_ok(p);
        double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
        printf("10^6 ops and dependencies built and finished in %.3f s\n", s);
        assert_true(s < 30.0); /* well under a second natively; generous for valgrind */
        assert_int_equal(p->n_deps, n - 1);
        assert_int_equal(p->ranks[0].mem_words, 1000);
        assert_dep(p, 0, n - 1, 0, n - 2, 0);
        noc_prog_free(p);
    }
}

static void test_kind_names(void **state)
{
    (void)state;
    const char *names[] = {"send", "recv", "calc", "add", "min", "max", "copy"};
    for (int k = 0; k < NOC_OP_KINDS; k++)
        assert_string_equal(noc_op_kind_name((noc_op_kind_t)k), names[k]);
    assert_string_equal(noc_op_kind_name(NOC_OP_KINDS), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder_errors),
        cmocka_unit_test(test_cycles),
        cmocka_unit_test(test_bad_addresses),
        cmocka_unit_test(test_interleaved_ranks),
        cmocka_unit_test(test_million),
        cmocka_unit_test(test_kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
