/* gen_flow_internal.h: the state of the dataflow builder (gen_fabric.h),
 * private to the files that make up the fabric generators: gen_flow.c owns
 * it; the group steps (gen_group.c) keep their BFS tree from a centre of Ω
 * in it, and the BSN algorithms (gen_bsn.c) read its node count. Not
 * installed, not for use outside traffic/gen_flow.c, gen_group.c, gen_bsn.c. */
#ifndef NOC_GEN_FLOW_INTERNAL_H
#define NOC_GEN_FLOW_INTERNAL_H
#include "traffic/gen_fabric.h"
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* A read of a slot since its last write: the op, and whether a later
 * writer waits only for its start (a send). */
typedef struct reader {
    uint32_t op;
    int32_t next;
    uint8_t start;
} reader_t;

/* A combine op held back (gen_fabric.h): dst (kind)= src. */
typedef struct held {
    int32_t next;
    uint8_t kind;
    uint8_t cost;       /* cycles (0: free, as the papers count arithmetic) */
    int16_t dst, src;
} held_t;

struct noc_gen_flow {
    noc_program_t *p;
    int n_nodes;
    uint32_t words;
    int n_slots;           /* slots in use (0, zero and scratch included) */
    int max_slots;         /* NOC_GEN_MAX_SLOTS + the landing slots */
    int32_t tag;           /* next unused message tag */
    uint32_t *writer;      /* [cell(v, s)]: last op that wrote it, NOC_GEN_NONE */
    int32_t *readers;      /* [cell(v, s)]: its reads since, a list in rd[], -1 */
    reader_t *rd;
    uint32_t rd_n, rd_cap;
    int32_t *held_first, *held_last; /* per rank: its held combine ops, in order */
    held_t *hd;
    uint32_t hd_n, hd_cap;
    int32_t hd_free;       /* recycled entries of hd[] */
    int32_t *tmp;          /* before(): a rank's held entries, in order */
    uint32_t tmp_cap;
    uint8_t *mark;         /* before(): per slot, read (1) / written (2) by what goes first */
    noc_gen_tree_t centre; /* tree_sum(): Ω's BFS tree from a centre, built on first use */
};

#ifdef __cplusplus
}
#endif
#endif
