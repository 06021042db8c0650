/* gen_fabric.h: the communication algorithms the reference papers give for
 * particular fabrics, for the generic generators (broadcast, data-sum,
 * prefix-sum: gen_broadcast.c, gen_sum.c, ...) to call when the fabric is of
 * that kind, and the group-level building blocks they share.
 *
 *   gen_bsn.c:  Wei and Xiao's broadcast (4 steps), data sum (5 steps) and
 *               prefix sum (8 steps) on the biswapped network Σ(Ω);
 *   gen_otis.c: the OTIS(Ω) broadcast and data sum (within group, swap,
 *               within group) the paper compares them with, and the BSN
 *               prefix sum on OTIS's one part.
 *
 * Every entry point takes a fabric of its kind (noc_topo_kind "bsn" or
 * "otis", the basis Ω from noc_topo_basis) and the generator arguments (gen.h:
 * --root for the broadcasts, --words W, --seed), and returns a finished
 * program whose ranks start with W words at address 0 and must end with the
 * result there (init and expect set for every PE, steps declared in the
 * paper's order, named "1:...", "2:..."); or NULL with a message naming
 * the program and what is wrong (another fabric, a basis the algorithm does
 * not support, a root out of range, --words below 1). Combine ops cost 0
 * cycles: the papers count communication only. docs/algorithms/bsn.md has
 * the algorithms, the counts and the runs. */
#ifndef NOC_GEN_FABRIC_H
#define NOC_GEN_FABRIC_H
#include "traffic/gen_util.h"
#ifdef __cplusplus
extern "C" {
#endif

/* BSN (gen_bsn.c). Broadcast from --root: 2 + 2·max(ecc_Ω(g0), ecc_Ω(p0))
 * steps for root <g0,p0,c0>, 2·D(Ω) + 2 on vertex-transitive bases. */
noc_program_t *noc_gen_bsn_broadcast(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                     size_t errlen);
/* Every PE ends with the sum of all PEs' words. */
noc_program_t *noc_gen_bsn_data_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                    size_t errlen);
/* Every PE ends with the sum over the PEs up to and including itself in
 * the paper's order, which is the node number c·n² + g·n + p (group label
 * c·n + g, then processor p in Ω's node order). The basis must have an
 * order the groups can sum along: ring, mesh or torus of 1 or 2
 * dimensions, hypercube, complete. */
noc_program_t *noc_gen_bsn_prefix_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                      size_t errlen);

/* OTIS (gen_otis.c). Broadcast from --root (g0,p0): ecc_Ω(p0) + 1 +
 * ecc_Ω(g0) steps, at most 2·D(Ω) + 1, the OTIS diameter. */
noc_program_t *noc_gen_otis_broadcast(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                      size_t errlen);
noc_program_t *noc_gen_otis_data_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                     size_t errlen);
/* Every PE ends with the sum over the ranks up to and including itself
 * (rank g·n + p): the BSN prefix sum on one part, prefix(Ω) + 1 +
 * prefix(Ω) + 1 + ecc_Ω(n-1) steps (6m - 4 on an m x m mesh). Bases as
 * for the BSN prefix sum. */
noc_program_t *noc_gen_otis_prefix_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                       size_t errlen);

/* ---- building blocks shared by gen_bsn.c and gen_otis.c (gen_flow.c, gen_group.c)
 *
 * A dataflow builder: every PE's memory is cut into slots of `words` words
 * (slot s at address s·words; slot 0 holds the data and the result, slot
 * NOC_GEN_ZERO_SLOT is never written and reads as zeros, the slots after it
 * up to NOC_GEN_FIRST_SLOT are the group steps' scratch). Ops added through
 * it get their dependencies from the slots they touch: an op that reads a
 * slot waits for the op that last wrote it; one that writes a slot also
 * waits for that writer and for every op that read the slot since (a send
 * only for its start: it copies its words when it starts). So a PE runs
 * the independent parts of an algorithm side by side.
 *
 * Combine ops (cost 0) are held back until an op of the same rank touches
 * a slot they touch, or the step changes: additions that only feed later
 * steps then open the next step, and a step ends with its last receive.
 * That is the papers' accounting under sync_steps, whose barrier opens a
 * step in the cycle the last receive before it ends but only one cycle
 * after a computation ends (model/pe.c opens steps before PEs compute). */
#define NOC_GEN_ZERO_SLOT 1
#define NOC_GEN_FIRST_SLOT 12
#define NOC_GEN_MAX_SLOTS 24

typedef struct noc_gen_flow noc_gen_flow_t;

/* A builder over program p (not owned; one rank per node), slots of
 * `words` words, for the group steps over basis omega (which get landing
 * slots above NOC_GEN_MAX_SLOTS: one per processor on a complete basis, one
 * per port elsewhere). */
noc_gen_flow_t *noc_gen_flow_new(noc_program_t *p, uint32_t words, const noc_topo_t *omega);
/* Add the combine ops still held back, and free the builder. */
void noc_gen_flow_done(noc_gen_flow_t *f);
/* A slot not used before (so it reads as zeros until written). Aborts past
 * NOC_GEN_MAX_SLOTS: a generator bug, not bad input. */
int noc_gen_flow_slot(noc_gen_flow_t *f);
/* k tags not used before; returns the first. */
int32_t noc_gen_flow_tags(noc_gen_flow_t *f, int k);
/* Ops added from now on, to every rank, belong to step `name`. */
void noc_gen_flow_step(noc_gen_flow_t *f, const char *name);
/* Rank v sends slot s to rank to; receives into slot s from rank from;
 * computes slot dst (kind)= slot src at no cost. */
void noc_gen_flow_send(noc_gen_flow_t *f, int v, int to, int32_t tag, int s);
void noc_gen_flow_recv(noc_gen_flow_t *f, int v, int from, int32_t tag, int s);
void noc_gen_flow_op(noc_gen_flow_t *f, int v, noc_op_kind_t kind, int dst, int src);
/* The same with a cost in cycles (noc_gen_flow_op: free, as the papers
 * count arithmetic). */
void noc_gen_flow_op_cost(noc_gen_flow_t *f, int v, noc_op_kind_t kind, int dst, int src, int cost);

/* Group-level steps: a group is a copy of Ω whose processor q is rank
 * base + q (BSN: base c·n² + g·n, OTIS: g·n); omega is the basis the
 * builder was made for. Each call adds the ops of one group; calls for
 * several groups in one step run side by side. */
/* Broadcast slot s from the root of tree (a BFS tree of Ω) down its edges. */
void noc_gen_group_bcast(noc_gen_flow_t *f, const noc_gen_tree_t *tree, int base, int s);
/* Every processor's slot out becomes the sum of slot in over the group, in
 * D(Ω) steps on rings, meshes, tori, hypercubes (dimension by dimension) and
 * complete graphs (one exchange), 2·radius(Ω) on any other basis (a
 * reduction to a centre and a broadcast back). */
void noc_gen_group_allreduce(noc_gen_flow_t *f, const noc_topo_t *omega, int base, int in,
                             int out);
/* How many steps noc_gen_group_allreduce takes on omega: D(Ω), or
 * 2·radius(Ω) on the other bases. */
int noc_gen_group_allreduce_steps(const noc_topo_t *omega);
/* Can noc_gen_group_prefix run on basis omega? 0, or -1 with the reason. */
int noc_gen_group_prefix_ok(const noc_topo_t *omega, char *why, size_t whylen);
/* Prefix sums of slot in over the group in Ω's node order: inc gets the
 * sum up to and including the processor, exc the sum before it (-1: not
 * wanted). Lines (ring, 1-D mesh or torus): a sweep, n - 1 steps; 2-D mesh
 * or torus (row-major, dimension 0 fastest): (kx - 1) + (ky - 1) steps;
 * hypercube: recursive doubling, D steps; complete: one exchange. Wrap
 * links are not used. */
void noc_gen_group_prefix(noc_gen_flow_t *f, const noc_topo_t *omega, int base, int in, int inc,
                          int exc);

#ifdef __cplusplus
}
#endif
#endif
