/* program.h: traffic programs: every PE (rank) gets a dependency graph of
 * operations (send, receive, compute, step markers), carrying real data
 * words between the PEs' local memories. The in-memory form is flat arrays
 * (ops of all ranks together, rank by rank; dependencies in CSR form per
 * op), built through the builder below (model/program.c) by the reader
 * (traffic/program_read.c), the collective generators and tests; the writer
 * (traffic/program_write.c) dumps it in the text format of docs/programs.md,
 * a superset of LogGOPSim's GOAL. The PE engine (model/pe.c) runs it.
 *
 * Words: a word is 64 bits, the payload of one flit. A message of W words is
 * W flits. GOAL sizes in bytes ("16b") are read as ceil(bytes / 8) words
 * (at least 1); "2w" gives words directly. */
#ifndef NOC_PROGRAM_H
#define NOC_PROGRAM_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_PROG_ANY (-1)        /* receive from any source / with any tag */
#define NOC_PROG_NO_ADDR (-1)    /* a send or receive without data in memory */
#define NOC_PROG_DEFAULT_COST (-1) /* a combine op costs compute_cycles per word */
#define NOC_PROG_WORD_BYTES 8
#define NOC_PROG_MAX_MEM (1 << 24) /* words of local memory per rank, at most */
#define NOC_PROG_MAX_STEPS 65535   /* steps (used by ops) per program, at most: a packet's step is 16 bits */

typedef enum noc_op_kind {
    NOC_OP_SEND,    /* send `words` words from mem[addr..] to rank `peer` with `tag` */
    NOC_OP_RECV,    /* receive `words` words from `peer` (or any) with `tag` (or any) into mem[addr..] */
    NOC_OP_CALC,    /* GOAL's calc: busy for `cost` cycles, no data */
    NOC_OP_ADD,     /* mem[addr+i] = mem[addr+i] + mem[src+i], i < words */
    NOC_OP_MIN,     /* mem[addr+i] = min(mem[addr+i], mem[src+i]) */
    NOC_OP_MAX,     /* mem[addr+i] = max(mem[addr+i], mem[src+i]) */
    NOC_OP_COPY,    /* mem[addr+i] = mem[src+i] */
    NOC_OP_KINDS
} noc_op_kind_t;

/* One operation of one rank. */
typedef struct noc_op {
    uint8_t kind;        /* noc_op_kind_t */
    uint8_t cpu, nic;    /* GOAL's optional cpu and nic fields (nic: which injection channel, all-port) */
    uint8_t in_bytes;    /* SEND/RECV: the size was written in bytes (keep it so on output) */
    int32_t peer;        /* SEND: destination rank; RECV: source rank or NOC_PROG_ANY */
    int32_t tag;         /* SEND: tag >= 0; RECV: tag or NOC_PROG_ANY */
    uint32_t words;      /* SEND/RECV/combine: words (>= 1) */
    uint64_t bytes;      /* SEND/RECV written in bytes: the byte count as written */
    int32_t addr;        /* SEND: first word read; RECV: first word written (NOC_PROG_NO_ADDR:
                            no data); combine: destination */
    int32_t src;         /* combine: source address */
    int64_t cost;        /* CALC: cycles (>= 0); combine: cycles or NOC_PROG_DEFAULT_COST */
    int32_t step;        /* index into steps[], or -1: no step */
    uint32_t dep_start;  /* its dependencies: deps[dep_start .. dep_start + n_deps) */
    uint32_t n_deps;
    uint32_t line;       /* line of the source file (0: generated) */
} noc_op_t;

/* "op requires dep" (start = 0: dep must have completed) or "op irequires
 * dep" (start = 1: dep must have started). dep is a global op index of the
 * same rank. */
typedef struct noc_dep {
    uint32_t op;
    uint8_t start;
} noc_dep_t;

/* A word of memory: initial contents, or the value expected at the end. */
typedef struct noc_memval {
    uint32_t addr;
    int64_t value;
} noc_memval_t;

typedef struct noc_rank {
    uint32_t op_start, n_ops;       /* ops[op_start .. op_start + n_ops) */
    uint32_t mem_words;             /* size of local memory */
    uint32_t init_start, n_init;    /* init[...]: in address order */
    uint32_t expect_start, n_expect;/* expect[...]: in address order */
} noc_rank_t;

typedef struct noc_program {
    char *name;                 /* from the optional "program NAME" line; may be NULL */
    int n_ranks;
    noc_rank_t *ranks;
    noc_op_t *ops;
    uint32_t n_ops;
    noc_dep_t *deps;
    uint32_t n_deps;
    noc_memval_t *init, *expect;
    uint32_t n_init, n_expect;
    char **steps;               /* step names, in the order they were first named */
    int n_steps;
    void *build;                /* builder state until noc_prog_finish */
    void *grow;                 /* a program that grows in place (noc_prog_grow_copy): its state, else NULL */
} noc_program_t;

/* ---- builder (used by the reader, the generators and tests) ----
 * Ops are added rank by rank in any order of ranks; dependencies, memory
 * values and steps in any order. noc_prog_finish checks everything and puts
 * the arrays into their final form; until then only the builder calls may
 * be used. */
noc_program_t *noc_prog_new(int n_ranks, const char *name);
/* Add op *op (its dep_start, n_deps and step fields are ignored; the step
 * is the rank's current step, see noc_prog_step) to rank r; returns its
 * global op index, for noc_prog_dep. noc_prog_finish groups the ops by rank
 * (keeping their order within a rank), so the index stays valid after it
 * only if ops were added in nondecreasing rank order. */
uint32_t noc_prog_add(noc_program_t *p, int r, const noc_op_t *op);
/* Shorthands for noc_prog_add. */
uint32_t noc_prog_send(noc_program_t *p, int r, int to, int tag, uint32_t words, int32_t addr);
uint32_t noc_prog_recv(noc_program_t *p, int r, int from, int tag, uint32_t words, int32_t addr);
uint32_t noc_prog_combine(noc_program_t *p, int r, noc_op_kind_t kind, uint32_t words,
                          int32_t dst, int32_t src);
/* The same with its own cost in cycles (NOC_PROG_DEFAULT_COST: the run's
 * compute_cycles per word). */
uint32_t noc_prog_combine_cost(noc_program_t *p, int r, noc_op_kind_t kind, uint32_t words, int32_t dst,
                               int32_t src, int64_t cost);
uint32_t noc_prog_calc(noc_program_t *p, int r, int64_t cycles);
/* Op a may start only when op b has completed (start = 0) or started (1). */
void noc_prog_dep(noc_program_t *p, uint32_t a, uint32_t b, int start);
/* Name step `name` now (steps are ordered by when they were first named,
 * here or by noc_prog_step: the order sync_steps runs them in). */
void noc_prog_declare_step(noc_program_t *p, const char *name);
/* Ops added to rank r from now on belong to step `name` (NULL: to no step). */
void noc_prog_step(noc_program_t *p, int r, const char *name);
/* Local memory of rank r holds at least `words` words. */
void noc_prog_mem(noc_program_t *p, int r, uint32_t words);
void noc_prog_init(noc_program_t *p, int r, uint32_t addr, int64_t value);
void noc_prog_expect(noc_program_t *p, int r, uint32_t addr, int64_t value);
/* Check and finalise: peers and tags in range, dependencies within a rank
 * and acyclic, every address inside the rank's memory (memory grows to the
 * highest address used unless noc_prog_mem asked for more), one init and one
 * expect at most per word. Returns 0, or -1 with a message in err (naming
 * the rank, and the line where there is one). */
int noc_prog_finish(noc_program_t *p, char *err, size_t errlen);
/* The ops' `line` fields refer to file `file` (copied; NULL: none): the
 * messages of noc_prog_finish then read "FILE:LINE: rank R: ...". The
 * reader sets it. */
void noc_prog_source(noc_program_t *p, const char *file);
void noc_prog_free(noc_program_t *p);

/* ---- a finished program that grows in place (model/program_grow.c) ----
 * The PE engine's copy of a running program to which a platform appends
 * ops as it goes (noc_pe_append_op, the SystemC wrapper). An op appended
 * is numbered after every op so far, whatever its rank, so nothing is ever
 * renumbered, and the arrays grow by doubling: n appends cost O(n) in all.
 * Such a program is no longer rank by rank: ranks[r].n_ops still counts
 * rank r's ops, but op_start means nothing (0); noc_prog_op_ranks gives
 * every op's rank. init and expect keep what the copied program had. To
 * write or replay what ran, build the program again (the wrapper does). */
/* A copy of finished program p that can grow (p itself is not changed). */
noc_program_t *noc_prog_grow_copy(const noc_program_t *p);
/* The rank of every op of a program that grows in place; NULL for a
 * program rank by rank (ranks[].op_start). */
const uint32_t *noc_prog_op_ranks(const noc_program_t *p);
/* Can op *op (its dep_start and n_deps are ignored; its step is used:
 * an index into steps[], or -1) be appended to rank r of g, after the
 * ops deps[0 .. n_deps) of the same rank? Every field as noc_prog_finish
 * checks it, and its words inside the rank's memory (mem_words: see
 * noc_prog_grow_mem). 0, or -1 with "rank R: ..." in err. */
int noc_prog_grow_check(const noc_program_t *g, int r, const noc_op_t *op, const noc_dep_t *deps, uint32_t n_deps,
                        char *err, size_t errlen);
/* Append it (noc_prog_grow_check must have passed): returns its index,
 * g->n_ops before the call. Unused fields are normalised as by
 * noc_prog_finish. */
uint32_t noc_prog_grow_op(noc_program_t *g, int r, const noc_op_t *op, const noc_dep_t *deps, uint32_t n_deps);
/* Append step `name` (a good name, not yet a step of g, at most
 * NOC_PROG_MAX_STEPS in all): its index, or -1 with a message. */
int noc_prog_grow_step(noc_program_t *g, const char *name, char *err, size_t errlen);
/* Rank r's memory holds at least `words` words (at most NOC_PROG_MAX_MEM:
 * 0, or -1 with a message). */
int noc_prog_grow_mem(noc_program_t *g, int r, uint64_t words, char *err, size_t errlen);

/* ---- text form (docs/programs.md) ---- */
/* Read a program; NULL with "FILE:LINE: message" in err on bad input. */
noc_program_t *noc_prog_read_file(const char *path, char *err, size_t errlen);
noc_program_t *noc_prog_read_string(const char *text, const char *name_for_errors, char *err,
                                    size_t errlen);
/* Write p; reading the output gives the same program (same ops, order,
 * dependencies, steps, memory). Returns 0, or -1 on a write error. */
int noc_prog_write(const noc_program_t *p, FILE *f);

/* Is s a good program or step name: letters, digits and _ . : + -, with
 * no ':' first or last (the reader would take it for a label, "l1:")? */
int noc_prog_good_name(const char *s);

/* Name of a kind as written in the text form ("send", "add", ...). */
const char *noc_op_kind_name(noc_op_kind_t k);

#ifdef __cplusplus
}
#endif
#endif
