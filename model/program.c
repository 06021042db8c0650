/* program.c: the builder of traffic programs (model/program.h). While
 * building, ops sit in p->ops in the order they were added (with their rank
 * on the side), and dependencies, memory values and memory requests in
 * growable arrays of the builder state. noc_prog_finish groups the ops by
 * rank (stable), puts the dependencies in CSR form, sorts the memory values
 * of each rank by address, sizes the memories, numbers the steps in order of
 * first use, checks everything (cycles by Kahn's algorithm, no recursion)
 * and frees the builder state. Bad arguments to builder calls are kept as
 * the first error and reported by noc_prog_finish. */
#include "model/program.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CYCLE_SHOWN 8

typedef struct raw_dep {
    uint32_t a, b; /* a requires b, indices as returned by noc_prog_add */
    uint8_t start;
} raw_dep_t;

typedef struct raw_val {
    int32_t rank;
    uint32_t addr;
    int64_t value;
} raw_val_t;

typedef struct vals {
    raw_val_t *v;
    uint32_t n, cap;
} vals_t;

typedef struct build {
    int32_t *op_rank;     /* rank of each op, in order of addition */
    uint32_t cap_ops;
    raw_dep_t *deps;
    uint32_t n_deps, cap_deps;
    vals_t init, expect;
    uint32_t *mem;        /* per rank: noc_prog_mem requests */
    int32_t *cur_step;    /* per rank: current step, -1 none */
    int cap_steps;
    uint32_t *step_slot;  /* open-addressing hash of p->steps: index + 1, 0 empty */
    uint32_t n_slots;
    char *source;         /* file the ops' lines refer to, or NULL */
    char first_err[200];  /* first bad builder call */
    /* memory: the bytes the growable arrays hold (their capacity), and the
     * bytes noc_prog_finish will allocate besides for that capacity (the
     * sorted copies of ops, dependencies and memory values) */
    uint64_t held, to_finish;
} build_t;

/* ---- small helpers ---- */

static void *xrealloc(void *ptr, size_t n, size_t size, const char *what)
{
    if (size && n > SIZE_MAX / size) {
        noc_oom(what, SIZE_MAX);
    }
    size_t bytes = n * size;
    void *q = realloc(ptr, bytes ? bytes : 1);
    if (!q) {
        noc_oom(what, n * size);
    }
    return q;
}

/* Room for `need` elements in *arr of capacity *cap (doubling), of `size`
 * bytes each, for which noc_prog_finish will allocate `final` bytes more
 * each. A program that grows too large for the memory is refused here
 * (exit 2), before it takes it: the growth and everything the finish will
 * still allocate must fit (noc_mem_check_more). */
static void grow32(build_t *b, void **arr, uint32_t *cap, uint64_t need, size_t size, size_t final,
                   const char *what)
{
    if (need <= *cap)
        return;
    if (need > UINT32_MAX) { /* the engine counts them in 32 bits: bad input, exit 2 */
        fprintf(stderr, "noctua: %s: more than %" PRIu32 " entries, the most a program may have\n", what,
                UINT32_MAX);
        exit(2);
    }
    uint64_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX)
        c = UINT32_MAX;
    uint64_t more = (c - *cap) * size, finish = b->to_finish + (c - *cap) * final;
    noc_mem_check_more(more + finish, b->held + more + finish, what);
    *arr = xrealloc(*arr, (size_t)c, size, what);
    b->held += more;
    b->to_finish = finish;
    *cap = (uint32_t)c;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = noc_xcalloc(n, 1, "program string");
    memcpy(d, s, n);
    return d;
}

static unsigned hash_str(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static build_t *state(noc_program_t *p)
{
    assert(p->build && "builder call after noc_prog_finish");
    return p->build;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void defer_error(build_t *b, const char *fmt, ...)
{
    if (b->first_err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->first_err, sizeof b->first_err, fmt, ap);
    va_end(ap);
}

static int rank_ok(noc_program_t *p, int r, const char *call)
{
    if (r >= 0 && r < p->n_ranks)
        return 1;
    defer_error(state(p), "%s: rank %d out of range [0, %d)", call, r, p->n_ranks);
    return 0;
}

/* ---- builder calls ---- */

noc_program_t *noc_prog_new(int n_ranks, const char *name)
{
    noc_program_t *p = noc_xcalloc(1, sizeof *p, "program");
    build_t *b = noc_xcalloc(1, sizeof *b, "program builder");
    size_t nr = n_ranks > 0 ? (size_t)n_ranks : 0;
    p->n_ranks = n_ranks;
    p->name = name ? xstrdup(name) : NULL;
    p->ranks = noc_xcalloc(nr, sizeof *p->ranks, "program ranks");
    p->build = b;
    b->mem = noc_xcalloc(nr, sizeof *b->mem, "program memory requests");
    b->cur_step = noc_xcalloc(nr, sizeof *b->cur_step, "program steps");
    for (size_t r = 0; r < nr; r++)
        b->cur_step[r] = -1;
    if (n_ranks < 1)
        defer_error(b, "a program needs at least one rank (num_ranks %d)", n_ranks);
    return p;
}

void noc_prog_source(noc_program_t *p, const char *file)
{
    build_t *b = state(p);
    free(b->source);
    b->source = file ? xstrdup(file) : NULL;
}

uint32_t noc_prog_add(noc_program_t *p, int r, const noc_op_t *op)
{
    build_t *b = state(p);
    if (!rank_ok(p, r, "noc_prog_add"))
        return UINT32_MAX;
    uint32_t cap = b->cap_ops; /* both arrays grow alike; the finish sorts the ops into a copy, with a
                                  permutation of 4 bytes an op */
    grow32(b, (void **)&p->ops, &cap, (uint64_t)p->n_ops + 1, sizeof *p->ops, sizeof *p->ops + 4,
           "program ops");
    grow32(b, (void **)&b->op_rank, &b->cap_ops, (uint64_t)p->n_ops + 1, sizeof *b->op_rank, 0,
           "program op ranks");
    noc_op_t *o = &p->ops[p->n_ops];
    *o = *op;
    o->step = b->cur_step[r];
    o->dep_start = 0;
    o->n_deps = 0;
    b->op_rank[p->n_ops] = r;
    return p->n_ops++;
}

static noc_op_t blank_op(noc_op_kind_t kind)
{
    noc_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = (uint8_t)kind;
    op.addr = NOC_PROG_NO_ADDR;
    op.src = NOC_PROG_NO_ADDR;
    return op;
}

static uint32_t add_message(noc_program_t *p, noc_op_kind_t kind, int r, int peer, int tag,
                            uint32_t words, int32_t addr)
{
    noc_op_t op = blank_op(kind);
    op.peer = peer;
    op.tag = tag;
    op.words = words;
    op.addr = addr;
    return noc_prog_add(p, r, &op);
}

uint32_t noc_prog_send(noc_program_t *p, int r, int to, int tag, uint32_t words, int32_t addr)
{
    return add_message(p, NOC_OP_SEND, r, to, tag, words, addr);
}

uint32_t noc_prog_recv(noc_program_t *p, int r, int from, int tag, uint32_t words, int32_t addr)
{
    return add_message(p, NOC_OP_RECV, r, from, tag, words, addr);
}

uint32_t noc_prog_combine(noc_program_t *p, int r, noc_op_kind_t kind, uint32_t words,
                          int32_t dst, int32_t src)
{
    noc_op_t op = blank_op(kind);
    op.words = words;
    op.addr = dst;
    op.src = src;
    op.cost = NOC_PROG_DEFAULT_COST;
    return noc_prog_add(p, r, &op);
}

uint32_t noc_prog_calc(noc_program_t *p, int r, int64_t cycles)
{
    noc_op_t op = blank_op(NOC_OP_CALC);
    op.cost = cycles;
    return noc_prog_add(p, r, &op);
}

void noc_prog_dep(noc_program_t *p, uint32_t a, uint32_t b, int start)
{
    build_t *s = state(p);
    grow32(s, (void **)&s->deps, &s->cap_deps, (uint64_t)s->n_deps + 1, sizeof *s->deps, sizeof(noc_dep_t),
           "program dependencies");
    s->deps[s->n_deps++] = (raw_dep_t){a, b, (uint8_t)(start != 0)};
}

/* Index of step `name` in p->steps, added if new. */
static int32_t step_index(noc_program_t *p, build_t *b, const char *name)
{
    if ((uint64_t)(p->n_steps + 1) * 2 > b->n_slots) {
        uint32_t n = b->n_slots ? b->n_slots * 2 : 64;
        free(b->step_slot);
        b->step_slot = noc_xcalloc(n, sizeof *b->step_slot, "program step names");
        b->n_slots = n;
        for (int i = 0; i < p->n_steps; i++) {
            uint32_t h = hash_str(p->steps[i]) & (n - 1);
            while (b->step_slot[h])
                h = (h + 1) & (n - 1);
            b->step_slot[h] = (uint32_t)i + 1;
        }
    }
    uint32_t h = hash_str(name) & (b->n_slots - 1);
    for (; b->step_slot[h]; h = (h + 1) & (b->n_slots - 1))
        if (strcmp(p->steps[b->step_slot[h] - 1], name) == 0)
            return (int32_t)b->step_slot[h] - 1;
    if (p->n_steps == b->cap_steps) {
        b->cap_steps = b->cap_steps ? 2 * b->cap_steps : 16;
        p->steps = xrealloc(p->steps, (size_t)b->cap_steps, sizeof *p->steps, "program steps");
    }
    p->steps[p->n_steps] = xstrdup(name);
    b->step_slot[h] = (uint32_t)p->n_steps + 1;
    return p->n_steps++;
}

void noc_prog_declare_step(noc_program_t *p, const char *name)
{
    step_index(p, p->build, name);
}

void noc_prog_step(noc_program_t *p, int r, const char *name)
{
    build_t *b = state(p);
    if (rank_ok(p, r, "noc_prog_step"))
        b->cur_step[r] = name ? step_index(p, b, name) : -1;
}

void noc_prog_mem(noc_program_t *p, int r, uint32_t words)
{
    build_t *b = state(p);
    if (rank_ok(p, r, "noc_prog_mem") && words > b->mem[r])
        b->mem[r] = words;
}

static void add_val(noc_program_t *p, vals_t *v, int r, uint32_t addr, int64_t value,
                    const char *call)
{
    if (!rank_ok(p, r, call))
        return;
    grow32(state(p), (void **)&v->v, &v->cap, (uint64_t)v->n + 1, sizeof *v->v, sizeof(noc_memval_t),
           "program memory values");
    v->v[v->n++] = (raw_val_t){r, addr, value};
}

void noc_prog_init(noc_program_t *p, int r, uint32_t addr, int64_t value)
{
    add_val(p, &state(p)->init, r, addr, value, "noc_prog_init");
}

void noc_prog_expect(noc_program_t *p, int r, uint32_t addr, int64_t value)
{
    add_val(p, &state(p)->expect, r, addr, value, "noc_prog_expect");
}

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

static uint32_t bytes_to_words(uint64_t bytes)
{
    uint64_t w = (bytes + NOC_PROG_WORD_BYTES - 1) / NOC_PROG_WORD_BYTES;
    if (w == 0)
        w = 1;
    return w > UINT32_MAX ? 0 : (uint32_t)w;
}

/* Fields a kind does not use get fixed values, so equal programs compare
 * equal field by field. */
static void normalise(noc_op_t *o)
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
    if (o->in_bytes && bytes_to_words(o->bytes) != o->words)
        return fail_at(f, r, o->line, "%s: %" PRIu64 " bytes are %" PRIu32 " words, not %"
                       PRIu32, k, o->bytes, bytes_to_words(o->bytes), o->words);
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
    normalise(o);
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

static void free_build(build_t *b)
{
    if (!b)
        return;
    free(b->op_rank);
    free(b->deps);
    free(b->init.v);
    free(b->expect.v);
    free(b->mem);
    free(b->cur_step);
    free(b->step_slot);
    free(b->source);
    free(b);
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
    free_build(p->build);
    p->build = NULL;
    return rc;
}

void noc_prog_free(noc_program_t *p)
{
    if (!p)
        return;
    free_build(p->build);
    for (int i = 0; i < p->n_steps; i++)
        free(p->steps[i]);
    free(p->steps);
    free(p->name);
    free(p->ranks);
    free(p->ops);
    free(p->deps);
    free(p->init);
    free(p->expect);
    free(p);
}

const char *noc_op_kind_name(noc_op_kind_t k)
{
    static const char *const names[NOC_OP_KINDS] = {"send", "recv", "calc", "add",
                                                    "min",  "max",  "copy"};
    return (unsigned)k < NOC_OP_KINDS ? names[k] : "?";
}
