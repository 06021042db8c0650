/* program_test.h: what the tests of traffic programs share (the builder's
 * in testbench/unit/model/test_program_builder.c, the text form's in
 * testbench/unit/traffic/test_program_*.c): finishing a program that must
 * (or must not) pass noc_prog_finish, and reading its ops and dependencies
 * by rank. Header-only; include it after cmocka.h. */
#ifndef NOC_PROGRAM_TEST_H
#define NOC_PROGRAM_TEST_H
#include <string.h>
#include "model/program.h"

static inline void finish_ok(noc_program_t *p)
{
    char err[512];
    if (noc_prog_finish(p, err, sizeof err) != 0)
        fail_msg("finish failed: %s", err);
}

/* noc_prog_finish fails with a message containing `what` (and `what2`). */
static inline void finish_err(noc_program_t *p, const char *what, const char *what2)
{
    char err[512];
    int rc = noc_prog_finish(p, err, sizeof err);
    noc_prog_free(p);
    if (rc == 0)
        fail_msg("finish succeeded, expected: %s", what);
    if (!strstr(err, what) || (what2 && !strstr(err, what2)))
        fail_msg("got \"%s\", expected \"%s\" and \"%s\"", err, what, what2 ? what2 : "");
}

static inline const noc_op_t *op_of(const noc_program_t *p, int r, uint32_t i)
{
    assert_true(i < p->ranks[r].n_ops);
    return &p->ops[p->ranks[r].op_start + i];
}

/* The j-th dependency of op i of rank r: index within the rank, start flag. */
static inline void assert_dep(const noc_program_t *p, int r, uint32_t i, uint32_t j, uint32_t on,
                       int start)
{
    const noc_op_t *o = op_of(p, r, i);
    assert_true(j < o->n_deps);
    const noc_dep_t *d = &p->deps[o->dep_start + j];
    assert_int_equal(d->op, p->ranks[r].op_start + on);
    assert_int_equal(d->start, start);
}

#endif
