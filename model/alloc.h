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
 *
 * In all kinds an arbiter's priority moves only when its choice became a final
 * grant. Resources per allocator: at most 64 (one word of request mask). */
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
    NOC_ALLOC_COUNT
} noc_alloc_kind_t;

typedef struct noc_alloc {
    noc_alloc_kind_t kind;
    int n_in;               /* requesters */
    int n_out;              /* resources, 1..64 */
    int iters;              /* islip iterations (>= 1) */
    noc_arbiter_t *in_arb;  /* n_in arbiters over n_out resources */
    noc_arbiter_t *out_arb; /* n_out arbiters over n_in requesters */
    uint64_t *scratch;      /* working bit vectors, owned */
    uint64_t *dense;        /* n_in request masks for the sparse form */
    int16_t *dgrant;        /* n_in grants for the sparse form */
    int owns;               /* the block was allocated by init */
} noc_alloc_t;

/* "input_first", "output_first", "islip"; parse also takes BookSim2's
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
 * noc_alloc_block_size(n_in, n_out) bytes, aligned to 16, that outlives the
 * allocator (lets a router keep a node's allocators together in memory). */
size_t noc_alloc_block_size(int n_in, int n_out);
void noc_alloc_init_at(noc_alloc_t *a, noc_alloc_kind_t kind, noc_arb_kind_t arb,
                       int n_in, int n_out, int iters, void *block);
/* req[i]: bit mask of the resources requester i wants (0: none).
 * On return grant[i] is the resource granted to i, or -1. Updates the
 * arbiters' priorities for the grants made (see above). */
void noc_alloc_run(noc_alloc_t *a, const uint64_t *req, int16_t *grant);

/* Sparse form of noc_alloc_run for few requesters: n requests, requester
 * who[k] (all distinct) wanting the resources in mask[k] (within n_out).
 * On return grant[k] is the resource given to who[k], or -1. Grants and
 * priority updates are exactly those of noc_alloc_run on the dense form.
 * Inline shortcuts: a lone requester gets its own arbiter's choice; and when
 * every requester wants one resource nobody else wants, every kind grants
 * each its resource and each stage's arbiter sees a single request; the
 * updates below are the ones they would make. */
void noc_alloc_run_sparse_general(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                                  int16_t *grant);

static inline void noc_alloc_run_sparse(noc_alloc_t *a, int n, const int16_t *who,
                                        const uint64_t *mask, int16_t *grant)
{
    if (n == 1 && mask[0]) {
        /* A lone requester: each resource it asks for has no other bidder,
         * so every kind reduces to the requester's own choice. */
        int i = who[0];
        int r = noc_arbiter_pick(&a->in_arb[i], &mask[0]);
        grant[0] = (int16_t)r;
        noc_arbiter_update(&a->in_arb[i], r);
        noc_arbiter_update(&a->out_arb[r], i);
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
        noc_arbiter_update(&a->in_arb[who[k]], r);
        noc_arbiter_update(&a->out_arb[r], who[k]);
    }
}

#ifdef __cplusplus
}
#endif
#endif
