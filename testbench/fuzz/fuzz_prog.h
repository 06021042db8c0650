/* fuzz_prog.h: what the program harnesses (fuzz_program.c, fuzz_goal.c)
 * share: a program written to a string, and the comparison of two programs
 * field by field (all but the ops' source lines), which fails the run on
 * the first difference. Header-only, after fuzz_common.h. */
#ifndef NOC_FUZZ_PROG_H
#define NOC_FUZZ_PROG_H
#include "testbench/fuzz/fuzz_common.h"
#include "model/program.h"

/* p written to a string (the caller frees). */
static char *fuzz_written(const noc_program_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f || noc_prog_write(p, f) != 0 || fclose(f) != 0)
        FUZZ_FAIL("cannot write a program");
    return buf;
}

#define FUZZ_SAME(x, y, field, what, i)                                                                     \
    do {                                                                                                   \
        if ((x)->field != (y)->field)                                                                      \
            FUZZ_FAIL("%s: %s %u: " #field " %lld, read back %lld", how, what, (unsigned)(i),              \
                      (long long)(x)->field, (long long)(y)->field);                                        \
    } while (0)

/* a and b must be the same program; how says how b was made. */
static void fuzz_same_program(const noc_program_t *a, const noc_program_t *b, const char *how)
{
    if (a->n_ranks != b->n_ranks || a->n_ops != b->n_ops || a->n_deps != b->n_deps || a->n_init != b->n_init ||
        a->n_expect != b->n_expect || a->n_steps != b->n_steps || !a->name != !b->name ||
        (a->name && strcmp(a->name, b->name) != 0))
        FUZZ_FAIL("%s: the program's shape changed (ranks %d/%d, ops %u/%u, deps %u/%u)", how, a->n_ranks,
                  b->n_ranks, a->n_ops, b->n_ops, a->n_deps, b->n_deps);
    for (int k = 0; k < a->n_steps; k++)
        if (strcmp(a->steps[k], b->steps[k]) != 0)
            FUZZ_FAIL("%s: step %d is '%s', read back '%s'", how, k, a->steps[k], b->steps[k]);
    for (int r = 0; r < a->n_ranks; r++) {
        FUZZ_SAME(&a->ranks[r], &b->ranks[r], op_start, "rank", r);
        FUZZ_SAME(&a->ranks[r], &b->ranks[r], n_ops, "rank", r);
        FUZZ_SAME(&a->ranks[r], &b->ranks[r], mem_words, "rank", r);
    }
    for (uint32_t i = 0; i < a->n_ops; i++) {
        const noc_op_t *x = &a->ops[i], *y = &b->ops[i];
        FUZZ_SAME(x, y, kind, "op", i);
        FUZZ_SAME(x, y, cpu, "op", i);
        FUZZ_SAME(x, y, nic, "op", i);
        FUZZ_SAME(x, y, in_bytes, "op", i);
        FUZZ_SAME(x, y, peer, "op", i);
        FUZZ_SAME(x, y, tag, "op", i);
        FUZZ_SAME(x, y, words, "op", i);
        FUZZ_SAME(x, y, bytes, "op", i);
        FUZZ_SAME(x, y, addr, "op", i);
        FUZZ_SAME(x, y, src, "op", i);
        FUZZ_SAME(x, y, cost, "op", i);
        FUZZ_SAME(x, y, step, "op", i);
        FUZZ_SAME(x, y, dep_start, "op", i);
        FUZZ_SAME(x, y, n_deps, "op", i);
    }
    for (uint32_t i = 0; i < a->n_deps; i++) {
        FUZZ_SAME(&a->deps[i], &b->deps[i], op, "dep", i);
        FUZZ_SAME(&a->deps[i], &b->deps[i], start, "dep", i);
    }
    for (uint32_t i = 0; i < a->n_init; i++) {
        FUZZ_SAME(&a->init[i], &b->init[i], addr, "init", i);
        FUZZ_SAME(&a->init[i], &b->init[i], value, "init", i);
    }
    for (uint32_t i = 0; i < a->n_expect; i++) {
        FUZZ_SAME(&a->expect[i], &b->expect[i], addr, "expect", i);
        FUZZ_SAME(&a->expect[i], &b->expect[i], value, "expect", i);
    }
}
#endif
