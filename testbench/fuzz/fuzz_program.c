/* fuzz_program.c: the traffic-program reader (traffic/program_read.c, the
 * GOAL superset of docs/programs.md). For every input: read it; a refusal
 * names the file and line; a program it accepts is written
 * (traffic/program_write.c), read back and must be the same program, and
 * written again the same text; a small one is run with the invariant
 * checker on after every cycle (fuzz_common.h). */
#include "testbench/fuzz/fuzz_common.h"
#include "model/program.h"

/* p written to a string (the caller frees). */
static char *written(const noc_program_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f || noc_prog_write(p, f) != 0 || fclose(f) != 0)
        FUZZ_FAIL("cannot write a program");
    return buf;
}

#define SAME(x, y, field, what, i)                                                                         \
    do {                                                                                                   \
        if ((x)->field != (y)->field)                                                                      \
            FUZZ_FAIL("round trip: %s %u: " #field " %lld, read back %lld", what, (unsigned)(i),           \
                      (long long)(x)->field, (long long)(y)->field);                                        \
    } while (0)

static void same(const noc_program_t *a, const noc_program_t *b)
{
    if (a->n_ranks != b->n_ranks || a->n_ops != b->n_ops || a->n_deps != b->n_deps || a->n_init != b->n_init ||
        a->n_expect != b->n_expect || a->n_steps != b->n_steps || !a->name != !b->name ||
        (a->name && strcmp(a->name, b->name) != 0))
        FUZZ_FAIL("round trip: the program's shape changed");
    for (int k = 0; k < a->n_steps; k++)
        if (strcmp(a->steps[k], b->steps[k]) != 0)
            FUZZ_FAIL("round trip: step %d is '%s', read back '%s'", k, a->steps[k], b->steps[k]);
    for (int r = 0; r < a->n_ranks; r++) {
        SAME(&a->ranks[r], &b->ranks[r], op_start, "rank", r);
        SAME(&a->ranks[r], &b->ranks[r], n_ops, "rank", r);
        SAME(&a->ranks[r], &b->ranks[r], mem_words, "rank", r);
    }
    for (uint32_t i = 0; i < a->n_ops; i++) {
        const noc_op_t *x = &a->ops[i], *y = &b->ops[i];
        SAME(x, y, kind, "op", i);
        SAME(x, y, cpu, "op", i);
        SAME(x, y, nic, "op", i);
        SAME(x, y, peer, "op", i);
        SAME(x, y, tag, "op", i);
        SAME(x, y, words, "op", i);
        SAME(x, y, addr, "op", i);
        SAME(x, y, src, "op", i);
        SAME(x, y, cost, "op", i);
        SAME(x, y, step, "op", i);
        SAME(x, y, n_deps, "op", i);
    }
    for (uint32_t i = 0; i < a->n_deps; i++) {
        SAME(&a->deps[i], &b->deps[i], op, "dep", i);
        SAME(&a->deps[i], &b->deps[i], start, "dep", i);
    }
    for (uint32_t i = 0; i < a->n_init; i++) {
        SAME(&a->init[i], &b->init[i], addr, "init", i);
        SAME(&a->init[i], &b->init[i], value, "init", i);
    }
    for (uint32_t i = 0; i < a->n_expect; i++) {
        SAME(&a->expect[i], &b->expect[i], addr, "expect", i);
        SAME(&a->expect[i], &b->expect[i], value, "expect", i);
    }
}

#ifndef FUZZ_UNIT_TIMING
#define FUZZ_UNIT_TIMING 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size, 1 << 16), err[512];
    if (!text)
        return 0;
    noc_program_t *p = noc_prog_read_string(text, "fuzz.goal", err, sizeof err);
    free(text);
    if (!p) {
        if (strncmp(err, "fuzz.goal", 9) != 0)
            FUZZ_FAIL("a refusal that does not name the file: %s", err);
        return 0;
    }
    char *once = written(p);
    noc_program_t *q = noc_prog_read_string(once, "written.goal", err, sizeof err);
    if (!q)
        FUZZ_FAIL("the written program does not read back: %s\n%s", err, once);
    same(p, q);
    char *twice = written(q);
    if (strcmp(once, twice) != 0)
        FUZZ_FAIL("written twice, two texts:\n%s\n----\n%s", once, twice);
    free(once);
    free(twice);
    noc_prog_free(q);
    if (fuzz_small_program(p))
        fuzz_run_program(p, FUZZ_UNIT_TIMING);
    noc_prog_free(p);
    return 0;
}
