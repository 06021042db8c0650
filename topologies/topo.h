/* topo.h: a fabric as a graph of routers, with a PE on every router.
 *
 * Node n has ports 0 .. degree(n): port 0 is the local port (to and from the
 * PE's network interface), ports 1 .. degree(n) are network ports. Every port
 * has a global id g in [port_base[n], port_base[n+1]); the network port g
 * sends on the directed link g -> peer[g] (a global port id of the neighbour,
 * whose link back is peer[peer[g]] == g). Links come in classes (one per
 * dimension in tori, meshes and hypercubes) so that latency and reports can be
 * set and broken down per class.
 *
 * Routing is a pure function of (current node, destination): deterministic,
 * minimal, and deadlock-free through VC classes: the route names the output
 * port and the VC class the packet must use on that port's link. A router
 * with V virtual channels gives class c of C the VCs [c*V/C, (c+1)*V/C).
 *
 * Topologies are built from a SPEC string ("mesh:8x8", "torus:4x4x4",
 * "ring:16", "hypercube:6") by noc_topo_create, and label their nodes in their
 * own notation: "(x,y)" coordinates for meshes and tori, "0101" bit strings
 * (most significant dimension first) for hypercubes.
 *
 * Grid port numbering (grid.c): after the local port 0, for each dimension d
 * in order, the + port (to coordinate +1) then the - port (to coordinate -1),
 * each only where that neighbour exists. So a torus or ring node has + at
 * 1 + 2d and - at 2 + 2d; a mesh node at an edge has fewer ports, shifted
 * down; a hypercube (a mesh with k = 2 everywhere) has port d + 1 flipping
 * bit d. Link class d ("dim<d>") holds the links of dimension d. */
#ifndef NOC_TOPO_H
#define NOC_TOPO_H
#include <stddef.h>
#include <stdint.h>
#include "model/graph.h"
#ifdef __cplusplus
extern "C" {
#endif

#ifndef NOC_TOPO_MAX_NODES /* (the fuzzers build with a smaller one: tools/fuzz.sh) */
#define NOC_TOPO_MAX_NODES (1 << 22)
#endif
#define NOC_TOPO_MAX_DIMS 22 /* log2(NOC_TOPO_MAX_NODES): every size is >= 2 */
#define NOC_TOPO_MAX_LEVELS 12 /* levels of a pyramid or multilevel structure */
#define NOC_TOPO_MAX_CLASSES NOC_GRAPH_MAX_CLASSES

typedef struct noc_topo noc_topo_t;

typedef struct noc_topo_ops {
    const char *kind; /* "mesh", "torus", "ring", "hypercube", ... */
    /* Route at node `cur` of a packet from `src` toward `dst`. cur == dst
     * gives port 0. (Tori use src to tell whether the packet has already
     * crossed the wraparound link of the dimension it travels in.) ctx is
     * the topology (the graph view's ctx), so the kernel calls it as it is. */
    noc_graph_route_fn route;
    /* Write the label of node n into buf (always NUL-terminated). */
    void (*label)(const noc_topo_t *t, int n, char *buf, size_t len);
    /* Free priv (may be NULL when the fabric keeps none). */
    void (*destroy)(noc_topo_t *t);
} noc_topo_ops_t;

/* The longest SPEC (model/graph.h: a path of PATH_MAX with kinds around it). */
#define NOC_TOPO_SPEC_MAX NOC_GRAPH_NAME_MAX

struct noc_topo {
    const noc_topo_ops_t *ops;
    char *spec;           /* the SPEC it was built from (owned; at most NOC_TOPO_SPEC_MAX characters) */
    int n_nodes;
    int n_ports;          /* total ports, local ones included */
    int *port_base;       /* n_nodes + 1 entries */
    int *peer;            /* per global port: peer global port, -1 for local */
    uint8_t *link_class;  /* per global port: class of its outgoing link */
    int n_classes;
    char class_name[NOC_TOPO_MAX_CLASSES][NOC_GRAPH_CLASS_NAME];
    int n_vclasses;       /* VC classes the routing needs (>= 1) */
    int max_degree;       /* largest number of network ports of a node */
    /* Grid shape (meshes, tori, rings, hypercubes): coordinate i of node n is
     * (n / stride[i]) % k[i]; dimension 0 varies fastest. */
    int dims;
    int k[NOC_TOPO_MAX_DIMS];
    int stride[NOC_TOPO_MAX_DIMS];
    int wrap;             /* 1 for tori and rings */
    int dateline;         /* 1: wraparound links use dateline VC classes */
    int route_needs_src;  /* 0: route() ignores its src argument, so a router
                             need not look the packet's source up */
    /* Per global port: the latency in cycles the fabric's definition gives
     * the link leaving it (a graph file may), 0 where the link takes its
     * class latency; NULL when no link has one. */
    uint8_t *link_latency;
    /* Drawing coordinates (x, y) per node, y growing downward, in the
     * layout the papers draw,
     * owned by the topology; NULL when the fabric has none (a drawing then
     * falls back to a generic layout). */
    float *pos;
    /* State of a fabric-specific builder (e.g. a routing table), owned by
     * the topology and freed with ops->destroy; NULL for none. */
    void *priv;
    /* The routes of ops->route for every (cur, dst), cur * n_nodes + dst,
     * kept for small fabrics whose routing ignores the source (at most
     * NOC_TOPO_ROUTE_CACHE_NODES nodes: a table that stays in cache); NULL
     * otherwise. Read through noc_topo_route. */
    noc_route_t *route_cache;
    /* Structure the program generators (traffic/gen_*.c) build on:
     * BSN and OTIS: their basis Ω (owned by priv), NULL elsewhere; BSN node
     * <g,p,c> is c*n*n + g*n + p and OTIS node (g,p) is g*n + p (n = |Ω|). */
    const noc_topo_t *basis;
    /* Pyramid and multilevel: levels (0 elsewhere), the side of each
     * level's mesh, and the number of node (level,0,0), level 0 the base;
     * node (i,r,c) is level_first[i] + r*level_side[i] + c. */
    int levels;
    int level_side[NOC_TOPO_MAX_LEVELS];
    int level_first[NOC_TOPO_MAX_LEVELS + 1];
    /* The kernel's view (model/graph.h), filled by noc_topo_create once the
     * builder is done: its arrays are the ones above. */
    noc_graph_t graph;
};

#define NOC_TOPO_ROUTE_CACHE_NODES 256

/* Build the topology named by spec. Returns NULL and writes a message that
 * names the SPEC and what is wrong with it into err on bad input. `flags`
 * (NOC_TOPO_F_*) select variants used by tests. The caller owns the result. */
#define NOC_TOPO_F_NO_DATELINE 1u /* tori without dateline classes: NOT
                                     deadlock-free, kept to test the detector */
noc_topo_t *noc_topo_create(const char *spec, unsigned flags, char *err, size_t errlen);
void noc_topo_destroy(noc_topo_t *t);

/* The size of a SPEC's fabric, worked out without building it, so that a
 * run too large for the memory can be refused before the topology itself
 * is (a grid of 4M nodes takes 150 MB and a second to build). */
typedef struct noc_topo_shape {
    int n_nodes, n_ports;   /* ports: local ones included, as in noc_topo_t */
    int max_degree;
    int n_classes;          /* link classes, named as the built topology names them */
    char class_name[NOC_TOPO_MAX_CLASSES][NOC_GRAPH_CLASS_NAME];
    int n_vclasses;
    uint64_t bytes;         /* what the topology itself allocates */
} noc_topo_shape_t;
/* 0 with *sh filled for ring, mesh, torus and hypercube SPECs that
 * noc_topo_create would build (with the same flags); -1 for other kinds
 * and for bad SPECs (noc_topo_create then says what is wrong). */
int noc_topo_size(const char *spec, unsigned flags, noc_topo_shape_t *sh);
/* The shape as the kernel's memory check takes it (noc_sim_check_shape):
 * a graph with sh's sizes and link classes (borrowed from sh), named spec
 * (borrowed), and no arrays. */
void noc_topo_shape_graph(const noc_topo_shape_t *sh, const char *spec, noc_graph_t *g);

/* The kernel's view of t (model/graph.h), owned by t: what noc_sim_create
 * and the routers take. */
const noc_graph_t *noc_topo_graph(const noc_topo_t *t);

/* Conveniences over the fields above. */
static inline int noc_topo_degree(const noc_topo_t *t, int n)
{ return t->port_base[n + 1] - t->port_base[n] - 1; }
static inline int noc_topo_gport(const noc_topo_t *t, int n, int port)
{ return t->port_base[n] + port; }
/* The route at `cur` of a packet from src to dst (ops->route, or its cached
 * result): what routers call for every head flit. */
static inline void noc_topo_route(const noc_topo_t *t, int cur, int src, int dst, noc_route_t *r)
{
    if (t->route_cache)
        *r = t->route_cache[(size_t)cur * (size_t)t->n_nodes + (size_t)dst];
    else
        t->ops->route(t, cur, src, dst, r);
}
/* Node owning global port g, and the port's index at that node. */
int noc_topo_port_node(const noc_topo_t *t, int g);
void noc_topo_label(const noc_topo_t *t, int n, char *buf, size_t len);
/* Node whose label is `label` (as printed by noc_topo_label, blanks ignored,
 * so "(1, 2)" finds "(1,2)"), or else whose number is `label` written in
 * decimal, or -1. A label wins over a number ("10" in hypercube:2 is node 2). */
int noc_topo_find_label(const noc_topo_t *t, const char *label);
/* The groups node n sits in (model/graph.h's noc_graph_groups_fn: the
 * scopes between "top" and a node's own scope in a wave file): BSN
 * "part<c>", "group<g>"; OTIS "group<g>"; meshes and tori "row<y>" (and
 * "plane<z>" above it with three or more dimensions); pyramids "level<i>",
 * "row<r>"; anything else none. Writes up to 2 names into names[] (each
 * `len` bytes) and returns how many. */
int noc_topo_node_groups(const noc_topo_t *t, int n, char names[2][32], size_t len);
/* Hops on the route from a to b (follows the routing function). */
int noc_topo_route_hops(const noc_topo_t *t, int a, int b);
/* Shortest-path distance from a to b in the graph (BFS; for tests and facts). */
int noc_topo_distance(const noc_topo_t *t, int a, int b);
/* One-line help text listing the SPEC forms understood. */
const char *noc_topo_spec_help(void);

/* For builders (the files of topologies/). noc_topo_create hands a builder a
 * zeroed topology with spec set; the builder sets ops, sizes, classes and
 * ports, using these two helpers for the port arrays (they abort on out of
 * memory). */
/* Set n_nodes and allocate port_base with port_base[0] = 0; the builder then
 * fills port_base[1 .. n_nodes] with running port totals (local ports
 * included). */
void noc_topo_alloc_nodes(noc_topo_t *t, int n_nodes);
/* From a filled port_base: set n_ports and max_degree, allocate peer (all -1)
 * and link_class (all 0). */
void noc_topo_alloc_ports(noc_topo_t *t);
/* topo_graph.c: fill t->graph from the fields above (noc_topo_create, once
 * the builder is done). */
void noc_topo_fill_graph(noc_topo_t *t);
/* grid.c: kind "ring", "mesh", "torus" or "hypercube"; arg is the SPEC text
 * after the colon (NULL when there is no colon). Returns 0, or -1 with the
 * reason in why (noc_topo_create prefixes the quoted SPEC). */
int noc_topo_build_grid(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                        char *why, size_t whylen);
/* grid.c: noc_topo_size of a grid (kind and arg as above) without building
 * it; 0, or -1 when noc_topo_build_grid would refuse it. */
int noc_topo_grid_shape(const char *kind, const char *arg, unsigned flags, noc_topo_shape_t *sh);

#ifdef __cplusplus
}
#endif
#endif
