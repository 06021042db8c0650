/* test_program_write.c: the traffic-program writer: write -> read gives
 * the same program and writing that again the same text, for a program
 * with every feature (whose text is checked against the documented form),
 * a large random program, and the memory sizes the builder derives from
 * the ops, init and expect values and mem lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/program.h"
#include "testbench/unit/program_test.h"
#include "testbench/unit/traffic/program_text_test.h"

/* ---- round trips ---- */

/* A finished program with every feature of the format: all op kinds,
 * every option, forward and repeated dependencies, named and unnamed
 * steps, memory asked for beyond what the ops reach (and below it), init
 * values over more than one line with a gap, expect values. */
static noc_program_t *all_features_program(void)
{
    noc_program_t *p = noc_prog_new(6, "all.features");
    /* ranks interleaved on purpose; rank 4 only asks for memory */
    noc_prog_step(p, 1, "a");
    uint32_t s1 = noc_prog_send(p, 1, 0, 3, 4, 8);
    noc_prog_step(p, 0, "b");
    uint32_t r0 = noc_prog_recv(p, 0, 1, 3, 4, 0);
    uint32_t r0b = noc_prog_recv(p, 0, NOC_PROG_ANY, NOC_PROG_ANY, 1, NOC_PROG_NO_ADDR);
    noc_prog_step(p, 0, NULL);
    uint32_t c0 = noc_prog_combine(p, 0, NOC_OP_ADD, 4, 0, 4);
    noc_op_t op = {0};
    op.kind = NOC_OP_MIN;
    op.words = 2;
    op.addr = 20;
    op.src = 0;
    op.cost = 0;
    uint32_t c1 = noc_prog_add(p, 0, &op);
    noc_prog_step(p, 0, "b");
    uint32_t c2 = noc_prog_combine(p, 0, NOC_OP_MAX, 1, 3, 30);
    uint32_t c3 = noc_prog_combine(p, 0, NOC_OP_COPY, 3, 40, 0);
    uint32_t k0 = noc_prog_calc(p, 0, 0);
    noc_prog_step(p, 1, "c");
    uint32_t k1 = noc_prog_calc(p, 1, 12345678901ll);
    op = (noc_op_t){0};
    op.kind = NOC_OP_SEND;
    op.peer = 5;
    op.tag = 2147483647;
    op.words = 3;
    op.in_bytes = 1;
    op.bytes = 17;
    op.addr = NOC_PROG_NO_ADDR;
    op.cpu = 255;
    op.nic = 3;
    uint32_t s2 = noc_prog_add(p, 1, &op);
    op.kind = NOC_OP_RECV;
    op.peer = 1;
    op.tag = NOC_PROG_ANY;
    op.addr = 7;
    op.cpu = 0;
    noc_prog_add(p, 5, &op);
    op = (noc_op_t){0};
    op.kind = NOC_OP_COPY;
    op.words = 1;
    op.addr = 1;
    op.src = 2;
    op.cost = 9;
    op.nic = 1;
    noc_prog_add(p, 5, &op);
    noc_prog_dep(p, r0b, r0, 0);
    noc_prog_dep(p, c0, r0, 0);
    noc_prog_dep(p, c0, r0b, 1);
    noc_prog_dep(p, c0, r0, 0); /* twice: kept twice */
    noc_prog_dep(p, c1, k0, 0); /* forward */
    noc_prog_dep(p, c2, c1, 1);
    noc_prog_dep(p, c3, c2, 0);
    noc_prog_dep(p, s1, k1, 1); /* forward, in rank 1 */
    noc_prog_dep(p, s2, s1, 0);
    noc_prog_mem(p, 4, 99);
    noc_prog_mem(p, 0, 10); /* less than the ops reach: no effect */
    noc_prog_mem(p, 1, 1000);
    for (uint32_t a = 0; a < 40; a++) /* more than a line's worth, with a gap */
        noc_prog_init(p, 2, a < 20 ? a : a + 5, (int64_t)a * 1000 - 7);
    noc_prog_init(p, 0, 3, -1);
    noc_prog_expect(p, 0, 0, INT64_MAX);
    noc_prog_expect(p, 3, 12, 5);
    noc_prog_expect(p, 3, 11, 4);
    finish_ok(p);
    return p;
}

static void test_round_trip_features(void **state)
{
    (void)state;
    noc_program_t *p = all_features_program();
    assert_int_equal(p->ranks[0].mem_words, 43);
    assert_int_equal(p->ranks[1].mem_words, 1000);
    assert_int_equal(p->ranks[2].mem_words, 45);
    assert_int_equal(p->ranks[3].mem_words, 13);
    assert_int_equal(p->ranks[4].mem_words, 99);
    assert_int_equal(p->ranks[5].mem_words, 10);
    assert_int_equal(p->n_steps, 3); /* in the order first named */
    assert_string_equal(p->steps[0], "a");
    assert_string_equal(p->steps[1], "b");
    assert_string_equal(p->steps[2], "c");
    round_trip(p);

    /* the written text has the features in the documented form */
    char *text = write_string(p);
    assert_non_null(strstr(text, "program all.features\nnum_ranks 6\n"));
    assert_non_null(strstr(text, "l0: send 17b to 5 tag 2147483647 cpu 255 nic 3\n") ||
                    strstr(text, "l2: send 17b to 5 tag 2147483647 cpu 255 nic 3\n"));
    assert_non_null(strstr(text, "l1: recv 1w from -1 tag -1\n"));
    assert_non_null(strstr(text, "l3: min 2w at 20 from 0 cost 0\n"));
    assert_non_null(strstr(text, "l3 requires l6\n"));
    assert_non_null(strstr(text, "l2 irequires l1\n"));
    assert_non_null(strstr(text, "rank 4 {\nmem 99\n}\n"));
    assert_non_null(strstr(text, "step -\n"));
    char want[300] = "init 0";
    for (int a = 0; a < 16; a++)
        snprintf(want + strlen(want), sizeof want - strlen(want), " %d", a * 1000 - 7);
    strcat(want, "\ninit 16 15993 16993 17993 18993\ninit 25 19993 ");
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "\ninit 41 35993 36993 37993 38993\n"));
    assert_non_null(strstr(text, "expect 11 4 5\n"));
    free(text);
    noc_prog_free(p);
}

/* n ops over `ranks` ranks, random kinds and dependencies on earlier ops. */
static noc_program_t *random_program(uint32_t n, int ranks, uint64_t seed)
{
    noc_program_t *p = noc_prog_new(ranks, "random");
    uint32_t per = n / (uint32_t)ranks;
    char name[32];
    for (int r = 0; r < ranks; r++) {
        uint32_t first = p->n_ops;
        for (uint32_t i = 0; i < per; i++) {
            if (rnd(&seed) % 50 == 0) {
                snprintf(name, sizeof name, "s%u", (unsigned)(rnd(&seed) % 20));
                noc_prog_step(p, r, rnd(&seed) % 4 ? name : NULL);
            }
            int peer = (int)(rnd(&seed) % (uint64_t)ranks);
            int tag = (int)(rnd(&seed) % 100);
            uint32_t w = 1 + (uint32_t)(rnd(&seed) % 64);
            int32_t a = rnd(&seed) % 3 ? (int32_t)(rnd(&seed) % 1000) : NOC_PROG_NO_ADDR;
            uint32_t k;
            switch (rnd(&seed) % 5) {
            case 0: k = noc_prog_send(p, r, peer, tag, w, a); break;
            case 1: k = noc_prog_recv(p, r, rnd(&seed) % 5 ? peer : NOC_PROG_ANY, tag, w, a); break;
            case 2: k = noc_prog_calc(p, r, (int64_t)(rnd(&seed) % 1000)); break;
            default:
                k = noc_prog_combine(p, r, (noc_op_kind_t)(NOC_OP_ADD + rnd(&seed) % 4), w,
                                     (int32_t)(rnd(&seed) % 1000), (int32_t)(rnd(&seed) % 1000));
            }
            for (uint32_t d = (uint32_t)(rnd(&seed) % 3); d > 0 && k > first; d--)
                noc_prog_dep(p, k, first + (uint32_t)(rnd(&seed) % (k - first)),
                             (int)(rnd(&seed) % 2));
        }
        if (rnd(&seed) % 2)
            noc_prog_init(p, r, (uint32_t)(rnd(&seed) % 2000), (int64_t)rnd(&seed));
        noc_prog_expect(p, r, (uint32_t)(rnd(&seed) % 2000), -(int64_t)(rnd(&seed) % 1000));
    }
    return p;
}

static void test_round_trip_large(void **state)
{
    (void)state;
    noc_program_t *p = random_program(100000, 50, 12345);
    finish_ok(p);
    assert_int_equal(p->n_ops, 100000);
    assert_true(p->n_deps > 50000);
    assert_true(p->n_steps > 10);
    round_trip(p);
    noc_prog_free(p);
}

/* ---- the builder's checks ---- */

static void test_memory_growth(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(6, NULL);
    noc_prog_send(p, 0, 1, 0, 4, 10);                       /* 14 */
    noc_prog_recv(p, 0, 1, 0, 100, NOC_PROG_NO_ADDR);       /* no data: nothing */
    noc_prog_combine(p, 1, NOC_OP_ADD, 3, 2, 20);           /* source reaches 23 */
    noc_prog_combine(p, 1, NOC_OP_COPY, 3, 30, 2);          /* destination reaches 33 */
    noc_prog_init(p, 2, 50, 1);                             /* 51 */
    noc_prog_expect(p, 2, 60, 1);                           /* 61 */
    noc_prog_mem(p, 2, 8);                                  /* less: 61 */
    noc_prog_calc(p, 3, 1000);                              /* no memory */
    noc_prog_mem(p, 4, 7);
    noc_prog_mem(p, 4, 5);                                  /* at least: 7 */
    noc_prog_send(p, 5, 0, 0, 1, 0);
    noc_prog_mem(p, 5, 300);
    finish_ok(p);
    uint32_t want[6] = {14, 33, 61, 0, 7, 300};
    for (int r = 0; r < 6; r++)
        assert_int_equal(p->ranks[r].mem_words, want[r]);
    round_trip(p);
    noc_prog_free(p);

    p = read_ok("num_ranks 2\nrank 0 {\nmem 5\nmem 12\nmem 3\n}\nrank 1 {\nmem 4\n"
                "copy 1w at 6 from 0\n}\n");
    assert_int_equal(p->ranks[0].mem_words, 12);
    assert_int_equal(p->ranks[1].mem_words, 7);
    noc_prog_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_features),
        cmocka_unit_test(test_round_trip_large),
        cmocka_unit_test(test_memory_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
