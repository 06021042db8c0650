/* program_finish.c: noc_prog_finish (model/program.h): turns the builder
 * state (program.c, program_internal.h) into the finished program. It
 * groups the ops by rank (stable), puts the dependencies in CSR form, sorts
 * the memory values of each rank by address, sizes the memories, numbers
 * the steps in order of first use, checks everything (cycles by Kahn's
 * algorithm, no recursion) and frees the builder state. Its errors name
 * the file and line of the op when the program came from a file. */
#include "model/program_internal.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CYCLE_SHOWN 8

/* ---- finishing: error messages ---- */

typedef struct finisher {
    noc_program_t *p;
    build_t *b;
    char *err;
    size_t errlen;
    uint64_t *extent; /* per rank: words the ops, init and expect reach */
} finisher_t;

/* "FILE:LINE: rank R: msg", "rank R, line L: msg" or "rank R: msg". */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail_at(finisher_t *f, int rank, uint32_t line, const char *fmt, ...)
{
    char msg[400], where[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *src = f->b->source;
    if (rank < 0) /* not about one rank */
        snprintf(where, sizeof where, "%s", src ? src : "program");
    else if (src && line)
        snprintf(where, sizeof where, "%s:%" PRIu32 ": rank %d", src, line, rank);
    else if (src)
        snprintf(where, sizeof where, "%s: rank %d", src, rank);
    else if (line)
        snprintf(where, sizeof where, "rank %d, line %" PRIu32, rank, line);
    else
        snprintf(where, sizeof where, "rank %d", rank);
    if (f->errlen)
        snprintf(f->err, f->errlen, "%s: %s", where, msg);
    return -1;
}

/* ---- finishing: ops ---- */

/* Groups the ops by rank, keeping their order within a rank; perm[old] =
 * new index. Fills ranks[].op_start and n_ops. */
static uint32_t *sort_ops(finisher_t *f)
{
    noc_program_t *p = f->p;
    uint32_t n = p->n_ops;
    uint32_t *perm = noc_xcalloc(n, sizeof *perm, "program op order");
    for (uint32_t i = 0; i < n; i++)
        p->ranks[f->b->op_rank[i]].n_ops++;
    uint32_t at = 0;
    for (int r = 0; r < p->n_ranks; r++) {
        p->ranks[r].op_start = at;
        at += p->ranks[r].n_ops;
        p->ranks[r].n_ops = 0;
    }
    noc_op_t *ops = noc_xcalloc(n, sizeof *ops, "program ops");
    for (uint32_t i = 0; i < n; i++) {
        noc_rank_t *rk = &p->ranks[f->b->op_rank[i]];
        perm[i] = rk->op_start + rk->n_ops++;
        ops[perm[i]] = p->ops[i];
    }
    free(p->ops);
    p->ops = ops;
    return perm;
}

/* Rank of op i (after sort_ops), by binary search over ranks[]. */
static int rank_of(const noc_program_t *p, uint32_t i)
{
    int lo = 0, hi = p->n_ranks - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (p->ranks[mid].op_start <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo; /* an empty rank starts where the next one does: never picked */
}

/* Dependencies into CSR form per op, in the order they were given. */
static int place_deps(finisher_t *f, const uint32_t *perm)
{
    noc_program_t *p = f->p;
    build_t *b = f->b;
    for (uint32_t i = 0; i < b->n_deps; i++) {
        raw_dep_t *d = &b->deps[i];
        if (d->a >= p->n_ops || d->b >= p->n_ops)
            return fail_at(f, -1, 0, "dependency %" PRIu32 " requires %" PRIu32
                           ": no such op (%" PRIu32 " ops)", d->a, d->b, p->n_ops);
        int ra = b->op_rank[d->a], rb = b->op_rank[d->b];
        d->a = perm[d->a];
        d->b = perm[d->b];
        if (ra != rb)
            return fail_at(f, ra, p->ops[d->a].line, "op %" PRIu32 " of rank %d depends on op %"
                           PRIu32 " of rank %d; dependencies stay within a rank",
                           d->a - p->ranks[ra].op_start, ra, d->b - p->ranks[rb].op_start, rb);
        p->ops[d->a].n_deps++;
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < p->n_ops; i++) {
        p->ops[i].dep_start = at;
        at += p->ops[i].n_deps;
        p->ops[i].n_deps = 0;
    }
    p->deps = noc_xcalloc(b->n_deps, sizeof *p->deps, "program dependencies");
    p->n_deps = b->n_deps;
    for (uint32_t i = 0; i < b->n_deps; i++) {
        noc_op_t *o = &p->ops[b->deps[i].a];
        p->deps[o->dep_start + o->n_deps++] = (noc_dep_t){b->deps[i].b, b->deps[i].start};
    }
    return 0;
}

uint32_t noc_prog_bytes_to_words(uint64_t bytes)
{
    uint64_t w = (bytes + NOC_PROG_WORD_BYTES - 1) / NOC_PROG_WORD_BYTES;
    if (w == 0)
        w = 1;
    return w > UINT32_MAX ? 0 : (uint32_t)w;
}

/* Fields a kind does not use get fixed values, so equal programs compare
 * equal field by field. */
void noc_prog_normalise(noc_op_t *o)
{
    if (o->kind != NOC_OP_SEND && o->kind != NOC_OP_RECV) {
        o->peer = 0;
        o->tag = 0;
        o->in_bytes = 0;
    }
    if (!o->in_bytes)
        o->bytes = 0;
    if (o->kind == NOC_OP_SEND || o->kind == NOC_OP_RECV) {
        o->in_bytes = o->in_bytes != 0;
        o->src = NOC_PROG_NO_ADDR;
        o->cost = 0;
    } else if (o->kind == NOC_OP_CALC) {
        o->words = 0;
        o->addr = NOC_PROG_NO_ADDR;
        o->src = NOC_PROG_NO_ADDR;
    }
}

static int check_message(finisher_t *f, int r, const noc_op_t *o, uint64_t *reach)
{
    const char *k = noc_op_kind_name((noc_op_kind_t)o->kind);
    int any = o->kind == NOC_OP_RECV;
    if ((o->peer < 0 || o->peer >= f->p->n_ranks) && !(any && o->peer == NOC_PROG_ANY))
        return fail_at(f, r, o->line, "%s: rank %" PRId32 " out of range [0, %d)%s", k, o->peer,
                       f->p->n_ranks, any ? " (or any)" : "");
    if (o->tag < 0 && !(any && o->tag == NOC_PROG_ANY))
        return fail_at(f, r, o->line, "%s: tag %" PRId32 " must be >= 0%s", k, o->tag,
                       any ? " (or any)" : "");
    if (o->in_bytes && noc_prog_bytes_to_words(o->bytes) != o->words)
        return fail_at(f, r, o->line, "%s: %" PRIu64 " bytes are %" PRIu32 " words, not %"
                       PRIu32, k, o->bytes, noc_prog_bytes_to_words(o->bytes), o->words);
    if (o->addr < 0 && o->addr != NOC_PROG_NO_ADDR)
        return fail_at(f, r, o->line, "%s: bad address %" PRId32, k, o->addr);
    if (o->addr >= 0)
        *reach = (uint64_t)o->addr + o->words;
    return 0;
}

static int check_combine(finisher_t *f, int r, const noc_op_t *o, uint64_t *reach)
{
    const char *k = noc_op_kind_name((noc_op_kind_t)o->kind);
    if (o->addr < 0 || o->src < 0)
        return fail_at(f, r, o->line, "%s: bad address %" PRId32, k, o->addr < 0 ? o->addr : o->src);
    if (o->cost < 0 && o->cost != NOC_PROG_DEFAULT_COST)
        return fail_at(f, r, o->line, "%s: cost %" PRId64 " must be >= 0", k, o->cost);
    *reach = (uint64_t)(o->addr > o->src ? o->addr : o->src) + o->words;
    return 0;
}

static int check_op(finisher_t *f, int r, noc_op_t *o)
{
    if (o->kind >= NOC_OP_KINDS)
        return fail_at(f, r, o->line, "unknown op kind %d", o->kind);
    noc_prog_normalise(o);
    const char *k = noc_op_kind_name((noc_op_kind_t)o->kind);
    if (o->kind != NOC_OP_CALC && o->words < 1)
        return fail_at(f, r, o->line, "%s: a message or combine has at least one word", k);
    uint64_t reach = 0;
    if (o->kind == NOC_OP_CALC) {
        if (o->cost < 0)
            return fail_at(f, r, o->line, "calc: %" PRId64 " cycles must be >= 0", o->cost);
    } else if (o->kind == NOC_OP_SEND || o->kind == NOC_OP_RECV) {
        if (check_message(f, r, o, &reach))
            return -1;
    } else if (check_combine(f, r, o, &reach)) {
        return -1;
    }
    if (reach > NOC_PROG_MAX_MEM)
        return fail_at(f, r, o->line, "%s reaches word %" PRIu64 ", beyond the %d words a rank "
                       "may have", k, reach - 1, NOC_PROG_MAX_MEM);
    if (reach > f->extent[r])
        f->extent[r] = reach;
    return 0;
}

static int check_ops(finisher_t *f)
{
    const noc_program_t *p = f->p;
    for (int r = 0; r < p->n_ranks; r++) {
        const noc_rank_t *rk = &p->ranks[r];
        for (uint32_t i = rk->op_start; i < rk->op_start + rk->n_ops; i++)
            if (check_op(f, r, &p->ops[i]))
                return -1;
    }
    return 0;
}

/* ---- finishing: cycles ---- */

/* The first dependency of op i that Kahn's algorithm left undone. Every
 * op it left has one: else its wait count would have reached zero. */
static uint32_t next_undone(const noc_program_t *p, const uint8_t *done, uint32_t i)
{
    const noc_op_t *o = &p->ops[i];
    for (uint32_t d = 0; d < o->n_deps; d++)
        if (!done[p->deps[o->dep_start + d].op])
            return p->deps[o->dep_start + d].op;
    return i;
}

/* Op `from` was left by Kahn's algorithm, so it lies on a cycle or waits
 * for one: follow undone dependencies until an op repeats, then describe
 * the cycle through that op ("line 7 -> line 9 -> line 7", each op
 * requiring the next; "op N", the index within the rank, without lines). */
static int report_cycle(finisher_t *f, const uint8_t *done, uint32_t from)
{
    const noc_program_t *p = f->p;
    uint8_t *seen = noc_xcalloc(p->n_ops, 1, "program cycle walk");
    uint32_t i = from;
    while (!seen[i]) {
        seen[i] = 1;
        i = next_undone(p, done, i);
    }
    free(seen);
    int r = rank_of(p, i);
    char list[300] = "";
    size_t len = 0;
    uint32_t j = i;
    for (int shown = 0; len < sizeof list; shown++) {
        const noc_op_t *o = &p->ops[j];
        const char *sep = shown ? " -> " : "";
        if (shown == MAX_CYCLE_SHOWN && j != i)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s...", sep);
        else if (o->line)
            len += (size_t)snprintf(list + len, sizeof list - len, "%sline %" PRIu32, sep, o->line);
        else
            len += (size_t)snprintf(list + len, sizeof list - len, "%sop %" PRIu32, sep,
                                    j - p->ranks[r].op_start);
        if (shown && (j == i || shown == MAX_CYCLE_SHOWN))
            break;
        j = next_undone(p, done, j);
    }
    return fail_at(f, r, p->ops[i].line, "dependency cycle: %s (each requires the next)", list);
}

/* Kahn's algorithm over all ops: fails if some op can never start. */
static int check_cycles(finisher_t *f)
{
    const noc_program_t *p = f->p;
    uint32_t n = p->n_ops;
    uint32_t *wait = noc_xcalloc(n, sizeof *wait, "program cycle check");
    uint32_t *succ_start = noc_xcalloc((size_t)n + 1, sizeof *succ_start, "program cycle check");
    uint32_t *succ = noc_xcalloc(p->n_deps, sizeof *succ, "program cycle check");
    uint32_t *queue = noc_xcalloc(n, sizeof *queue, "program cycle check");
    uint8_t *done = noc_xcalloc(n, 1, "program cycle check");
    for (uint32_t i = 0; i < p->n_deps; i++)
        succ_start[p->deps[i].op + 1]++;
    for (uint32_t i = 0; i < n; i++)
        succ_start[i + 1] += succ_start[i];
    uint32_t qn = 0;
    for (uint32_t i = 0; i < n; i++) {
        const noc_op_t *o = &p->ops[i];
        wait[i] = o->n_deps;
        for (uint32_t d = 0; d < o->n_deps; d++)
            succ[succ_start[p->deps[o->dep_start + d].op]++] = i;
        if (!wait[i])
            queue[qn++] = i;
    }
    /* succ_start[k] now ends k's list: k's successors are
     * succ[succ_start[k-1] .. succ_start[k]) with succ_start[-1] = 0. */
    for (uint32_t q = 0; q < qn; q++) {
        uint32_t k = queue[q];
        done[k] = 1;
        for (uint32_t s = k ? succ_start[k - 1] : 0; s < succ_start[k]; s++)
            if (--wait[succ[s]] == 0)
                queue[qn++] = succ[s];
    }
    int rc = 0;
    if (qn < n) {
        uint32_t i = 0;
        while (done[i])
            i++;
        rc = report_cycle(f, done, i);
    }
    free(wait);
    free(succ_start);
    free(succ);
    free(queue);
    free(done);
    return rc;
}

/* ---- finishing: memory ---- */

static int cmp_val(const void *x, const void *y)
{
    const raw_val_t *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Sorts v by rank and address into *out; fills the ranks' start and count
 * fields at offsets start_off / count_off of noc_rank_t. */
static int place_vals(finisher_t *f, vals_t *v, const char *what, noc_memval_t **out,
                      uint32_t *n_out, size_t start_off, size_t count_off)
{
    noc_program_t *p = f->p;
    if (v->n)
        qsort(v->v, v->n, sizeof *v->v, cmp_val);
    *out = noc_xcalloc(v->n, sizeof **out, "program memory values");
    *n_out = v->n;
    for (uint32_t i = 0; i < v->n; i++) {
        const raw_val_t *x = &v->v[i];
        noc_rank_t *rk = &p->ranks[x->rank];
        uint32_t *start = (uint32_t *)((char *)rk + start_off);
        uint32_t *count = (uint32_t *)((char *)rk + count_off);
        if (i > 0 && x->rank == v->v[i - 1].rank && x->addr == v->v[i - 1].addr)
            return fail_at(f, x->rank, 0, "word %" PRIu32 " has two %s values (%" PRId64
                           " and %" PRId64 ")", x->addr, what, v->v[i - 1].value, x->value);
        if (x->addr >= NOC_PROG_MAX_MEM)
            return fail_at(f, x->rank, 0, "%s of word %" PRIu32 ", beyond the %d words a rank "
                           "may have", what, x->addr, NOC_PROG_MAX_MEM);
        if (*count == 0)
            *start = i;
        (*count)++;
        (*out)[i] = (noc_memval_t){x->addr, x->value};
        if ((uint64_t)x->addr + 1 > f->extent[x->rank])
            f->extent[x->rank] = (uint64_t)x->addr + 1;
    }
    return 0;
}

static int size_memories(finisher_t *f)
{
    noc_program_t *p = f->p;
    for (int r = 0; r < p->n_ranks; r++) {
        uint64_t m = f->extent[r] > f->b->mem[r] ? f->extent[r] : f->b->mem[r];
        if (m > NOC_PROG_MAX_MEM)
            return fail_at(f, r, 0, "memory of %" PRIu64 " words is more than the %d a rank may "
                           "have", m, NOC_PROG_MAX_MEM);
        p->ranks[r].mem_words = (uint32_t)m;
    }
    return 0;
}

/* ---- finishing: names and steps ---- */

int noc_prog_good_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[0] == ':' || s[n - 1] == ':')
        return 0;
    for (; *s; s++)
        if (!(((*s | 32) >= 'a' && (*s | 32) <= 'z') || (*s >= '0' && *s <= '9') ||
              strchr("_.:+-", *s)))
            return 0;
    return 1;
}

static int check_names(finisher_t *f)
{
    const noc_program_t *p = f->p;
    if (p->name && !noc_prog_good_name(p->name))
        return fail_at(f, -1, 0, "program name \"%s\": use letters, digits and _ . : + - (no ':' first or last)",
                       p->name);
    for (int i = 0; i < p->n_steps; i++)
        if (!noc_prog_good_name(p->steps[i]) || strcmp(p->steps[i], "-") == 0)
            return fail_at(f, -1, 0, "step name \"%s\": use letters, digits and _ . : + - (no ':' first or "
                           "last; \"-\" alone means no step)", p->steps[i]);
    return 0;
}

/* Steps keep the order in which they were first named (noc_prog_step,
 * noc_prog_declare_step: the algorithm's order, which sync_steps follows);
 * steps no op uses are dropped. */
static void renumber_steps(noc_program_t *p)
{
    int32_t *map = noc_xcalloc((size_t)p->n_steps, sizeof *map, "program steps");
    char **names = noc_xcalloc((size_t)p->n_steps, sizeof *names, "program steps");
    int n = 0;
    for (int i = 0; i < p->n_steps; i++)
        map[i] = -1;
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].step >= 0)
            map[p->ops[i].step] = 0; /* used */
    for (int i = 0; i < p->n_steps; i++)
        if (map[i] == 0) {
            map[i] = n;
            names[n++] = p->steps[i];
        }
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].step >= 0)
            p->ops[i].step = map[p->ops[i].step];
    for (int i = 0; i < p->n_steps; i++)
        if (map[i] < 0)
            free(p->steps[i]);
    free(p->steps);
    free(map);
    p->steps = names;
    p->n_steps = n;
}

static int finish_steps(finisher_t *f)
{
    if (f->b->first_err[0])
        return fail_at(f, -1, 0, "%s", f->b->first_err);
    if (check_names(f))
        return -1;
    uint32_t *perm = sort_ops(f);
    int rc = place_deps(f, perm);
    free(perm);
    if (rc || check_ops(f) || check_cycles(f))
        return -1;
    if (place_vals(f, &f->b->init, "init", &f->p->init, &f->p->n_init,
                   offsetof(noc_rank_t, init_start), offsetof(noc_rank_t, n_init)) ||
        place_vals(f, &f->b->expect, "expect", &f->p->expect, &f->p->n_expect,
                   offsetof(noc_rank_t, expect_start), offsetof(noc_rank_t, n_expect)))
        return -1;
    if (size_memories(f))
        return -1;
    renumber_steps(f->p);
    if (f->p->n_steps > NOC_PROG_MAX_STEPS)
        return fail_at(f, -1, 0, "%d steps, more than the %d a program may have (a packet carries its "
                       "step in 16 bits)", f->p->n_steps, NOC_PROG_MAX_STEPS);
    return 0;
}

int noc_prog_finish(noc_program_t *p, char *err, size_t errlen)
{
    finisher_t f = {p, state(p), err, errlen, NULL};
    if (errlen)
        err[0] = '\0';
    size_t nr = p->n_ranks > 0 ? (size_t)p->n_ranks : 0;
    f.extent = noc_xcalloc(nr, sizeof *f.extent, "program memory sizes");
    int rc = finish_steps(&f);
    free(f.extent);
    noc_prog_build_free(p->build);
    p->build = NULL;
    return rc;
}
