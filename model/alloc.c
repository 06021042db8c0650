/* alloc.c: separable allocators (input-first, output-first, iSLIP) built from
 * one arbiter per requester and one per resource, and BookSim2's wavefront
 * allocators (a priority diagonal over the request matrix). All working storage is made
 * in noc_alloc_init; noc_alloc_run only reads and writes it. */
#include "util/xalloc.h"
#include "model/alloc.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[NOC_ALLOC_COUNT] = {
    [NOC_ALLOC_INPUT_FIRST] = "input_first",
    [NOC_ALLOC_OUTPUT_FIRST] = "output_first",
    [NOC_ALLOC_ISLIP] = "islip",
    [NOC_ALLOC_SELECT] = "select",
    [NOC_ALLOC_WAVEFRONT] = "wavefront",
    [NOC_ALLOC_RR_WAVEFRONT] = "rr_wavefront",
    [NOC_ALLOC_MAX_SIZE] = "max_size",
    [NOC_ALLOC_LOA] = "loa",
    [NOC_ALLOC_PIM] = "pim",
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

/* Block layout: round-robin: out_ptr[n_out] (uint16), in_ptr[n_in] (uint8);
 * matrix: in_arb[n_in], out_arb[n_out]. Then, only for more than 64
 * requesters, the scratch: per resource a requester vector (n_out * W_in
 * words), per requester a resource mask (n_in words), and the dense form of
 * a long sparse request (n_in words of masks, n_in int16 grants). */
static size_t arb_bytes(noc_arb_kind_t arb, int n_in, int n_out)
{
    size_t b = arb == NOC_ARB_ROUND_ROBIN
                   ? (size_t)n_out * sizeof(uint16_t) + (size_t)n_in
                   : ((size_t)n_in + (size_t)n_out) * sizeof(noc_arbiter_t);
    return (b + 15) & ~(size_t)15;
}

static size_t scratch_words(int n_in, int n_out)
{
    if (n_in <= 64)
        return 0;
    return (size_t)n_out * (size_t)NOC_ARB_WORDS(n_in) + 2 * (size_t)n_in +
           ((size_t)n_in * sizeof(int16_t) + 7) / 8;
}

static void *block_of(const noc_alloc_t *a)
{
    return a->arb == NOC_ARB_ROUND_ROBIN ? (void *)a->out_ptr : (void *)a->in_arb;
}
static uint64_t *scratch_of(const noc_alloc_t *a)
{
    assert(a->n_in > 64);
    return (uint64_t *)((char *)block_of(a) + arb_bytes((noc_arb_kind_t)a->arb, a->n_in, a->n_out));
}
static int in_words(const noc_alloc_t *a) { return NOC_ARB_WORDS(a->n_in); }
static uint64_t *res_vec(noc_alloc_t *a, int r)
{
    return scratch_of(a) + (size_t)r * (size_t)in_words(a);
}
static uint64_t *in_mask(noc_alloc_t *a)
{
    return scratch_of(a) + (size_t)a->n_out * (size_t)in_words(a);
}
static uint64_t *dense_req(noc_alloc_t *a) { return in_mask(a) + a->n_in; }
static int16_t *dense_grant(noc_alloc_t *a) { return (int16_t *)(dense_req(a) + a->n_in); }

static void set_bit(uint64_t *v, int i) { v[i >> 6] |= UINT64_C(1) << (i & 63); }

size_t noc_alloc_block_size(noc_arb_kind_t arb, int n_in, int n_out)
{
    size_t bytes = arb_bytes(arb, n_in, n_out) + scratch_words(n_in, n_out) * sizeof(uint64_t);
    return (bytes + 15) & ~(size_t)15;
}

size_t noc_alloc_heap_bytes(noc_arb_kind_t arb, int n_in, int n_out)
{
    if (arb != NOC_ARB_MATRIX)
        return 0;
    size_t in = (size_t)n_out * NOC_ARB_WORDS((size_t)n_out) * sizeof(uint64_t);
    size_t out = (size_t)n_in * NOC_ARB_WORDS((size_t)n_in) * sizeof(uint64_t);
    return (size_t)n_in * ((in + 16 + 15) & ~(size_t)15) + (size_t)n_out * ((out + 16 + 15) & ~(size_t)15);
}

void noc_alloc_init_at(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                       int n_in, int n_out, int iters, void *block)
{
    assert(kind < NOC_ALLOC_COUNT && arb < NOC_ARB_COUNT);
    assert(n_in >= 1 && n_in <= UINT16_MAX && n_out >= 1 && n_out <= 64);
    assert(kind != NOC_ALLOC_ISLIP || iters >= 1);
    assert(!noc_alloc_kind_is_whole(kind) || n_in <= 256);
    if (kind == NOC_ALLOC_LOA || kind == NOC_ALLOC_PIM) /* loa's pointers are round-robin ones, pim's
                                                          stream sits where they would (a matrix block
                                                          is larger) */
        arb = NOC_ARB_ROUND_ROBIN;
    memset(a, 0, sizeof *a);
    a->kind = (uint8_t)kind;
    a->arb = (uint8_t)arb;
    a->n_in = (uint16_t)n_in;
    a->n_out = (uint16_t)n_out;
    a->iters = (uint8_t)(iters < 1 ? 1 : iters > 255 ? 255 : iters);
    a->owns = block == NULL;
    if (!block)
        block = noc_xcalloc(1, noc_alloc_block_size(arb, n_in, n_out), "allocator");
    char *at = block;
    if (arb == NOC_ARB_ROUND_ROBIN) {
        a->out_ptr = (uint16_t *)at;
        a->in_ptr = (uint8_t *)(a->out_ptr + n_out);
    } else {
        a->in_arb = (noc_arbiter_t *)at;
        a->out_arb = a->in_arb + n_in;
        for (int i = 0; i < n_in; i++)
            noc_arbiter_init(&a->in_arb[i], arb, n_out);
        for (int r = 0; r < n_out; r++)
            noc_arbiter_init(&a->out_arb[r], arb, n_in);
    }
}

void noc_alloc_init(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                    int n_in, int n_out, int iters)
{
    noc_alloc_init_at(a, kind, arb, n_in, n_out, iters, NULL);
}

void noc_alloc_free(noc_alloc_t *a)
{
    void *block = block_of(a);
    if (!block)
        return;
    if (a->arb != NOC_ARB_ROUND_ROBIN) {
        for (int i = 0; i < a->n_in; i++)
            noc_arbiter_free(&a->in_arb[i]);
        for (int r = 0; r < a->n_out; r++)
            noc_arbiter_free(&a->out_arb[r]);
    }
    if (a->owns)
        free(block);
    a->in_arb = a->out_arb = NULL;
}

/* Resource r's output arbiter: its choice among the requesters in vec
 * (NOC_ARB_WORDS(n_in) words). Pure. */
static int out_pick(const noc_alloc_t *a, int r, const uint64_t *vec)
{
    if (a->arb != NOC_ARB_ROUND_ROBIN)
        return noc_arbiter_pick(&a->out_arb[r], vec);
    if (a->n_in <= 64)
        return noc_rr_pick(vec[0], a->out_ptr[r]);
    return noc_rr_pick_words(vec, a->n_in, a->out_ptr[r]);
}

static void grant_final(noc_alloc_t *a, int16_t *grant, int i, int r, int move)
{
    grant[i] = (int16_t)r;
    if (move)
        noc_alloc_grant_update(a, i, r);
}

static void run_input_first(noc_alloc_t *a, const uint64_t *req, uint64_t out_mask,
                            int16_t *grant)
{
    memset(scratch_of(a), 0, (size_t)a->n_out * (size_t)in_words(a) * sizeof(uint64_t));
    for (int i = 0; i < a->n_in; i++) {
        uint64_t want = req[i] & out_mask;
        if (!want)
            continue;
        int r = noc_alloc_in_pick(a, i, want);
        set_bit(res_vec(a, r), i);
    }
    for (int r = 0; r < a->n_out; r++) {
        int i = out_pick(a, r, res_vec(a, r));
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
    memset(scratch_of(a), 0,
           ((size_t)a->n_out * (size_t)in_words(a) + (size_t)a->n_in) * sizeof(uint64_t));
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
        int i = out_pick(a, r, res_vec(a, r));
        if (i >= 0)
            granted[i] |= UINT64_C(1) << r;
    }
    int made = 0;
    for (int i = 0; i < a->n_in; i++) {
        if (!granted[i])
            continue;
        int r = noc_alloc_in_pick(a, i, granted[i]);
        grant_final(a, grant, i, r, move);
        *taken |= UINT64_C(1) << r;
        made++;
    }
    return made;
}

static uint64_t out_mask_of(const noc_alloc_t *a)
{
    return a->n_out >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << a->n_out) - 1u;
}

static void run_list(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                     int16_t *grant);
void noc_alloc_run(noc_alloc_t *a, const uint64_t *req, int16_t *grant)
{
    uint64_t out_mask = out_mask_of(a);
    uint64_t taken = 0;
    for (int i = 0; i < a->n_in; i++)
        grant[i] = -1;
    if (a->n_in <= 64 || noc_alloc_is_whole(a)) {
        /* the requesters in increasing order make a list; the list form
         * below makes the same picks with every set in one word (the
         * whole kinds, of at most 256 requesters, have only that form) */
        int16_t who[256], lgrant[256];
        uint64_t mask[256];
        int n = 0;
        who[0] = 0; /* (n >= 0 entries; quiets a false maybe-uninitialized warning) */
        mask[0] = 0;
        for (int i = 0; i < a->n_in; i++)
            if (req[i] & out_mask) {
                who[n] = (int16_t)i;
                mask[n++] = req[i];
            }
        run_list(a, n, who, mask, lgrant);
        for (int k = 0; k < n; k++)
            grant[who[k]] = lgrant[k];
        return;
    }
    switch (a->kind) {
    case NOC_ALLOC_INPUT_FIRST:
        run_input_first(a, req, out_mask, grant);
        break;
    case NOC_ALLOC_OUTPUT_FIRST:
    case NOC_ALLOC_SELECT:
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

/* ---- the sparse form, on the list itself (at most 64 entries) ----
 * Sets of list entries are bit masks over the entry index k. An arbiter's
 * choice among the requesters of such a set is the one the dense form would
 * make among the same requesters. */

/* Resource r's output arbiter among the requesters who[k], k in ks (not
 * empty); returns the entry k. */
static int out_pick_list(const noc_alloc_t *a, int r, const int16_t *who, uint64_t ks)
{
    int best = -1;
    if (a->arb == NOC_ARB_ROUND_ROBIN) {
        /* round-robin: the first requester at or after the pointer, cyclically
         * (a pointer of n_in is 0: every distance stays below n_in) */
        int ptr = a->out_ptr[r], n = a->n_in, bestd = n;
        for (; ks; ks &= ks - 1) {
            int k = __builtin_ctzll(ks);
            int d = who[k] - ptr;
            if (d < 0)
                d += n;
            if (d < bestd) {
                bestd = d;
                best = k;
            }
        }
        return best;
    }
    /* matrix: the requester that beats every other one of the set (the
     * lowest such, as the dense pick scans upwards) */
    const noc_arbiter_t *arb = &a->out_arb[r];
    size_t words = (size_t)NOC_ARB_WORDS(arb->n);
    for (uint64_t b = ks; b; b &= b - 1) {
        int k = __builtin_ctzll(b), i = who[k];
        const uint64_t *row = arb->matrix + (size_t)i * words;
        int beats_all = 1;
        for (uint64_t c = ks & ~(UINT64_C(1) << k); c && beats_all; c &= c - 1) {
            int j = who[__builtin_ctzll(c)];
            beats_all = (int)((row[j >> 6] >> (j & 63)) & 1u);
        }
        if (beats_all && (best < 0 || i < who[best]))
            best = k;
    }
    return best;
}

static void list_input_first(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                             uint64_t out_mask, int16_t *grant)
{
    uint64_t col[64], used = 0;
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        uint64_t want = mask[k] & out_mask;
        if (!want)
            continue;
        int r = noc_alloc_in_pick(a, who[k], want);
        uint64_t rb = UINT64_C(1) << r;
        if (!(used & rb)) {
            used |= rb;
            col[r] = 0;
        }
        col[r] |= UINT64_C(1) << k;
    }
    for (; used; used &= used - 1) {
        int r = __builtin_ctzll(used);
        int k = out_pick_list(a, r, who, col[r]);
        grant[k] = (int16_t)r;
        noc_alloc_grant_update(a, who[k], r);
    }
}

static int list_grant_accept(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                             uint64_t out_mask, uint64_t *taken, int16_t *grant, int move)
{
    uint64_t col[64], granted[64], used = 0, gk = 0;
    for (int k = 0; k < n; k++) {
        if (grant[k] >= 0)
            continue;
        for (uint64_t want = mask[k] & out_mask & ~*taken; want; want &= want - 1) {
            int r = __builtin_ctzll(want);
            uint64_t rb = UINT64_C(1) << r;
            if (!(used & rb)) {
                used |= rb;
                col[r] = 0;
            }
            col[r] |= UINT64_C(1) << k;
        }
    }
    for (; used; used &= used - 1) {
        int r = __builtin_ctzll(used);
        int k = out_pick_list(a, r, who, col[r]);
        uint64_t kb = UINT64_C(1) << k;
        if (!(gk & kb)) {
            gk |= kb;
            granted[k] = 0;
        }
        granted[k] |= UINT64_C(1) << r;
    }
    int made = 0;
    for (; gk; gk &= gk - 1) {
        int k = __builtin_ctzll(gk);
        int r = noc_alloc_in_pick(a, who[k], granted[k]);
        grant[k] = (int16_t)r;
        if (move)
            noc_alloc_grant_update(a, who[k], r);
        *taken |= UINT64_C(1) << r;
        made++;
    }
    return made;
}

/* The wavefront kinds on the list, unranked (below: every request of one
 * rank). */
static void ranked_wavefront(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                             const int64_t *key, size_t ks, size_t rs, int16_t *grant);

/* Every kind on a list of at most 64 entries. */
static void run_list(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                     int16_t *grant)
{
    uint64_t out_mask = out_mask_of(a);
    if (noc_alloc_is_wavefront(a)) {
        static const int64_t zero = 0;
        ranked_wavefront(a, n, who, mask, &zero, 0, 0, grant);
        return;
    }
    if (noc_alloc_is_whole(a)) {
        noc_alloc_dense_list(a, n, who, mask, grant);
        return;
    }
    if (a->kind == NOC_ALLOC_INPUT_FIRST) {
        list_input_first(a, n, who, mask, out_mask, grant);
        return;
    }
    /* output-first is one grant/accept round; iSLIP repeats it, later
     * rounds filling gaps without moving pointers (McKeown) */
    uint64_t taken = 0;
    int iters = a->kind == NOC_ALLOC_ISLIP ? a->iters : 1;
    for (int k = 0; k < n; k++)
        grant[k] = -1;
    for (int it = 0; it < iters; it++)
        if (list_grant_accept(a, n, who, mask, out_mask, &taken, grant, it == 0) == 0)
            break;
}

void noc_alloc_run_sparse_general(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                  int16_t *grant)
{
    if (n <= 64) {
        run_list(a, n, who, mask, grant);
        return;
    }
    /* More than 64 entries (so more than 64 requesters): the dense form. */
    uint64_t *dense = dense_req(a);
    int16_t *dgrant = dense_grant(a);
    for (int k = 0; k < n; k++)
        dense[who[k]] = mask[k];
    noc_alloc_run(a, dense, dgrant);
    for (int k = 0; k < n; k++) {
        grant[k] = dgrant[who[k]];
        dense[who[k]] = 0;
    }
}

/* ---- ranked requests (noc_alloc_run_sparse_ranked, _prio) ---- */

/* The rank of entry k's request for resource r. */
#define RANK(k, r) key[(size_t)(k) * ks + (size_t)(r) * rs]

/* Of the resources in want (not empty), those whose request ranks
 * highest. */
static uint64_t top_of(const int64_t *key, size_t ks, size_t rs, int k, uint64_t want)
{
    uint64_t top = 0;
    int64_t best = INT64_MIN;
    for (; want; want &= want - 1) {
        int r = __builtin_ctzll(want);
        int64_t v = RANK(k, r);
        if (!top || v > best) {
            best = v;
            top = 0;
        }
        if (v == best)
            top |= UINT64_C(1) << r;
    }
    return top;
}

/* Entry k joins resource r's column col[r] (rank colv[r]): a higher rank
 * starts the column over, a lower one stays out. */
static void col_join(uint64_t *col, int64_t *colv, uint64_t *used, int r, int k, int64_t v)
{
    uint64_t rb = UINT64_C(1) << r;
    if (!(*used & rb) || v > colv[r]) {
        *used |= rb;
        col[r] = 0;
        colv[r] = v;
    }
    if (v == colv[r])
        col[r] |= UINT64_C(1) << k;
}

/* Input-first: each input arbiter among its highest-ranked requests; each
 * output arbiter among the entries whose pick reached it with the highest
 * rank. */
static void ranked_input_first(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                               const int64_t *key, size_t ks, size_t rs, int16_t *grant)
{
    uint64_t col[64], used = 0, out_mask = out_mask_of(a);
    int64_t colv[64];
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        uint64_t want = mask[k] & out_mask;
        if (!want)
            continue;
        int r = noc_alloc_in_pick(a, who[k], top_of(key, ks, rs, k, want));
        col_join(col, colv, &used, r, k, RANK(k, r));
    }
    for (; used; used &= used - 1) {
        int r = __builtin_ctzll(used);
        int k = out_pick_list(a, r, who, col[r]);
        grant[k] = (int16_t)r;
        noc_alloc_grant_update(a, who[k], r);
    }
}

/* Output-first (and select): each output arbiter among the entries with
 * the highest-ranked request for it; each input arbiter among its
 * highest-ranked grants. */
static void ranked_output_first(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                const int64_t *key, size_t ks, size_t rs, int16_t *grant)
{
    uint64_t col[64], granted[64], used = 0, gk = 0, out_mask = out_mask_of(a);
    int64_t colv[64];
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        for (uint64_t want = mask[k] & out_mask; want; want &= want - 1) {
            int r = __builtin_ctzll(want);
            col_join(col, colv, &used, r, k, RANK(k, r));
        }
    }
    for (; used; used &= used - 1) {
        int r = __builtin_ctzll(used);
        int k = out_pick_list(a, r, who, col[r]);
        uint64_t kb = UINT64_C(1) << k;
        if (!(gk & kb)) {
            gk |= kb;
            granted[k] = 0;
        }
        granted[k] |= UINT64_C(1) << r;
    }
    for (; gk; gk &= gk - 1) {
        int k = __builtin_ctzll(gk);
        int r = noc_alloc_in_pick(a, who[k], top_of(key, ks, rs, k, granted[k]));
        grant[k] = (int16_t)r;
        noc_alloc_grant_update(a, who[k], r);
    }
}

/* The wavefront kinds: diagonal d = pri, pri + 1, ... of the square of side
 * sq, on each the resources in increasing order, the requester being
 * (d - resource) mod sq; a request is granted when its requester and
 * resource are both free. BookSim2's wavefront.cpp goes over the requests'
 * ranks from the highest down, on each a pass of every diagonal granting
 * the requests of that rank (without ranks: one pass); the priority
 * diagonal moves once an allocation with a request (after the first
 * grant's, with rr_wavefront). */
static void ranked_wavefront(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                             const int64_t *key, size_t ks, size_t rs, int16_t *grant)
{
    int sq = a->n_in > a->n_out ? a->n_in : a->n_out, first = -1;
    int16_t k_of[256]; /* requester -> its list entry, -1 none */
    memset(k_of, 0xff, sizeof k_of);
    uint64_t any = 0, taken = 0, out_mask = out_mask_of(a);
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        k_of[who[k]] = (int16_t)k;
        any |= mask[k];
    }
    if (!(any & out_mask))
        return;
    int64_t level = INT64_MAX;
    for (int more = 1; more;) {
        /* the next rank down: the highest below the last one taken */
        int64_t next = INT64_MIN;
        more = 0;
        for (int k = 0; k < n; k++)
            for (uint64_t want = mask[k] & out_mask; want; want &= want - 1) {
                int64_t v = RANK(k, __builtin_ctzll(want));
                if (v < level && (!more || v > next)) {
                    next = v;
                    more = 1;
                }
            }
        if (!more)
            break;
        level = next;
        for (int p = 0; p < sq; p++)
            for (int out = 0; out < a->n_out; out++) {
                int in = (a->pri + p + sq - out) % sq, k = in < a->n_in ? k_of[in] : -1;
                if (k < 0 || grant[k] >= 0 || ((taken >> out) & 1) || !((mask[k] >> out) & 1) ||
                    RANK(k, out) != level)
                    continue;
                grant[k] = (int16_t)out;
                taken |= UINT64_C(1) << out;
                if (first < 0)
                    first = in + out;
            }
    }
    a->pri = (uint16_t)(((a->kind == NOC_ALLOC_RR_WAVEFRONT ? first : a->pri) + 1) % sq);
}

void noc_alloc_run_sparse_ranked(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                 const int64_t *key, size_t ks, size_t rs, int16_t *grant)
{
    assert(n <= 64);
    switch (a->kind) {
    case NOC_ALLOC_INPUT_FIRST:
        ranked_input_first(a, n, who, mask, key, ks, rs, grant);
        break;
    case NOC_ALLOC_OUTPUT_FIRST:
    case NOC_ALLOC_SELECT:
        ranked_output_first(a, n, who, mask, key, ks, rs, grant);
        break;
    case NOC_ALLOC_WAVEFRONT:
    case NOC_ALLOC_RR_WAVEFRONT:
        ranked_wavefront(a, n, who, mask, key, ks, rs, grant);
        break;
    default: /* islip, max_size, loa, pim: no ranks (BookSim2's rank none) */
        run_list(a, n, who, mask, grant);
        break;
    }
}
#undef RANK

void noc_alloc_run_sparse_prio(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                               const uint64_t *hi, int16_t *grant)
{
    assert(n <= 64);
    int64_t key[64 * 64]; /* (only the requests' entries are written and read) */
    for (int k = 0; k < n; k++)
        for (uint64_t want = mask[k]; want; want &= want - 1) {
            int r = __builtin_ctzll(want);
            key[k * 64 + r] = (hi[k] >> r) & 1;
        }
    noc_alloc_run_sparse_ranked(a, n, who, mask, key, 64, 1, grant);
}
