/* topo.h: a fabric as a graph of routers, with a PE on every router.
 *
 * noc_topo_t is opaque: its struct is topologies/' own (topo_internal.h).
 * The simulator and the routers read a topology's graph (noc_topo_graph,
 * model/graph.h: flat arrays and the routing function); everyone else
 * (program generators, drawings, reports, tests) the functions below.
 *
 * Node n has ports 0 .. degree(n): port 0 is the local port (to and from the
 * PE's network interface), ports 1 .. degree(n) are network ports. Every port
 * has a global id g (noc_topo_gport(t, n, port)); the network port g sends
 * on the directed link g -> peer(g) (a global port id of the neighbour,
 * whose link back is peer(peer(g)) == g). Links come in classes (one per
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

/* The longest SPEC (model/graph.h: a path of PATH_MAX with kinds around it). */
#define NOC_TOPO_SPEC_MAX NOC_GRAPH_NAME_MAX

/* Fabrics of at most this many nodes whose routing ignores the source keep
 * the route of every (node, destination) in a table (the graph's route_cache). */
#define NOC_TOPO_ROUTE_CACHE_NODES 256

/* Build the topology named by spec. Returns NULL and writes a message that
 * names the SPEC and what is wrong with it into err on bad input. `flags`
 * (NOC_TOPO_F_*) select variants used by tests. The caller owns the result. */
#define NOC_TOPO_F_NO_DATELINE 1u /* tori without dateline classes: NOT
                                     deadlock-free, kept to test the detector */
#define NOC_TOPO_F_WRAP_CLASS 2u  /* tori: BookSim2's dim_order_torus classes
                                     (grid.c: class 1 for the whole dimension
                                     whose path wraps, else 0) */
#define NOC_TOPO_F_XY_YX 4u       /* meshes: dimension order lowest first or
                                     highest first, drawn per packet, a VC
                                     class each (BookSim2's xy_yx_mesh) */
#define NOC_TOPO_F_VALIANT 8u      /* meshes: to a node drawn per packet, then
                                     on, each phase in dimension order on its
                                     VC class (BookSim2's valiant_mesh) */
#define NOC_TOPO_F_ROMM 16u        /* meshes: the same through a node drawn in
                                     the source's and destination's box
                                     (BookSim2's romm_mesh: minimal) */
#define NOC_TOPO_F_MIN_ADAPT 32u   /* meshes: minimal adaptive, escape VC 0 in
                                     dimension order (BookSim2's min_adapt_mesh) */
#define NOC_TOPO_F_ADAPT_XY_YX 64u /* meshes: xy or yx chosen at the source's
                                     router by its outputs' load (BookSim2's
                                     adaptive_xy_yx_mesh) */
#define NOC_TOPO_F_PLANAR_BS 256u  /* meshes: planar_adapt as BookSim2 runs it
                                     (dimension order on the upper third of
                                     the VCs: its route set keeps the first
                                     of two equal-priority entries) */
#define NOC_TOPO_F_MIN_ADAPT_BS 128u /* meshes: min_adapt as BookSim2 runs it
                                     (its route set keeps one candidate per
                                     priority: the adaptive VCs on the
                                     dimension-order port only) */
#define NOC_TOPO_F_BAL_CLASS 1024u /* tori: BookSim2's dim_order_bal_torus
                                     classes (Cray's partition: class 1 for a
                                     dimension whose path wraps, 0 for one
                                     crossing the middle, else drawn) */
#define NOC_TOPO_F_ANCA 512u     /* fattree: BookSim2's anca, the less used
                                     of two up ports drawn; tree4: anca as
                                     BookSim2 runs it (the first up port: its
                                     route set keeps the first of equal-priority
                                     entries) */
#define NOC_TOPO_F_UGAL 2048u     /* flatfly: BookSim2's ugal_flatfly, minimal
                                     or through a router drawn, chosen at the
                                     source's router by UGAL's rule */
#define NOC_TOPO_F_UGAL_XY_YX 4096u /* flatfly: the same, each way in an order
                                     drawn per packet (ugal_xyyx_flatfly) */
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

/* What t is made of, for the program generators, drawings, reports and
 * tests: plain functions (the struct is topologies/' own), off the hot path,
 * where the simulator and the routers read noc_topo_graph's arrays. */
const char *noc_topo_kind(const noc_topo_t *t);  /* "mesh", "torus", "bsn", ... */
const char *noc_topo_spec(const noc_topo_t *t);  /* the SPEC it was built from */
int noc_topo_nodes(const noc_topo_t *t);
int noc_topo_ports(const noc_topo_t *t);         /* all of them, local ones included */
int noc_topo_degree(const noc_topo_t *t, int n); /* network ports of node n */
/* Terminals (the ends of traffic): as many as nodes, terminal n on node
 * n's port 0, but in fabrics with concentration (BookSim2's anynet files
 * with several nodes on a router or none), where node n (a router) has
 * noc_topo_locals(t, n) of them on its first ports (model/graph.h). */
int noc_topo_terminals(const noc_topo_t *t);
int noc_topo_locals(const noc_topo_t *t, int n);
/* 1 when t's terminals are numbered apart from its nodes (the case above). */
int noc_topo_concentrated(const noc_topo_t *t);
/* The terminal a label names: noc_topo_find_label's node without
 * concentration; with it, terminal N written "N" or "tN"; -1 for none. */
int noc_topo_find_terminal(const noc_topo_t *t, const char *label);
int noc_topo_max_degree(const noc_topo_t *t);    /* the largest degree */
/* Global id of port `port` of node n (port 0 the local one). */
int noc_topo_gport(const noc_topo_t *t, int n, int port);
/* The global port at the other end of global port g's link (-1: g is local). */
int noc_topo_peer(const noc_topo_t *t, int g);
/* Link classes: the class of the link leaving global port g, their count,
 * their names ("dim0", "group", "swap", ...). */
int noc_topo_link_class(const noc_topo_t *t, int g);
int noc_topo_classes(const noc_topo_t *t);
const char *noc_topo_class_name(const noc_topo_t *t, int c);
/* VC classes the routing needs (>= 1). */
int noc_topo_vclasses(const noc_topo_t *t);
/* Grids (ring, mesh, torus, hypercube): dimensions (0 for other fabrics),
 * the size k and stride of dimension d (coordinate d of node n is
 * (n / stride) % k, dimension 0 varying fastest), and whether they wrap
 * around (rings and tori). */
int noc_topo_dims(const noc_topo_t *t);
int noc_topo_k(const noc_topo_t *t, int d);
int noc_topo_stride(const noc_topo_t *t, int d);
int noc_topo_wrap(const noc_topo_t *t);
/* Coordinate d of node n of a grid: (n / stride) % k of dimension d. */
int noc_topo_coord(const noc_topo_t *t, int n, int d);
/* BSN and OTIS: the basis network Ω (owned by t), NULL for other fabrics;
 * BSN node <g,p,c> is c*n*n + g*n + p and OTIS node (g,p) is g*n + p (n =
 * |Ω|). */
const noc_topo_t *noc_topo_basis(const noc_topo_t *t);
/* Pyramid and multilevel: levels (0 for other fabrics), the side of level
 * i's mesh, and the number of node (i,0,0), level 0 the base (i = levels:
 * the number of nodes); node (i,r,c) is level_first(i) + r*level_side(i) + c. */
int noc_topo_levels(const noc_topo_t *t);
int noc_topo_level_side(const noc_topo_t *t, int i);
int noc_topo_level_first(const noc_topo_t *t, int i);
/* Drawing coordinates (x, y) of node n at [2n], [2n+1], y growing
 * downward, in the layout the papers draw; NULL when the fabric has none (a
 * drawing then falls back to a generic layout). */
const float *noc_topo_pos(const noc_topo_t *t);
/* The route at `cur` of a packet from src to dst (noc_graph_route on t's
 * graph). */
void noc_topo_route(const noc_topo_t *t, int cur, int src, int dst, noc_route_t *r);
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

#ifdef __cplusplus
}
#endif
#endif
