/* test_alloc_list.c: the list allocator with priorities (model/alloc_list.h)
 * that adaptive routing's VC allocation runs: hand-worked cases for each
 * kind (priorities at the input arbiters, none in iSLIP, pointers moving on
 * final grants only), and, with all priorities equal, the same grants and
 * pointers as alloc.h's allocators on thousands of random request sets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/alloc_list.h"
#include "model/rng.h"

static int16_t scratch[4 * 64];

static noc_alloc_req_t rq(int in, int out, int pri)
{
    noc_alloc_req_t q = { (int16_t)in, (int16_t)out, (int16_t)pri };
    return q;
}

/* Input-first: input 0 asks for resource 1 (priority 0) and 3 (priority
 * 1): it picks 3 though 1 is first after its pointer; input 1 asks for 3
 * alone and loses it to input 0 at the resource's arbiter (pointer 0). */
static void test_input_first_priority(void **state)
{
    (void)state;
    uint16_t in_ptr[2] = {0, 0}, out_ptr[4] = {0, 0, 0, 0};
    noc_alloc_req_t req[3] = { rq(0, 1, 0), rq(0, 3, 1), rq(1, 3, 0) };
    uint8_t grant[3];
    noc_alloc_list(NOC_ALLOC_INPUT_FIRST, 1, 3, req, grant, in_ptr, 2, out_ptr, 4, scratch);
    assert_int_equal(grant[0], 0);
    assert_int_equal(grant[1], 1);
    assert_int_equal(grant[2], 0);
    assert_int_equal(in_ptr[0], 0);  /* (3 + 1) mod 4 */
    assert_int_equal(out_ptr[3], 1); /* after input 0 */
    assert_int_equal(in_ptr[1], 0);  /* no grant: stays */
    /* again: resource 3's pointer now favours input 1, but input 0 still
     * picks 3 by priority; 3 goes to input 1, input 0 gets nothing (its
     * choice was 3) */
    noc_alloc_list(NOC_ALLOC_INPUT_FIRST, 1, 3, req, grant, in_ptr, 2, out_ptr, 4, scratch);
    assert_int_equal(grant[0] + grant[1], 0);
    assert_int_equal(grant[2], 1);
    assert_int_equal(out_ptr[3], 0); /* (1 + 1) mod 2 */
}

/* Equal priorities: the input arbiter takes the first at or after its
 * pointer, cyclically. */
static void test_input_first_round_robin(void **state)
{
    (void)state;
    uint16_t in_ptr[1] = {2}, out_ptr[4] = {0};
    noc_alloc_req_t req[2] = { rq(0, 0, 0), rq(0, 1, 0) };
    uint8_t grant[2];
    noc_alloc_list(NOC_ALLOC_INPUT_FIRST, 1, 2, req, grant, in_ptr, 1, out_ptr, 4, scratch);
    assert_int_equal(grant[0], 1); /* 0 is first after 2 (2, 3, then 0) */
    assert_int_equal(in_ptr[0], 1);
    noc_alloc_list(NOC_ALLOC_INPUT_FIRST, 1, 2, req, grant, in_ptr, 1, out_ptr, 4, scratch);
    assert_int_equal(grant[1], 1);
    assert_int_equal(in_ptr[0], 2);
}

/* Output-first: resource 0's arbiter (pointer 1) picks input 1 over input
 * 0; input 1 was also picked by resource 2 and takes the priority-1
 * request (2); resource 0 then goes unused, input 0 unmatched. */
static void test_output_first(void **state)
{
    (void)state;
    uint16_t in_ptr[2] = {0, 0}, out_ptr[3] = {1, 0, 0};
    noc_alloc_req_t req[3] = { rq(0, 0, 0), rq(1, 0, 0), rq(1, 2, 1) };
    uint8_t grant[3];
    noc_alloc_list(NOC_ALLOC_OUTPUT_FIRST, 1, 3, req, grant, in_ptr, 2, out_ptr, 3, scratch);
    assert_int_equal(grant[0], 0);
    assert_int_equal(grant[1], 0);
    assert_int_equal(grant[2], 1);
    assert_int_equal(in_ptr[1], 0);  /* (2 + 1) mod 3 */
    assert_int_equal(out_ptr[2], 0); /* (1 + 1) mod 2 */
    assert_int_equal(out_ptr[0], 1); /* no grant at 0: stays */
}

/* iSLIP ranks no priority; a second iteration matches what the first left,
 * without moving pointers. Resource 0 grants input 0 (pointer 0), resource 1
 * grants input 0 too; input 0 accepts 0 (its pointer); in iteration 2
 * resource 1 grants input 1. */
static void test_islip(void **state)
{
    (void)state;
    uint16_t in_ptr[2] = {0, 0}, out_ptr[2] = {0, 0};
    noc_alloc_req_t req[3] = { rq(0, 0, 0), rq(0, 1, 5), rq(1, 1, 0) };
    uint8_t grant[3];
    noc_alloc_list(NOC_ALLOC_ISLIP, 1, 3, req, grant, in_ptr, 2, out_ptr, 2, scratch);
    assert_int_equal(grant[0] + 2 * grant[1] + 4 * grant[2], 1);
    assert_int_equal(in_ptr[0], 1);
    assert_int_equal(out_ptr[0], 1);
    in_ptr[0] = 0;
    out_ptr[0] = 0;
    noc_alloc_list(NOC_ALLOC_ISLIP, 2, 3, req, grant, in_ptr, 2, out_ptr, 2, scratch);
    assert_int_equal(grant[0] + 2 * grant[1] + 4 * grant[2], 5);
    assert_int_equal(in_ptr[1], 0);  /* matched in iteration 2: no move */
    assert_int_equal(out_ptr[1], 0);
}

/* With equal priorities the list allocator is alloc.h's separable
 * allocator with round-robin arbiters: the same grants and pointers, on
 * random request sets and pointer states, for every kind. */
static void test_same_as_alloc(void **state)
{
    (void)state;
    static const noc_alloc_kind_t kinds[3] = { NOC_ALLOC_INPUT_FIRST, NOC_ALLOC_OUTPUT_FIRST, NOC_ALLOC_ISLIP };
    noc_rng_t rng;
    noc_rng_seed(&rng, 7, 0);
    for (int trial = 0; trial < 3000; trial++) {
        noc_alloc_kind_t kind = kinds[trial % 3];
        int n_in = 1 + (int)noc_rng_below(&rng, 20), n_out = 1 + (int)noc_rng_below(&rng, 20);
        int iters = 1 + (int)noc_rng_below(&rng, 3);
        noc_alloc_t a;
        noc_alloc_init(&a, kind, NOC_ARB_ROUND_ROBIN, n_in, n_out, iters);
        uint16_t in_ptr[32], out_ptr[32];
        for (int i = 0; i < n_in; i++)
            in_ptr[i] = (uint16_t)noc_rng_below(&rng, (uint32_t)n_out);
        for (int o = 0; o < n_out; o++)
            out_ptr[o] = (uint16_t)noc_rng_below(&rng, (uint32_t)n_in);
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < n_in; i++)
                a.in_ptr[i] = (uint8_t)in_ptr[i];
            for (int o = 0; o < n_out; o++)
                a.out_ptr[o] = out_ptr[o];
            uint64_t req[32];
            noc_alloc_req_t list[32 * 32];
            int n = 0;
            for (int i = 0; i < n_in; i++) {
                req[i] = 0;
                for (int o = 0; o < n_out; o++)
                    if (noc_rng_below(&rng, 3) == 0) {
                        req[i] |= UINT64_C(1) << o;
                        list[n++] = rq(i, o, 0);
                    }
            }
            int16_t g[32];
            uint8_t lg[32 * 32];
            noc_alloc_run(&a, req, g);
            noc_alloc_list(kind, iters, n, list, lg, in_ptr, n_in, out_ptr, n_out, scratch);
            int16_t lgi[32];
            for (int i = 0; i < n_in; i++)
                lgi[i] = -1;
            for (int k = 0; k < n; k++)
                if (lg[k]) {
                    assert_int_equal(lgi[list[k].in], -1);
                    lgi[list[k].in] = list[k].out;
                }
            for (int i = 0; i < n_in; i++) {
                assert_int_equal(lgi[i], g[i]);
                assert_int_equal(in_ptr[i], noc_alloc_in_ptr(&a, i));
            }
            for (int o = 0; o < n_out; o++)
                assert_int_equal(out_ptr[o], noc_alloc_out_ptr(&a, o));
        }
        noc_alloc_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_first_priority),
        cmocka_unit_test(test_input_first_round_robin),
        cmocka_unit_test(test_output_first),
        cmocka_unit_test(test_islip),
        cmocka_unit_test(test_same_as_alloc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
