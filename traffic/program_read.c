/* program_read.c: the reader of traffic programs in text form
 * (docs/programs.md): LogGOPSim's GOAL plus noctua's extensions.
 *
 * Line by line (getline: no length limit): comments are blanked out (a
 * block comment may span lines), an optional "LABEL:" is taken off the
 * front, the rest is cut into words ('{' and '}' are words of their own),
 * and the words make one item. Ops go straight into the builder
 * (model/program.h); dependencies wait for the closing brace of their rank
 * block, so a label may be used before the line that defines it. Every
 * error reads "FILE:LINE: message"; the checks of noc_prog_finish (cycles,
 * addresses) name the line of the op too. */
#include "util/infile.h"
#include "model/program.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

static void *grow(void *arr, size_t *cap, size_t need, size_t size)
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
static int fail(reader_t *r, const char *fmt, ...)
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

static int is(const char *a, const char *b)
{
    return a && strcmp(a, b) == 0;
}

static const char *tok(const reader_t *r, size_t i)
{
    return i < r->n_tok ? r->tok[i] : NULL;
}

/* "a send", "an add". */
static const char *article(const char *kind)
{
    return strchr("aeiou", kind[0]) ? "an" : "a";
}

static int is_label(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* Whole decimal number, optionally negative: 0, -1 not a number, 1 overflow. */
static int parse_i64(const char *s, int64_t *v)
{
    int neg = *s == '-';
    s += neg;
    if (!isdigit((unsigned char)*s))
        return -1;
    uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    int over = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (x > (lim - d) / 10)
            over = 1;
        else
            x = x * 10 + d;
    }
    if (*s)
        return -1;
    if (over)
        return 1;
    *v = neg ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
    return 0;
}

/* Token t as a number in [lo, hi]; `what` names it in messages. */
static int number(reader_t *r, const char *t, const char *what, int64_t lo, int64_t hi,
                  int64_t *v)
{
    if (!t)
        return fail(r, "expected %s (a number) at the end of the line", what);
    int rc = parse_i64(t, v);
    if (rc < 0)
        return fail(r, "expected %s (a number), found '%.60s'", what, t);
    if (rc > 0 || *v < lo || *v > hi)
        return fail(r, "%s %.60s out of range [%" PRId64 ", %" PRId64 "]", what, t, lo, hi);
    return 0;
}

/* ---- labels of the open block ---- */

static size_t keep_name(reader_t *r, const char *s)
{
    size_t n = strlen(s) + 1;
    r->arena = grow(r->arena, &r->cap_arena, r->used + n, 1);
    memcpy(r->arena + r->used, s, n);
    r->used += n;
    return r->used - n;
}

static size_t label_slot(const reader_t *r, const char *s)
{
    size_t h = 2166136261u;
    for (const char *c = s; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    h &= r->n_slots - 1;
    while (r->slot[h].name && strcmp(r->arena + r->slot[h].name - 1, s) != 0)
        h = (h + 1) & (r->n_slots - 1);
    return h;
}

static label_t *find_label(const reader_t *r, const char *s)
{
    if (!r->n_slots)
        return NULL;
    label_t *l = &r->slot[label_slot(r, s)];
    return l->name ? l : NULL;
}

static void rehash(reader_t *r)
{
    label_t *old = r->slot;
    size_t n_old = r->n_slots;
    r->n_slots = n_old ? 2 * n_old : 64;
    r->slot = noc_xcalloc(r->n_slots, sizeof *r->slot, "program labels");
    for (size_t i = 0; i < n_old; i++)
        if (old[i].name)
            r->slot[label_slot(r, r->arena + old[i].name - 1)] = old[i];
    free(old);
}

static int define_label(reader_t *r, const char *s, uint32_t op)
{
    label_t *l = find_label(r, s);
    if (l)
        return fail(r, "label '%.60s' defined twice in rank %d (first at line %" PRIu32 ")", s,
                    r->rank, l->line);
    if (2 * (r->n_labels + 1) > r->n_slots)
        rehash(r);
    size_t h = label_slot(r, s);
    r->slot[h] = (label_t){keep_name(r, s) + 1, op, r->line};
    r->n_labels++;
    return 0;
}

/* ---- ops ---- */

static int add_op(reader_t *r, noc_op_t *op, const char *label)
{
    op->line = r->line;
    uint32_t i = noc_prog_add(r->p, r->rank, op);
    return label ? define_label(r, label, i) : 0;
}

static noc_op_t new_op(noc_op_kind_t kind)
{
    noc_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = (uint8_t)kind;
    op.addr = NOC_PROG_NO_ADDR;
    op.src = NOC_PROG_NO_ADDR;
    return op;
}

/* A size at tok[*i]: "16b" (bytes, when bytes_ok), "2w" (words); the unit
 * may also stand apart ("16 b"). */
static int read_size(reader_t *r, size_t *i, noc_op_t *op, int bytes_ok, const char *kind)
{
    const char *t = tok(r, *i);
    if (!t)
        return fail(r, "expected a size after '%s' (like %s)", kind, bytes_ok ? "16b or 2w" : "2w");
    size_t d = 0;
    while (isdigit((unsigned char)t[d]))
        d++;
    const char *unit = t + d;
    if (!*unit && (is(tok(r, *i + 1), "b") || is(tok(r, *i + 1), "w")))
        unit = tok(r, ++*i);
    if (d == 0 || (!is(unit, "b") && !is(unit, "w")))
        return fail(r, "expected the size of %s %s (like %s), found '%.60s'", article(kind), kind,
                    bytes_ok ? "16b or 2w" : "2w", t);
    int dd = d > 60 ? 60 : (int)d; /* digits shown in messages */
    if (unit[0] == 'b' && !bytes_ok)
        return fail(r, "the size of %s %s is in words (like %.*sw), not bytes", article(kind),
                    kind, dd, t);
    ++*i;
    uint64_t n = 0;
    for (size_t k = 0; k < d; k++)
        n = n > (UINT64_MAX - 9) / 10 ? UINT64_MAX : n * 10 + (uint64_t)(t[k] - '0');
    if (unit[0] == 'b') {
        if (n > MAX_BYTES)
            return fail(r, "size %.*sb out of range [0, %" PRIu64 "] bytes", dd, t, MAX_BYTES);
        op->in_bytes = 1;
        op->bytes = n;
        n = (n + NOC_PROG_WORD_BYTES - 1) / NOC_PROG_WORD_BYTES;
        op->words = n ? (uint32_t)n : 1;
        return 0;
    }
    if (n < 1 || n > UINT32_MAX)
        return fail(r, "size %.*sw out of range [1, %" PRIu32 "] words", dd, t, UINT32_MAX);
    op->words = (uint32_t)n;
    return 0;
}

/* A rank at token t: destination of a send, source of a recv (-1 / any). */
static int read_peer(reader_t *r, const char *t, noc_op_t *op)
{
    int recv = op->kind == NOC_OP_RECV;
    if (!t)
        return fail(r, "expected a rank after '%s'", recv ? "from" : "to");
    int64_t v;
    if (recv && is(t, "any")) {
        op->peer = NOC_PROG_ANY;
        return 0;
    }
    int rc = parse_i64(t, &v);
    if (rc < 0)
        return fail(r, "expected a rank after '%s', found '%.60s'", recv ? "from" : "to", t);
    if (rc == 0 && recv && v == NOC_PROG_ANY) {
        op->peer = NOC_PROG_ANY;
        return 0;
    }
    if (rc > 0 || v < 0 || v >= r->p->n_ranks)
        return fail(r, "%s rank %.60s out of range [0, %d)%s", recv ? "source" : "destination", t,
                    r->p->n_ranks, recv ? " (or -1 / any: any source)" : "");
    op->peer = (int32_t)v;
    return 0;
}

static int read_tag(reader_t *r, const char *t, noc_op_t *op)
{
    int64_t v;
    if (op->kind == NOC_OP_RECV && is(t, "any")) {
        op->tag = NOC_PROG_ANY;
        return 0;
    }
    if (op->kind == NOC_OP_RECV && t && parse_i64(t, &v) == 0 && v == NOC_PROG_ANY) {
        op->tag = NOC_PROG_ANY;
        return 0;
    }
    if (number(r, t, "tag", 0, INT32_MAX, &v))
        return -1;
    op->tag = (int32_t)v;
    return 0;
}

static int option_bit(const char *k)
{
    static const char *const names[] = {"tag", "cpu", "nic", "addr", "cost"};
    for (int b = 0; b < 5; b++)
        if (is(k, names[b]))
            return 1 << b;
    return 0;
}

static int read_option(reader_t *r, int bit, const char *t, noc_op_t *op)
{
    int64_t v;
    switch (bit) {
    case OPT_TAG:
        return read_tag(r, t, op);
    case OPT_CPU:
    case OPT_NIC:
        if (number(r, t, bit == OPT_CPU ? "cpu" : "nic", 0, 255, &v))
            return -1;
        *(bit == OPT_CPU ? &op->cpu : &op->nic) = (uint8_t)v;
        return 0;
    case OPT_ADDR:
        if (number(r, t, "address", 0, NOC_PROG_MAX_MEM - 1, &v))
            return -1;
        op->addr = (int32_t)v;
        return 0;
    default:
        if (number(r, t, "cost", 0, INT64_MAX, &v))
            return -1;
        op->cost = v;
        return 0;
    }
}

/* "KEY VALUE" pairs from tok[i] on; `allowed`: OPT_ bits. */
static int read_options(reader_t *r, size_t i, noc_op_t *op, int allowed, const char *kind,
                        const char *list)
{
    int seen = 0;
    for (; i < r->n_tok; i += 2) {
        const char *k = r->tok[i];
        int bit = option_bit(k);
        if (!(bit & allowed))
            return fail(r, "unknown option '%.60s' for %s %s (expected %s)", k, article(kind),
                        kind, list);
        if (seen & bit)
            return fail(r, "'%s' given twice", k);
        seen |= bit;
        if (i + 1 >= r->n_tok)
            return fail(r, "expected a value after '%s'", k);
        if (read_option(r, bit, r->tok[i + 1], op))
            return -1;
    }
    return 0;
}

/* [LABEL:] send SIZE to R [tag T] [cpu C] [nic N] [addr A], recv alike. */
static int item_message(reader_t *r, noc_op_kind_t kind, const char *label)
{
    noc_op_t op = new_op(kind);
    const char *k = noc_op_kind_name(kind), *dir = kind == NOC_OP_SEND ? "to" : "from";
    size_t i = 1;
    if (read_size(r, &i, &op, 1, k))
        return -1;
    if (!is(tok(r, i), dir))
        return fail(r, "expected '%s' after the size of %s %s", dir, article(k), k);
    if (read_peer(r, tok(r, i + 1), &op) ||
        read_options(r, i + 2, &op, OPT_TAG | OPT_CPU | OPT_NIC | OPT_ADDR, k,
                     "tag, cpu, nic or addr"))
        return -1;
    return add_op(r, &op, label);
}

/* [LABEL:] calc N [cpu C] [nic N] */
static int item_calc(reader_t *r, const char *label)
{
    noc_op_t op = new_op(NOC_OP_CALC);
    if (number(r, tok(r, 1), "the cycles of a calc", 0, INT64_MAX, &op.cost) ||
        read_options(r, 2, &op, OPT_CPU | OPT_NIC, "calc", "cpu or nic"))
        return -1;
    return add_op(r, &op, label);
}

/* [LABEL:] add|min|max|copy Nw at DST from SRC [cost C] [cpu C] [nic N] */
static int item_combine(reader_t *r, noc_op_kind_t kind, const char *label)
{
    noc_op_t op = new_op(kind);
    const char *k = noc_op_kind_name(kind);
    int64_t v;
    size_t i = 1;
    op.cost = NOC_PROG_DEFAULT_COST;
    if (read_size(r, &i, &op, 0, k))
        return -1;
    if (!is(tok(r, i), "at"))
        return fail(r, "expected 'at' after the size of %s %s", article(k), k);
    if (number(r, tok(r, i + 1), "the destination address", 0, NOC_PROG_MAX_MEM - 1, &v))
        return -1;
    op.addr = (int32_t)v;
    if (!is(tok(r, i + 2), "from"))
        return fail(r, "expected 'from' after the destination of %s %s", article(k), k);
    if (number(r, tok(r, i + 3), "the source address", 0, NOC_PROG_MAX_MEM - 1, &v))
        return -1;
    op.src = (int32_t)v;
    if (read_options(r, i + 4, &op, OPT_COST | OPT_CPU | OPT_NIC, k, "cost, cpu or nic"))
        return -1;
    return add_op(r, &op, label);
}

/* ---- other items of a rank block ---- */

static int item_mem(reader_t *r)
{
    int64_t v;
    if (number(r, tok(r, 1), "the memory size", 0, NOC_PROG_MAX_MEM, &v))
        return -1;
    if (r->n_tok > 2)
        return fail(r, "expected nothing after 'mem %s'", r->tok[1]);
    noc_prog_mem(r->p, r->rank, (uint32_t)v);
    return 0;
}

/* init|expect A V1 V2 ... */
static int item_values(reader_t *r, int expect)
{
    const char *k = expect ? "expect" : "init";
    word_lines_t *w = expect ? &r->expect : &r->init;
    int64_t a, v;
    if (number(r, tok(r, 1), "the address", 0, NOC_PROG_MAX_MEM - 1, &a))
        return -1;
    if (r->n_tok < 3)
        return fail(r, "expected values after '%s %s'", k, r->tok[1]);
    if ((uint64_t)a + (r->n_tok - 2) > NOC_PROG_MAX_MEM)
        return fail(r, "%s reaches word %" PRIu64 ", out of range [0, %d)", k,
                    (uint64_t)a + r->n_tok - 3, NOC_PROG_MAX_MEM);
    w->v = grow(w->v, &w->cap, w->n + r->n_tok - 2, sizeof *w->v);
    for (size_t i = 2; i < r->n_tok; i++) {
        if (number(r, r->tok[i], "a value", INT64_MIN, INT64_MAX, &v))
            return -1;
        uint32_t addr = (uint32_t)a + (uint32_t)(i - 2);
        w->v[w->n++] = (word_line_t){addr, r->line};
        (expect ? noc_prog_expect : noc_prog_init)(r->p, r->rank, addr, v);
    }
    return 0;
}

static int item_step(reader_t *r)
{
    const char *s = tok(r, 1);
    if (!s || r->n_tok > 2)
        return fail(r, "expected 'step NAME' or 'step -'");
    if (is(s, "-")) {
        noc_prog_step(r->p, r->rank, NULL);
        return 0;
    }
    if (!noc_prog_good_name(s))
        return fail(r, "bad step name '%.60s': use letters, digits and _ . : + - (no ':' first or last)", s);
    noc_prog_step(r->p, r->rank, s);
    return 0;
}

/* A requires B, A irequires B: resolved when the block closes. */
static int item_dep(reader_t *r)
{
    if (r->n_tok != 3)
        return fail(r, "expected 'LABEL %s LABEL'", r->tok[1]);
    for (size_t i = 0; i < 3; i += 2)
        if (!is_label(r->tok[i]))
            return fail(r, "bad label '%.60s' (a letter, then letters, digits or _)", r->tok[i]);
    r->dep = grow(r->dep, &r->cap_dep, r->n_dep + 1, sizeof *r->dep);
    pending_dep_t *d = &r->dep[r->n_dep++];
    d->a = keep_name(r, r->tok[0]);
    d->b = keep_name(r, r->tok[2]);
    d->line = r->line;
    d->start = (uint8_t)is(r->tok[1], "irequires");
    return 0;
}

static int cmp_word_line(const void *x, const void *y)
{
    const word_line_t *a = x, *b = y;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static int check_twice(reader_t *r, word_lines_t *w, const char *k)
{
    if (w->n)
        qsort(w->v, w->n, sizeof *w->v, cmp_word_line);
    for (size_t i = 1; i < w->n; i++)
        if (w->v[i].addr == w->v[i - 1].addr) {
            r->line = w->v[i].line;
            return fail(r, "word %" PRIu32 " of rank %d has two %s values (the first at line %"
                        PRIu32 ")", w->v[i].addr, r->rank, k, w->v[i - 1].line);
        }
    w->n = 0;
    return 0;
}

static int close_block(reader_t *r)
{
    if (r->n_tok > 1)
        return fail(r, "expected nothing after '}'");
    for (size_t i = 0; i < r->n_dep; i++) {
        const pending_dep_t *d = &r->dep[i];
        const label_t *a = find_label(r, r->arena + d->a), *b = find_label(r, r->arena + d->b);
        if (!a || !b) {
            r->line = d->line;
            return fail(r, "undefined label '%.60s' in rank %d", r->arena + (a ? d->b : d->a),
                        r->rank);
        }
        noc_prog_dep(r->p, a->op, b->op, d->start);
    }
    if (check_twice(r, &r->init, "init") || check_twice(r, &r->expect, "expect"))
        return -1;
    r->n_dep = 0;
    r->used = 0;
    r->n_labels = 0;
    if (r->n_slots > 1024) { /* a big block: do not clear its table for every small one */
        free(r->slot);
        r->slot = NULL;
        r->n_slots = 0;
    } else if (r->n_slots) {
        memset(r->slot, 0, r->n_slots * sizeof *r->slot);
    }
    r->rank = -1;
    return 0;
}

static int is_op_word(const char *t)
{
    static const char *const w[] = {"send", "recv", "calc", "add", "min", "max", "copy",
                                    "mem",  "init", "expect", "step"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (is(t, w[i]))
            return 1;
    return 0;
}

static int is_dep_line(const reader_t *r)
{
    return r->n_tok >= 2 && (is(r->tok[1], "requires") || is(r->tok[1], "irequires"));
}

static int block_item(reader_t *r, const char *label)
{
    const char *t = r->tok[0];
    if (is_dep_line(r))
        return label ? fail(r, "a label names an op, not a dependency") : item_dep(r);
    for (int k = 0; k < NOC_OP_KINDS; k++)
        if (is(t, noc_op_kind_name((noc_op_kind_t)k))) {
            if (k == NOC_OP_SEND || k == NOC_OP_RECV)
                return item_message(r, (noc_op_kind_t)k, label);
            if (k == NOC_OP_CALC)
                return item_calc(r, label);
            return item_combine(r, (noc_op_kind_t)k, label);
        }
    if (label)
        return fail(r, "a label names an op (send, recv, calc, add, min, max, copy), "
                    "found '%.60s'", t);
    if (is(t, "}"))
        return close_block(r);
    if (is(t, "mem"))
        return item_mem(r);
    if (is(t, "init") || is(t, "expect"))
        return item_values(r, is(t, "expect"));
    if (is(t, "step"))
        return item_step(r);
    if (is(t, "rank") || is(t, "num_ranks") || is(t, "program"))
        return fail(r, "'%s' inside the block of rank %d: that block (line %" PRIu32 ") is not "
                    "closed", t, r->rank, r->rank_line);
    return fail(r, "unknown keyword '%.60s'", t);
}

/* ---- top level ---- */

static int item_num_ranks(reader_t *r)
{
    int64_t n;
    if (r->ranks_line)
        return fail(r, "num_ranks given twice (first at line %" PRIu32 ")", r->ranks_line);
    if (number(r, tok(r, 1), "num_ranks", 1, MAX_RANKS, &n))
        return -1;
    if (r->n_tok > 2)
        return fail(r, "expected nothing after 'num_ranks %s'", r->tok[1]);
    r->ranks_line = r->line;
    r->p = noc_prog_new((int)n, NULL);
    r->block_line = noc_xcalloc((size_t)n, sizeof *r->block_line, "program rank blocks");
    return 0;
}

static int item_program(reader_t *r)
{
    if (r->name)
        return fail(r, "program given twice (first at line %" PRIu32 ")", r->name_line);
    if (r->n_tok != 2)
        return fail(r, "expected 'program NAME'");
    if (!noc_prog_good_name(r->tok[1]))
        return fail(r, "bad program name '%.60s': use letters, digits and _ . : + - (no ':' first or last)", r->tok[1]);
    r->name = noc_xcalloc(strlen(r->tok[1]) + 1, 1, "program name");
    strcpy(r->name, r->tok[1]);
    r->name_line = r->line;
    return 0;
}

/* rank R { */
static int item_rank(reader_t *r)
{
    int64_t k;
    if (!r->p)
        return fail(r, "num_ranks missing before the first rank block");
    const char *t = tok(r, 1);
    if (!t || parse_i64(t, &k) != 0)
        return fail(r, "expected a rank number after 'rank'");
    if (k < 0 || k >= r->p->n_ranks)
        return fail(r, "rank %.60s out of range [0, %d) (num_ranks %d)", t, r->p->n_ranks,
                    r->p->n_ranks);
    if (!is(tok(r, 2), "{") || r->n_tok > 3)
        return fail(r, "expected 'rank %s {'", t);
    if (r->block_line[k])
        return fail(r, "rank %" PRId64 " has a block already (line %" PRIu32 ")", k,
                    r->block_line[k]);
    r->block_line[k] = r->line;
    r->rank = (int)k;
    r->rank_line = r->line;
    return 0;
}

/* steps NAME ... : the steps' order (noctua extension) */
static int item_steps(reader_t *r)
{
    if (!r->p)
        return fail(r, "num_ranks missing before 'steps'");
    if (r->n_tok < 2)
        return fail(r, "expected 'steps NAME ...'");
    for (size_t i = 1; i < r->n_tok; i++) {
        if (!noc_prog_good_name(r->tok[i]) || strcmp(r->tok[i], "-") == 0)
            return fail(r, "bad step name '%.60s': use letters, digits and _ . : + - (no ':' first or last)", r->tok[i]);
        noc_prog_declare_step(r->p, r->tok[i]);
    }
    return 0;
}

static int top_item(reader_t *r, const char *label)
{
    const char *t = r->tok[0];
    if (label)
        return fail(r, "label '%.60s' outside a rank block", label);
    if (is(t, "num_ranks"))
        return item_num_ranks(r);
    if (is(t, "program"))
        return item_program(r);
    if (is(t, "steps"))
        return item_steps(r);
    if (is(t, "rank"))
        return item_rank(r);
    if (is(t, "}"))
        return fail(r, "'}' without an open rank block");
    if (is_dep_line(r))
        return fail(r, "a dependency outside a rank block");
    if (is_op_word(t))
        return fail(r, "'%.60s' outside a rank block", t);
    return fail(r, "unknown keyword '%.60s' (expected num_ranks, program, steps or rank)", t);
}

/* ---- lines ---- */

/* Blanks out comments: // and # to the end of the line, block comments
 * (which may go on to the next lines). */
static void strip_comments(reader_t *r, char *s)
{
    for (; *s; s++) {
        if (r->in_comment) {
            if (s[0] == '*' && s[1] == '/') {
                r->in_comment = 0;
                *s++ = ' ';
            }
            *s = ' ';
        } else if (*s == '#' || (s[0] == '/' && s[1] == '/')) {
            *s = '\0';
            return;
        } else if (s[0] == '/' && s[1] == '*') {
            r->in_comment = 1;
            r->comment_line = r->line;
            *s++ = ' ';
            *s = ' ';
        }
    }
}

/* "LABEL:" at the front of s: returns what follows and sets *label, or
 * returns s. "step :x" is a step, not a label. */
static char *take_label(char *s, const char **label)
{
    char *c = s;
    *label = NULL;
    while (isspace((unsigned char)*c))
        c++;
    if (!isalpha((unsigned char)*c))
        return s;
    char *name = c;
    while (isalnum((unsigned char)*c) || *c == '_')
        c++;
    char *end = c;
    while (isspace((unsigned char)*c))
        c++;
    if (*c != ':' || (end != c && end - name == 4 && strncmp(name, "step", 4) == 0))
        return s;
    *end = '\0';
    *label = name;
    return c + 1;
}

static void push(reader_t *r, const char *t)
{
    r->tok = grow(r->tok, &r->cap_tok, r->n_tok + 1, sizeof *r->tok);
    r->tok[r->n_tok++] = t;
}

/* Words of s, in place; '{' and '}' are words of their own. */
static void split(reader_t *r, char *s)
{
    r->n_tok = 0;
    while (*s) {
        if (isspace((unsigned char)*s)) {
            *s++ = '\0';
        } else if (*s == '{' || *s == '}') {
            push(r, *s == '{' ? "{" : "}");
            *s++ = '\0';
        } else {
            push(r, s);
            while (*s && !isspace((unsigned char)*s) && *s != '{' && *s != '}')
                s++;
        }
    }
}

static int do_line(reader_t *r, char *s)
{
    const char *label;
    strip_comments(r, s);
    s = take_label(s, &label);
    split(r, s);
    if (r->n_tok == 0)
        return label ? fail(r, "expected an op after label '%.60s'", label) : 0;
    return r->rank < 0 ? top_item(r, label) : block_item(r, label);
}

/* After the last line: everything closed, then the builder's checks. */
static noc_program_t *finish(reader_t *r)
{
    char msg[512];
    if (r->in_comment) {
        fail(r, "comment opened at line %" PRIu32 " is not closed", r->comment_line);
        return NULL;
    }
    if (r->rank >= 0) {
        fail(r, "block of rank %d (line %" PRIu32 ") is not closed: '}' missing", r->rank,
             r->rank_line);
        return NULL;
    }
    if (!r->p) {
        fail(r, "num_ranks missing");
        return NULL;
    }
    noc_program_t *p = r->p;
    p->name = r->name;
    r->name = NULL;
    noc_prog_source(p, r->file);
    if (noc_prog_finish(p, msg, sizeof msg)) {
        if (r->errlen)
            snprintf(r->err, r->errlen, "%s", msg);
        return NULL;
    }
    r->p = NULL;
    return p;
}

static void reader_free(reader_t *r)
{
    noc_prog_free(r->p);
    free(r->name);
    free(r->block_line);
    free(r->tok);
    free(r->arena);
    free(r->slot);
    free(r->dep);
    free(r->init.v);
    free(r->expect.v);
}

static void reader_init(reader_t *r, const char *file, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->file = file ? file : "<string>";
    r->err = err;
    r->errlen = errlen;
    r->rank = -1;
    if (errlen)
        err[0] = '\0';
}

static void next_line(reader_t *r)
{
    if (r->line < UINT32_MAX)
        r->line++;
}

noc_program_t *noc_prog_read_string(const char *text, const char *name_for_errors, char *err,
                                    size_t errlen)
{
    reader_t r;
    reader_init(&r, name_for_errors, err, errlen);
    size_t n = strlen(text);
    char *copy = noc_xcalloc(n + 1, 1, "program text");
    memcpy(copy, text, n);
    noc_program_t *p = NULL;
    int rc = 0;
    for (char *s = copy; !rc && *s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        next_line(&r);
        rc = do_line(&r, s);
        s = nl ? nl + 1 : s + strlen(s);
    }
    if (!rc)
        p = finish(&r);
    free(copy);
    reader_free(&r);
    return p;
}

noc_program_t *noc_prog_read_file(const char *path, char *err, size_t errlen)
{
    reader_t r;
    reader_init(&r, path, err, errlen);
    noc_infile_t in;
    char msg[512];
    if (noc_in_open(&in, path, "program", msg, sizeof msg) != 0) {
        if (errlen)
            snprintf(err, errlen, "%s", msg);
        return NULL;
    }
    size_t len;
    noc_program_t *p = NULL;
    int rc = 0, got;
    while (!rc && (got = noc_in_line(&in, &len, msg, sizeof msg)) > 0) {
        next_line(&r);
        rc = do_line(&r, in.buf);
    }
    if (!rc && got < 0) {
        if (errlen)
            snprintf(err, errlen, "%s", msg); /* a NUL byte, a line too long, a read error */
        rc = -1;
    }
    if (!rc)
        p = finish(&r);
    noc_in_close(&in);
    reader_free(&r);
    return p;
}
