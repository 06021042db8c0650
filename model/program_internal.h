/* program_internal.h: the builder state of a traffic program
 * (program.h), shared by the two files that make up the builder:
 * program.c adds ops, dependencies, memory values and steps to it;
 * program_finish.c (noc_prog_finish) turns it into the finished program's
 * arrays and frees it; program_grow.c lets a finished copy grow in place.
 * Private to model/program*.c. */
#ifndef NOC_PROGRAM_INTERNAL_H
#define NOC_PROGRAM_INTERNAL_H
#include "model/program.h"
#include <assert.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

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

/* The builder state of p, which must not be finished yet. */
static inline build_t *state(noc_program_t *p)
{
    assert(p->build && "builder call after noc_prog_finish");
    return (build_t *)p->build;
}

/* Frees b (NULL: nothing). */
void noc_prog_build_free(build_t *b);
/* Frees the growth state of a program that grows in place (NULL:
 * nothing; program_grow.c). */
void noc_prog_grow_free(void *g);

/* Fields a kind does not use get fixed values (program_finish.c, for the
 * finish and for ops appended to a program that grows). */
void noc_prog_normalise(noc_op_t *o);
/* GOAL's byte sizes in words (ceil, at least 1; 0 when too many). */
uint32_t noc_prog_bytes_to_words(uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif
