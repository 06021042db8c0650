/* pattern.h: synthetic destination patterns, kept apart from the injection
 * process (traffic/inject.h). A pattern maps a source node to a destination,
 * drawing from the caller's random stream where the pattern is random.
 *
 * Patterns and their definitions (n nodes, b = log2(n) bits when n is a power
 * of two; source s, bits s_{b-1} .. s_0):
 *   uniform        every node but s with equal probability (every node, s
 *                  included, with self set: BookSim2's uniform)
 *   transpose      on a 2D grid (x,y) -> (y,x); on others swap the two halves
 *                  of the address bits (needs an even b)
 *   bitcomp        bit complement: d = ~s (needs n a power of two)
 *   bitrev         bit reverse: d_i = s_{b-1-i}
 *   shuffle        perfect shuffle: d = rotate left by one bit
 *   tornado        on a grid, every coordinate moves ceil(k/2) - 1 ahead
 *                  (mod k); otherwise s + ceil(n/2) - 1 (mod n)
 *   neighbor       on a grid, +1 in dimension 0 (mod k); otherwise s+1 mod n
 *   hotspot        with probability hotspot_rate the hotspot node, otherwise
 *                  uniform; hotspot({h0,h1,..},{r0,r1,..}) (BookSim2's): every
 *                  packet to one of the nodes h_i, with probability
 *                  r_i / sum r (integer weights, all 1 when left out)
 *   neighbor_all   BookSim2's neighbor: on a grid +1 in every dimension
 *                  (mod k); otherwise s+1 mod n
 *   randperm       a random permutation of the nodes, drawn once from
 *                  perm_seed (or randperm(SEED)) and fixed for the run; fixed
 *                  points are allowed (BookSim2's; its own generator draws
 *                  other permutations for the same seed)
 *   diagonal       s+1 mod n with probability 1/3, s itself with 2/3
 *   asymmetric     (s mod h) or (s mod h) + h, even odds, h = floor(n/2)
 *   taper64        64 nodes only: with probability 1/2 one of the 9 nodes
 *                  s + 8a + b mod 64, a, b in {-1, 0, 1} equally likely,
 *                  otherwise uniform
 *   badperm_yarc   on a k-ary grid of 2 or more dimensions: a random r in
 *                  [0, k) and d = r*k + s/k (the source's row becomes a
 *                  column: YARC's bad permutation)
 *   background     background({x0,x1,..}): uniform over the nodes not in the
 *                  list
 * A pattern that maps s to itself sends nothing from s (the caller skips),
 * unless the run sends such packets through the router (self_traffic). */
#ifndef NOC_PATTERN_H
#define NOC_PATTERN_H
#include <stddef.h>
#include <stdint.h>
#include "model/rng.h"
#include "topologies/topo.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum noc_pattern_kind {
    NOC_PAT_UNIFORM,
    NOC_PAT_TRANSPOSE,
    NOC_PAT_BITCOMP,
    NOC_PAT_BITREV,
    NOC_PAT_SHUFFLE,
    NOC_PAT_TORNADO,
    NOC_PAT_NEIGHBOR,
    NOC_PAT_HOTSPOT,
    NOC_PAT_NEIGHBOR_ALL,
    NOC_PAT_RANDPERM,
    NOC_PAT_DIAGONAL,
    NOC_PAT_ASYMMETRIC,
    NOC_PAT_TAPER64,
    NOC_PAT_BADPERM_YARC,
    NOC_PAT_BACKGROUND,
    NOC_PAT_COUNT
} noc_pattern_kind_t;

typedef struct noc_pattern {
    noc_pattern_kind_t kind;
    const noc_topo_t *topo;
    int n;            /* nodes */
    int bits;         /* log2(n) when n is a power of two, else -1 */
    int hotspot;      /* hotspot node */
    double hotspot_rate;
    int self;         /* uniform draws s too (BookSim2's uniform; set after noc_pattern_init) */
    /* The grid shape the patterns use, read from the topology once: dims
     * (0 when it is no mesh, torus or ring), and each dimension's size and
     * stride (noc_topo_k, noc_topo_stride). */
    int dims;
    int k[NOC_TOPO_MAX_DIMS];
    int stride[NOC_TOPO_MAX_DIMS];
    /* Tables made by noc_pattern_setup (noc_pattern_free releases them):
     * randperm: each node's destination (n entries); hotspot(..): the hot
     * nodes, with cum[i] the sum of the weights of nodes 0..i; background:
     * the nodes drawn from. NULL and 0 otherwise. */
    int *list;
    uint32_t *cum;
    int n_list;
} noc_pattern_t;

/* What a pattern takes besides its name. */
typedef struct noc_pattern_opts {
    int hotspot;         /* plain hotspot: the node */
    double hotspot_rate; /* plain hotspot: the fraction sent to it */
    int64_t perm_seed;   /* randperm: the permutation's seed */
    const char *args;    /* the text between NAME( and ), NULL without */
} noc_pattern_opts_t;

const char *noc_pattern_name(noc_pattern_kind_t k);
/* Split a traffic value NAME or NAME(ARGS): the kind of NAME (NOC_PAT_COUNT
 * unknown), ARGS copied to args (NULL *has_args 0 without parentheses).
 * Returns NOC_PAT_COUNT also when ')' is not the last character or the value
 * does not fit. */
noc_pattern_kind_t noc_pattern_split(const char *value, char *args, size_t argslen, int *has_args);
/* Accepts the names above and BookSim2's spellings ("bitcomp", "bitrev",
 * "transpose", "shuffle", "tornado", "neighbor", "uniform", "hotspot");
 * returns NOC_PAT_COUNT for an unknown name. */
noc_pattern_kind_t noc_pattern_parse(const char *name);
/* Space-separated list of all pattern names, for help texts. */
const char *noc_pattern_list(void);

/* Check that the pattern fits the topology (power of two sizes, grid shape,
 * hotspot node in range). Returns 0, or -1 with a message in err. Patterns
 * that need a table (randperm with seed 0) or arguments go through
 * noc_pattern_setup; background without arguments is refused here. */
int noc_pattern_init(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
                     int hotspot, double hotspot_rate, char *err, size_t errlen);
/* noc_pattern_init with arguments: randperm (perm_seed, or one integer
 * argument, the seed), hotspot ({nodes} or {nodes},{weights}: see above;
 * without, the plain hotspot), background ({excluded nodes}; required).
 * The other patterns take none. Returns 0, or -1 with a message naming the
 * faulty argument in err (nothing to free then). */
int noc_pattern_setup(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
                      const noc_pattern_opts_t *o, char *err, size_t errlen);
/* Release what noc_pattern_setup made; p may be set up again after. */
void noc_pattern_free(noc_pattern_t *p);
/* Destination for source s. */
int noc_pattern_dest(const noc_pattern_t *p, int s, noc_rng_t *rng);

#ifdef __cplusplus
}
#endif
#endif
