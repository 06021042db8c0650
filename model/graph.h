/* graph.h: the fabric as the kernel sees it: routers, ports and links in
 * flat arrays, and the routing function. A topology (topologies/) builds
 * one and owns it (noc_topo_graph); the kernel, the router families and the
 * wave recorder read only this, so model/ knows no topology.
 *
 * Node n (a router) has ports 0 .. degree(n) + locals(n) - 1: ports
 * 0 .. locals(n) - 1 are its local ports (to and from its terminals' network
 * interfaces), the others network ports. Terminals (the PEs, the ends of
 * traffic) are numbered apart from routers: without term_base every router
 * has one, terminal n on router n's port 0 (and locals(n) is 1); with it,
 * router n has locals(n) of them, possibly none (BookSim2's concentration),
 * in any numbering (BookSim2's anynet files attach any node to any router),
 * and a terminal may inject at one router and eject at another (a
 * butterfly's first and last stages: term_enode, term_egport; it is then
 * listed on both routers' local ports, each used one way). Every port
 * has a global id g in [port_base[n], port_base[n+1]); the network port g
 * sends on the directed link g -> peer[g] (a global port id of the neighbour,
 * whose link back is peer[peer[g]] == g). Links come in classes (one per
 * dimension in tori, meshes and hypercubes) so that latency and reports can
 * be set and broken down per class.
 *
 * Routing is a pure function of (current router, destination terminal)
 * (and, where route_needs_src, the packet's source terminal and, where the
 * fabric's routing draws at random (route_rand), the packet's random word,
 * its salt: a header field set once at the source, so that every router on
 * the way, and a lookahead at the one before it, works out the same draw):
 * the route names the output port (at the destination's router its local port) and
 * the VC class the packet must use on that port's link. A router with V
 * virtual channels gives class c of C the VCs [c*V/C, (c+1)*V/C). On the hot
 * path routers call noc_graph_route, a load from the cached table where
 * there is one. */
#ifndef NOC_GRAPH_H
#define NOC_GRAPH_H
#include <stddef.h>
#include <stdint.h>
#include "model/flit.h"
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_GRAPH_MAX_CLASSES 32 /* link classes */
#define NOC_GRAPH_CLASS_NAME 16  /* bytes of a class name, NUL included */
/* The longest name (a topology's SPEC): room for a graph file's path of
 * PATH_MAX (4096) with the kinds around it (bsn:graph:...). */
#define NOC_GRAPH_NAME_MAX 4200

/* One routing decision. */
typedef struct noc_route {
    uint8_t port;   /* output port at the current node (< locals: eject to that terminal) */
    uint8_t vclass; /* VC class on that port's link, < n_vclasses */
} noc_route_t;

/* The route at router cur of a packet from terminal src toward terminal
 * dst (at dst's router: dst's local port); ctx is the graph's. */
typedef void (*noc_graph_route_fn)(const void *ctx, int cur, int src, int dst, noc_route_t *r);
/* The same for routing that draws: salt is the packet's random word
 * (noc_packet_t.salt), hops the network links its head has crossed (its
 * header's hop count: a route in phases, first to a node drawn from the
 * salt, knows its phase from it); a route is a fixed function of them. */
typedef void (*noc_graph_route_rand_fn)(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops,
                                        noc_route_t *r);
/* Adaptive routing (noc_graph_t.route_set): the output VCs a head may
 * take at a router, for the router's VC allocation to choose among (BookSim2's
 * OutputSet): up to NOC_ROUTE_SET_MAX candidates, each an output port, the
 * VCs [lo, hi) of that port and a priority (a higher one first in the
 * separable allocators; BookSim2's iSLIP ranks none); with `empty` set, a VC
 * of the candidate is taken only while its buffer downstream is empty (all
 * its credits back: atomic VC allocation, which Duato's escape routing
 * needs with wormhole switching). With pick set, the
 * router keeps only the candidate whose output port has the fewest flits
 * sent downstream and not yet credited back (BookSim2's GetUsedCredit), a
 * tie going by the candidates' order from the bit `pick_bit` names. With
 * pick 2 (UGAL), it keeps candidate 0 when pick_w[0] times its port's
 * used credits is at most pick_w[1] times candidate 1's plus pick_thr,
 * else candidate 1 (BookSim2's ugal_flatfly: the hops of the minimal and
 * the non-minimal way as weights, a threshold of 2). */
#define NOC_ROUTE_SET_MAX 4
typedef struct noc_route_cand {
    uint8_t port, lo, hi, pri, empty;
} noc_route_cand_t;
typedef struct noc_route_set {
    int n;
    int pick;     /* 1: the router keeps the least used candidate (of 2); 2: by UGAL's rule */
    int pick_bit; /* with pick 1: on a tie, candidate 1 when this is 1, else 0 */
    int pick_w[2], pick_thr; /* with pick 2: the weights and the threshold */
    noc_route_cand_t c[NOC_ROUTE_SET_MAX];
} noc_route_set_t;
/* Which candidate (0 or 1) a set with pick keeps, its ports having u0 and
 * u1 flits sent downstream and not credited back. */
static inline int noc_route_set_pick(const noc_route_set_t *rs, int u0, int u1)
{
    if (rs->pick == 2) /* UGAL */
        return rs->pick_w[0] * u0 > rs->pick_w[1] * u1 + rs->pick_thr;
    return u0 != u1 ? u1 < u0 : rs->pick_bit != 0;
}
/* The candidates at router cur for a head from src to dst with random word
 * salt after hops network links, on a port with V VCs, which arrived on VC
 * in_vc of a network port (-1: injected at cur, from one of its terminals).
 * A pure function of its arguments. */
typedef void (*noc_graph_route_set_fn)(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, int V,
                                       int in_vc, noc_route_set_t *rs);
/* The label of node n, in the fabric's own notation, into buf (always
 * NUL-terminated). */
typedef void (*noc_graph_label_fn)(const void *ctx, int n, char *buf, size_t len);
/* The groups node n sits in, outermost first (a BSN's part and group, a
 * mesh's row, a pyramid's level and row), as names into names[0 .. return),
 * at most 2; 0 for none. The wave hierarchy follows them. */
typedef int (*noc_graph_groups_fn)(const void *ctx, int n, char names[2][32], size_t len);
/* Hops on the route from a to b, worked out without walking it (grids,
 * whose dimension-order routes are shortest paths). */
typedef int (*noc_graph_hops_fn)(const void *ctx, int a, int b);

typedef struct noc_graph {
    const char *name;        /* the SPEC it was built from, for messages */
    int n_nodes;             /* routers */
    int n_ports;             /* total ports, local ones included */
    /* Terminals: NULL term_base (and n_terms 0): one per router, terminal n
     * on port 0 of router n. Else n_terms terminals: router n's local port i
     * leads to terminal term_list[term_base[n] + i] (term_base: n_nodes + 1
     * entries), and terminal t sits on router term_node[t], at global port
     * term_gport[t]. */
    int n_terms;
    const int *term_base;
    const int *term_list;
    const int *term_node;
    const int *term_gport;
    /* With term_base: where terminal t ejects, router term_enode[t] at
     * global (local) port term_egport[t]; NULL where every terminal ejects
     * at the port it injects at. A local port whose terminal injects
     * elsewhere is never routed to; one whose terminal ejects elsewhere
     * gets no flit from it. */
    const int *term_enode;
    const int *term_egport;
    int max_locals;          /* with term_base: the most terminals of a router */
    const int *port_base;    /* n_nodes + 1 entries */
    const int *peer;         /* per global port: peer global port, -1 for local */
    const uint8_t *link_class; /* per global port: class of its outgoing link */
    /* Per global port: the latency in cycles the fabric's definition gives
     * the link leaving it, 0 where the link takes its class latency; NULL
     * when no link has one. */
    const uint8_t *link_latency;
    int n_classes;
    const char (*class_name)[NOC_GRAPH_CLASS_NAME]; /* n_classes names */
    int n_vclasses;          /* VC classes the routing needs (>= 1) */
    int max_degree;          /* largest number of network ports of a node */
    int route_needs_src;     /* 0: route ignores src (and the salt), so a
                                router need not look the packet's header up;
                                set wherever route_rand is */
    int eject_vclass;        /* 1: a packet leaves for its terminal on a VC
                                of the route's class there (BookSim2's
                                min_dragonflynew ejects on its phase's VC);
                                0: on any VC of the local port */
    /* Hops of the longest route where the fabric knows it without a search
     * (grids), 0 where it does not (then it is small: packets count hops in
     * 16 bits, and a longer route is refused). */
    int64_t diameter;
    /* route's result for every (cur, dst), cur * terminals + dst, where the
     * routing ignores the source and the fabric is small; NULL otherwise. */
    const noc_route_t *route_cache;
    int route_stride;        /* route_cache's row: the terminals */
    noc_graph_route_fn route;
    noc_graph_route_rand_fn route_rand; /* non-NULL: used instead of route, with the salt */
    /* Non-NULL: adaptive routing, the routers choose among route_set's
     * candidates by the state of their outputs; route (and route_cache) is
     * then one of the routes it may take, of the same length (its escape
     * route: what hop counts and the families without adaptive routing
     * read, and those refuse to run it). */
    noc_graph_route_set_fn route_set;
    noc_graph_label_fn label;   /* NULL: labels are node numbers */
    noc_graph_groups_fn groups; /* NULL: no groups */
    noc_graph_hops_fn hops;     /* NULL: noc_graph_route_hops walks the route */
    const void *ctx;            /* the callbacks' first argument */
} noc_graph_t;

/* Terminals of the fabric, router n's local ports (its terminals), the
 * terminal on its local port i, terminal t's router and t's global (local)
 * port (where it injects). */
static inline int noc_graph_terms(const noc_graph_t *g)
{ return g->term_base ? g->n_terms : g->n_nodes; }
static inline int noc_graph_locals(const noc_graph_t *g, int n)
{ return g->term_base ? g->term_base[n + 1] - g->term_base[n] : 1; }
static inline int noc_graph_term_at(const noc_graph_t *g, int n, int i)
{ return g->term_base ? g->term_list[g->term_base[n] + i] : n; }
static inline int noc_graph_term_node(const noc_graph_t *g, int t)
{ return g->term_base ? g->term_node[t] : t; }
static inline int noc_graph_term_gport(const noc_graph_t *g, int t)
{ return g->term_base ? g->term_gport[t] : g->port_base[t]; }
/* Terminal t's ejection router and port (its injection ones but in a
 * butterfly). */
static inline int noc_graph_term_enode(const noc_graph_t *g, int t)
{ return g->term_enode ? g->term_enode[t] : noc_graph_term_node(g, t); }
static inline int noc_graph_term_egport(const noc_graph_t *g, int t)
{ return g->term_egport ? g->term_egport[t] : noc_graph_term_gport(g, t); }
/* 0 when local port gport of router n leads to a terminal that ejects at
 * another router (a butterfly's first stage: its ejection channel carries
 * nothing), else 1. */
static inline int noc_graph_ejects_at(const noc_graph_t *g, int n, int gport)
{ return !g->term_egport || g->term_egport[g->term_list[g->term_base[n] + gport - g->port_base[n]]] == gport; }
static inline int noc_graph_max_locals(const noc_graph_t *g)
{ return g->term_base ? g->max_locals : 1; }
/* Network ports of router n. */
static inline int noc_graph_degree(const noc_graph_t *g, int n)
{ return g->port_base[n + 1] - g->port_base[n] - noc_graph_locals(g, n); }
/* The route at cur of a packet from src to dst whose random word is salt,
 * after hops network links (both ignored unless the fabric's routing
 * draws): what the kernel calls. */
static inline void noc_graph_route(const noc_graph_t *g, int cur, int src, int dst, uint32_t salt, int hops,
                                   noc_route_t *r)
{
    if (g->route_cache)
        *r = g->route_cache[(size_t)cur * (size_t)g->route_stride + (size_t)dst];
    else if (g->route_rand)
        g->route_rand(g->ctx, cur, src, dst, salt, hops, r);
    else
        g->route(g->ctx, cur, src, dst, r);
}

/* The route at cur of packet pkt (a slot of the simulator's packet pool
 * pkts) toward dst, its head after hops network links: what routers call
 * for every head flit, reading the packet's header (its source and salt)
 * only where the routing needs it. */
static inline void noc_graph_route_pkt(const noc_graph_t *g, const noc_packet_t *pkts, uint32_t pkt, int cur, int dst,
                                       int hops, noc_route_t *r)
{
    if (g->route_needs_src)
        noc_graph_route(g, cur, pkts[pkt].src, dst, pkts[pkt].salt, hops, r);
    else
        noc_graph_route(g, cur, -1, dst, 0, 0, r);
}

/* The node owning global port gport of a port_base of n_nodes + 1 entries
 * (strictly increasing), or -1 outside [0, port_base[n_nodes]). */
int noc_port_owner(const int *port_base, int n_nodes, int gport);
/* The node owning global port gport, -1 for none. */
int noc_graph_port_node(const noc_graph_t *g, int gport);
/* Node n's label ("?n" outside the graph; its number without a label
 * function). */
void noc_graph_label(const noc_graph_t *g, int n, char *buf, size_t len);
/* Terminal t's label: its router's without concentration, else "t<number>"
 * ("?t" outside the fabric). */
void noc_graph_term_label(const noc_graph_t *g, int t, char *buf, size_t len);
/* Node n's groups (noc_graph_groups_fn), 0 without a groups function. */
int noc_graph_groups(const noc_graph_t *g, int n, char names[2][32], size_t len);
/* Hops on the route from terminal a to terminal b (follows the routing
 * function, or takes the fabric's closed form, g->hops), -1 when the route
 * does not arrive. Routing that draws: the route of salt 0 (the fabrics
 * that draw pick among routes of one length: fattree's up ports). */
int noc_graph_route_hops(const noc_graph_t *g, int a, int b);

#ifdef __cplusplus
}
#endif
#endif
