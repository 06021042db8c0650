/* facts.h: the graph facts of a fabric, for comparing fabrics per link spent
 * (`noctua topo`): nodes, links (total and per class), degree, diameter,
 * average distance, bisection width and two cost figures. Computes only;
 * printing is the CLI's. docs/facts.md says how each figure is found and
 * which ones are exact, estimates or bounds.
 *
 * Links are undirected: the two directed channels of a link (a port g and
 * its peer) count once. Degree is the number of network ports of a node.
 * Distances are shortest paths in the graph (BFS), not along the routing
 * function. */
#ifndef NOC_FACTS_H
#define NOC_FACTS_H
#include "topologies/topo.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Up to this many nodes, bisection width is exact (branch and bound over the
 * balanced bipartitions); the enumeration works to NOC_FACTS_EXACT_LIMIT
 * nodes, but its time grows fast beyond the default. */
#define NOC_FACTS_EXACT_DEFAULT 24
#define NOC_FACTS_EXACT_LIMIT 64
/* Up to this many nodes, distances come from a BFS from every node. */
#define NOC_FACTS_BFS_ALL_DEFAULT 20000
/* METIS runs for the bound (recursive bisection and k-way in turn, a new
 * seed every two runs); the smallest cut wins. */
#define NOC_FACTS_RUNS_DEFAULT 8

/* Where a bisection figure comes from. */
typedef enum noc_facts_method {
    NOC_FACTS_BISECT_NONE,   /* not computed */
    NOC_FACTS_BISECT_EXACT,  /* branch and bound: the exact width */
    NOC_FACTS_BISECT_METIS,  /* the best METIS cut: an upper bound */
    NOC_FACTS_BISECT_SPLIT,  /* a straight split along a grid coordinate or a
                                drawing axis cut fewer links than METIS: an
                                upper bound too */
    NOC_FACTS_BISECT_COUNT
} noc_facts_method_t;

typedef struct noc_facts_opts {
    int exact_max;  /* exact bisection up to this many nodes (<= NOC_FACTS_EXACT_LIMIT) */
    int bfs_all_max; /* BFS from every node up to this many nodes, else a sample */
    int runs;       /* METIS runs for the bound (>= 1) */
    int bisection;  /* 0: skip the bisection (bisection = -1) */
} noc_facts_opts_t;

typedef struct noc_facts {
    int nodes;
    int links;                               /* undirected, each counted once */
    int n_classes;                           /* as the topology's */
    int class_links[NOC_TOPO_MAX_CLASSES];   /* links per class (names: t->class_name) */
    int degree_min, degree_max;              /* network ports per node */
    double degree_avg;
    int connected;          /* 0: some pair has no path (diameter -1, avg_distance NaN) */
    int diameter;           /* largest distance seen; a lower bound when sampled */
    double avg_distance;    /* over ordered pairs of distinct nodes */
    int distance_exact;     /* 1: from every node; 0: from a sample, figures are estimates */
    int distance_sources;   /* BFS sources used (== nodes when exact) */
    int bisection;          /* links cut by the best balanced bipartition found; -1: none */
    int bisection_exact;    /* 1: exact (branch and bound); 0: an upper bound */
    noc_facts_method_t bisection_method;
    int bisection_runs;     /* METIS runs behind a bound (0 when exact) */
    double links_per_node;  /* links / nodes */
    int degree_x_diameter;  /* degree_max * diameter (-1 when disconnected) */
} noc_facts_t;

/* The defaults above. */
void noc_facts_defaults(noc_facts_opts_t *o);
/* "branch-and-bound", "metis", "split" ("none" for NOC_FACTS_BISECT_NONE). */
const char *noc_facts_method_name(noc_facts_method_t m);

/* All facts of t into f (opts NULL: the defaults). Returns 0, or -1 with a
 * message in err when an option is out of range or METIS fails. */
int noc_facts_compute(const noc_topo_t *t, const noc_facts_opts_t *opts, noc_facts_t *f,
                      char *err, size_t errlen);

/* Exact bisection width: the fewest links between two parts of sizes
 * floor(N/2) and ceil(N/2). Returns it, or -1 when N > NOC_FACTS_EXACT_LIMIT. */
int noc_facts_bisection_exact(const noc_topo_t *t);

/* An upper bound on the bisection width from METIS: the smallest cut over
 * `runs` runs with nparts 2 (METIS_PartGraphRecursive on even runs,
 * METIS_PartGraphKway on odd ones, seed run / 2), each rebalanced to sizes
 * floor(N/2) and ceil(N/2) where METIS left it off by more. If side is not
 * NULL it receives the best partition (0 or 1 per node, n_nodes entries).
 * Returns the cut, or -1 with a message in err if METIS fails. */
int noc_facts_bisection_metis(const noc_topo_t *t, int runs, unsigned char *side,
                              char *err, size_t errlen);

/* An upper bound from straight splits: the nodes ordered by each grid
 * coordinate (t->dims of them) and by each drawing axis (when t->pos is set),
 * the first floor(N/2) against the rest. Returns the smallest cut, or -1 when
 * the topology has neither grid shape nor positions. */
int noc_facts_bisection_split(const noc_topo_t *t);

#ifdef __cplusplus
}
#endif
#endif
