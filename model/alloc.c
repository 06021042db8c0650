/* alloc.c: separable allocators (input-first, output-first, iSLIP) built from
 * one arbiter per requester and one per resource. All working storage is made
 * in noc_alloc_init; noc_alloc_run only reads and writes it. */
#include "model/xalloc.h"
#include "model/alloc.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[NOC_ALLOC_COUNT] = {
    [NOC_ALLOC_INPUT_FIRST] = "input_first",
    [NOC_ALLOC_OUTPUT_FIRST] = "output_first",
    [NOC_ALLOC_ISLIP] = "islip",
};

const char *noc_alloc_kind_name(noc_alloc_kind_t k)
{
    if ((int)k < 0 || k >= NOC_ALLOC_COUNT)
        return "?";
    return kind_names[k];
}

noc_alloc_kind_t noc_alloc_kind_parse(const char *name)
{
    if (!name)
        return NOC_ALLOC_COUNT;
    /* BookSim2 spells the separable kinds "separable_input_first" etc. */
    if (strncmp(name, "separable_", 10) == 0)
        name += 10;
    for (int k = 0; k < NOC_ALLOC_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return (noc_alloc_kind_t)k;
    return NOC_ALLOC_COUNT;
}

/* Scratch layout: per resource a requester vector (n_out * W_in words), then
 * per requester a resource mask (n_in words). */
static int in_words(const noc_alloc_t *a) { return NOC_ARB_WORDS(a->n_in); }
static uint64_t *res_vec(noc_alloc_t *a, int r)
{
    return a->scratch + (size_t)r * (size_t)in_words(a);
}
static uint64_t *in_mask(noc_alloc_t *a)
{
    return a->scratch + (size_t)a->n_out * (size_t)in_words(a);
}

static void set_bit(uint64_t *v, int i) { v[i >> 6] |= UINT64_C(1) << (i & 63); }

size_t noc_alloc_block_size(int n_in, int n_out)
{
    size_t words = (size_t)n_out * (size_t)NOC_ARB_WORDS(n_in) + (size_t)n_in;
    size_t bytes = ((size_t)n_in + (size_t)n_out) * sizeof(noc_arbiter_t) +
                   (words + (size_t)n_in) * sizeof(uint64_t) + (size_t)n_in * sizeof(int16_t);
    return (bytes + 63) & ~(size_t)63;
}

void noc_alloc_init_at(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                       int n_in, int n_out, int iters, void *block)
{
    assert(kind < NOC_ALLOC_COUNT && arb < NOC_ARB_COUNT);
    assert(n_in >= 1 && n_out >= 1 && n_out <= 64);
    assert(kind != NOC_ALLOC_ISLIP || iters >= 1);
    a->kind = kind;
    a->n_in = n_in;
    a->n_out = n_out;
    a->iters = iters >= 1 ? iters : 1;
    a->owns = block == NULL;
    /* One block for arbiters and working storage, so that an allocator
     * touches few cache lines. */
    size_t words = (size_t)n_out * (size_t)NOC_ARB_WORDS(n_in) + (size_t)n_in;
    size_t arbs = (size_t)n_in + (size_t)n_out;
    if (!block)
        block = noc_xcalloc(1, noc_alloc_block_size(n_in, n_out), "allocator");
    a->in_arb = (noc_arbiter_t *)block;
    a->out_arb = a->in_arb + n_in;
    a->scratch = (uint64_t *)((char *)block + arbs * sizeof(noc_arbiter_t));
    a->dense = a->scratch + words;
    a->dgrant = (int16_t *)(a->dense + n_in);
    for (int i = 0; i < n_in; i++)
        noc_arbiter_init(&a->in_arb[i], arb, n_out);
    for (int r = 0; r < n_out; r++)
        noc_arbiter_init(&a->out_arb[r], arb, n_in);
}

void noc_alloc_init(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                    int n_in, int n_out, int iters)
{
    noc_alloc_init_at(a, kind, arb, n_in, n_out, iters, NULL);
}

void noc_alloc_free(noc_alloc_t *a)
{
    if (!a->in_arb)
        return;
    for (int i = 0; i < a->n_in; i++)
        noc_arbiter_free(&a->in_arb[i]);
    for (int r = 0; r < a->n_out; r++)
        noc_arbiter_free(&a->out_arb[r]);
    if (a->owns)
        free(a->in_arb); /* the block holding everything */
    a->in_arb = a->out_arb = NULL;
    a->scratch = a->dense = NULL;
    a->dgrant = NULL;
}

static void grant_final(noc_alloc_t *a, int16_t *grant, int i, int r, int move)
{
    grant[i] = (int16_t)r;
    if (move) {
        noc_arbiter_update(&a->in_arb[i], r);
        noc_arbiter_update(&a->out_arb[r], i);
    }
}

static void run_input_first(noc_alloc_t *a, const uint64_t *req, uint64_t out_mask,
                            int16_t *grant)
{
    memset(a->scratch, 0, (size_t)a->n_out * (size_t)in_words(a) * sizeof *a->scratch);
    for (int i = 0; i < a->n_in; i++) {
        uint64_t want = req[i] & out_mask;
        if (!want)
            continue;
        int r = noc_arbiter_pick(&a->in_arb[i], &want);
        set_bit(res_vec(a, r), i);
    }
    for (int r = 0; r < a->n_out; r++) {
        int i = noc_arbiter_pick(&a->out_arb[r], res_vec(a, r));
        if (i >= 0)
            grant_final(a, grant, i, r, 1);
    }
}

/* One output-first grant/accept round over the requesters without a grant
 * and the resources not in *taken. Returns the number of matches made. */
static int grant_accept(noc_alloc_t *a, const uint64_t *req, uint64_t out_mask,
                        uint64_t *taken, int16_t *grant, int move)
{
    uint64_t *granted = in_mask(a);
    memset(a->scratch, 0,
           ((size_t)a->n_out * (size_t)in_words(a) + (size_t)a->n_in) * sizeof *a->scratch);
    for (int i = 0; i < a->n_in; i++) {
        if (grant[i] >= 0)
            continue;
        uint64_t want = req[i] & out_mask & ~*taken;
        while (want) {
            set_bit(res_vec(a, __builtin_ctzll(want)), i);
            want &= want - 1;
        }
    }
    for (int r = 0; r < a->n_out; r++) {
        if ((*taken >> r) & 1u)
            continue;
        int i = noc_arbiter_pick(&a->out_arb[r], res_vec(a, r));
        if (i >= 0)
            granted[i] |= UINT64_C(1) << r;
    }
    int made = 0;
    for (int i = 0; i < a->n_in; i++) {
        if (!granted[i])
            continue;
        int r = noc_arbiter_pick(&a->in_arb[i], &granted[i]);
        grant_final(a, grant, i, r, move);
        *taken |= UINT64_C(1) << r;
        made++;
    }
    return made;
}

/* The same two stages for at most 64 requesters, with every set in one
 * word on the stack: no scratch to clear. Same picks, same order of updates. */
static void small_input_first(noc_alloc_t *a, const uint64_t *req, uint64_t out_mask,
                              int16_t *grant)
{
    uint64_t col[64], used = 0;
    for (int i = 0; i < a->n_in; i++) {
        uint64_t want = req[i] & out_mask;
        if (!want)
            continue;
        int r = noc_arbiter_pick(&a->in_arb[i], &want);
        uint64_t rb = UINT64_C(1) << r;
        if (!(used & rb)) {
            used |= rb;
            col[r] = 0;
        }
        col[r] |= UINT64_C(1) << i;
    }
    for (; used; used &= used - 1) {
        int r = __builtin_ctzll(used);
        int i = noc_arbiter_pick(&a->out_arb[r], &col[r]);
        grant_final(a, grant, i, r, 1);
    }
}

static int small_grant_accept(noc_alloc_t *a, const uint64_t *req, uint64_t out_mask,
                              uint64_t *taken, int16_t *grant, int move)
{
    uint64_t col[64], granted[64], used = 0, gi = 0;
    for (int i = 0; i < a->n_in; i++) {
        if (grant[i] >= 0)
            continue;
        for (uint64_t want = req[i] & out_mask & ~*taken; want; want &= want - 1) {
            int r = __builtin_ctzll(want);
            uint64_t rb = UINT64_C(1) << r;
            if (!(used & rb)) {
                used |= rb;
                col[r] = 0;
            }
            col[r] |= UINT64_C(1) << i;
        }
    }
    for (; used; used &= used - 1) {
        int r = __builtin_ctzll(used);
        int i = noc_arbiter_pick(&a->out_arb[r], &col[r]);
        uint64_t ib = UINT64_C(1) << i;
        if (!(gi & ib)) {
            gi |= ib;
            granted[i] = 0;
        }
        granted[i] |= UINT64_C(1) << r;
    }
    int made = 0;
    for (; gi; gi &= gi - 1) {
        int i = __builtin_ctzll(gi);
        int r = noc_arbiter_pick(&a->in_arb[i], &granted[i]);
        grant_final(a, grant, i, r, move);
        *taken |= UINT64_C(1) << r;
        made++;
    }
    return made;
}

void noc_alloc_run(noc_alloc_t *a, const uint64_t *req, int16_t *grant)
{
    uint64_t out_mask = a->n_out >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << a->n_out) - 1u;
    uint64_t taken = 0;
    for (int i = 0; i < a->n_in; i++)
        grant[i] = -1;
    if (a->n_in <= 64) {
        if (a->kind == NOC_ALLOC_INPUT_FIRST) {
            small_input_first(a, req, out_mask, grant);
        } else {
            int iters = a->kind == NOC_ALLOC_ISLIP ? a->iters : 1;
            for (int it = 0; it < iters; it++)
                if (small_grant_accept(a, req, out_mask, &taken, grant, it == 0) == 0)
                    break;
        }
        return;
    }
    switch (a->kind) {
    case NOC_ALLOC_INPUT_FIRST:
        run_input_first(a, req, out_mask, grant);
        break;
    case NOC_ALLOC_OUTPUT_FIRST:
        grant_accept(a, req, out_mask, &taken, grant, 1);
        break;
    case NOC_ALLOC_ISLIP:
        /* Later iterations fill gaps but leave the pointers alone, so the
         * pointers desynchronise as in McKeown's iSLIP. */
        for (int it = 0; it < a->iters; it++)
            if (grant_accept(a, req, out_mask, &taken, grant, it == 0) == 0)
                break;
        break;
    default:
        assert(0 && "bad allocator kind");
    }
}

void noc_alloc_run_sparse_general(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                  int16_t *grant)
{
    uint64_t out_mask = a->n_out >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << a->n_out) - 1u;
    if (n == 1) {
        /* A lone requester: each resource it asks for has no other bidder,
         * so every kind reduces to the requester's own choice. */
        uint64_t want = mask[0] & out_mask;
        int i = who[0];
        int r = noc_arbiter_pick(&a->in_arb[i], &want);
        grant[0] = (int16_t)r;
        if (r >= 0) {
            noc_arbiter_update(&a->in_arb[i], r);
            noc_arbiter_update(&a->out_arb[r], i);
        }
        return;
    }
    for (int k = 0; k < n; k++)
        a->dense[who[k]] = mask[k];
    noc_alloc_run(a, a->dense, a->dgrant);
    for (int k = 0; k < n; k++) {
        grant[k] = a->dgrant[who[k]];
        a->dense[who[k]] = 0;
    }
}
