/* embed.h: embeddings of the pyramid P_n (levels 0 .. n, level k a
 * 2^(n-k) x 2^(n-k) mesh, level 0 the base) into the hypercube H_2n, from
 * Ziavras, "Mapping single and multiple multilevel structures onto the
 * hypercube" (section 2: Stout's mapping; section 3: the paper's new one),
 * and their cost: expansion, dilation and congestion under the hypercube's
 * e-cube routing (lowest differing bit first, topologies/grid.c).
 *
 * Both mappings encode the row and the column of a base node with the n-bit
 * reflected Gray code g(i) = i ^ (i >> 1) and concatenate the two codes into
 * a 2n-bit hypercube address. A node (k, R, C) of level k >= 1 goes to the
 * PE whose codes are g(R) << k and g(C) << k (Stout: the lower k bits of
 * both codes 0); the new mapping sets the lower k - 1 bits of the column
 * code to 1, which puts every level above the base on distinct PEs
 * (docs/algorithms/pyramid.md shows how this reading follows the paper's
 * Fig. 1). Both are many-to-one: every PE holds a base node, and Stout's
 * PE 0 also every level's node (0,0); the expansion 4^n / |P_n| is < 1. */
#ifndef NOC_EMBED_H
#define NOC_EMBED_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_EMBED_MAX_N 10 /* P_10 into H_20, as large as pyramid:N goes */

typedef enum noc_embed_kind {
    NOC_EMBED_STOUT,   /* Stout: level k on the PEs whose codes end in k zeros */
    NOC_EMBED_ZIAVRAS, /* the paper's new mapping: levels >= 1 on distinct PEs */
    NOC_EMBED_KINDS
} noc_embed_kind_t;

typedef struct noc_embed {
    noc_embed_kind_t kind;
    int n;        /* P_n into H_2n, 1 <= n <= NOC_EMBED_MAX_N */
    int row_high; /* 0 (what the generators use): address = g(col) * 2^n + g(row);
                     1: g(row) * 2^n + g(col), the order of the paper's text. The two
                     differ by a renaming of dimensions (same expansion and dilation)
                     but e-cube corrects low bits first, so congestion differs */
    int copy;     /* which of the pyramids sharing the base (section 3, Fig. 1's primes):
                     levels >= 1 with the row code's lowest bit flipped if copy & 1 (the
                     second, primed pyramid), the column code's if copy & 2 (Stout's
                     third and fourth); 0: the first. The base is the same for all */
} noc_embed_t;

/* "stout" / "ziavras". */
const char *noc_embed_name(noc_embed_kind_t k);
/* The kind named `name`, or NOC_EMBED_KINDS if none. */
noc_embed_kind_t noc_embed_parse(const char *name);

/* Hypercube node of pyramid node (level, row, col); row, col < 2^(n-level). */
int noc_embed_node(const noc_embed_t *e, int level, int row, int col);

/* Cost of an embedding. Congestion of a set of pyramid edges: the most of
 * them that use one directed hypercube link, each edge carrying messages
 * both ways along the e-cube routes u -> v and v -> u (an edge of dilation
 * 0, both ends on one PE, uses no link). */
typedef struct noc_embed_cost {
    int pyramid_nodes, cube_nodes; /* expansion = cube_nodes / pyramid_nodes */
    int load;                      /* most pyramid nodes on one hypercube node */
    int upper_shared;              /* PEs holding two or more nodes of levels >= 1 */
    int dilation;                  /* over every edge */
    int dilation_lateral;          /* over the mesh edges of all levels */
    int congestion;                /* max over k of congestion_level[k] (the paper's measure) */
    int congestion_all;            /* all edges of all levels at once */
    int dilation_level[NOC_EMBED_MAX_N + 1];   /* [k], k >= 1: edges between levels k-1 and k */
    int congestion_level[NOC_EMBED_MAX_N + 1]; /* [k], k >= 1: those edges alone */
    int congestion_siblings[NOC_EMBED_MAX_N + 1]; /* [k]: those and level k-1's mesh edges */
} noc_embed_cost_t;

/* Measure e. Returns 0, or -1 when e->n is out of range. */
int noc_embed_measure(const noc_embed_t *e, noc_embed_cost_t *c);

/* A multilevel structure with reductions 2^m[i-1] x 2^m[i-1] between its
 * levels i-1 and i (i = 1 .. levels, m[0] + ... <= e->n) on H_2n, as
 * section 3 maps it: its level j on the PEs of pyramid level M_j = m[0] +
 * ... + m[j-1] of e's mapping (Stout's: "the first algorithm"; the new
 * one's: its extension). Per level pair i (1-based, dil[i], cong[i]):
 * the dilation of its parent-child edges and their congestion, counted as
 * for noc_embed_measure. Returns 0, or -1 when the m's do not fit. */
int noc_embed_multilevel(const noc_embed_t *e, const int *m, int levels, int *dil, int *cong);

/* The report's "key = value" lines for e, appended to buf: embedding,
 * embedded (P_n onto H_2n), expansion, load, upper_shared, dilation,
 * dilation_lateral, congestion, congestion_all (numbers), and per level
 * pair "levels k-1-k = dilation D, congestion C (S with level k-1's mesh
 * edges)". */
void noc_embed_facts(const noc_embed_t *e, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
