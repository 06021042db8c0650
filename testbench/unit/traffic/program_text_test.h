/* program_text_test.h: what the tests of the programs' text form share
 * (test_program_read.c, test_program_errors.c, test_program_write.c,
 * test_program_examples.c): reading a text that must be read or must fail
 * at a given line, writing a program to a string, comparing two programs,
 * the write -> read round trip, and a small deterministic random stream.
 * Header-only; include it after cmocka.h. */
#ifndef NOC_PROGRAM_TEXT_TEST_H
#define NOC_PROGRAM_TEXT_TEST_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/program.h"

static inline noc_program_t *read_ok(const char *text)
{
    char err[512];
    noc_program_t *p = noc_prog_read_string(text, "prog.goal", err, sizeof err);
    if (!p)
        fail_msg("read failed: %s", err);
    return p;
}

/* Reading `text` fails with "prog.goal:LINE: ..." containing `what`. */
static inline void read_err(const char *text, int line, const char *what)
{
    char err[512], head[64];
    noc_program_t *p = noc_prog_read_string(text, "prog.goal", err, sizeof err);
    if (p) {
        noc_prog_free(p);
        fail_msg("read succeeded, expected line %d: %s\n--\n%s", line, what, text);
    }
    snprintf(head, sizeof head, "prog.goal:%d: ", line);
    if (strncmp(err, head, strlen(head)) != 0 || !strstr(err, what))
        fail_msg("got \"%s\", expected \"%s...%s\"", err, head, what);
}

static inline char *write_string(const noc_program_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(noc_prog_write(p, f), 0);
    fclose(f);
    return buf;
}

#define SAME(field)                                                                               \
    do {                                                                                          \
        if (x->field != y->field)                                                                 \
            fail_msg("%s %u: " #field " %lld vs %lld", what, (unsigned)i, (long long)x->field,    \
                     (long long)y->field);                                                        \
    } while (0)

/* Everything but the ops' source lines. */
static inline void assert_same(const noc_program_t *a, const noc_program_t *b)
{
    assert_int_equal(a->n_ranks, b->n_ranks);
    assert_int_equal(!a->name, !b->name);
    if (a->name)
        assert_string_equal(a->name, b->name);
    assert_int_equal(a->n_ops, b->n_ops);
    assert_int_equal(a->n_deps, b->n_deps);
    assert_int_equal(a->n_init, b->n_init);
    assert_int_equal(a->n_expect, b->n_expect);
    assert_int_equal(a->n_steps, b->n_steps);
    for (int s = 0; s < a->n_steps; s++)
        assert_string_equal(a->steps[s], b->steps[s]);
    const char *what = "rank";
    for (int i = 0; i < a->n_ranks; i++) {
        const noc_rank_t *x = &a->ranks[i], *y = &b->ranks[i];
        SAME(op_start); SAME(n_ops); SAME(mem_words);
        SAME(init_start); SAME(n_init); SAME(expect_start); SAME(n_expect);
    }
    what = "op";
    for (uint32_t i = 0; i < a->n_ops; i++) {
        const noc_op_t *x = &a->ops[i], *y = &b->ops[i];
        SAME(kind); SAME(cpu); SAME(nic); SAME(in_bytes); SAME(peer); SAME(tag); SAME(words);
        SAME(bytes); SAME(addr); SAME(src); SAME(cost); SAME(step); SAME(dep_start);
        SAME(n_deps);
    }
    what = "dep";
    for (uint32_t i = 0; i < a->n_deps; i++) {
        const noc_dep_t *x = &a->deps[i], *y = &b->deps[i];
        SAME(op); SAME(start);
    }
    what = "init";
    for (uint32_t i = 0; i < a->n_init; i++) {
        const noc_memval_t *x = &a->init[i], *y = &b->init[i];
        SAME(addr); SAME(value);
    }
    what = "expect";
    for (uint32_t i = 0; i < a->n_expect; i++) {
        const noc_memval_t *x = &a->expect[i], *y = &b->expect[i];
        SAME(addr); SAME(value);
    }
}

/* Write p, read it back, compare; the second writing is the same text. */
static inline void round_trip(const noc_program_t *p)
{
    char err[512];
    char *text = write_string(p);
    noc_program_t *q = noc_prog_read_string(text, "written", err, sizeof err);
    if (!q)
        fail_msg("reading the written program: %s\n%.2000s", err, text);
    assert_same(p, q);
    char *again = write_string(q);
    assert_string_equal(text, again);
    free(again);
    free(text);
    noc_prog_free(q);
}

/* xorshift64: the same stream on every machine. */
static inline uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#endif
