/* program_grow.c: a finished program that grows in place (program.h,
 * "a finished program that grows in place"): the PE engine's copy of a
 * running program, to which a platform appends ops as it issues them
 * (noc_pe_append_op, the SystemC wrapper). An op appended is numbered
 * after all the others, whatever its rank, so nothing is renumbered; ops,
 * dependencies and steps grow by doubling, so n appends cost O(n) in all.
 * Each op is checked as noc_prog_finish checks it (program_finish.c),
 * except that its words must lie inside its rank's memory as it is. */
#include "model/program_internal.h"
#include "util/xalloc.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct grow {
    uint32_t cap_ops, cap_deps;
    int cap_steps;
    uint32_t *op_rank; /* per op (cap_ops) */
} grow_t;

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = noc_xmalloc(n, "program string");
    memcpy(d, s, n);
    return d;
}

/* Room for n elements of `size` bytes, at least 16: a copy of the first
 * `used` of src. */
static void *copy_array(const void *src, size_t used, size_t n, size_t size, const char *what)
{
    void *d = noc_xcalloc(n < 16 ? 16 : n, size, what);
    if (used)
        memcpy(d, src, used * size);
    return d;
}

noc_program_t *noc_prog_grow_copy(const noc_program_t *p)
{
    assert(!p->build && "noc_prog_grow_copy of an unfinished program");
    noc_program_t *g = noc_xcalloc(1, sizeof *g, "program");
    grow_t *st = noc_xcalloc(1, sizeof *st, "program growth");
    size_t nr = p->n_ranks > 0 ? (size_t)p->n_ranks : 0;
    g->name = p->name ? dup_str(p->name) : NULL;
    g->n_ranks = p->n_ranks;
    g->ranks = copy_array(p->ranks, nr, nr, sizeof *p->ranks, "program ranks");
    g->n_ops = p->n_ops;
    st->cap_ops = p->n_ops < 16 ? 16 : p->n_ops;
    g->ops = copy_array(p->ops, p->n_ops, st->cap_ops, sizeof *p->ops, "program ops");
    g->n_deps = p->n_deps;
    st->cap_deps = p->n_deps < 16 ? 16 : p->n_deps;
    g->deps = copy_array(p->deps, p->n_deps, st->cap_deps, sizeof *p->deps, "program dependencies");
    g->n_init = p->n_init;
    g->init = copy_array(p->init, p->n_init, p->n_init, sizeof *p->init, "program memory values");
    g->n_expect = p->n_expect;
    g->expect = copy_array(p->expect, p->n_expect, p->n_expect, sizeof *p->expect, "program memory values");
    g->n_steps = p->n_steps;
    st->cap_steps = p->n_steps < 16 ? 16 : p->n_steps;
    g->steps = noc_xcalloc((size_t)st->cap_steps, sizeof *g->steps, "program steps");
    for (int k = 0; k < p->n_steps; k++)
        g->steps[k] = dup_str(p->steps[k]);
    st->op_rank = noc_xcalloc(st->cap_ops, sizeof *st->op_rank, "program op ranks");
    const uint32_t *ranks = noc_prog_op_ranks(p);
    if (ranks) {
        memcpy(st->op_rank, ranks, p->n_ops * sizeof *ranks);
    } else {
        for (int r = 0; r < p->n_ranks; r++)
            for (uint32_t i = p->ranks[r].op_start; i < p->ranks[r].op_start + p->ranks[r].n_ops; i++)
                st->op_rank[i] = (uint32_t)r;
    }
    for (size_t r = 0; r < nr; r++)
        g->ranks[r].op_start = 0;
    g->grow = st;
    return g;
}

const uint32_t *noc_prog_op_ranks(const noc_program_t *p)
{
    return p->grow ? ((const grow_t *)p->grow)->op_rank : NULL;
}

void noc_prog_grow_free(void *g)
{
    grow_t *st = g;
    if (!st)
        return;
    free(st->op_rank);
    free(st);
}

/* ---- checks: what noc_prog_finish checks of an op, with its memory as it is ---- */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int refuse(char *err, size_t errlen, int r, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "rank %d: %s", r, msg);
    return -1;
}

/* The words op o reaches in its rank's memory (0: none), or -1 on a bad
 * field. */
static int64_t check_fields(const noc_program_t *g, int r, const noc_op_t *o, char *err, size_t errlen)
{
    const char *k = noc_op_kind_name((noc_op_kind_t)o->kind);
    if (o->kind != NOC_OP_CALC && o->words < 1)
        return refuse(err, errlen, r, "%s: a message or combine has at least one word", k);
    if (o->kind == NOC_OP_CALC)
        return o->cost < 0 ? refuse(err, errlen, r, "calc: %" PRId64 " cycles must be >= 0", o->cost) : 0;
    if (o->kind == NOC_OP_SEND || o->kind == NOC_OP_RECV) {
        int any = o->kind == NOC_OP_RECV;
        if ((o->peer < 0 || o->peer >= g->n_ranks) && !(any && o->peer == NOC_PROG_ANY))
            return refuse(err, errlen, r, "%s: rank %" PRId32 " out of range [0, %d)%s", k, o->peer, g->n_ranks,
                          any ? " (or any)" : "");
        if (o->tag < 0 && !(any && o->tag == NOC_PROG_ANY))
            return refuse(err, errlen, r, "%s: tag %" PRId32 " must be >= 0%s", k, o->tag, any ? " (or any)" : "");
        if (o->in_bytes && noc_prog_bytes_to_words(o->bytes) != o->words)
            return refuse(err, errlen, r, "%s: %" PRIu64 " bytes are not %" PRIu32 " words", k, o->bytes, o->words);
        if (o->addr < 0 && o->addr != NOC_PROG_NO_ADDR)
            return refuse(err, errlen, r, "%s: bad address %" PRId32, k, o->addr);
        return o->addr >= 0 ? (int64_t)o->addr + o->words : 0;
    }
    if (o->addr < 0 || o->src < 0)
        return refuse(err, errlen, r, "%s: bad address %" PRId32, k, o->addr < 0 ? o->addr : o->src);
    if (o->cost < 0 && o->cost != NOC_PROG_DEFAULT_COST)
        return refuse(err, errlen, r, "%s: cost %" PRId64 " must be >= 0", k, o->cost);
    return (int64_t)(o->addr > o->src ? o->addr : o->src) + o->words;
}

int noc_prog_grow_check(const noc_program_t *g, int r, const noc_op_t *op, const noc_dep_t *deps, uint32_t n_deps,
                        char *err, size_t errlen)
{
    const grow_t *st = g->grow;
    assert(st && "noc_prog_grow_check of a program that does not grow");
    if (r < 0 || r >= g->n_ranks)
        return refuse(err, errlen, r, "out of range [0, %d)", g->n_ranks);
    if (op->kind >= NOC_OP_KINDS)
        return refuse(err, errlen, r, "unknown op kind %d", op->kind);
    if (g->n_ops >= UINT32_MAX - 1 || (uint64_t)g->n_deps + n_deps >= UINT32_MAX)
        return refuse(err, errlen, r, "more ops or dependencies than a program may have");
    noc_op_t o = *op;
    noc_prog_normalise(&o);
    int64_t reach = check_fields(g, r, &o, err, errlen);
    if (reach < 0)
        return -1;
    if (reach > g->ranks[r].mem_words)
        return refuse(err, errlen, r, "%s reaches word %" PRId64 ", beyond its memory of %" PRIu32 " words",
                      noc_op_kind_name((noc_op_kind_t)o.kind), reach - 1, g->ranks[r].mem_words);
    if (o.step < -1 || o.step >= g->n_steps)
        return refuse(err, errlen, r, "step %" PRId32 " out of range [-1, %d)", o.step, g->n_steps);
    for (uint32_t k = 0; k < n_deps; k++)
        if (deps[k].op >= g->n_ops || st->op_rank[deps[k].op] != (uint32_t)r)
            return refuse(err, errlen, r, "a dependency on op %" PRIu32 ", %s", deps[k].op,
                          deps[k].op >= g->n_ops ? "which does not exist" : "of another rank");
    return 0;
}

/* ---- growing ---- */

/* Room for `need` elements in *arr of capacity *cap (doubling). */
static void room(void **arr, uint32_t *cap, uint64_t need, size_t size, const char *what)
{
    if (need <= *cap)
        return;
    uint64_t c = (uint64_t)*cap * 2;
    if (c < need)
        c = need;
    if (c > UINT32_MAX)
        c = UINT32_MAX;
    *arr = noc_xrealloc(*arr, (size_t)c * size, what);
    *cap = (uint32_t)c;
}

uint32_t noc_prog_grow_op(noc_program_t *g, int r, const noc_op_t *op, const noc_dep_t *deps, uint32_t n_deps)
{
    grow_t *st = g->grow;
    uint32_t cap = st->cap_ops;
    room((void **)&g->ops, &cap, (uint64_t)g->n_ops + 1, sizeof *g->ops, "program ops");
    room((void **)&st->op_rank, &st->cap_ops, (uint64_t)g->n_ops + 1, sizeof *st->op_rank, "program op ranks");
    room((void **)&g->deps, &st->cap_deps, (uint64_t)g->n_deps + n_deps, sizeof *g->deps, "program dependencies");
    noc_op_t *o = &g->ops[g->n_ops];
    *o = *op;
    noc_prog_normalise(o);
    o->dep_start = g->n_deps;
    o->n_deps = n_deps;
    if (n_deps)
        memcpy(&g->deps[g->n_deps], deps, n_deps * sizeof *deps);
    g->n_deps += n_deps;
    st->op_rank[g->n_ops] = (uint32_t)r;
    g->ranks[r].n_ops++;
    return g->n_ops++;
}

int noc_prog_grow_step(noc_program_t *g, const char *name, char *err, size_t errlen)
{
    grow_t *st = g->grow;
    assert(st && "noc_prog_grow_step of a program that does not grow");
    if (!noc_prog_good_name(name) || strcmp(name, "-") == 0) {
        snprintf(err, errlen, "step name \"%s\": use letters, digits and _ . : + - (no ':' first or last; "
                 "\"-\" alone means no step)", name);
        return -1;
    }
    if (g->n_steps >= NOC_PROG_MAX_STEPS) {
        snprintf(err, errlen, "more than the %d steps a program may have", NOC_PROG_MAX_STEPS);
        return -1;
    }
    for (int k = 0; k < g->n_steps; k++) /* O(steps): steps are few, and named once */
        if (strcmp(g->steps[k], name) == 0) {
            snprintf(err, errlen, "step '%s' is a step already", name);
            return -1;
        }
    if (g->n_steps == st->cap_steps) {
        st->cap_steps *= 2;
        g->steps = noc_xrealloc(g->steps, (size_t)st->cap_steps * sizeof *g->steps, "program steps");
    }
    g->steps[g->n_steps] = dup_str(name);
    return g->n_steps++;
}

int noc_prog_grow_mem(noc_program_t *g, int r, uint64_t words, char *err, size_t errlen)
{
    assert(g->grow && "noc_prog_grow_mem of a program that does not grow");
    if (r < 0 || r >= g->n_ranks)
        return refuse(err, errlen, r, "out of range [0, %d)", g->n_ranks);
    if (words > NOC_PROG_MAX_MEM)
        return refuse(err, errlen, r, "memory of %" PRIu64 " words is more than the %d a rank may have", words,
                      NOC_PROG_MAX_MEM);
    if (words > g->ranks[r].mem_words)
        g->ranks[r].mem_words = (uint32_t)words;
    return 0;
}
