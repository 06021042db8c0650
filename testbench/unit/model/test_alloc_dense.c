/* test_alloc_dense.c: BookSim2's max_size, loa and pim allocators
 * (model/alloc_dense.c): grants and pointers worked by hand from
 * maxsize.cpp and loa.cpp, max_size's matchings against a brute-force
 * maximum, the sparse entry's independence of the list order, pim's
 * offset semantics (pim.cpp) in shares, its rounds and its stream, and
 * select's priorities (selalloc.cpp) worked by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/alloc.h"
#include "model/rng.h"

#define B(r) (UINT64_C(1) << (r))

static void expect(const int16_t *g, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        assert_int_equal(g[i], want[i]);
}

/* max_size on req0 = {0,1}, req1 = {0}, req2 = {0,2}, worked through
 * maxsize.cpp (pri 0, the search's stack [0 1 2]):
 *   path 1: requester 0 reaches resource 0, free: 0-0.
 *   path 2: stack [1 2]; 1 reaches 0 (held by 0: next layer [0]); 2 skips 0
 *     (reached already), reaches 2, free: 2-2.
 *   path 3: stack [1]; 1 reaches 0 (held by 0): layer [0]; 0 skips 0 (its
 *     own match), reaches 1, free: the path 1-0-0-1 flips: 0-1, 1-0.
 *   no path from an unmatched requester: grants [1 0 2], pri 1.
 * A separable input-first allocator with fresh pointers finds one grant
 * there (every requester's arbiter picks resource 0), iSLIP with one
 * iteration also one; max_size three. */
static void test_max_size_by_hand(void **state)
{
    (void)state;
    const uint64_t req[3] = { B(0) | B(1), B(0), B(0) | B(2) };
    int16_t g[3];
    noc_alloc_t a;
    noc_alloc_init(&a, NOC_ALLOC_MAX_SIZE, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    noc_alloc_run(&a, req, g);
    expect(g, (const int[]){ 1, 0, 2 }, 3);
    assert_int_equal(a.pri, 1);
    noc_alloc_free(&a);

    noc_alloc_init(&a, NOC_ALLOC_INPUT_FIRST, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    noc_alloc_run(&a, req, g);
    expect(g, (const int[]){ 0, -1, -1 }, 3);
    noc_alloc_free(&a);
}

/* The priority requester: req0 = req1 = {0,1}.
 *   pri 0: stack [0 1]: 0 takes 0; then 1 reaches 0 (held), then 1, free:
 *     [0 1].
 *   pri 1: stack [1 0]: 1 takes 0; then 0 reaches 0 (held), then 1: [1 0].
 *   pri 0 again (n_in 2): [0 1].
 * And req0 = req1 = {0}: the priority requester wins: pri 0 -> 0, pri 1 -> 1.
 * With no request at all the priority still moves (BookSim2 moves it on
 * every Allocate). */
static void test_max_size_priority(void **state)
{
    (void)state;
    const uint64_t both[2] = { B(0) | B(1), B(0) | B(1) };
    const uint64_t one[2] = { B(0), B(0) };
    const uint64_t none[2] = { 0, 0 };
    int16_t g[2];
    noc_alloc_t a;
    noc_alloc_init(&a, NOC_ALLOC_MAX_SIZE, NOC_ARB_MATRIX, 2, 2, 1);
    noc_alloc_run(&a, both, g);
    expect(g, (const int[]){ 0, 1 }, 2);
    noc_alloc_run(&a, both, g);
    expect(g, (const int[]){ 1, 0 }, 2);
    noc_alloc_run(&a, both, g);
    expect(g, (const int[]){ 0, 1 }, 2);
    assert_int_equal(a.pri, 1);
    noc_alloc_run(&a, one, g);
    expect(g, (const int[]){ -1, 0 }, 2);
    assert_int_equal(a.pri, 0);
    noc_alloc_run(&a, none, g);
    expect(g, (const int[]){ -1, -1 }, 2);
    assert_int_equal(a.pri, 1);
    noc_alloc_free(&a);
}

/* Kuhn's augmenting paths, tried from every requester: the maximum
 * matching's size (an oracle apart from maxsize.cpp's search). */
static int try_kuhn(const uint64_t *req, int n_out, int i, int *owner, uint64_t *seen)
{
    for (int r = 0; r < n_out; r++) {
        if (!((req[i] >> r) & 1) || ((*seen >> r) & 1))
            continue;
        *seen |= B(r);
        if (owner[r] < 0 || try_kuhn(req, n_out, owner[r], owner, seen)) {
            owner[r] = i;
            return 1;
        }
    }
    return 0;
}

static int max_matching(const uint64_t *req, int n_in, int n_out)
{
    int owner[64], made = 0;
    memset(owner, 0xff, sizeof owner);
    for (int i = 0; i < n_in; i++) {
        uint64_t seen = 0;
        made += try_kuhn(req, n_out, i, owner, &seen);
    }
    return made;
}

/* Random request matrices: max_size's grants are a matching as large as
 * the largest; a shuffled sparse list gives the same grants as the dense
 * entry, and both allocators' priorities move alike. */
static void test_max_size_is_maximum(void **state)
{
    (void)state;
    static const int shapes[][2] = { { 4, 4 }, { 6, 3 }, { 3, 7 }, { 10, 10 }, { 20, 20 } };
    noc_rng_t rng;
    noc_rng_seed(&rng, 77, 0);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int n_in = shapes[s][0], n_out = shapes[s][1];
        noc_alloc_t a, b;
        noc_alloc_init(&a, NOC_ALLOC_MAX_SIZE, NOC_ARB_ROUND_ROBIN, n_in, n_out, 1);
        noc_alloc_init(&b, NOC_ALLOC_MAX_SIZE, NOC_ARB_ROUND_ROBIN, n_in, n_out, 1);
        for (int trial = 0; trial < 2000; trial++) {
            uint64_t req[20], mask[20];
            int16_t g[20], who[20], gs[20];
            uint32_t density = noc_rng_below(&rng, 8) + 1;
            int m = 0;
            for (int i = 0; i < n_in; i++) {
                req[i] = 0;
                for (int r = 0; r < n_out; r++)
                    if (noc_rng_below(&rng, 16) < density)
                        req[i] |= B(r);
                if (req[i]) {
                    who[m] = (int16_t)i;
                    mask[m++] = req[i];
                }
            }
            for (int k = m - 1; k > 0; k--) { /* shuffle the list */
                int j = (int)noc_rng_below(&rng, (uint32_t)k + 1);
                int16_t t = who[k];
                who[k] = who[j];
                who[j] = t;
                uint64_t u = mask[k];
                mask[k] = mask[j];
                mask[j] = u;
            }
            noc_alloc_run(&a, req, g);
            noc_alloc_run_sparse(&b, m, who, mask, gs);
            int made = 0;
            uint64_t used = 0;
            for (int i = 0; i < n_in; i++) {
                if (g[i] < 0)
                    continue;
                assert_true((req[i] >> g[i]) & 1);
                assert_false((used >> g[i]) & 1);
                used |= B(g[i]);
                made++;
            }
            assert_int_equal(made, max_matching(req, n_in, n_out));
            for (int k = 0; k < m; k++)
                assert_int_equal(gs[k], g[who[k]]);
            assert_int_equal(a.pri, b.pri);
        }
        noc_alloc_free(&a);
        noc_alloc_free(&b);
    }
}

/* loa, worked through loa.cpp on req0 = {0,1}, req1 = {0}, req2 = {0,2}:
 * counts 3, 1, 1; requester 0 from its pointer 0 sees 0 (3) then 1 (1,
 * fewer): asks 1; 1 asks 0; 2 sees 0 (3) then 2 (1): asks 2. Each resource
 * has one asker: grants [1 0 2]; every pointer involved moves on by one. */
static void test_loa_by_hand(void **state)
{
    (void)state;
    const uint64_t req[3] = { B(0) | B(1), B(0), B(0) | B(2) };
    int16_t g[3];
    noc_alloc_t a;
    noc_alloc_init(&a, NOC_ALLOC_LOA, NOC_ARB_MATRIX, 3, 3, 1); /* (its pointers whatever arb_type) */
    noc_alloc_run(&a, req, g);
    expect(g, (const int[]){ 1, 0, 2 }, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(a.in_ptr[i], 1);
        assert_int_equal(a.out_ptr[i], 1);
    }
    noc_alloc_free(&a);
}

/* loa's pointers move on by one, not past the winner:
 *   only requester 2 asks for resource 0 (pointer 0): 2 wins, pointer 1
 *     (past the winner would be 0);
 *   requesters 0 and 2 ask: from 1 the first is 2 (from 0 it would be 0).
 * A requester's pointer among equally lonely resources: requester 0 alone
 * wanting {0,1} (counts 1, 1) asks for the first from its pointer: 0 at
 * pointer 0, then 1 at pointer 1, then (pointer 2, of 3) 0 again. */
static void test_loa_pointers(void **state)
{
    (void)state;
    int16_t g[3];
    noc_alloc_t a;
    noc_alloc_init(&a, NOC_ALLOC_LOA, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    noc_alloc_run(&a, (const uint64_t[]){ 0, 0, B(0) }, g);
    expect(g, (const int[]){ -1, -1, 0 }, 3);
    assert_int_equal(a.out_ptr[0], 1);
    assert_int_equal(a.in_ptr[2], 1);
    noc_alloc_run(&a, (const uint64_t[]){ B(0), 0, B(0) }, g);
    expect(g, (const int[]){ -1, -1, 0 }, 3);
    assert_int_equal(a.out_ptr[0], 2);
    noc_alloc_free(&a);

    noc_alloc_init(&a, NOC_ALLOC_LOA, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    const uint64_t two[3] = { B(0) | B(1), 0, 0 };
    noc_alloc_run(&a, two, g);
    assert_int_equal(g[0], 0);
    noc_alloc_run(&a, two, g);
    assert_int_equal(g[0], 1);
    noc_alloc_run(&a, two, g);
    assert_int_equal(g[0], 0);
    assert_int_equal(a.in_ptr[0], 0);
    noc_alloc_free(&a);
}

/* pim's random offsets are BookSim2's: a resource scans the requesters
 * from an offset uniform over all n_in of them, not a uniform pick among
 * those asking. n_in 4, requesters 0 and 1 both asking for resource 0:
 * offsets 0, 2, 3 find 0 first (2 and 3 wrap to it), offset 1 finds 1:
 * requester 0 wins 3/4 of the allocations. Likewise a requester granted by
 * resources 0 and 1 of n_out 4 accepts 0 3/4 of the time (requester 0
 * alone asking for both). */
static void test_pim_offsets(void **state)
{
    (void)state;
    enum { T = 8000 };
    noc_alloc_t a;
    int16_t g[4];
    noc_alloc_init(&a, NOC_ALLOC_PIM, NOC_ARB_ROUND_ROBIN, 4, 4, 1);
    noc_alloc_seed(&a, 12345);
    int won0 = 0, took0 = 0;
    for (int t = 0; t < T; t++) {
        noc_alloc_run(&a, (const uint64_t[]){ B(0), B(0), 0, 0 }, g);
        assert_true((g[0] == 0) != (g[1] == 0));
        won0 += g[0] == 0;
        noc_alloc_run(&a, (const uint64_t[]){ B(0) | B(1), 0, 0, 0 }, g);
        assert_true(g[0] == 0 || g[0] == 1);
        took0 += g[0] == 0;
    }
    /* 3/4 of T = 6000, binomial sd ~ 39: within 4 sd */
    assert_in_range(won0, 6000 - 160, 6000 + 160);
    assert_in_range(took0, 6000 - 160, 6000 + 160);
    noc_alloc_free(&a);
}

/* pim with as many rounds as the smaller side is maximal (each round adds
 * a match while a free requester asks for a free resource); one round
 * often is not. The same salt gives the same grants, another salt others;
 * a run does not depend on what other allocators drew. */
static void test_pim_rounds_and_stream(void **state)
{
    (void)state;
    noc_rng_t rng;
    noc_rng_seed(&rng, 5, 0);
    noc_alloc_t a, b, c, one;
    noc_alloc_init(&a, NOC_ALLOC_PIM, NOC_ARB_MATRIX, 8, 8, 8);
    noc_alloc_init(&b, NOC_ALLOC_PIM, NOC_ARB_ROUND_ROBIN, 8, 8, 8);
    noc_alloc_init(&c, NOC_ALLOC_PIM, NOC_ARB_ROUND_ROBIN, 8, 8, 8);
    noc_alloc_init(&one, NOC_ALLOC_PIM, NOC_ARB_ROUND_ROBIN, 8, 8, 1);
    noc_alloc_seed(&a, 1);
    noc_alloc_seed(&b, 1);
    noc_alloc_seed(&c, 2);
    noc_alloc_seed(&one, 1);
    int differ = 0, short_of = 0;
    for (int t = 0; t < 2000; t++) {
        uint64_t req[8];
        int16_t ga[8], gb[8], gc[8], g1[8];
        for (int i = 0; i < 8; i++)
            req[i] = noc_rng_next(&rng) & 0xff & noc_rng_next(&rng);
        noc_alloc_run(&a, req, ga);
        noc_alloc_run(&b, req, gb);
        noc_alloc_run(&c, req, gc);
        noc_alloc_run(&one, req, g1);
        uint64_t taken = 0;
        int made = 0, made1 = 0;
        for (int i = 0; i < 8; i++) {
            assert_int_equal(ga[i], gb[i]);
            differ += ga[i] != gc[i];
            if (ga[i] >= 0) {
                assert_true((req[i] >> ga[i]) & 1);
                assert_false((taken >> ga[i]) & 1);
                taken |= B(ga[i]);
                made++;
            }
            made1 += g1[i] >= 0;
        }
        for (int i = 0; i < 8; i++)
            if (ga[i] < 0)
                assert_int_equal(req[i] & ~taken, 0);
        short_of += made1 < made;
    }
    assert_true(differ > 1000);
    assert_true(short_of > 100);
    noc_alloc_free(&a);
    noc_alloc_free(&b);
    noc_alloc_free(&c);
    noc_alloc_free(&one);
}

/* select (selalloc.cpp, one round): output-first grant/accept ranking
 * priorities, which BookSim2's iSLIP does not. 3 requesters, 2 resources,
 * fresh pointers:
 *   requesters 0 (low) and 1 (high) ask for resource 0: its grant goes to
 *     the highest priority, 1, though its pointer favours 0; 1 accepts:
 *     [-1 0], pointers: resource 0's to 2, requester 1's to 1. iSLIP: 0 wins.
 *   requester 0 alone asks for 0 (low) and 1 (high): both grant it; it
 *     accepts the high one, 1, though its pointer favours 0. iSLIP: 0. */
static void test_select_by_hand(void **state)
{
    (void)state;
    for (int slip = 0; slip <= 1; slip++) {
        noc_alloc_t a;
        noc_alloc_init(&a, slip ? NOC_ALLOC_ISLIP : NOC_ALLOC_SELECT, NOC_ARB_ROUND_ROBIN, 3, 2, 1);
        int16_t who[2] = { 0, 1 }, g[2];
        uint64_t mask[2] = { B(0), B(0) }, hi[2] = { 0, B(0) };
        noc_alloc_run_sparse_prio(&a, 2, who, mask, hi, g);
        expect(g, slip ? (const int[]){ 0, -1 } : (const int[]){ -1, 0 }, 2);
        assert_int_equal(noc_alloc_out_ptr(&a, 0), slip ? 1 : 2);
        assert_int_equal(noc_alloc_in_ptr(&a, slip ? 0 : 1), 1);
        noc_alloc_free(&a);

        noc_alloc_init(&a, slip ? NOC_ALLOC_ISLIP : NOC_ALLOC_SELECT, NOC_ARB_ROUND_ROBIN, 3, 2, 1);
        uint64_t m1[1] = { B(0) | B(1) }, h1[1] = { B(1) };
        noc_alloc_run_sparse_prio(&a, 1, who, m1, h1, g);
        assert_int_equal(g[0], slip ? 0 : 1);
        noc_alloc_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max_size_by_hand),
        cmocka_unit_test(test_max_size_priority),
        cmocka_unit_test(test_max_size_is_maximum),
        cmocka_unit_test(test_loa_by_hand),
        cmocka_unit_test(test_loa_pointers),
        cmocka_unit_test(test_pim_offsets),
        cmocka_unit_test(test_pim_rounds_and_stream),
        cmocka_unit_test(test_select_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
