/* program_read_items.c: the items of a traffic program's text other than
 * ops (docs/programs.md): inside a rank block, dependencies (resolved when
 * the block closes), mem, init and expect values (each word given once),
 * step markers; at the top level, num_ranks, program, steps and the rank
 * blocks themselves; and the dispatch of a line's words to its item. Part
 * of the reader (program_read.c). */
#include "traffic/program_read_internal.h"

/* ---- other items of a rank block ---- */

static int item_mem(reader_t *r)
{
    int64_t v;
    if (noc_rd_number(r, tok(r, 1), "the memory size", 0, NOC_PROG_MAX_MEM, &v))
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
    if (noc_rd_number(r, tok(r, 1), "the address", 0, NOC_PROG_MAX_MEM - 1, &a))
        return -1;
    if (r->n_tok < 3)
        return fail(r, "expected values after '%s %s'", k, r->tok[1]);
    if ((uint64_t)a + (r->n_tok - 2) > NOC_PROG_MAX_MEM)
        return fail(r, "%s reaches word %" PRIu64 ", out of range [0, %d)", k,
                    (uint64_t)a + r->n_tok - 3, NOC_PROG_MAX_MEM);
    w->v = grow(w->v, &w->cap, w->n + r->n_tok - 2, sizeof *w->v);
    for (size_t i = 2; i < r->n_tok; i++) {
        if (noc_rd_number(r, r->tok[i], "a value", INT64_MIN, INT64_MAX, &v))
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
    d->a = noc_rd_keep_name(r, r->tok[0]);
    d->b = noc_rd_keep_name(r, r->tok[2]);
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
        const label_t *a = noc_rd_find_label(r, r->arena + d->a), *b = noc_rd_find_label(r, r->arena + d->b);
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

int noc_rd_block_item(reader_t *r, const char *label)
{
    const char *t = r->tok[0];
    if (is_dep_line(r))
        return label ? fail(r, "a label names an op, not a dependency") : item_dep(r);
    for (int k = 0; k < NOC_OP_KINDS; k++)
        if (is(t, noc_op_kind_name((noc_op_kind_t)k))) {
            if (k == NOC_OP_SEND || k == NOC_OP_RECV)
                return noc_rd_item_message(r, (noc_op_kind_t)k, label);
            if (k == NOC_OP_CALC)
                return noc_rd_item_calc(r, label);
            return noc_rd_item_combine(r, (noc_op_kind_t)k, label);
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
    if (noc_rd_number(r, tok(r, 1), "num_ranks", 1, MAX_RANKS, &n))
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
    if (!t || noc_rd_parse_i64(t, &k) != 0)
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

int noc_rd_top_item(reader_t *r, const char *label)
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
