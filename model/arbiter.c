/* arbiter.c: round-robin and matrix arbiters over multi-word request vectors.
 * pick reads the priority state only; update moves it after a final grant
 * (see arbiter.h for the contract shared with the RTL arbiters). */
#include "util/xalloc.h"
#include "model/arbiter.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[NOC_ARB_COUNT] = {
    [NOC_ARB_ROUND_ROBIN] = "round_robin",
    [NOC_ARB_MATRIX] = "matrix",
};

const char *noc_arb_kind_name(noc_arb_kind_t k)
{
    if ((int)k < 0 || k >= NOC_ARB_COUNT)
        return "?";
    return kind_names[k];
}

noc_arb_kind_t noc_arb_kind_parse(const char *name)
{
    for (int k = 0; k < NOC_ARB_COUNT; k++)
        if (name && strcmp(name, kind_names[k]) == 0)
            return (noc_arb_kind_t)k;
    return NOC_ARB_COUNT;
}

/* Mask of the valid bits of word w of an n-bit vector. */
static uint64_t word_mask(int n, int w)
{
    int valid = n - 64 * w;
    if (valid >= 64)
        return ~UINT64_C(0);
    return (UINT64_C(1) << valid) - 1u;
}

/* Lowest set bit of req with index in [from, n), or -1. */
static int first_set_from(const uint64_t *req, int n, int from)
{
    int words = NOC_ARB_WORDS(n);
    for (int w = from >> 6; w < words; w++) {
        uint64_t bits = req[w] & word_mask(n, w);
        if (w == from >> 6)
            bits &= ~UINT64_C(0) << (from & 63);
        if (bits)
            return 64 * w + __builtin_ctzll(bits);
    }
    return -1;
}

void noc_arbiter_init(noc_arbiter_t *a, noc_arb_kind_t kind, int n)
{
    assert(n >= 1 && kind < NOC_ARB_COUNT);
    a->kind = (uint8_t)kind;
    a->n = n;
    a->ptr = 0;
    a->matrix = NULL;
    if (kind != NOC_ARB_MATRIX)
        return;
    int words = NOC_ARB_WORDS(n);
    a->matrix = noc_xcalloc((size_t)n * (size_t)words, sizeof *a->matrix, "arbiter");
    /* Lower indices beat higher ones: row i holds bits i+1 .. n-1. */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            a->matrix[(size_t)i * (size_t)words + (size_t)(j >> 6)] |= UINT64_C(1) << (j & 63);
}

void noc_arbiter_free(noc_arbiter_t *a)
{
    free(a->matrix);
    a->matrix = NULL;
}

static int pick_matrix(const noc_arbiter_t *a, const uint64_t *req)
{
    int words = NOC_ARB_WORDS(a->n);
    for (int i = first_set_from(req, a->n, 0); i >= 0;
         i = i + 1 < a->n ? first_set_from(req, a->n, i + 1) : -1) {
        const uint64_t *row = a->matrix + (size_t)i * (size_t)words;
        int beats_all = 1;
        for (int w = 0; w < words && beats_all; w++) {
            uint64_t others = req[w] & word_mask(a->n, w);
            if (w == i >> 6)
                others &= ~(UINT64_C(1) << (i & 63));
            if (others & ~row[w])
                beats_all = 0;
        }
        if (beats_all)
            return i;
    }
    return -1;
}

int noc_rr_pick_words(const uint64_t *req, int n, int ptr)
{
    int w = ptr < n ? first_set_from(req, n, ptr) : -1;
    if (w < 0 && ptr > 0)
        w = first_set_from(req, n, 0);
    return w;
}

int noc_arbiter_pick_general(const noc_arbiter_t *a, const uint64_t *req)
{
    if (a->kind == NOC_ARB_MATRIX)
        return pick_matrix(a, req);
    return noc_rr_pick_words(req, a->n, a->ptr);
}

void noc_arbiter_update_general(noc_arbiter_t *a, int winner)
{
    assert(winner >= 0 && winner < a->n);
    if (a->kind != NOC_ARB_MATRIX) {
        a->ptr = (int16_t)((winner + 1) % a->n);
        return;
    }
    /* The winner drops to lowest priority: it beats nobody, everybody beats it. */
    int words = NOC_ARB_WORDS(a->n);
    uint64_t *row = a->matrix + (size_t)winner * (size_t)words;
    memset(row, 0, (size_t)words * sizeof *row);
    uint64_t bit = UINT64_C(1) << (winner & 63);
    for (int i = 0; i < a->n; i++)
        if (i != winner)
            a->matrix[(size_t)i * (size_t)words + (size_t)(winner >> 6)] |= bit;
}
