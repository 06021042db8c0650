/* program_read_internal.h: what the three files of the traffic-program
 * reader share (program_read.c: the lines; program_read_ops.c: the ops and
 * their labels; program_read_items.c: rank blocks, dependencies, memory
 * values, steps and the top-level items): the reader's state, the small
 * lexical helpers every item uses, and the items one file hands to
 * another. Private to traffic/program_read*.c. */
#ifndef NOC_PROGRAM_READ_INTERNAL_H
#define NOC_PROGRAM_READ_INTERNAL_H
#include "model/program.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif

#define MAX_RANKS (1 << 20)
#define MAX_BYTES ((uint64_t)UINT32_MAX * NOC_PROG_WORD_BYTES)

typedef struct label {
    size_t name;  /* offset in the arena + 1; 0: empty slot */
    uint32_t op, line;
} label_t;

typedef struct pending_dep {
    size_t a, b;  /* label names: offsets in the arena */
    uint32_t line;
    uint8_t start;
} pending_dep_t;

typedef struct word_line {
    uint32_t addr, line;
} word_line_t;

typedef struct word_lines {
    word_line_t *v;
    size_t n, cap;
} word_lines_t;

typedef struct reader {
    const char *file;
    uint32_t line;
    char *err;
    size_t errlen;
    noc_program_t *p;        /* made by num_ranks */
    uint32_t ranks_line;     /* line of num_ranks, 0: not yet */
    char *name;              /* from "program NAME" */
    uint32_t name_line;
    int rank;                /* rank of the open block, -1: none */
    uint32_t rank_line;
    uint32_t *block_line;    /* per rank: line of its block, 0: none */
    int in_comment;
    uint32_t comment_line;
    const char **tok;        /* words of the current line */
    size_t n_tok, cap_tok;
    /* the open block */
    char *arena;             /* label names */
    size_t used, cap_arena;
    label_t *slot;           /* open-addressing hash of labels */
    size_t n_slots, n_labels;
    pending_dep_t *dep;
    size_t n_dep, cap_dep;
    word_lines_t init, expect;
} reader_t;

enum { OPT_TAG = 1, OPT_CPU = 2, OPT_NIC = 4, OPT_ADDR = 8, OPT_COST = 16 };

/* ---- helpers ---- */

static inline void *grow(void *arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return arr;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    if (c <= SIZE_MAX / size)
        noc_mem_check_growth((uint64_t)c * size, "reading the program");
    if (c > SIZE_MAX / size || !(arr = realloc(arr, c * size))) {
        noc_oom("reading a program", c > SIZE_MAX / size ? SIZE_MAX : c * size);
    }
    *cap = c;
    return arr;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int fail(reader_t *r, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->errlen)
        snprintf(r->err, r->errlen, "%s:%" PRIu32 ": %s", r->file, r->line ? r->line : 1, msg);
    return -1;
}

static inline int is(const char *a, const char *b)
{
    return a && strcmp(a, b) == 0;
}

static inline const char *tok(const reader_t *r, size_t i)
{
    return i < r->n_tok ? r->tok[i] : NULL;
}

/* "a send", "an add". */
static inline const char *article(const char *kind)
{
    return strchr("aeiou", kind[0]) ? "an" : "a";
}

static inline int is_label(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* ---- words (program_read.c) ---- */

/* Whole decimal number, optionally negative: 0, -1 not a number, 1 overflow. */
int noc_rd_parse_i64(const char *s, int64_t *v);
/* Token t as a number in [lo, hi] into *v: 0, or -1 with a message that
 * names it by `what` (no token, not a number, out of range). */
int noc_rd_number(reader_t *r, const char *t, const char *what, int64_t lo, int64_t hi,
                  int64_t *v);

/* ---- items (program_read_ops.c) ---- */

/* [LABEL:] send|recv SIZE to|from RANK [options]: an op of the open block. */
int noc_rd_item_message(reader_t *r, noc_op_kind_t kind, const char *label);
/* [LABEL:] calc N [cpu C] [nic N] */
int noc_rd_item_calc(reader_t *r, const char *label);
/* [LABEL:] add|min|max|copy Nw at DST from SRC [cost C] [cpu C] [nic N] */
int noc_rd_item_combine(reader_t *r, noc_op_kind_t kind, const char *label);
/* The label s of the open block, or NULL. */
label_t *noc_rd_find_label(const reader_t *r, const char *s);
/* A copy of s in the open block's arena: its offset there. */
size_t noc_rd_keep_name(reader_t *r, const char *s);

/* ---- items (program_read_items.c) ---- */

/* The words of one line (r->tok, at least one) inside a rank block, or
 * outside any: 0, or -1 with the message in r->err. */
int noc_rd_block_item(reader_t *r, const char *label);
int noc_rd_top_item(reader_t *r, const char *label);

#ifdef __cplusplus
}
#endif
#endif
