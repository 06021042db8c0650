/* sim.h: the simulator's root object. A noc_sim_t owns everything of one
 * run but the fabric's graph (model/graph.h, borrowed from its topology):
 * the router state, channels, network interfaces, packet pool and
 * statistics. There are no globals, so several simulators (a C and
 * an RTL model, or two configurations) can live in one process.
 *
 * A cycle has two phases. In the first, every node's network interface and
 * router evaluate from the state at the start of the cycle: they read what
 * arrives on channels this cycle and write only into channel slots of later
 * cycles (every channel delays by at least one cycle) and into their own
 * state. In the second, every router commits. The order in which nodes are
 * visited therefore never changes a result. */
#ifndef NOC_SIM_H
#define NOC_SIM_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "model/config.h"
#include "model/flit.h"
#include "model/stats.h"
#include "model/traffic_if.h"
#include "model/graph.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct noc_sim noc_sim_t;

typedef enum noc_run_status {
    NOC_RUN_OK = 0,
    NOC_RUN_DEADLOCK = 3,   /* exit status of the CLI as well */
    NOC_RUN_INVARIANT = 4,  /* the invariant checker failed (a bug) */
    NOC_RUN_INTERRUPTED = 130, /* the stop flag was raised (noc_sim_set_stop) */
} noc_run_status_t;

/* A router family (model/router_if.h; routers/registry.h finds one by
 * name, and gives these functions for cfg->router's family: noc_sim_create,
 * noc_sim_estimate_bytes, noc_sim_check_memory, noc_sim_check_shape). */
struct noc_router_ops;

/* Build a simulator for cfg (copied) on the fabric graph g (borrowed: it
 * must outlive the simulator; a topology's is noc_topo_graph(t)) with
 * router family `family` (cfg->router is only its name in reports; NULL:
 * refused as an unknown router), fed by traffic (may be NULL: no packets). Returns NULL with a message in err that names
 * the parameter at fault on bad input. */
noc_sim_t *noc_sim_create_family(const noc_config_t *cfg, const struct noc_router_ops *family,
                                 const noc_graph_t *g, noc_traffic_t traffic, char *err, size_t errlen);
void noc_sim_destroy(noc_sim_t *s);
/* The bytes noc_sim_create_family would allocate for cfg on g (its router
 * family's state included; not the topology, which exists already), 0 for
 * a configuration it would refuse. noc_sim_create_family compares this with
 * the memory the run may take (util/meminfo.h) and refuses a run that does
 * not fit, unless cfg->memory_check is 0. */
uint64_t noc_sim_estimate_bytes_family(const noc_config_t *cfg, const struct noc_router_ops *family,
                                       const noc_graph_t *g);
/* The memory check alone, before anything is allocated (a program run
 * makes its program first): 0 (also under memory_check=0, or for a
 * configuration noc_sim_create_family refuses with its own message), or -1
 * with the estimate and the limit in err. */
int noc_sim_check_memory_family(const noc_config_t *cfg, const struct noc_router_ops *family,
                                const noc_graph_t *g, char *err, size_t errlen);
/* The same check from a fabric's shape before its topology is built
 * (noc_topo_size, noc_topo_shape_graph): shape has the sizes, the link
 * classes and the name (the SPEC) of a graph, and no arrays; topo_bytes is
 * what the topology itself will take. Does a simulation of it with cfg fit
 * in memory, the topology's own bytes included? A lower bound of the
 * estimate (matrix arbiters counted as round_robin). 0 (also under
 * memory_check=0, or for a configuration that will be refused with its own
 * message), or -1 with "a simulation of SPEC ... needs about X (noctua's
 * estimate), more than ..." in err. */
int noc_sim_check_shape_family(const noc_config_t *cfg, const struct noc_router_ops *family,
                               const noc_graph_t *shape, uint64_t topo_bytes, char *err, size_t errlen);

/* Synthetic run: warm-up, measurement window, drain. */
noc_run_status_t noc_sim_run(noc_sim_t *s);
/* A stop request: *flag is read once per cycle by noc_sim_run and
 * noc_pe_run, and when it is non-zero the run ends after the current cycle
 * with NOC_RUN_INTERRUPTED, its statistics covering the cycles simulated
 * (util/interrupt.c raises such a flag on Ctrl-C). NULL: none. The flag
 * must outlive the simulator. */
void noc_sim_set_stop(noc_sim_t *s, const volatile sig_atomic_t *flag);
/* A progress display: fn(s, ctx) is called after every `every` cycles of
 * noc_sim_run and noc_pe_run (every = 0 or fn NULL: never). It only reads
 * (noc_sim_where): the cycles simulated are the same with or without it. */
typedef void (*noc_progress_fn)(const noc_sim_t *s, void *ctx);
void noc_sim_set_progress(noc_sim_t *s, noc_progress_fn fn, void *ctx, uint64_t every);
/* Where a run is, for a progress display. */
typedef struct noc_where {
    uint64_t now;            /* cycles simulated */
    int phase;               /* 0 warm-up, 1 measurement window, 2 drain (a program run: 1) */
    uint64_t window_start;   /* the window's first cycle */
    uint64_t window_end;     /* its end (UINT64_MAX: a program run's, open) */
    uint64_t drain_max;      /* the drain's limit in cycles (max_drain_cycles) */
    uint64_t flits_in_network;
} noc_sim_where_t;
void noc_sim_where(const noc_sim_t *s, noc_sim_where_t *w);
/* Simulate one cycle (both phases). */
void noc_sim_step(noc_sim_t *s);
/* A program run's cycle in three parts, for a caller that adds ops to
 * the program while it runs (noc_pe_append_op; the SystemC wrapper): the
 * arrivals of every active node (ejections, credits, computations that end
 * now); then the step barrier (barrier = 1, once a cycle) and every PE's
 * evaluation, which may be called again after the program grew, starting
 * the new ops in this cycle; then every NI's injection and every router,
 * the end of the cycle and noc_sim_step_checked's checks (0, or -1 with
 * the status). The cycles are noc_sim_step's: the nodes' evaluations are
 * independent within a phase, so their order does not matter. */
void noc_sim_cycle_arrivals(noc_sim_t *s);
void noc_sim_cycle_pes(noc_sim_t *s, int barrier);
int noc_sim_cycle_finish(noc_sim_t *s, noc_run_status_t *status);
/* Simulate one cycle and check it: 0, or -1 with *status set when the
 * stop flag is up, the invariant checker (check=1) fails or the network
 * deadlocks. */
int noc_sim_step_checked(noc_sim_t *s, noc_run_status_t *status);
/* Measure from now on, with no end (what noc_pe_run sets up, for a caller
 * that steps a program run itself). */
void noc_sim_measure_all(noc_sim_t *s);
/* Stop generating synthetic traffic (the network then drains). */
void noc_sim_stop_injection(noc_sim_t *s);
/* Flits inside the network (channels, router buffers) right now. */
uint64_t noc_sim_flits_in_network(const noc_sim_t *s);

uint64_t noc_sim_now(const noc_sim_t *s);
const noc_stats_t *noc_sim_stats(const noc_sim_t *s);
/* classes > 1: each traffic class's figures (*classes of them); NULL with
 * one class. */
const noc_class_stats_t *noc_sim_class_stats(const noc_sim_t *s, int *classes);
const noc_graph_t *noc_sim_graph(const noc_sim_t *s);
const noc_config_t *noc_sim_config(const noc_sim_t *s);

/* Channels: network links are channels 0 .. n-1 in global-port order of
 * their upstream port, with the local ejection channels among them; the
 * injection channels follow. */
int noc_sim_n_channels(const noc_sim_t *s);
/* Endpoints of channel c: source and destination node, -1 for the NI side of
 * a local channel is reported as the node itself with is_local set. Any
 * of the out-pointers may be NULL (here and in noc_sim_channel_timing). */
void noc_sim_channel_ends(const noc_sim_t *s, int c, int *from, int *to, int *is_local,
                          int *link_class);
const noc_link_stats_t *noc_sim_link_stats(const noc_sim_t *s, int c);
/* Node n's figures, or NULL when the run keeps none (node_stats = 0). */
const noc_node_stats_t *noc_sim_node_stats(const noc_sim_t *s, int n);
/* Router n's averages over the measurement window (up to now while it is
 * open): flits in its input buffers, and input VCs holding at least one
 * flit. -1 (and zeros) when the run keeps no per-node figures. */
int noc_sim_router_load_avg(const noc_sim_t *s, int n, double *flits, double *vcs);
/* Timing of channel c: cycles from the upstream side's write to arrival (its
 * latency), and cycles a flit occupies it (> 1 on links narrower than a flit). */
void noc_sim_channel_timing(const noc_sim_t *s, int c, int *latency, int *cycles_per_flit);

/* What a flit waited for, in a program run's per-step tables (docs/programs.md,
 * "Waits"): every cycle a message is held back beyond the pipeline's own
 * cycles is counted once, for the resource it waited for, at one channel:
 *   NI      its send waited for the NI (other messages of its rank first):
 *           at its injection channel, counted when its first packet starts;
 *   BUFFER  its head sat in an input VC behind another packet: at the
 *           channel feeding that buffer;
 *   VC      its head waited for an output VC (all of its class held): at
 *           the output channel;
 *   SWITCH  ready to cross (output VC and credit) but not granted the
 *           switch while its output went unused (lost at its input port);
 *   LINK    its output link went to another flit this cycle, or was still
 *           sending an earlier one (a narrow link);
 *   CREDIT  no credit: the input buffer downstream (the next router's, or
 *           the router's own injection buffer for the NI) was full.
 * Waits at an ejection channel are the ejection's. */
typedef enum noc_wait_kind {
    NOC_WAIT_NI,
    NOC_WAIT_BUFFER,
    NOC_WAIT_VC,
    NOC_WAIT_SWITCH,
    NOC_WAIT_LINK,
    NOC_WAIT_CREDIT,
    NOC_WAIT_KINDS
} noc_wait_kind_t;

/* "ni", "buffer", "vc", "switch", "link", "credit". */
const char *noc_wait_kind_name(int kind);

/* Programs: the flits of step k's messages channel c carried, and the
 * cycles they waited there for resource kind (noc_wait_kind_t); 0 when
 * the tables are not kept (a run with very many steps and links). */
uint32_t noc_sim_step_flits(const noc_sim_t *s, int k, int c);
uint32_t noc_sim_step_wait(const noc_sim_t *s, int k, int c, int kind);
/* ... and for every resource together. */
uint32_t noc_sim_step_waits_all(const noc_sim_t *s, int k, int c);
int noc_sim_has_step_tables(const noc_sim_t *s);

/* The PE program engine of a program run (model/pe.h), NULL for synthetic
 * traffic: noc_pe_attach sets it up. */
struct noc_pe *noc_sim_pe(const noc_sim_t *s);

/* An observer (waves/, tests) called at the start of every cycle, before
 * any node evaluates: the channel slots of this cycle hold what arrives
 * now, the routers' and PEs' state is as the last cycle left it. It must
 * only read. NULL removes it. */
/* ---- reading a running simulator (sim_view.c): the wave recorder, the
 * SystemC wrapper and embedders use these, not the kernel's layout ---- */
/* The flit channel c delivers in cycle t (1, copied to *f) or none (0); t
 * within the channel's delay of now (the ring holds no more). */
int noc_sim_channel_flit(const noc_sim_t *s, int c, uint64_t t, noc_flit_t *f);
/* The packet in pool slot pkt (a flit's pkt), NULL outside the pool. */
const noc_packet_t *noc_sim_packet(const noc_sim_t *s, uint32_t pkt);
/* Virtual channels per port (num_vcs, or what num_vcs=0 chose). */
int noc_sim_vcs(const noc_sim_t *s);
/* The global input port channel c feeds at its far end (-1: ejection);
 * the channel feeding global input port gport (-1: none). */
int noc_sim_channel_in_port(const noc_sim_t *s, int c);
int noc_sim_port_in_channel(const noc_sim_t *s, int gport);
/* Node n has work (the kernel evaluates it this cycle); its NI makes a
 * synthetic packet now. */
int noc_sim_node_busy(const noc_sim_t *s, int n);
int noc_sim_gen_due(const noc_sim_t *s, int n);
/* Flits buffered at input VC vc of global port gport; credits held for
 * output VC vc of network port gport (the router family's figures). */
int noc_sim_router_occupancy(const noc_sim_t *s, int gport, int vc);
int noc_sim_router_credits(const noc_sim_t *s, int gport, int vc);
/* Injection lanes with input ports of their own at the router (1: none
 * beyond the local port), and the flits buffered at lane's port, VC vc. */
int noc_sim_lane_ports(const noc_sim_t *s);
int noc_sim_lane_occupancy(const noc_sim_t *s, int n, int lane, int vc);
/* The router family records signals of its own (rtl: the cores' insides):
 * trace_open records them into the FST file at path for the nodes with
 * in_scope[node] set and cycles from .. to (0, or -1 with a message);
 * trace_close ends it (0, or -1 when a write failed). */
int noc_sim_has_trace(const noc_sim_t *s);
int noc_sim_trace_open(noc_sim_t *s, const char *path, const uint8_t *in_scope, uint64_t from, uint64_t to,
                       char *err, size_t errlen);
int noc_sim_trace_close(noc_sim_t *s);

typedef void (*noc_sim_observer_fn)(const noc_sim_t *s, void *ctx);
void noc_sim_set_observer(noc_sim_t *s, noc_sim_observer_fn fn, void *ctx);

/* Invariant checker: flits and credits conserved, FIFO bounds, no flit in two
 * places. Returns 0, or -1 with the first violation described in err. */
int noc_sim_check(const noc_sim_t *s, char *err, size_t errlen);

/* The deadlock report: one line per stuck packet, written to f (a FILE *). */
void noc_sim_report_stuck(const noc_sim_t *s, void *file, int max_lines);

#ifdef __cplusplus
}
#endif
#endif
