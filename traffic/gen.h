/* gen.h: generators of traffic programs (model/program.h) for the
 * communication algorithms of the reference papers and generic collectives.
 * A generator builds, for a fabric and its arguments, a program whose ranks
 * are the fabric's nodes, with the data each PE starts with (init), the
 * values every PE must hold at the end (expect: the run's result check), and
 * a step marker on every operation (the algorithm's steps, in order).
 *
 * `noctua run SPEC --program NAME [--root LABEL] [--variant V] [--q Q]
 * [--words W] [--h H] [--seed S]` calls them (cli/cmd_program.c); the
 * registry is gen.c. Helpers every generator shares are in gen_util.h. */
#ifndef NOC_GEN_H
#define NOC_GEN_H
#include <stddef.h>
#include <stdint.h>
#include "model/program.h"
#include "topologies/topo.h"
#ifdef __cplusplus
extern "C" {
#endif

/* What a generator is asked for. Fields a generator does not use are
 * ignored; each generator's args_help says which it reads. */
typedef struct noc_gen_args {
    int root;             /* the root node (--root LABEL; default 0) */
    const char *variant;  /* --variant NAME, or NULL: the generator's default */
    int64_t q;            /* --q: shift amount (shift) */
    int words;            /* --words: words per PE's block or message (default 1) */
    int h;                /* --h: the h of an h-relation (hrelation; 0: the generator's default) */
    uint64_t seed;        /* --seed: data values and random relations */
} noc_gen_args_t;

typedef struct noc_generator {
    const char *name;        /* as on the command line: "broadcast", "data-sum", ... */
    const char *summary;     /* one line */
    const char *args_help;   /* its arguments and fabrics, several lines */
    const char *const *variants; /* NULL-terminated, the default first; NULL: none */
    /* Build the program for t, or NULL with a message in err (a fabric or
     * variant it does not support, bad arguments). The program is finished
     * (noc_prog_finish) and owned by the caller. */
    noc_program_t *(*make)(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen);
    /* Optional (may be NULL): facts about the program the report should
     * show (an h-relation's h_s and h_r, an embedding's dilation, the
     * paper's formula for the count), as "key = value" lines written into
     * buf; called after make succeeded, with the same arguments. */
    void (*facts)(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len);
    /* Optional (may be NULL): a lower bound of the memory values (init
     * and expect words, over all ranks) the program holds for these
     * arguments, or 0 when they are bad (make then says why): the memory
     * check before the program is made (noc_gen_check_memory). */
    uint64_t (*volume)(const noc_topo_t *t, const noc_gen_args_t *a);
} noc_generator_t;

/* The registry, in help order; NULL-terminated. */
extern const noc_generator_t *const noc_generators[];
const noc_generator_t *noc_gen_find(const char *name);
/* Defaults: root 0, no variant, q 1, words 1, h 0, seed 1. */
void noc_gen_args_default(noc_gen_args_t *a);
/* Before g->make: do the program's memory values fit in memory? Each
 * costs 32 bytes while the program is finished (16 bytes, held twice: as
 * added and sorted by address), so g->volume words need at least 32 times
 * as many bytes. 0 (also for a generator without volume), or -1 with
 * "NAME on SPEC: ... needs at least X (noctua's estimate), more than ..."
 * in err. The caller skips it under memory_check=0. */
int noc_gen_check_memory(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                         size_t errlen);
/* The variant a generator runs for args a: a->variant if it is one of
 * g's variants (else NULL with a message in err), or g's default. */
const char *noc_gen_variant(const noc_generator_t *g, const noc_gen_args_t *a, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
