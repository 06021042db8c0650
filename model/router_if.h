/* router_if.h: the small interface behind which router microarchitectures
 * (routers/: vc, ideal, rtl) plug into the kernel, in the manner of SQLite's
 * sqlite3_io_methods: a const table of functions, one per family, that works
 * on the state of all routers of a fabric at once (flat arrays, owned by the
 * family and hung on noc_sim_t.rstate).
 *
 * Contract of eval(sim, node): read the node's input channels at slot `now`
 * (flits and credits that arrive this cycle), update the node's own router
 * state, and write flits and credits into channel slots of later cycles with
 * the channel module (channel.h). Never read or write another node's state.
 *
 * The kernel knows no family by name: the caller hands it the one it chose
 * (noc_sim_create_family); routers/registry.h finds a family by name. */
#ifndef NOC_ROUTER_IF_H
#define NOC_ROUTER_IF_H
#include <stddef.h>
#include <stdint.h>
#include "model/flit.h"
#ifdef __cplusplus
extern "C" {
#endif

struct noc_sim;

typedef void (*noc_flit_visit_fn)(void *ctx, const noc_flit_t *f, int gport, int vc);

typedef struct noc_router_ops {
    const char *name;
    const char *help;
    /* Allocate state for every router of sim's topology; check the parameters
     * that concern this family. Returns 0, or -1 with a message in err. */
    int (*create)(struct noc_sim *s, char *err, size_t errlen);
    /* The bytes create will allocate, for the sizes the kernel has planned on
     * s (cfg, topo, V, lanes, lane_chans, n_chan, cap; nothing allocated
     * yet): the memory estimate of a run (noc_sim_estimate_bytes). */
    uint64_t (*bytes)(const struct noc_sim *s);
    void (*destroy)(struct noc_sim *s);
    void (*eval)(struct noc_sim *s, int node);
    /* Optional: eval for each of nodes[0 .. count) (one call a cycle; the
     * kernel then runs every node's NI before any router, which the
     * two-phase contract allows for families without pre_eval or a direct
     * NI). */
    void (*eval_all)(struct noc_sim *s, const int32_t *nodes, int count);
    /* Optional: evaluated before the node's NI in the same cycle (the ideal
     * router hands arriving flits to its PE here). */
    void (*pre_eval)(struct noc_sim *s, int node);
    /* 1: the PE is wired straight to the router: the injection channel has
     * no delay (the router takes the NI's flit in the cycle it was sent). */
    int direct_ni;
    /* 1: the family models routers with several terminals or none (a graph
     * with term_base, model/graph.h); the others are refused such fabrics. */
    int terminals;
    /* 1: the family models credits on its ejection ports (eject_credit_delay);
     * the others are refused it. */
    int eject_credits;
    /* 1: the family gives each packet kind its own VCs (use_read_write:
     * noc_sim.rw_lo/rw_hi, model/read_write.c); the others are refused it. */
    int packet_kinds;
    void (*commit)(struct noc_sim *s, int node); /* may be NULL */
    /* Optional (direct_ni routers): take flit f from node's NI now, for an
     * NI with several injection lanes (ni_ports); the router counts it as
     * the node's work. */
    void (*inject)(struct noc_sim *s, int node, const noc_flit_t *f);
    /* 1: an all-port NI's extra lanes come in on channels of their own, to
     * input ports deg(node) + 1 .. deg(node) + lanes - 1 of the router. */
    int lane_ports;
    /* With lane_ports: flits buffered at lane k's input port, VC vc. */
    int (*lane_occupancy)(const struct noc_sim *s, int node, int lane, int vc);
    /* Credits the router holds for output VC vc of network port gport. */
    int (*credits)(const struct noc_sim *s, int gport, int vc);
    /* Flits buffered at input VC vc of port gport. */
    int (*occupancy)(const struct noc_sim *s, int gport, int vc);
    /* Capacity of one input VC buffer (what full credits amount to). */
    int (*depth)(const struct noc_sim *s);
    /* Visit every flit buffered in the node's router. */
    void (*visit)(const struct noc_sim *s, int node, noc_flit_visit_fn fn, void *ctx);
    /* Optional: a program run keeps its per-step tables (model/waits.c):
     * allocate what the family needs to attribute waits (the vc router:
     * each buffered flit's arrival cycle). Called once, before the first
     * cycle. */
    void (*waits_on)(struct noc_sim *s);
    /* Optional, for families with signals of their own (rtl: the Verilated
     * cores' insides): record them, for the nodes with in_scope[node] set
     * and the cycles from .. to, into the wave file at path (FST, time in
     * cycles as in waves/). Called by waves/ before the first cycle;
     * trace_close when the recording ends. 0, or -1 with a message. */
    int (*trace_open)(struct noc_sim *s, const char *path, const uint8_t *in_scope, uint64_t from, uint64_t to,
                      char *err, size_t errlen);
    int (*trace_close)(struct noc_sim *s); /* 0, or -1 when a write of the file failed */
    /* Optional: units of work node's router holds besides its buffered flits
     * (visit's; the vc router's credit messages waiting with internal
     * speedup), for the invariant checker. */
    int (*held_work)(const struct noc_sim *s, int node);
    /* Optional: why this run's routers cannot run a program (NULL: they can). */
    const char *(*programs_refused)(const struct noc_sim *s);
    /* Optional: a copy of the family's state (s->rstate) for one more
     * thread evaluating a part of the fabric (threads > 1, model/sim_threads.c):
     * the routers' registers shared, the scratch of a node's evaluation its
     * own; freed by thread_state_free. NULL: the family runs on one thread. */
    /* Optional (rtl: rtl_toggles=1): the bit toggles of node's core's
     * flip-flops over the counted cycles (docs/energy.md, "Activity from
     * the RTL"); NULL: the family has no flip-flops to count. */
    uint64_t (*toggles)(const struct noc_sim *s, int node);
    void *(*thread_state)(const struct noc_sim *s);
    void (*thread_state_free)(void *state);
} noc_router_ops_t;

/* The VCs of a port are split among the routing's VC classes (every router
 * family alike): class c of C classes owns VCs [c*V/C, (c+1)*V/C). */
static inline void noc_vc_class_range(int V, int C, int c, int *lo, int *hi)
{
    *lo = c * V / C;
    *hi = (c + 1) * V / C;
}

#ifdef __cplusplus
}
#endif
#endif
