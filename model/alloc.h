/* alloc.h: separable allocators that match requesters to resources, each
 * requester getting at most one resource and each resource at most one
 * requester.
 *
 * - input-first: every requester's input arbiter picks one of the resources
 *   it requests; every resource's output arbiter picks one of the requesters
 *   that picked it.
 * - output-first: every resource's output arbiter picks one of the requesters
 *   that request it; every requester's input arbiter picks one of the resources
 *   that picked it.
 * - islip: output-first grant/accept repeated for `iters` iterations over the
 *   still unmatched requesters and resources (McKeown's iSLIP); pointers move
 *   only for matches made in the first iteration.
 * - select (BookSim2's selalloc.cpp, one round): output-first grant/accept
 *   that ranks priorities at both stages, as noc_alloc_run_sparse_prio's
 *   output-first does (BookSim2 builds it with one round; with more its
 *   grants of a round outlive it, which is not modelled: iters is 1).
 *
 * - wavefront, rr_wavefront (BookSim2's, for switch allocation): the
 *   requests are taken diagonal by diagonal of the square request matrix
 *   (side max(requesters, resources)), from the priority diagonal on, each
 *   diagonal by increasing resource (requester = diagonal - resource, modulo
 *   the side), granting every request whose requester and resource are both
 *   still free. After an allocation with a request the priority diagonal
 *   moves on by one (wavefront) or to the one after the first grant's
 *   requester + resource (rr_wavefront). No arbiters.
 *
 * - max_size, loa (BookSim2's, model/alloc_dense.c): a maximum matching by
 *   shortest augmenting paths from a priority requester that moves on by one
 *   each allocation; the lonely output allocator (each requester asks for
 *   its resource wanted by the fewest, pointers moving on by one a grant).
 * - pim (BookSim2's pim.cpp, parallel iterative matching): `iters` rounds
 *   of: every free resource grants the first free requester asking for it
 *   from a random offset; every requester accepts the first resource
 *   granting it from a random offset. The offsets are drawn from the
 *   allocator's own stream (noc_alloc_seed), a fixed function of its salt,
 *   its allocation count, the round and the index, so that a run does not
 *   depend on the order in which allocators or threads draw.
 *   None of the three ranks priorities (noc_alloc_run_sparse_prio ignores hi).
 *
 * In the separable kinds an arbiter's priority moves only when its choice
 * became a final grant. Resources per allocator: at most 64 (one word of
 * request mask); the kinds from wavefront on take at most 256 requesters. */
#ifndef NOC_ALLOC_H
#define NOC_ALLOC_H
#include <stddef.h>
#include <stdint.h>
#include "model/arbiter.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum noc_alloc_kind {
    NOC_ALLOC_INPUT_FIRST,
    NOC_ALLOC_OUTPUT_FIRST,
    NOC_ALLOC_ISLIP,
    NOC_ALLOC_SELECT,
    NOC_ALLOC_WAVEFRONT,
    NOC_ALLOC_RR_WAVEFRONT,
    NOC_ALLOC_MAX_SIZE,
    NOC_ALLOC_LOA,
    NOC_ALLOC_PIM,
    NOC_ALLOC_COUNT
} noc_alloc_kind_t;

typedef struct noc_alloc {
    uint8_t kind;           /* noc_alloc_kind_t */
    uint8_t arb;            /* noc_arb_kind_t, at both stages */
    uint8_t iters;          /* islip iterations (>= 1) */
    uint8_t owns;           /* the block was allocated by init */
    uint16_t n_in;          /* requesters, 1..65535 */
    uint16_t n_out;         /* resources, 1..64 */
    uint16_t pri;           /* wavefront kinds: the priority diagonal */
    /* The arbiters, in the block. Round-robin arbiters are bare pointers, so
     * that the whole state of an allocator is a few bytes; matrix arbiters
     * are noc_arbiter_t records. (Working vectors for more than 64
     * requesters follow them in the block.) */
    union {
        uint8_t *in_ptr;        /* round-robin: per requester, the resource first in line */
        noc_arbiter_t *in_arb;  /* matrix: n_in arbiters over n_out resources */
    };
    union {
        uint16_t *out_ptr;      /* round-robin: per resource, the requester first in line */
        noc_arbiter_t *out_arb; /* matrix: n_out arbiters over n_in requesters */
    };
} noc_alloc_t;

/* "input_first", "output_first", "islip", "wavefront", "rr_wavefront",
 * "select", "max_size", "loa", "pim"; parse also takes BookSim2's
 * "separable_input_first" and "separable_output_first", and returns
 * NOC_ALLOC_COUNT for an unknown name. */
const char *noc_alloc_kind_name(noc_alloc_kind_t k);
noc_alloc_kind_t noc_alloc_kind_parse(const char *name);

/* Set up an allocator; arb names the arbiter kind used at both stages.
 * Allocates all working storage here: noc_alloc_run never allocates. */
void noc_alloc_init(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                    int n_in, int n_out, int iters);
void noc_alloc_free(noc_alloc_t *a);
/* The same with caller-provided storage: `block` is zeroed memory of
 * noc_alloc_block_size(arb, n_in, n_out) bytes, aligned to 16, that outlives
 * the allocator (lets a router keep a node's allocators together in memory;
 * round-robin allocators over at most 64 requesters need n_in + 2 n_out
 * bytes, rounded up to 16). */
size_t noc_alloc_block_size(noc_arb_kind_t arb, int n_in, int n_out);
/* Bytes an allocator's arbiters take on the heap beside its block (the
 * matrix arbiters' matrices, with the C library's 16-byte chunk header of
 * each): for memory estimates. */
size_t noc_alloc_heap_bytes(noc_arb_kind_t arb, int n_in, int n_out);
void noc_alloc_init_at(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                       int n_in, int n_out, int iters, void *block);
/* req[i]: bit mask of the resources requester i wants (0: none).
 * On return grant[i] is the resource granted to i, or -1. Updates the
 * arbiters' priorities for the grants made (see above). */
void noc_alloc_run(noc_alloc_t *a, const uint64_t *req, int16_t *grant);

/* pim: the salt of its random stream (its allocation count restarts at 0);
 * give each allocator of a run its own, from the run's seed. Other kinds
 * ignore it. */
void noc_alloc_seed(noc_alloc_t *a, uint64_t salt);

/* The round-robin pointers, for tests (0 for matrix arbiters). */
static inline int noc_alloc_in_ptr(const noc_alloc_t *a, int i)
{
    return a->arb == NOC_ARB_ROUND_ROBIN ? noc_rr_ptr(a->in_ptr[i], a->n_out) : 0;
}
static inline int noc_alloc_out_ptr(const noc_alloc_t *a, int r)
{
    return a->arb == NOC_ARB_ROUND_ROBIN ? noc_rr_ptr(a->out_ptr[r], a->n_in) : 0;
}

/* Requester i's input arbiter: its choice among `want` (within n_out, not
 * empty). Pure. */
static inline int noc_alloc_in_pick(const noc_alloc_t *a, int i, uint64_t want)
{
    if (a->arb == NOC_ARB_ROUND_ROBIN)
        return noc_rr_pick(want, a->in_ptr[i]);
    return noc_arbiter_pick(&a->in_arb[i], &want);
}

/* Requester i was finally granted resource r: both arbiters move. */
static inline void noc_alloc_grant_update(noc_alloc_t *a, int i, int r)
{
    if (a->arb == NOC_ARB_ROUND_ROBIN) {
        uint8_t *in_ptr = a->in_ptr;
        a->out_ptr[r] = (uint16_t)noc_rr_next(i);
        in_ptr[i] = (uint8_t)noc_rr_next(r);
        return;
    }
    noc_arbiter_update(&a->in_arb[i], r);
    noc_arbiter_update(&a->out_arb[r], i);
}

/* Sparse form of noc_alloc_run for few requesters: n requests, requester
 * who[k] (all distinct) wanting the resources in mask[k] (within n_out).
 * On return grant[k] is the resource given to who[k], or -1. Grants and
 * priority updates are exactly those of noc_alloc_run on the dense form.
 * Inline shortcuts: a lone requester gets its own arbiter's choice; two
 * requesters of a round-robin input-first, output-first or one-round iSLIP
 * allocator are settled in place;
 * and when every requester wants one resource nobody else wants, every kind
 * grants each its resource and each stage's arbiter sees a single request.
 * The updates below are the ones the general path makes
 * (testbench/unit/model/test_alloc.c compares them, pointer for pointer). */
void noc_alloc_run_sparse_general(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                  int16_t *grant);

/* The sparse form with two priorities (BookSim2's speculative requests,
 * which rank below all others): hi[k], within mask[k], are requester
 * who[k]'s requests of the higher priority; noc_alloc_run_sparse_ranked
 * below with those two ranks (in the separable kinds an input arbiter
 * among its requester's hi requests if it has any, an output arbiter among
 * the hi requests reaching it if any; the wavefront kinds take every
 * diagonal of the hi requests before any of the others; islip ranks none,
 * as BookSim2's iSLIP does not). At most 64 entries. */
void noc_alloc_run_sparse_prio(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                               const uint64_t *hi, int16_t *grant);

/* The sparse form with ranked requests (BookSim2's priorities: the higher
 * rank first): entry k's request for resource r ranks key[k * ks + r * rs]
 * (ks = 1, rs = 0: one rank per entry; ks = 64, rs = 1: one per request).
 * Every arbiter chooses among the requests of the highest rank it sees (its
 * usual choice among those): in the separable kinds and select an input
 * arbiter among its entry's highest-ranked requests (input-first) or grants
 * (output-first), an output arbiter among the highest-ranked requests
 * reaching it; the wavefront kinds take the ranks from the highest down, a
 * pass of every diagonal each; islip, max_size, loa and pim rank none, as
 * BookSim2's do not. Pointers move as in noc_alloc_run, for every grant.
 * At most 64 entries. */
void noc_alloc_run_sparse_ranked(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                 const int64_t *key, size_t ks, size_t rs, int16_t *grant);

/* The wavefront kinds. */
static inline int noc_alloc_is_wavefront(const noc_alloc_t *a)
{
    return a->kind == NOC_ALLOC_WAVEFRONT || a->kind == NOC_ALLOC_RR_WAVEFRONT;
}

/* The kinds that the shortcuts below (and a router's own for a lone or
 * conflict-free request) do not apply to: their state moves per allocation
 * (wavefront, rr_wavefront, max_size) or per grant otherwise than an
 * arbiter's (loa), so every allocation goes through the allocator. */
static inline int noc_alloc_kind_is_whole(noc_alloc_kind_t k)
{
    return k >= NOC_ALLOC_WAVEFRONT && k < NOC_ALLOC_COUNT;
}
static inline int noc_alloc_is_whole(const noc_alloc_t *a)
{
    return noc_alloc_kind_is_whole((noc_alloc_kind_t)a->kind);
}

/* max_size, loa and pim on a list of n <= 256 distinct requesters
 * (alloc_dense.c; noc_alloc_run_sparse_general calls it for them). */
void noc_alloc_dense_list(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                          int16_t *grant);

/* noc_alloc_run_sparse for an allocator known not to be a whole kind
 * (a router's VC allocators; its switch allocator when it is separable). */
static inline void noc_alloc_run_sparse_separable(noc_alloc_t *a, int n, const int16_t *who,
                                                  const uint64_t *mask, int16_t *grant)
{
    if (n == 1 && mask[0]) {
        /* A lone requester: each resource it asks for has no other bidder,
         * so every kind reduces to the requester's own choice. */
        int i = who[0];
        int r = noc_alloc_in_pick(a, i, mask[0]);
        grant[0] = (int16_t)r;
        noc_alloc_grant_update(a, i, r);
        return;
    }
    if (n == 2 && a->kind == NOC_ALLOC_INPUT_FIRST && a->arb == NOC_ARB_ROUND_ROBIN &&
        mask[0] && mask[1]) {
        /* Two requesters, input-first: each input arbiter picks; on a
         * collision the resource's output arbiter takes the requester first
         * at or after its pointer (a pointer of n_in counts as 0). */
        int i0 = who[0], i1 = who[1];
        int r0 = noc_rr_pick(mask[0], a->in_ptr[i0]), r1 = noc_rr_pick(mask[1], a->in_ptr[i1]);
        if (r0 != r1) {
            grant[0] = (int16_t)r0;
            grant[1] = (int16_t)r1;
            noc_alloc_grant_update(a, i0, r0);
            noc_alloc_grant_update(a, i1, r1);
            return;
        }
        int ptr = a->out_ptr[r0], d0 = i0 - ptr, d1 = i1 - ptr;
        d0 += d0 < 0 ? a->n_in : 0;
        d1 += d1 < 0 ? a->n_in : 0;
        int k = d1 < d0;
        grant[k] = (int16_t)r0;
        grant[1 - k] = -1;
        noc_alloc_grant_update(a, who[k], r0);
        return;
    }
    if (n == 2 && a->arb == NOC_ARB_ROUND_ROBIN && mask[0] && mask[1] &&
        (a->kind == NOC_ALLOC_OUTPUT_FIRST || (a->kind == NOC_ALLOC_ISLIP && a->iters == 1))) {
        /* Two requesters, output-first (one round: iSLIP's later rounds
         * are not run): a resource both want grants the one first at or
         * after its pointer (a pointer of n_in counts as 0), one only one
         * wants grants it; each requester accepts its input arbiter's
         * choice among its grants, and both arbiters move. */
        int i0 = who[0], i1 = who[1];
        uint64_t g0 = mask[0] & ~mask[1], g1 = mask[1] & ~mask[0];
        for (uint64_t both = mask[0] & mask[1]; both; both &= both - 1) {
            int r = __builtin_ctzll(both), ptr = a->out_ptr[r], d0 = i0 - ptr, d1 = i1 - ptr;
            d0 += d0 < 0 ? a->n_in : 0;
            d1 += d1 < 0 ? a->n_in : 0;
            if (d0 < d1)
                g0 |= UINT64_C(1) << r;
            else
                g1 |= UINT64_C(1) << r;
        }
        grant[0] = (int16_t)(g0 ? noc_rr_pick(g0, a->in_ptr[i0]) : -1);
        grant[1] = (int16_t)(g1 ? noc_rr_pick(g1, a->in_ptr[i1]) : -1);
        if (g0)
            noc_alloc_grant_update(a, i0, grant[0]);
        if (g1)
            noc_alloc_grant_update(a, i1, grant[1]);
        return;
    }
    uint64_t seen = 0;
    for (int k = 0; k < n; k++) {
        uint64_t m = mask[k];
        if ((m & (m - 1)) || (m & seen) || !m) {
            noc_alloc_run_sparse_general(a, n, who, mask, grant);
            return;
        }
        seen |= m;
    }
    for (int k = 0; k < n; k++) {
        int r = __builtin_ctzll(mask[k]);
        grant[k] = (int16_t)r;
        noc_alloc_grant_update(a, who[k], r);
    }
}

static inline void noc_alloc_run_sparse(noc_alloc_t *a, int n, const int16_t *who,
                                        const uint64_t *mask, int16_t *grant)
{
    if (noc_alloc_is_whole(a))
        noc_alloc_run_sparse_general(a, n, who, mask, grant);
    else
        noc_alloc_run_sparse_separable(a, n, who, mask, grant);
}

#ifdef __cplusplus
}
#endif
#endif
