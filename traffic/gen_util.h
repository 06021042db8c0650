/* gen_util.h: what the program generators share: the data values PEs start
 * with, fabric structure (kind, grid coordinates, BFS spanning trees over
 * any fabric), and building blocks of programs (a broadcast or a reduction
 * step over a forest) that the fabric-specific generators reuse. */
#ifndef NOC_GEN_UTIL_H
#define NOC_GEN_UTIL_H
#include "traffic/gen.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The value PE `node` starts with for word k (deterministic in the seed;
 * small enough that sums over 2^22 PEs do not overflow). */
int64_t noc_gen_value(uint64_t seed, int node, int k);

/* A generator's volume (gen.h) when every PE holds --words W memory
 * values (init or expect): p * W, or 0 unless 1 <= W <= NOC_PROG_MAX_MEM;
 * and when every PE both starts with W words and expects W: 2 p W. */
uint64_t noc_gen_volume_each(const noc_topo_t *t, const noc_gen_args_t *a);
uint64_t noc_gen_volume_twice(const noc_topo_t *t, const noc_gen_args_t *a);

/* Is t of kind `kind` ("mesh", "torus", "ring", "hypercube", "bsn", ...)? */
int noc_gen_is(const noc_topo_t *t, const char *kind);

/* A grid with coordinates (mesh, torus or ring: noc_topo_dims, _k, _stride)? */
int noc_gen_is_grid(const noc_topo_t *t);

/* Neighbour of node n across network port p (1 .. degree), -1 if none. */
int noc_gen_neighbour(const noc_topo_t *t, int n, int p);

/* A spanning tree of t rooted at root: BFS, children of a node in port
 * order, so that it is deterministic and shortest-path (every node at its
 * hop distance from the root). parent[root] = -1; order[] lists the nodes
 * in BFS order (root first); depth[] their distances. Arrays of n_nodes
 * entries, owned by the tree. */
typedef struct noc_gen_tree {
    int n;
    int *parent, *depth, *order;
    int *child_start, *child; /* children of v: child[child_start[v] .. child_start[v+1]) */
    int height;
} noc_gen_tree_t;
void noc_gen_tree_bfs(const noc_topo_t *t, int root, noc_gen_tree_t *tree);
void noc_gen_tree_free(noc_gen_tree_t *tree);

/* Where a node stands in a broadcast that runs over several steps: the op
 * after which it holds the words (a receive), NOC_GEN_HAS from the start
 * (the root), or NOC_GEN_NONE: not yet. */
#define NOC_GEN_NONE UINT32_MAX
#define NOC_GEN_HAS (UINT32_MAX - 1)

/* One step of a broadcast over a forest of n nodes: a node with
 * parent[v] >= 0 receives the words (at addr) from parent[v] in this step;
 * every node with children sends them the words once it holds them (a node
 * with parent[v] == -1 must hold them already, or have no children).
 * have[v] is the last op of v on addr (NOC_GEN_HAS, NOC_GEN_NONE: none):
 * v's sends and its receive wait for it, and the receive becomes the new
 * have[v]. Children in node order; ops rank by rank; all in step `step`
 * with tag `tag`. */
void noc_gen_forest_step(noc_program_t *p, int n, const int *parent, uint32_t words, int32_t addr,
                         int tag, const char *step, uint32_t *have);

/* One step of a reduction over a forest: every node combines (kind) the
 * words of its children, received into addr + words*(1+i), into its own at
 * addr, then sends the result to its parent. last[v] is v's last op on its
 * words (as have[] above): everything of v waits for it; afterwards it is
 * v's send to its parent, or for a root its last combine. */
void noc_gen_forest_reduce(noc_program_t *p, int n, const int *parent, noc_op_kind_t kind,
                           uint32_t words, int32_t addr, int tag, const char *step, uint32_t *last);

/* Append printf-style text to buf (len bytes, always NUL-terminated, never
 * past its end): for the generators' facts hooks. */
void noc_gen_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Finish p, or free it and return NULL with the message in err. */
noc_program_t *noc_gen_finish(noc_program_t *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
