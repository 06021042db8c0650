/* test_loggp.c: programs timed by LogGOPSim's model (model/loggp.h,
 * `--timing loggp`). Every expected time is worked by hand from the model
 * as LogGOPSim's LogGOPSim.cpp states it (docs/goal.md, "4. LogGOPSim's
 * timing"), with small parameters so the sums can be followed:
 * L = 10, o = 2, g = 3, G = 1, O = 0, S = 100 unless a case says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/loggp.h"

static const noc_loggp_params_t small = { 10, 2, 3, 1, 0, 100, 1 };

typedef struct run {
    noc_program_t *p;
    noc_loggp_t *lg;
} run_t;

static void run(run_t *r, const char *goal, const noc_loggp_params_t *lp)
{
    char err[512] = "";
    r->p = noc_prog_read_string(goal, "test.goal", err, sizeof err);
    if (!r->p)
        fail_msg("%s", err);
    r->lg = noc_loggp_create(r->p, lp, err, sizeof err);
    assert_non_null(r->lg);
    assert_int_equal(noc_loggp_run(r->lg, NULL), 0);
    if (noc_loggp_finished(r->lg, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void done(run_t *r)
{
    noc_loggp_destroy(r->lg);
    noc_prog_free(r->p);
}

/* One eager 9-byte message, the receive posted at 0: the receiver ends at
 * o + L (the first byte) + o + (s - 1) G = 2 + 10 + 2 + 8 = 22; the sender
 * at o + (s - 1) O = 2. */
static void test_eager_posted(void **state)
{
    (void)state;
    run_t r;
    run(&r, "num_ranks 2\nrank 0 {\nl1: send 9b to 1 tag 3\n}\nrank 1 {\nl1: recv 9b from 0 tag 3\n}\n", &small);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 0), 2);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 22);
    const noc_loggp_stats_t *st = noc_loggp_stats(r.lg);
    assert_int_equal(st->finish, 22);
    assert_int_equal(st->finish_rank, 1);
    assert_int_equal(st->eager, 1);
    assert_int_equal(st->rendezvous, 0);
    assert_int_equal(st->bytes, 9);
    done(&r);
}

/* The receiver computes 50 first: the message (first byte at 12) waits for
 * its CPU until 50 and is charged then, 50 + o + 8 G = 60, before the
 * receive is posted, so it is unexpected; the receive (ready at 50, queued
 * after the message's re-insertion) takes it at no cost. */
static void test_unexpected(void **state)
{
    (void)state;
    run_t r;
    run(&r,
        "num_ranks 2\nrank 0 {\nl1: send 9b to 1 tag 3\n}\n"
        "rank 1 {\nl1: calc 50\nl2: recv 9b from 0 tag 3\nl2 requires l1\n}\n",
        &small);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 60);
    done(&r);
}

/* 200 bytes > S: rendezvous. The send completes only when its receive is
 * matched, at the message's first byte (12), so the calc after it starts at
 * 12 and rank 0 ends at 13; the receiver at 12 + o + 199 G = 213. With
 * S = 1000 the send completes when it starts, the calc runs at o = 2, and
 * rank 0 ends at 3. */
static void test_rendezvous(void **state)
{
    (void)state;
    const char *goal = "num_ranks 2\nrank 0 {\nl1: send 200b to 1 tag 0\nl2: calc 1\nl2 requires l1\n}\n"
                       "rank 1 {\nl1: recv 200b from 0 tag 0\n}\n";
    run_t r;
    run(&r, goal, &small);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 0), 13);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 213);
    assert_int_equal(noc_loggp_stats(r.lg)->rendezvous, 1);
    done(&r);
    noc_loggp_params_t eager = small;
    eager.S = 1000;
    run(&r, goal, &eager);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 0), 3);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 213);
    assert_int_equal(noc_loggp_stats(r.lg)->eager, 1);
    done(&r);
}

/* Two sends of one NIC: the second waits for the gap of the first,
 * g + (s - 1) G = 3 + 8 = 11, so its first byte arrives at 11 + o + L = 23,
 * and the receiver, busy with the first until 22 (its receive gap until
 * 12 + 3 + 8 = 23), takes it at 23: 23 + o + 8 = 33. Per-byte CPU overhead
 * O = 1: the sender's CPU is busy o + 8 O = 10 per send, which then sets
 * the pace (second send at 11 still: max(10, 11)). */
static void test_gap(void **state)
{
    (void)state;
    const char *goal = "num_ranks 2\nrank 0 {\nl1: send 9b to 1 tag 0\nl2: send 9b to 1 tag 1\n}\n"
                       "rank 1 {\nl1: recv 9b from 0 tag 0\nl2: recv 9b from 0 tag 1\n}\n";
    run_t r;
    run(&r, goal, &small);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 0), 13); /* second send at 11, + o */
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 33);
    done(&r);
    noc_loggp_params_t per_byte = small;
    per_byte.O = 1;
    run(&r, goal, &per_byte);
    assert_int_equal(noc_loggp_rank_finish(r.lg, 0), 21); /* 11 + o + 8 O */
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 33); /* the receive pays max(8 O, 8 G) */
    done(&r);
}

/* A rank's CPUs are timelines of their own: calc 100 on cpu 0 and on cpu 1
 * end at 100, not 200; on one CPU at 200. */
static void test_cpus(void **state)
{
    (void)state;
    run_t r;
    run(&r, "num_ranks 1\nrank 0 {\nl1: calc 100 cpu 0\nl2: calc 100 cpu 1\n}\n", &small);
    assert_int_equal(noc_loggp_stats(r.lg)->finish, 100);
    assert_int_equal(noc_loggp_stats(r.lg)->ncpus, 2);
    done(&r);
    run(&r, "num_ranks 1\nrank 0 {\nl1: calc 100\nl2: calc 100\n}\n", &small);
    assert_int_equal(noc_loggp_stats(r.lg)->finish, 200);
    done(&r);
}

/* Data moves: rank 0's two words reach rank 1, which adds them in place
 * (the combine's default cost: 1 a word) and its result is checked. */
static void test_data(void **state)
{
    (void)state;
    run_t r;
    run(&r,
        "num_ranks 2\nrank 0 {\ninit 0 5 7\nl1: send 2w to 1 tag 0 addr 0\n}\n"
        "rank 1 {\ninit 0 1 1\nl1: recv 2w from 0 tag 0 addr 2\nl2: add 2w at 0 from 2\nl2 requires l1\n"
        "expect 0 6 8\n}\n",
        &small);
    uint64_t checked = 0;
    char err[256] = "";
    assert_int_equal(noc_loggp_check(r.lg, &checked, err, sizeof err), 0);
    assert_int_equal(checked, 2);
    const int64_t *m = noc_loggp_memory(r.lg, 1);
    assert_int_equal(m[2], 5);
    assert_int_equal(m[3], 7);
    /* 16 bytes: the receive ends at 2 + 10 + 2 + 15 = 29, the add 2 words later */
    assert_int_equal(noc_loggp_rank_finish(r.lg, 1), 31);
    done(&r);
}

/* A receive nothing matches, and a message nobody receives, are named. */
static void test_unmatched(void **state)
{
    (void)state;
    char err[256] = "";
    noc_program_t *p = noc_prog_read_string(
        "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 2\n}\n", "t", err,
        sizeof err);
    assert_non_null(p);
    noc_loggp_t *lg = noc_loggp_create(p, &small, err, sizeof err);
    assert_int_equal(noc_loggp_run(lg, NULL), 0);
    assert_int_equal(noc_loggp_finished(lg, err, sizeof err), -1);
    assert_non_null(strstr(err, "rank 1"));
    assert_non_null(strstr(err, "no receive took"));
    noc_loggp_destroy(lg);
    noc_loggp_params_t bad = small;
    bad.G = -1;
    assert_null(noc_loggp_create(p, &bad, err, sizeof err));
    assert_non_null(strstr(err, "loggp_G"));
    noc_prog_free(p);
}

/* The order of 17 equal ops sorted by LogGOPSim's std::sort (libstdc++'s
 * introsort), worked by hand: the median of v[1], v[8], v[16] (all equal:
 * v[8]) goes first, the partition then swaps the pairs (1,16) .. (8,9) and
 * stops at 9; both parts are 16 or fewer, and the final insertion sort
 * moves no equal element. */
static void test_sort_ties(void **state)
{
    (void)state;
    noc_loggp_item_t v[17];
    for (uint32_t i = 0; i < 17; i++)
        v[i] = (noc_loggp_item_t){ i, 1 };
    noc_loggp_sort(v, 17);
    static const uint32_t want[17] = { 8, 16, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1 };
    for (int i = 0; i < 17; i++)
        assert_int_equal(v[i].op, want[i]);
    /* 16 or fewer: insertion sort, which keeps ties; types ordered */
    noc_loggp_item_t w[6] = { { 0, 3 }, { 1, 1 }, { 2, 2 }, { 3, 1 }, { 4, 3 }, { 5, 2 } };
    noc_loggp_sort(w, 6);
    static const uint32_t want_w[6] = { 1, 3, 2, 5, 0, 4 };
    for (int i = 0; i < 6; i++)
        assert_int_equal(w[i].op, want_w[i]);
    /* many: sorted by type whatever the ties */
    noc_loggp_item_t big[500];
    for (uint32_t i = 0; i < 500; i++)
        big[i] = (noc_loggp_item_t){ i, (uint8_t)(1 + (i * 7919u) % 3) };
    noc_loggp_sort(big, 500);
    int seen[500] = { 0 };
    for (int i = 0; i < 500; i++) {
        assert_true(i == 0 || big[i - 1].type <= big[i].type);
        seen[big[i].op]++;
    }
    for (int i = 0; i < 500; i++)
        assert_int_equal(seen[i], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eager_posted), cmocka_unit_test(test_unexpected), cmocka_unit_test(test_rendezvous),
        cmocka_unit_test(test_gap),          cmocka_unit_test(test_cpus),       cmocka_unit_test(test_data),
        cmocka_unit_test(test_unmatched),    cmocka_unit_test(test_sort_ties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
