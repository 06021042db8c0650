/* alloc_dense.c: BookSim2's allocators that see the whole request matrix at
 * once rather than through one arbiter per row and column (alloc.h):
 *
 * - max_size (BookSim2's maxsize.cpp, MaxSizeMatch): a maximum matching,
 *   grown one shortest augmenting path at a time. Each search is breadth
 *   first from every unmatched requester, taken from the priority requester
 *   on (pri, pri + 1, ... modulo n_in); a layer's requesters in the order
 *   they were reached, each trying its resources in increasing order; a
 *   resource is reached once, from the first requester to reach it; the
 *   search stops at the first free resource reached (at most n_in layers).
 *   The path's edges then flip. After the allocation pri moves on by one.
 * - loa (BookSim2's loa.cpp, the lonely output allocator): every resource
 *   counts the requesters that want it; every requester asks for the
 *   resource with the fewest, the first in its pointer's cyclic order among
 *   equals; every resource grants the first requester asking for it in its
 *   pointer's cyclic order. A grant moves both pointers on by one (not past
 *   the winner). Its pointers are the round-robin ones of alloc.h (in_ptr,
 *   out_ptr), whatever arb_type says.
 *
 * - pim (BookSim2's pim.cpp, parallel iterative matching): `iters` rounds
 *   of grant (every free resource, from a random requester on, grants the
 *   first free one asking for it) and accept (every requester, from a
 *   random resource on, takes the first granting it). BookSim2 draws the
 *   offsets from its one global stream (RandomInt); here offset number idx
 *   of round it of the allocator's allocation number c is a fixed mix of
 *   (salt, c, it, idx), the salt set by noc_alloc_seed and the count kept
 *   beside it in the allocator's block (where loa's pointers are), so that
 *   draws depend neither on the order allocators run in nor on threads.
 *
 * All take the requests of a list of at most 256 distinct requesters
 * (n_in <= 256); the outcome does not depend on the list's order. */
#include "model/alloc.h"
#include "model/rng.h"
#include <assert.h>
#include <string.h>

static uint64_t res_mask(const noc_alloc_t *a)
{
    return a->n_out >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << a->n_out) - 1u;
}

/* One shortest augmenting path from the unmatched entries, flipped into
 * grant[] / outk[]; 0 when there is none. k_of: requester -> entry. */
static int augment(const noc_alloc_t *a, const int16_t *k_of, const uint64_t *mask, int16_t *grant,
                   int16_t *outk)
{
    int16_t s[256], ns[256], from[64];
    int n_in = a->n_in, slen = 0, j = -1, k = -1;
    uint64_t reached = 0, rm = res_mask(a);
    for (int i = 0; i < n_in; i++) {
        int e = k_of[(i + a->pri) % n_in];
        if (e >= 0 && grant[e] < 0)
            s[slen++] = (int16_t)e;
    }
    for (int layer = 0; layer < n_in && slen > 0 && j < 0; layer++) {
        int nslen = 0;
        for (int e = 0; e < slen && j < 0; e++) {
            k = s[e];
            uint64_t edges = mask[k] & rm & ~reached;
            if (grant[k] >= 0) /* (maxsize.cpp's test; that resource was reached already) */
                edges &= ~(UINT64_C(1) << grant[k]);
            for (; edges; edges &= edges - 1) {
                int r = __builtin_ctzll(edges);
                reached |= UINT64_C(1) << r;
                from[r] = (int16_t)k;
                if (outk[r] < 0) {
                    j = r;
                    break;
                }
                ns[nslen++] = outk[r];
            }
        }
        memcpy(s, ns, (size_t)nslen * sizeof s[0]);
        slen = nslen;
    }
    if (j < 0)
        return 0;
    k = from[j];
    outk[j] = (int16_t)k;
    while (grant[k] >= 0) {
        int jn = grant[k];
        grant[k] = (int16_t)j;
        j = jn;
        k = from[j];
        outk[j] = (int16_t)k;
    }
    grant[k] = (int16_t)j;
    return 1;
}

static void max_size(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask, int16_t *grant)
{
    int16_t k_of[256], outk[64];
    memset(k_of, 0xff, sizeof k_of);
    memset(outk, 0xff, sizeof outk);
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        k_of[who[k]] = (int16_t)k;
    }
    while (augment(a, k_of, mask, grant, outk))
        ;
    a->pri = (uint16_t)((a->pri + 1) % a->n_in);
}

static void loa(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask, int16_t *grant)
{
    int n_out = a->n_out, n_in = a->n_in;
    uint64_t rm = res_mask(a), wanted = 0;
    int count[64];
    int16_t k_of[256];
    int8_t asks[256]; /* per entry: the resource it asks for, -1 none */
    memset(k_of, 0xff, sizeof k_of);
    memset(count, 0, sizeof count);
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        k_of[who[k]] = (int16_t)k;
        for (uint64_t m = mask[k] & rm; m; m &= m - 1)
            count[__builtin_ctzll(m)]++;
    }
    /* request phase: the lonely resource, the first of the fewest requesters
     * from the requester's pointer on */
    for (int k = 0; k < n; k++) {
        uint64_t m = mask[k] & rm;
        int best = -1, ptr = a->in_ptr[who[k]] % n_out;
        for (int o = 0; o < n_out && m; o++) {
            int r = (o + ptr) % n_out;
            if (((m >> r) & 1) && (best < 0 || count[r] < count[best]))
                best = r;
        }
        asks[k] = (int8_t)best;
        if (best >= 0)
            wanted |= UINT64_C(1) << best;
    }
    /* grant phase: the first asker from the resource's pointer on */
    for (; wanted; wanted &= wanted - 1) {
        int r = __builtin_ctzll(wanted), ptr = a->out_ptr[r] % n_in;
        for (int i = 0; i < n_in; i++) {
            int k = k_of[(i + ptr) % n_in];
            if (k < 0 || asks[k] != r)
                continue;
            grant[k] = (int16_t)r;
            a->in_ptr[who[k]] = (uint8_t)((a->in_ptr[who[k]] % n_out + 1) % n_out);
            a->out_ptr[r] = (uint16_t)((ptr + 1) % n_in);
            break;
        }
    }
}

/* pim's stream: salt and allocation count, in the block's first 16 bytes */
static uint64_t *pim_stream(noc_alloc_t *a) { return (uint64_t *)(void *)a->out_ptr; }

void noc_alloc_seed(noc_alloc_t *a, uint64_t salt)
{
    if (a->kind != NOC_ALLOC_PIM)
        return;
    pim_stream(a)[0] = salt;
    pim_stream(a)[1] = 0;
}

/* Offset in [0, n) for index idx (resources: idx, requesters: 64 + idx) of
 * round it of allocation c. */
static int pim_offset(uint64_t salt, uint64_t c, int it, int idx, int n)
{
    uint64_t x = noc_rng_mix(salt ^ noc_rng_mix((c << 20) + (uint64_t)it * 512u + (uint64_t)idx));
    return (int)((x >> 32) % (uint64_t)n);
}

static void pim(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask, int16_t *grant)
{
    int n_in = a->n_in, n_out = a->n_out;
    uint64_t rm = res_mask(a), taken = 0, *st = pim_stream(a), c = st[1]++;
    int16_t k_of[256];
    memset(k_of, 0xff, sizeof k_of);
    uint64_t wanted = 0;
    for (int k = 0; k < n; k++) {
        grant[k] = -1;
        k_of[who[k]] = (int16_t)k;
        wanted |= mask[k] & rm;
    }
    for (int it = 0; it < a->iters; it++) {
        int16_t granted[64]; /* per resource: the entry it grants, -1 none */
        uint64_t gr = 0;
        for (uint64_t w = wanted & ~taken; w; w &= w - 1) {
            int r = __builtin_ctzll(w), off = pim_offset(st[0], c, it, r, n_in);
            for (int i = 0; i < n_in; i++) {
                int k = k_of[(i + off) % n_in];
                if (k >= 0 && grant[k] < 0 && ((mask[k] >> r) & 1)) {
                    granted[r] = (int16_t)k;
                    gr |= UINT64_C(1) << r;
                    break;
                }
            }
        }
        if (!gr)
            break; /* (later rounds would draw and grant nothing either) */
        for (int i = 0; i < n_in; i++) {
            int k = k_of[i];
            if (k < 0 || grant[k] >= 0)
                continue;
            uint64_t mine = 0;
            for (uint64_t g = gr; g; g &= g - 1)
                if (granted[__builtin_ctzll(g)] == k)
                    mine |= g & -g;
            if (!mine)
                continue;
            int off = pim_offset(st[0], c, it, 64 + i, n_out);
            /* the first granting resource at or after off, cyclically */
            uint64_t hi = mine & (~UINT64_C(0) << off);
            int r = __builtin_ctzll(hi ? hi : mine);
            grant[k] = (int16_t)r;
            taken |= UINT64_C(1) << r;
        }
    }
}

void noc_alloc_dense_list(noc_alloc_t *a, int n, const int16_t *who, const uint64_t *mask,
                          int16_t *grant)
{
    assert(a->n_in <= 256 && n <= 256);
    if (a->kind == NOC_ALLOC_MAX_SIZE)
        max_size(a, n, who, mask, grant);
    else if (a->kind == NOC_ALLOC_LOA)
        loa(a, n, who, mask, grant);
    else if (a->kind == NOC_ALLOC_PIM)
        pim(a, n, who, mask, grant);
    else
        assert(0 && "not a dense kind");
}
