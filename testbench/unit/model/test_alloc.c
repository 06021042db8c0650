/* test_alloc.c: separable allocators (model/alloc.h): valid matchings,
 * hand-worked input-first / output-first / iSLIP cases, pointers moving only
 * on final grants, maximal matchings from iSLIP with enough iterations, and
 * fair rotation under constant full load. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/alloc.h"
#include "model/rng.h"

#define MAXIO 64
#define B(r) (UINT64_C(1) << (r))

/* Each grant is to a requested resource, and no resource is granted twice.
 * Returns the number of grants. */
static int check_matching(const uint64_t *req, const int16_t *grant, int n_in, int n_out)
{
    int used[MAXIO] = {0}, made = 0;
    for (int i = 0; i < n_in; i++) {
        if (grant[i] < 0) {
            assert_int_equal(grant[i], -1);
            continue;
        }
        assert_in_range(grant[i], 0, n_out - 1);
        assert_true(req[i] & B(grant[i]));
        assert_int_equal(used[grant[i]], 0);
        used[grant[i]] = 1;
        made++;
    }
    return made;
}

/* No unmatched requester still requests an unmatched resource. */
static void check_maximal(const uint64_t *req, const int16_t *grant, int n_in, int n_out)
{
    uint64_t taken = 0;
    for (int i = 0; i < n_in; i++)
        if (grant[i] >= 0)
            taken |= B(grant[i]);
    uint64_t all = n_out == 64 ? ~UINT64_C(0) : B(n_out) - 1u;
    for (int i = 0; i < n_in; i++)
        if (grant[i] < 0)
            assert_int_equal(req[i] & all & ~taken, 0);
}

static void assert_grants(const int16_t *grant, const int *expect, int n)
{
    for (int i = 0; i < n; i++)
        assert_int_equal(grant[i], expect[i]);
}

static void test_kind_names(void **state)
{
    (void)state;
    for (int k = 0; k < NOC_ALLOC_COUNT; k++)
        assert_int_equal(noc_alloc_kind_parse(noc_alloc_kind_name((noc_alloc_kind_t)k)), k);
    assert_string_equal(noc_alloc_kind_name(NOC_ALLOC_ISLIP), "islip");
    assert_string_equal(noc_alloc_kind_name(NOC_ALLOC_INPUT_FIRST), "input_first");
    assert_string_equal(noc_alloc_kind_name(NOC_ALLOC_OUTPUT_FIRST), "output_first");
    assert_int_equal(noc_alloc_kind_parse("wavefront"), NOC_ALLOC_WAVEFRONT);
    assert_int_equal(noc_alloc_kind_parse("rr_wavefront"), NOC_ALLOC_RR_WAVEFRONT);
    assert_int_equal(noc_alloc_kind_parse("max_size"), NOC_ALLOC_MAX_SIZE);
    assert_int_equal(noc_alloc_kind_parse("loa"), NOC_ALLOC_LOA);
    assert_int_equal(noc_alloc_kind_parse("pim"), NOC_ALLOC_PIM);
    assert_int_equal(noc_alloc_kind_parse("select"), NOC_ALLOC_SELECT);
    assert_int_equal(noc_alloc_kind_parse("select(2)"), NOC_ALLOC_COUNT);
}

/* Requests used by the hand-worked cases (3 requesters, 3 resources):
 *   req0 = {0,1}, req1 = {0}, req2 = {0,2}. */
static const uint64_t case_req[3] = {B(0) | B(1), B(0), B(0) | B(2)};

/* Input-first, round-robin, all pointers at 0.
 * Run 1: input arbiters pick the lowest requested resource: 0->r0, 1->r0,
 *   2->r0. Output arbiter r0 sees {0,1,2}, picks 0. Grants [0,-1,-1].
 *   Updates: in0.ptr=1, out0.ptr=1. Requester 2 picked r0 but lost, so its
 *   pointer stays at 0 (had it moved, it would pick r2 next time).
 * Run 2: in0 (ptr 1) picks r1, in1 picks r0, in2 (ptr 0) picks r0 again.
 *   r0 sees {1,2} from ptr 1: picks 1. r1 sees {0}: picks 0.
 *   Grants [1,0,-1]. */
static void test_input_first_by_hand(void **state)
{
    (void)state;
    noc_alloc_t a;
    int16_t grant[3];
    noc_alloc_init(&a, NOC_ALLOC_INPUT_FIRST, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    noc_alloc_run(&a, case_req, grant);
    assert_grants(grant, (const int[]){0, -1, -1}, 3);
    assert_int_equal(noc_alloc_in_ptr(&a, 0), 1);
    assert_int_equal(noc_alloc_out_ptr(&a, 0), 1);
    assert_int_equal(noc_alloc_in_ptr(&a, 1), 0);
    assert_int_equal(noc_alloc_in_ptr(&a, 2), 0);
    noc_alloc_run(&a, case_req, grant);
    assert_grants(grant, (const int[]){1, 0, -1}, 3);
    noc_alloc_free(&a);
}

/* Output-first, round-robin, all pointers at 0.
 * Run 1: r0 sees {0,1,2}, grants 0; r1 sees {0}, grants 0; r2 sees {2},
 *   grants 2. Requester 0 holds grants {r0,r1} and accepts r0 (ptr 0);
 *   requester 2 accepts r2. Grants [0,-1,2]: one more than input-first on
 *   the same requests. r1's grant was not accepted: out1.ptr stays 0.
 * Run 2: r0 (ptr 1) grants 1; r1 grants 0; r2 (ptr 0) grants 2.
 *   Requester 0 (ptr 1) accepts r1, 1 accepts r0, 2 accepts r2.
 *   Grants [1,0,2], a full matching. */
static void test_output_first_by_hand(void **state)
{
    (void)state;
    noc_alloc_t a;
    int16_t grant[3];
    noc_alloc_init(&a, NOC_ALLOC_OUTPUT_FIRST, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    noc_alloc_run(&a, case_req, grant);
    assert_grants(grant, (const int[]){0, -1, 2}, 3);
    assert_int_equal(noc_alloc_out_ptr(&a, 0), 1);
    assert_int_equal(noc_alloc_out_ptr(&a, 1), 0);
    assert_int_equal(noc_alloc_out_ptr(&a, 2), 0); /* (2+1) % 3 */
    assert_int_equal(noc_alloc_in_ptr(&a, 0), 1);
    assert_int_equal(noc_alloc_in_ptr(&a, 2), 0);
    noc_alloc_run(&a, case_req, grant);
    assert_grants(grant, (const int[]){1, 0, 2}, 3);
    noc_alloc_free(&a);
}

/* iSLIP, 3 requesters and 3 resources; requesters 0 and 1 both ask for
 * {r0,r1}, requester 2 asks for nothing. Round-robin, pointers at 0.
 * Iteration 1: r0 and r1 both grant requester 0; it accepts r0.
 *   Pointers move: in0.ptr=1, out0.ptr=1.
 * Iteration 2: only requester 1 and r1 are free: r1 grants 1, 1 accepts.
 *   Final grants [0,1,-1], but no pointer moves: in1 and out1 stay at 0
 *   (moving them would give in1.ptr=2 and out1.ptr=2).
 * Run 2, iteration 1: r0 (ptr 1) grants 1, r1 (ptr 0) grants 0; both are
 *   accepted. Grants [1,0,-1]; in0.ptr=2, in1.ptr=1, out0.ptr=2, out1.ptr=1.
 * With one iteration run 1 gives [0,-1,-1], like output-first. */
static void test_islip_by_hand(void **state)
{
    (void)state;
    const uint64_t req[3] = {B(0) | B(1), B(0) | B(1), 0};
    int16_t grant[3];
    noc_alloc_t a;
    noc_alloc_init(&a, NOC_ALLOC_ISLIP, NOC_ARB_ROUND_ROBIN, 3, 3, 2);
    noc_alloc_run(&a, req, grant);
    assert_grants(grant, (const int[]){0, 1, -1}, 3);
    assert_int_equal(noc_alloc_in_ptr(&a, 0), 1);
    assert_int_equal(noc_alloc_out_ptr(&a, 0), 1);
    assert_int_equal(noc_alloc_in_ptr(&a, 1), 0);
    assert_int_equal(noc_alloc_out_ptr(&a, 1), 0);
    noc_alloc_run(&a, req, grant);
    assert_grants(grant, (const int[]){1, 0, -1}, 3);
    assert_int_equal(noc_alloc_in_ptr(&a, 0), 2);
    assert_int_equal(noc_alloc_in_ptr(&a, 1), 1);
    assert_int_equal(noc_alloc_out_ptr(&a, 0), 2);
    assert_int_equal(noc_alloc_out_ptr(&a, 1), 1);
    noc_alloc_free(&a);

    noc_alloc_init(&a, NOC_ALLOC_ISLIP, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
    noc_alloc_run(&a, req, grant);
    assert_grants(grant, (const int[]){0, -1, -1}, 3);
    noc_alloc_free(&a);
}

/* One requester asking for {r0,r1}, repeatedly. Input-first: its input
 * arbiter picks r0, then (ptr 1) r1, then r0 again. Output-first and iSLIP:
 * both resources grant it every time and its accept arbiter rotates the same
 * way. With matrix arbiters the order is the same (least recently granted).
 * (Not max_size: its search tries resources in increasing order, its
 * priority is over requesters; nor pim, random; test_alloc_dense.c.) */
static void test_single_requester_rotates(void **state)
{
    (void)state;
    const uint64_t req[1] = {B(0) | B(1)};
    for (int k = 0; k < NOC_ALLOC_COUNT; k++) {
        if (k == NOC_ALLOC_MAX_SIZE || k == NOC_ALLOC_PIM)
            continue;
        for (int arb = 0; arb < NOC_ARB_COUNT; arb++) {
            noc_alloc_t a;
            int16_t grant[1];
            noc_alloc_init(&a, (noc_alloc_kind_t)k, (noc_arb_kind_t)arb, 1, 2, 1);
            for (int t = 0; t < 6; t++) {
                noc_alloc_run(&a, req, grant);
                assert_int_equal(grant[0], t % 2);
            }
            noc_alloc_free(&a);
        }
    }
}

/* Requesters without requests get nothing; requests beyond n_out are ignored. */
static void test_no_requests(void **state)
{
    (void)state;
    for (int k = 0; k < NOC_ALLOC_COUNT; k++) {
        noc_alloc_t a;
        const uint64_t req[3] = {0, B(5), 0}; /* r5 does not exist (n_out 4) */
        int16_t grant[3] = {7, 7, 7};
        noc_alloc_init(&a, (noc_alloc_kind_t)k, NOC_ARB_MATRIX, 3, 4, 2);
        noc_alloc_run(&a, req, grant);
        assert_grants(grant, (const int[]){-1, -1, -1}, 3);
        noc_alloc_free(&a);
    }
}

/* All kinds, both arbiter kinds, random request matrices of several shapes:
 * every result is a valid matching; iSLIP with min(n_in, n_out) iterations
 * is maximal (each iteration adds a match while one is possible). */
static void test_random_matchings(void **state)
{
    (void)state;
    static const int shapes[][2] = {{1, 1}, {4, 4}, {5, 3}, {3, 7}, {8, 8}, {20, 64}, {64, 5}};
    noc_rng_t rng;
    noc_rng_seed(&rng, 1234, 0);
    for (int k = 0; k < NOC_ALLOC_COUNT; k++) {
        for (int arb = 0; arb < NOC_ARB_COUNT; arb++) {
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                int n_in = shapes[s][0], n_out = shapes[s][1];
                int iters = n_in < n_out ? n_in : n_out;
                noc_alloc_t a;
                noc_alloc_init(&a, (noc_alloc_kind_t)k, (noc_arb_kind_t)arb, n_in, n_out, iters);
                for (int trial = 0; trial < 500; trial++) {
                    uint64_t req[MAXIO];
                    int16_t grant[MAXIO];
                    uint32_t density = noc_rng_below(&rng, 10) + 1; /* of 16 */
                    for (int i = 0; i < n_in; i++) {
                        req[i] = 0;
                        for (int r = 0; r < n_out; r++)
                            if (noc_rng_below(&rng, 16) < density)
                                req[i] |= B(r);
                    }
                    noc_alloc_run(&a, req, grant);
                    int made = check_matching(req, grant, n_in, n_out);
                    int any = 0;
                    for (int i = 0; i < n_in; i++)
                        any |= req[i] != 0;
                    /* Every kind matches something when anything is requested. */
                    assert_true(!any || made > 0);
                    if (k == NOC_ALLOC_ISLIP)
                        check_maximal(req, grant, n_in, n_out);
                }
                noc_alloc_free(&a);
            }
        }
    }
}

/* Constant full requests. Pointers start equal, so in the first cycles all
 * requesters compete for the same resource and requester i first wins at
 * cycle i; after that warm-up every requester gets the same share and is
 * served by every resource. Single-iteration iSLIP with round-robin pointers
 * desynchronises within n cycles and then gives a full matching every cycle,
 * rotating each requester through all resources (McKeown's result). */
static void test_full_load_rotation(void **state)
{
    (void)state;
    enum { N = 6, CYCLES = N * 50 };
    uint64_t req[N];
    for (int i = 0; i < N; i++)
        req[i] = B(N) - 1u;
    for (int k = 0; k < NOC_ALLOC_COUNT; k++) {
        if (k == NOC_ALLOC_PIM)
            continue; /* (random: test_alloc_dense.c) */
        for (int arb = 0; arb < NOC_ARB_COUNT; arb++) {
            noc_alloc_t a;
            noc_alloc_init(&a, (noc_alloc_kind_t)k, (noc_arb_kind_t)arb, N, N, 1);
            int count[N][N] = {{0}}, total[N] = {0};
            int16_t grant[N];
            for (int t = 0; t < CYCLES; t++) {
                noc_alloc_run(&a, req, grant);
                int made = check_matching(req, grant, N, N);
                if (k == NOC_ALLOC_ISLIP && arb == NOC_ARB_ROUND_ROBIN && t >= N)
                    assert_int_equal(made, N);
                if (t < N)
                    continue; /* warm-up: requester i first wins at cycle i */
                for (int i = 0; i < N; i++)
                    if (grant[i] >= 0) {
                        count[i][grant[i]]++;
                        total[i]++;
                    }
            }
            /* Fair share after warm-up: all requesters within one grant of
             * each other, and every requester got every resource. */
            int lo = total[0], hi = total[0];
            for (int i = 0; i < N; i++) {
                lo = total[i] < lo ? total[i] : lo;
                hi = total[i] > hi ? total[i] : hi;
                for (int r = 0; r < N; r++)
                    assert_true(count[i][r] > 0);
            }
            assert_true(hi - lo <= 1);
            if (k == NOC_ALLOC_ISLIP && arb == NOC_ARB_ROUND_ROBIN) {
                /* After warm-up each window of N cycles gives every
                 * (requester, resource) pair exactly once. */
                int pair[N][N] = {{0}};
                for (int t = 0; t < N; t++) {
                    noc_alloc_run(&a, req, grant);
                    for (int i = 0; i < N; i++)
                        pair[i][grant[i]]++;
                }
                for (int i = 0; i < N; i++)
                    for (int r = 0; r < N; r++)
                        assert_int_equal(pair[i][r], 1);
            }
            noc_alloc_free(&a);
        }
    }
}

/* The sparse entry (and its shortcuts) against the dense one: two
 * allocators fed the same random requests stay in step, grant for grant and
 * pointer for pointer, for every kind and arbiter. Requests are drawn sparse
 * and often conflict-free, so that both shortcuts and the general path run. */
static void test_sparse_equals_dense(void **state)
{
    (void)state;
    /* 10 requesters: the dense entry takes the list path too; 80: the
     * dense entry's own multi-word path, a separate implementation */
    static const int sizes[] = {10, 80};
    /* iterations 1 and 2: one-round iSLIP has a two-requester shortcut of
     * its own, more rounds take the general path */
    for (int iters = 1; iters <= 2; iters++)
    for (int z = 0; z < 2; z++)
    for (int kind = 0; kind < NOC_ALLOC_COUNT; kind++) {
        for (int arb = 0; arb < NOC_ARB_COUNT; arb++) {
            const int n_in = sizes[z], n_out = 5;
            noc_alloc_t dense, sparse;
            noc_alloc_init(&dense, (noc_alloc_kind_t)kind, (noc_arb_kind_t)arb, n_in, n_out, iters);
            noc_alloc_init(&sparse, (noc_alloc_kind_t)kind, (noc_arb_kind_t)arb, n_in, n_out, iters);
            noc_rng_t rng;
            noc_rng_seed(&rng, 99, (uint64_t)(iters * 1024 + z * 64 + kind * 8 + arb));
            int shortcut = 0, pairs = 0;
            for (int round = 0; round < 3000; round++) {
                uint64_t req[80] = {0}, mask[80];
                int16_t gd[80], gs[80], who[80];
                int m = 0;
                for (int i = 0; i < n_in; i++) {
                    if (noc_rng_below(&rng, 4) != 0)
                        continue;
                    uint64_t bits = noc_rng_below(&rng, 2) ? UINT64_C(1) << noc_rng_below(&rng, (uint32_t)n_out)
                                                           : (uint64_t)noc_rng_below(&rng, 32);
                    if (!bits)
                        continue;
                    req[i] = bits;
                    who[m] = (int16_t)i;
                    mask[m] = bits;
                    m++;
                }
                uint64_t seen = 0;
                int simple = 1;
                for (int k = 0; k < m; k++) {
                    if ((mask[k] & (mask[k] - 1)) || (mask[k] & seen))
                        simple = 0;
                    seen |= mask[k];
                }
                shortcut += simple && m > 0;
                pairs += m == 2; /* (the two-requester shortcuts) */
                noc_alloc_run(&dense, req, gd);
                noc_alloc_run_sparse(&sparse, m, who, mask, gs); /* (max_size moves on with none too) */
                for (int k = 0; k < m; k++)
                    assert_int_equal(gs[k], gd[who[k]]);
                assert_int_equal(sparse.pri, dense.pri);
                for (int i = 0; i < n_in; i++) {
                    assert_int_equal(noc_alloc_in_ptr(&sparse, i), noc_alloc_in_ptr(&dense, i));
                    if (sparse.arb == NOC_ARB_MATRIX) /* (loa has pointers whatever arb says) */
                        assert_memory_equal(sparse.in_arb[i].matrix, dense.in_arb[i].matrix, 8 * 5);
                }
                for (int r = 0; r < n_out; r++) {
                    assert_int_equal(noc_alloc_out_ptr(&sparse, r), noc_alloc_out_ptr(&dense, r));
                    if (sparse.arb == NOC_ARB_MATRIX)
                        assert_memory_equal(sparse.out_arb[r].matrix, dense.out_arb[r].matrix,
                                            8 * (size_t)n_in * (size_t)((n_in + 63) / 64));
                }
            }
            if (n_in <= 10) {
                assert_true(shortcut > 100); /* the shortcuts ran too */
                assert_true(pairs > 100);
            }
            noc_alloc_free(&dense);
            noc_alloc_free(&sparse);
        }
    }
}

/* BookSim2's wavefront, worked by hand (side 3: diagonal d holds the
 * requests (requester (d - resource) mod 3, resource), resources in
 * increasing order; the diagonals from the priority one on):
 *   every request, pri 0: d 0 gives (0,0), (2,1), (1,2), all granted, the
 *     first (0,0): pri 1 either way;
 *   again, pri 1: (1,0), (0,1), (2,2); first 1 + 0: pri 2 either way;
 *   only (2,2), pri 0: d 0 holds (0,0), (2,1), (1,2), none requested; d 1
 *     (1,0), (0,1), (2,2): granted; pri 1 (wavefront) or (2 + 2 + 1) mod 3
 *     = 2 (rr_wavefront);
 *   side 2, req0 = {0,1}, req1 = {0}, pri 0: d 0: (0,0) granted, (1,1) not
 *     requested; d 1: (1,0) lost (resource 0 taken), (0,1) lost (requester 0
 *     matched): [0, -1]; pri 1: d 1 first: (1,0) and (0,1): [1, 0]. */
static void test_wavefront_by_hand(void **state)
{
    (void)state;
    for (int rr = 0; rr <= 1; rr++) {
        noc_alloc_kind_t kind = rr ? NOC_ALLOC_RR_WAVEFRONT : NOC_ALLOC_WAVEFRONT;
        noc_alloc_t a;
        noc_alloc_init(&a, kind, NOC_ARB_ROUND_ROBIN, 3, 3, 1);
        const uint64_t all[3] = { 7, 7, 7 };
        int16_t g[3];
        noc_alloc_run(&a, all, g);
        assert_int_equal(g[0], 0);
        assert_int_equal(g[1], 2);
        assert_int_equal(g[2], 1);
        assert_int_equal(a.pri, 1);
        noc_alloc_run(&a, all, g);
        assert_int_equal(g[0], 1);
        assert_int_equal(g[1], 0);
        assert_int_equal(g[2], 2);
        assert_int_equal(a.pri, 2);
        const uint64_t none[3] = { 0, 0, 0 };
        noc_alloc_run(&a, none, g); /* no request: the diagonal stays */
        assert_int_equal(a.pri, 2);
        a.pri = 0;
        const uint64_t one[3] = { 0, 0, B(2) };
        noc_alloc_run(&a, one, g);
        assert_int_equal(g[2], 2);
        assert_int_equal(a.pri, rr ? 2 : 1);
        noc_alloc_free(&a);

        noc_alloc_init(&a, kind, NOC_ARB_ROUND_ROBIN, 2, 2, 1);
        const uint64_t two[2] = { B(0) | B(1), B(0) };
        noc_alloc_run(&a, two, g);
        assert_int_equal(g[0], 0);
        assert_int_equal(g[1], -1);
        assert_int_equal(a.pri, 1);
        noc_alloc_run(&a, two, g);
        assert_int_equal(g[0], 1);
        assert_int_equal(g[1], 0);
        noc_alloc_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_input_first_by_hand),
        cmocka_unit_test(test_output_first_by_hand),
        cmocka_unit_test(test_islip_by_hand),
        cmocka_unit_test(test_single_requester_rotates),
        cmocka_unit_test(test_no_requests),
        cmocka_unit_test(test_random_matchings),
        cmocka_unit_test(test_full_load_rotation),
        cmocka_unit_test(test_sparse_equals_dense),
        cmocka_unit_test(test_wavefront_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
