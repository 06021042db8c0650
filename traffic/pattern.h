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
 *                  uniform
 * A pattern that maps s to itself sends nothing from s (the caller skips),
 * unless the run sends such packets through the router (self_traffic). */
#ifndef NOC_PATTERN_H
#define NOC_PATTERN_H
#include <stddef.h>
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
} noc_pattern_t;

const char *noc_pattern_name(noc_pattern_kind_t k);
/* Accepts the names above and BookSim2's spellings ("bitcomp", "bitrev",
 * "transpose", "shuffle", "tornado", "neighbor", "uniform", "hotspot");
 * returns NOC_PAT_COUNT for an unknown name. */
noc_pattern_kind_t noc_pattern_parse(const char *name);
/* Space-separated list of all pattern names, for help texts. */
const char *noc_pattern_list(void);

/* Check that the pattern fits the topology (power of two sizes, grid shape,
 * hotspot node in range). Returns 0, or -1 with a message in err. */
int noc_pattern_init(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
                     int hotspot, double hotspot_rate, char *err, size_t errlen);
/* Destination for source s. */
int noc_pattern_dest(const noc_pattern_t *p, int s, noc_rng_t *rng);

#ifdef __cplusplus
}
#endif
#endif
