/* topo_internal.h: the inside of a topology, for the files of topologies/
 * (the builders, the queries) and the topology unit tests
 * (testbench/unit/topologies/) alone: everyone else reads a topology
 * through topo.h's functions, and the simulator through its graph
 * (noc_topo_graph). tools/check_layers.sh fails when another folder
 * includes this. */
#ifndef NOC_TOPO_INTERNAL_H
#define NOC_TOPO_INTERNAL_H
#include "topologies/topo.h"
#ifdef __cplusplus
extern "C" {
#endif

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

struct noc_topo {
    const noc_topo_ops_t *ops;
    char *spec;           /* the SPEC it was built from (owned; at most NOC_TOPO_SPEC_MAX characters) */
    int n_nodes;          /* routers */
    int n_ports;          /* total ports, local ones included */
    int *port_base;       /* n_nodes + 1 entries */
    /* Terminals apart from routers (model/graph.h; noc_topo_set_terminals):
     * NULL term_base for one terminal on port 0 of every router. */
    int n_terms, max_locals;
    int *term_base, *term_list, *term_node, *term_gport;
    int *term_enode, *term_egport; /* NULL but where terminals eject elsewhere (a butterfly) */
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
    int dateline;         /* 1: wraparound links use dateline VC classes;
                             2: BookSim2's (NOC_TOPO_F_WRAP_CLASS) */
    int eject_vclass;     /* model/graph.h's: the route's class holds on ejection too */
    int route_needs_src;  /* 0: route() ignores its src argument, so a router
                             need not look the packet's source up */
    /* NULL, or routing that draws: the route as a function of the packet's
     * random word too (ops->route is then its draw for salt 0; the builder
     * leaves route_needs_src set so that the routers read the header). */
    noc_graph_route_rand_fn route_rand;
    /* NULL, or adaptive routing (grid_adapt.c): the candidates the routers
     * choose among (ops->route is then the escape route). */
    noc_graph_route_set_fn route_set;
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
     * otherwise. Read through noc_graph_route (the graph's route_cache). */
    noc_route_t *route_cache;
    /* Structure the program generators (traffic/gen_*.c) build on
     * (noc_topo_basis, noc_topo_levels, ...): BSN and OTIS: their basis Ω (owned by priv), NULL elsewhere; BSN node
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
/* Terminals apart from routers: router v has locals[v] local ports (its
 * first ports), port i to terminal list[sum of locals before v + i];
 * n_terms terminals in all, each on exactly one router. Call after
 * port_base is filled (noc_topo_alloc_ports); takes copies. */
void noc_topo_set_terminals(noc_topo_t *t, int n_terms, const int *locals, const int *list);
/* The same where a terminal may inject at one router and eject at another:
 * way[k] says how list[k]'s local port is used, NOC_TOPO_INJECT,
 * NOC_TOPO_EJECT or both (way NULL: both everywhere); every terminal gets
 * one port of each way. */
#define NOC_TOPO_INJECT 1
#define NOC_TOPO_EJECT 2
void noc_topo_set_terminals_ways(noc_topo_t *t, int n_terms, const int *locals, const int *list,
                                 const uint8_t *way);
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
/* Grids: hops of the dimension-order route from a to b, dimension by
 * dimension: the distance of the coordinates on a mesh line, the shorter
 * way round a ring or torus (the way the routing takes; at a tie both ways
 * are k/2). The routes are shortest paths, so this is the walk's count
 * (test_topo.c, test_grid_hops_walk, checks it against walking every
 * route); the graph's hops, and the first leg of valiant and romm. */
int noc_topo_grid_hops(const noc_topo_t *t, int a, int b);
/* grid_adapt.c: a mesh's adaptive routing as flags (NOC_TOPO_F_MIN_ADAPT,
 * NOC_TOPO_F_ADAPT_XY_YX) ask: sets t->route_set; 0, or -1 with the reason
 * in why. */
int noc_topo_grid_adapt(noc_topo_t *t, unsigned flags, char *why, size_t whylen);
int noc_topo_grid_shape(const char *kind, const char *arg, unsigned flags, noc_topo_shape_t *sh);

#ifdef __cplusplus
}
#endif
#endif
