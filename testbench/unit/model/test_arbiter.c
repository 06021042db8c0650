/* test_arbiter.c: round-robin and matrix arbiters (model/arbiter.h): fairness,
 * pure pick, priority moving only on update, LRG order, multi-word vectors,
 * and agreement with simple reference models on random traffic. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/arbiter.h"
#include "model/rng.h"

#define MAXN 200

static void set_req(uint64_t *req, int n, const int *who, int count)
{
    memset(req, 0, (size_t)NOC_ARB_WORDS(n) * sizeof *req);
    for (int i = 0; i < count; i++)
        req[who[i] / 64] |= UINT64_C(1) << (who[i] % 64);
}

static void all_req(uint64_t *req, int n)
{
    memset(req, 0, (size_t)NOC_ARB_WORDS(n) * sizeof *req);
    for (int i = 0; i < n; i++)
        req[i / 64] |= UINT64_C(1) << (i % 64);
}

static void test_kind_names(void **state)
{
    (void)state;
    for (int k = 0; k < NOC_ARB_COUNT; k++)
        assert_int_equal(noc_arb_kind_parse(noc_arb_kind_name((noc_arb_kind_t)k)), k);
    assert_string_equal(noc_arb_kind_name(NOC_ARB_ROUND_ROBIN), "round_robin");
    assert_string_equal(noc_arb_kind_name(NOC_ARB_MATRIX), "matrix");
    assert_int_equal(noc_arb_kind_parse("lottery"), NOC_ARB_COUNT);
}

/* With everybody requesting, n picks each followed by update visit every
 * requester exactly once, for both kinds and for multi-word sizes. */
static void test_fairness_all_requesting(void **state)
{
    (void)state;
    static const int sizes[] = {1, 2, 5, 64, 65, 130};
    uint64_t req[NOC_ARB_WORDS(MAXN)];
    for (int kind = 0; kind < NOC_ARB_COUNT; kind++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int n = sizes[s];
            noc_arbiter_t a;
            noc_arbiter_init(&a, (noc_arb_kind_t)kind, n);
            all_req(req, n);
            for (int round = 0; round < 3; round++) {
                int seen[MAXN] = {0};
                for (int g = 0; g < n; g++) {
                    int w = noc_arbiter_pick(&a, req);
                    assert_in_range(w, 0, n - 1);
                    /* From a fresh arbiter both kinds grant 0, 1, 2, ... */
                    assert_int_equal(w, g);
                    seen[w]++;
                    noc_arbiter_update(&a, w);
                }
                for (int i = 0; i < n; i++)
                    assert_int_equal(seen[i], 1);
            }
            noc_arbiter_free(&a);
        }
    }
}

static void test_empty_request(void **state)
{
    (void)state;
    uint64_t req[NOC_ARB_WORDS(MAXN)] = {0};
    for (int kind = 0; kind < NOC_ARB_COUNT; kind++) {
        noc_arbiter_t a;
        noc_arbiter_init(&a, (noc_arb_kind_t)kind, 130);
        assert_int_equal(noc_arbiter_pick(&a, req), -1);
        noc_arbiter_free(&a);
    }
}

/* pick is pure: without update the same winner comes back and no state moves. */
static void test_pick_is_pure(void **state)
{
    (void)state;
    uint64_t req[NOC_ARB_WORDS(MAXN)];
    int who[] = {2, 3, 70};
    for (int kind = 0; kind < NOC_ARB_COUNT; kind++) {
        noc_arbiter_t a;
        int n = 100, words = NOC_ARB_WORDS(100);
        noc_arbiter_init(&a, (noc_arb_kind_t)kind, n);
        noc_arbiter_update(&a, 2);
        set_req(req, n, who, 3);
        int ptr = a.ptr;
        uint64_t copy[100 * NOC_ARB_WORDS(100)];
        if (a.matrix)
            memcpy(copy, a.matrix, sizeof copy);
        int first = noc_arbiter_pick(&a, req);
        assert_int_equal(first, 3); /* 2 was just granted */
        for (int t = 0; t < 10; t++)
            assert_int_equal(noc_arbiter_pick(&a, req), first);
        assert_int_equal(a.ptr, ptr);
        if (a.matrix)
            assert_memory_equal(copy, a.matrix, sizeof(uint64_t) * (size_t)(n * words));
        noc_arbiter_free(&a);
    }
}

static void test_round_robin_pointer(void **state)
{
    (void)state;
    uint64_t req[NOC_ARB_WORDS(MAXN)];
    noc_arbiter_t a;
    noc_arbiter_init(&a, NOC_ARB_ROUND_ROBIN, 5);
    assert_int_equal(a.ptr, 0);
    int r01[] = {0, 1}, r4[] = {4}, r034[] = {0, 3, 4};
    noc_arbiter_update(&a, 2); /* priority now starts at 3 */
    assert_int_equal(a.ptr, 3);
    set_req(req, 5, r01, 2);
    assert_int_equal(noc_arbiter_pick(&a, req), 0); /* wraps past 4 */
    set_req(req, 5, r4, 1);
    assert_int_equal(noc_arbiter_pick(&a, req), 4);
    set_req(req, 5, r034, 3);
    assert_int_equal(noc_arbiter_pick(&a, req), 3);
    noc_arbiter_update(&a, 4); /* (4+1) % 5 == 0 */
    assert_int_equal(a.ptr, 0);
    assert_int_equal(noc_arbiter_pick(&a, req), 0);
    noc_arbiter_free(&a);

    /* Across words: requesters 5 and 129 of 130. */
    noc_arbiter_init(&a, NOC_ARB_ROUND_ROBIN, 130);
    int r[] = {5, 129};
    set_req(req, 130, r, 2);
    assert_int_equal(noc_arbiter_pick(&a, req), 5);
    noc_arbiter_update(&a, 5);
    assert_int_equal(noc_arbiter_pick(&a, req), 129);
    noc_arbiter_update(&a, 129);
    assert_int_equal(a.ptr, 0);
    assert_int_equal(noc_arbiter_pick(&a, req), 5);
    noc_arbiter_free(&a);
}

/* Bits at or above n in the last word are not requesters. */
static void test_ignores_bits_beyond_n(void **state)
{
    (void)state;
    for (int kind = 0; kind < NOC_ARB_COUNT; kind++) {
        noc_arbiter_t a;
        noc_arbiter_init(&a, (noc_arb_kind_t)kind, 3);
        uint64_t req = UINT64_C(1) << 3;
        assert_int_equal(noc_arbiter_pick(&a, &req), -1);
        req |= UINT64_C(1) << 1;
        assert_int_equal(noc_arbiter_pick(&a, &req), 1);
        noc_arbiter_free(&a);
    }
}

/* Matrix: least recently granted wins. */
static void test_matrix_lrg(void **state)
{
    (void)state;
    uint64_t req[1];
    noc_arbiter_t a;
    noc_arbiter_init(&a, NOC_ARB_MATRIX, 4);
    int r13[] = {1, 3}, r013[] = {0, 1, 3}, r03[] = {0, 3};
    /* Initially lower indices win. */
    set_req(req, 4, r13, 2);
    assert_int_equal(noc_arbiter_pick(&a, req), 1);
    all_req(req, 4);
    assert_int_equal(noc_arbiter_pick(&a, req), 0);
    /* Grant 0 then 1: priority order becomes 2, 3, 0, 1. */
    noc_arbiter_update(&a, 0);
    noc_arbiter_update(&a, 1);
    assert_int_equal(noc_arbiter_pick(&a, req), 2);
    /* Grant 3: order 2, 0, 1, 3. */
    noc_arbiter_update(&a, 3);
    set_req(req, 4, r013, 3);
    assert_int_equal(noc_arbiter_pick(&a, req), 0);
    set_req(req, 4, r13, 2);
    assert_int_equal(noc_arbiter_pick(&a, req), 1);
    /* {0, 3}: 0 was granted before 3, so 0 wins; once 0 is granted again,
     * 3 is the less recent one. */
    set_req(req, 4, r03, 2);
    assert_int_equal(noc_arbiter_pick(&a, req), 0);
    noc_arbiter_update(&a, 0); /* order 2, 1, 3, 0 */
    assert_int_equal(noc_arbiter_pick(&a, req), 3);
    /* Row 0 is clear (0 beats nobody), column 0 set in every other row. */
    assert_int_equal(a.matrix[0], 0);
    for (int i = 1; i < 4; i++)
        assert_true(a.matrix[i] & 1u);
    noc_arbiter_free(&a);
}

/* Random requests and sporadic updates against reference models: a pointer
 * scan for round-robin, an explicit priority list for matrix (LRG). */
static void test_against_reference(void **state)
{
    (void)state;
    static const int sizes[] = {3, 64, 100, 150};
    noc_rng_t rng;
    noc_rng_seed(&rng, 42, 7);
    for (int kind = 0; kind < NOC_ARB_COUNT; kind++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int n = sizes[s];
            noc_arbiter_t a;
            noc_arbiter_init(&a, (noc_arb_kind_t)kind, n);
            int ptr = 0, order[MAXN];
            for (int i = 0; i < n; i++)
                order[i] = i;
            uint64_t req[NOC_ARB_WORDS(MAXN)];
            for (int cycle = 0; cycle < 2000; cycle++) {
                memset(req, 0, sizeof req);
                int want[MAXN], density = (int)noc_rng_below(&rng, 4) + 1;
                for (int i = 0; i < n; i++) {
                    want[i] = noc_rng_below(&rng, 8) < (uint32_t)density;
                    if (want[i])
                        req[i / 64] |= UINT64_C(1) << (i % 64);
                }
                int expect = -1, pos = -1;
                if (kind == NOC_ARB_ROUND_ROBIN) {
                    for (int d = 0; d < n && expect < 0; d++)
                        if (want[(ptr + d) % n])
                            expect = (ptr + d) % n;
                } else {
                    for (int p = 0; p < n && expect < 0; p++)
                        if (want[order[p]]) {
                            expect = order[p];
                            pos = p;
                        }
                }
                int got = noc_arbiter_pick(&a, req);
                assert_int_equal(got, expect);
                if (got < 0 || noc_rng_below(&rng, 3) == 0)
                    continue; /* not granted this cycle: nothing moves */
                noc_arbiter_update(&a, got);
                if (kind == NOC_ARB_ROUND_ROBIN) {
                    ptr = (got + 1) % n;
                } else {
                    memmove(&order[pos], &order[pos + 1], (size_t)(n - 1 - pos) * sizeof order[0]);
                    order[n - 1] = got;
                }
            }
            noc_arbiter_free(&a);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_fairness_all_requesting),
        cmocka_unit_test(test_empty_request),
        cmocka_unit_test(test_pick_is_pure),
        cmocka_unit_test(test_round_robin_pointer),
        cmocka_unit_test(test_ignores_bits_beyond_n),
        cmocka_unit_test(test_matrix_lrg),
        cmocka_unit_test(test_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
