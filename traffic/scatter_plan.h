/* scatter_plan.h: Tarkov and Tsarenko's loading plan, computed offline by
 * traffic/gen_scatter.c (the `tarkov` variant), and the planning phases
 * that traffic/gen_scatter_plan.c puts on the network before the loading
 * (the `tarkov-planned` variant: SP, PP and FP messages). Internal to the
 * two files and their tests. */
#ifndef NOC_SCATTER_PLAN_H
#define NOC_SCATTER_PLAN_H
#include "traffic/gen_util.h"
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_SCATTER_MAX_ARCS 64 /* out-arcs of a node on G(SP): one bit each in a mask */

/* A path along G(SP) for every fragment (gen_scatter.c explains how). */
typedef struct noc_scatter_plan {
    int n, root;
    int *dist, *order; /* BFS from the root: hops, and nodes by distance */
    int *rank;         /* per node: place in the planning order */
    int *frag;         /* the n - 1 fragments (goal nodes) by decreasing distance, ties by number */
    int *path_start;   /* fragment j's path: hop[path_start[j] .. path_start[j + 1]) */
    int *hop;          /* root first, j last; hop k is at distance k */
    int *load;         /* per global port: fragments planned over its arc */
    /* scratch of the node being planned */
    int *head, *link;  /* fragments waiting at a node, linked by fragment */
    uint64_t *mask;    /* per node x: the arcs whose descendants include x */
    int *touched, n_touched, *queue, *list, *arc;
    int m, arc_node[NOC_SCATTER_MAX_ARCS], arc_port[NOC_SCATTER_MAX_ARCS], arc_load[NOC_SCATTER_MAX_ARCS];
    int cnt[NOC_SCATTER_MAX_ARCS * NOC_SCATTER_MAX_ARCS];
} noc_scatter_plan_t;

/* The plan for t from root: 0, -1 if the fabric is not connected, -2 if a
 * node has more than NOC_SCATTER_MAX_ARCS out-arcs on G(SP). Free it with
 * noc_scatter_plan_free whatever it returned. */
int noc_scatter_plan_build(const noc_topo_t *t, int root, noc_scatter_plan_t *pl);
void noc_scatter_plan_free(noc_scatter_plan_t *pl);
/* Is port p of v the first of v's ports to its neighbour w? (Two ports to
 * one node are one arc for a program.) */
int noc_scatter_first_port(const noc_topo_t *t, int v, int p, int w);

/* Per node, the op the node's loading waits for (its last FP send, which
 * starts once the node has its plan), or NOC_GEN_NONE. */
typedef struct noc_scatter_gates {
    uint32_t *op;
} noc_scatter_gates_t;

/* What the planning phases send, for the facts hook and the tests:
 * messages and words of each phase (SP, PP, FP). */
typedef struct noc_scatter_plan_cost {
    int64_t messages[3], words[3];
} noc_scatter_plan_cost_t;

/* Add the SP, PP and FP phases (steps "plan-sp", "plan-pp", "plan-fp",
 * declared before "scatter") to p for the scatter of plan pl with fragments
 * of a->words words. SP: first_wins, a node takes the first mark from any
 * source (the paper's rule, tarkov-planned-first); else the marks of its
 * predecessors on G(SP) (tarkov-planned); gates->op (n entries, allocated here, freed by the
 * caller) says what each node's loading sends wait for. The phases' words
 * sit in every PE's memory after what the loading uses, with expected
 * values (the offline plan's) for the result check. 0, or -1 with a
 * message in err (a PE's memory too small for its plan). cost may be NULL. */
int noc_scatter_plan_phases(noc_program_t *p, const noc_topo_t *t, const noc_scatter_plan_t *pl,
                            const noc_gen_args_t *a, int first_wins, noc_scatter_gates_t *gates,
                            noc_scatter_plan_cost_t *cost, char *err, size_t errlen);
/* The same counts without building a program (the facts hook); -1 if
 * the phases could not be built. */
int noc_scatter_plan_count(const noc_topo_t *t, const noc_scatter_plan_t *pl, noc_scatter_plan_cost_t *cost);

#ifdef __cplusplus
}
#endif
#endif
