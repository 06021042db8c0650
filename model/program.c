/* program.c: the builder of traffic programs (model/program.h). While
 * building, ops sit in p->ops in the order they were added (with their rank
 * on the side), and dependencies, memory values and memory requests in
 * growable arrays of the builder state (program_internal.h). Bad arguments
 * to builder calls are kept as the first error and reported by
 * noc_prog_finish, which turns the builder state into the finished
 * program (program_finish.c). */
#include "model/program_internal.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    return noc_prog_combine_cost(p, r, kind, words, dst, src, NOC_PROG_DEFAULT_COST);
}

uint32_t noc_prog_combine_cost(noc_program_t *p, int r, noc_op_kind_t kind, uint32_t words, int32_t dst,
                               int32_t src, int64_t cost)
{
    noc_op_t op = blank_op(kind);
    op.words = words;
    op.addr = dst;
    op.src = src;
    op.cost = cost;
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

void noc_prog_build_free(build_t *b)
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

void noc_prog_free(noc_program_t *p)
{
    if (!p)
        return;
    noc_prog_build_free(p->build);
    noc_prog_grow_free(p->grow);
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
