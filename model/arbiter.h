/* arbiter.h: round-robin and matrix arbiters over n requesters.
 *
 * Requests come as a bit vector of 64-bit words (bit i of word i/64 is
 * requester i). `pick` is pure: it names the winner from the current priority
 * state and changes nothing. `update` moves the priority state and is called
 * only when the winner's request was finally granted (the handshake rule of
 * pulp-platform's rr_arb_tree), so a C arbiter and an RTL arbiter pick the same
 * winner on every contested cycle.
 *
 * Round-robin: priority starts at the requester after the last granted one
 * (initially requester 0). Matrix: the least recently granted requester wins;
 * initially lower indices beat higher ones. */
#ifndef NOC_ARBITER_H
#define NOC_ARBITER_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum noc_arb_kind {
    NOC_ARB_ROUND_ROBIN,
    NOC_ARB_MATRIX,
    NOC_ARB_COUNT
} noc_arb_kind_t;

#define NOC_ARB_WORDS(n) (((n) + 63) / 64)

typedef struct noc_arbiter {
    uint64_t *matrix; /* matrix: n rows of NOC_ARB_WORDS(n) words; bit j of row i
                         set means i beats j. Owned by the arbiter. */
    int32_t n;        /* requesters */
    int16_t ptr;      /* round-robin: highest-priority requester */
    uint8_t kind;     /* noc_arb_kind_t */
} noc_arbiter_t;

/* Name of a kind ("round_robin", "matrix") and the reverse look-up
 * (returns NOC_ARB_COUNT for an unknown name). */
const char *noc_arb_kind_name(noc_arb_kind_t k);
noc_arb_kind_t noc_arb_kind_parse(const char *name);

/* Set up an arbiter for n >= 1 requesters. Allocates for matrix arbiters
 * (aborts with a message when out of memory). */
void noc_arbiter_init(noc_arbiter_t *a, noc_arb_kind_t kind, int n);
void noc_arbiter_free(noc_arbiter_t *a);
/* Winner among the set bits of req (NOC_ARB_WORDS(n) words), or -1 if none. */
static inline int noc_arbiter_pick(const noc_arbiter_t *a, const uint64_t *req);
/* The request of `winner` was granted: move the priority. */
static inline void noc_arbiter_update(noc_arbiter_t *a, int winner);

/* Any kind and size; the inline versions above take the common round-robin
 * case of at most 64 requesters on the fast path. */
int noc_arbiter_pick_general(const noc_arbiter_t *a, const uint64_t *req);
void noc_arbiter_update_general(noc_arbiter_t *a, int winner);

/* Round-robin state kept as a bare pointer (allocators keep one small array
 * of them instead of noc_arbiter_t records; same rule as above). The pointer
 * after a grant to the last requester may be left at n instead of wrapping
 * to 0: every pick below treats n as 0.
 * noc_rr_pick: winner among the set bits of `bits` (requesters below n <= 64)
 * with priority starting at ptr (0 <= ptr <= n), or -1 if none.
 * noc_rr_pick_words: the same over NOC_ARB_WORDS(n) words.
 * noc_rr_next: the pointer after `winner` was granted.
 * noc_rr_ptr: the pointer as an RTL arbiter holds it (0 .. n-1). */
int noc_rr_pick_words(const uint64_t *req, int n, int ptr);

static inline int noc_rr_pick(uint64_t bits, unsigned ptr)
{
    if (!bits)
        return -1;
    uint64_t hi = bits & (~UINT64_C(0) << (ptr & 63)); /* ptr 64 = n: from 0 */
    return __builtin_ctzll(hi ? hi : bits);
}

static inline unsigned noc_rr_next(int winner) { return (unsigned)winner + 1u; }

static inline int noc_rr_ptr(unsigned ptr, int n) { return ptr == (unsigned)n ? 0 : (int)ptr; }

static inline int noc_arbiter_pick(const noc_arbiter_t *a, const uint64_t *req)
{
    if (a->kind == NOC_ARB_ROUND_ROBIN && a->n <= 64) {
        uint64_t bits = req[0] & (a->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << a->n) - 1u);
        if (!bits)
            return -1;
        uint64_t hi = bits & (~UINT64_C(0) << a->ptr);
        return __builtin_ctzll(hi ? hi : bits);
    }
    return noc_arbiter_pick_general(a, req);
}

static inline void noc_arbiter_update(noc_arbiter_t *a, int winner)
{
    if (a->kind == NOC_ARB_ROUND_ROBIN) {
        a->ptr = (int16_t)(winner + 1 == a->n ? 0 : winner + 1);
        return;
    }
    noc_arbiter_update_general(a, winner);
}

#ifdef __cplusplus
}
#endif
#endif
