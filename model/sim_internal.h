/* sim_internal.h: the layout of noc_sim_t, for the kernel's own files and the
 * router families (the way Lua keeps lua_State in lstate.h). Everything is a
 * flat array indexed by node, global port or channel id; nothing here is
 * allocated after noc_sim_create.
 *
 * Channels. Channel c carries flits one way and credits the other, both as
 * delay lines: a ring of `cap` slots per channel (cap a power of two larger
 * than any delay), where slot (t & mask) holds what arrives in cycle t. The
 * writer of cycle t fills slot ((t + delay) & mask), delay >= 1, so a write
 * never lands on the slot read this cycle: evaluation order cannot matter.
 *   channel g  (g < n_ports): leaves global port g: a network link to
 *              peer[g], or, for a local port, the ejection channel to its
 *              terminal's NI;
 *   channel n_ports + t: the injection channel of terminal t (NI -> its
 *              local port);
 *   channel n_ports + n_terms + n*(lanes-1) + k-1: lane k's injection
 *              channel of node n (an all-port NI on a router with lane
 *              ports: it feeds the router's input port deg(n) + k; not
 *              with concentration).
 *
 * Activity. work[n] counts what could make node n do something: flits in its
 * router, flits and credits in flight toward it, packets its NI holds. Nodes
 * with work are on the active list; the others are skipped.
 *
 * The channel slots, arrival masks, serialisation state and work counts are
 * written only through model/channel.h. */
#ifndef NOC_SIM_INTERNAL_H
#define NOC_SIM_INTERNAL_H
#include <assert.h>
#include "model/flit.h"
#include "model/rng.h"
#include "model/sim.h"
#include "model/router_if.h"
#include "model/occupancy.h"
#include "model/priority.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One waiting packet in a source queue (or a reply queue). */
typedef struct noc_srcq_entry {
    uint64_t created;
    int32_t dst;
    uint16_t size;
    uint8_t type;     /* enum noc_pkt_type */
    uint8_t measured; /* reply queues: counted in st.measured_outstanding (model/read_write.c) */
} noc_srcq_entry_t;

/* use_read_write: a terminal's replies waiting to be sent, before its
 * source queue's requests (model/read_write.c); a ring of cap (a power of
 * two, 0 until the first reply) entries, grown by doubling. */
typedef struct noc_repq {
    noc_srcq_entry_t *e;
    uint32_t head, tail, cap;
} noc_repq_t;

/* Entry i (a free-running counter) of reply queue q. */
static inline noc_srcq_entry_t *noc_repq_at(const noc_repq_t *q, uint32_t i)
{
    return &q->e[i & (q->cap - 1u)];
}

/* An injection lane of an NI: the packet it is injecting, one flit a cycle. */
typedef struct noc_ni_lane {
    int32_t pkt;          /* packet pool slot, -1 if none */
    uint16_t seq;         /* next flit of it */
    uint8_t vc;           /* injection VC it uses */
    uint8_t pad;
} noc_ni_lane_t;

/* The network interface of one PE: source queue and injection state. Lane 0
 * is here; an all-port NI (ni_ports) has more in noc_sim.xlane. */
typedef struct noc_ni {
    noc_rng_t rng;        /* the node's traffic stream */
    uint64_t next_gen;    /* next generation cycle (NOC_NEVER: none) */
    uint32_t q_head, q_tail; /* free-running counters into the source queue */
    noc_ni_lane_t lane0;
    uint8_t last_vc;      /* round-robin pointer over injection VCs */
    uint8_t pe_busy;      /* programs: the PE has ops to start, a computation or sends (one work item) */
    uint8_t xbusy;        /* extra lanes holding a packet */
    uint8_t rq_busy;      /* use_read_write: replies queued (model/read_write.c) */
    uint32_t started;     /* packets it started (synthetic traffic: each packet's src_seq; the route salt's count) */
} noc_ni_t;

struct noc_sim {
    noc_config_t cfg;
    const noc_graph_t *graph;
    noc_traffic_t traffic;
    uint64_t now;
    int n_nodes, n_ports, n_chan;
    /* Terminals (NIs); conc: the graph gives them (noc_graph_terms), and a
     * router may have several or none: every NI array is per terminal,
     * while the scheduler's unit stays the router, whose turn runs its
     * terminals' NIs. Without conc terminal n is router n. */
    int n_terms, conc;
    int V;                 /* VCs per port */

    /* channels */
    uint32_t cap, mask;
    uint8_t *chan_delay;   /* flit delay of a write by the upstream side */
    /* credit delay back up each channel: inject_credit_delay on the
     * channels to and from NIs, credit_delay on the network's (plus the
     * link's latency with link_credits) */
    uint16_t *chan_cdelay;
    int32_t *chan_from;    /* node writing flits (reading credits) */
    int32_t *chan_to;      /* node reading flits (writing credits) */
    int32_t *chan_in_gport;/* input port fed at chan_to, -1 for ejection */
    uint8_t *chan_local;   /* injection or ejection channel */
    int32_t *in_chan;      /* per global port: channel feeding that input */
    /* Serialisation: a link narrower than a flit (class_width) takes
     * chan_ser[c] cycles per flit; the flit arrives chan_ser - 1 cycles after
     * its first phit, and the output port sends nothing else before
     * chan_free_at[c] (a down-counter in hardware). serialise = 0: every
     * chan_ser is 1 and the routers skip all of it. */
    uint8_t *chan_ser;
    uint64_t *chan_free_at;
    int serialise;
    noc_flit_t *ring_flit; /* n_chan * cap */
    uint8_t *ring_valid;
    uint8_t *ring_credit;  /* n_chan * cap * V (+ 8 spare bytes): credits returning per VC */
    uint32_t credit_delay;
    uint32_t inject_credit_delay; /* credits into an NI's channels (cfg, or credit_delay) */
    uint64_t credit_bytes; /* V <= 8: the bytes of a slot's V credit counters, as a word mask (0: V > 8) */
    /* Arrival masks, per node and ring slot: bit p set when a flit (a credit)
     * arrives at router port p in that cycle. Written with the channel slot,
     * so routers poll only the ports that have something. */
    int8_t *chan_in_port;  /* port index at chan_to fed by c (NOC_NI_BIT: the NI) */
    int8_t *chan_out_port; /* port index at chan_from that c leaves (NOC_NI_BIT: the NI) */
    uint64_t *arr_flit;    /* n_nodes * cap */
    uint64_t *arr_credit;  /* n_nodes * cap */
    /* the masks sends set bits in: arr_flit and arr_credit, but in a
     * thread's view (model/sim_threads.c), whose own they are then */
    uint64_t *arr_flit_to, *arr_credit_to;

    const volatile sig_atomic_t *stop; /* noc_sim_set_stop, or NULL */
    noc_progress_fn progress;          /* noc_sim_set_progress, or NULL */
    void *progress_ctx;
    uint64_t progress_every, progress_next;
    noc_sim_observer_fn observer; /* noc_sim_set_observer */
    void *observer_ctx;
    /* the PE program engine (model/pe.h); NULL for synthetic traffic */
    struct noc_pe *pe;
    /* Programs: per step and channel (step * n_chan + c), the flits of the
     * step's messages a link carried, and the cycles they waited there, one
     * table per resource (noc_wait_kind_t; NULL: not kept). */
    uint32_t *step_flits, *step_wait[NOC_WAIT_KINDS];
    /* Program runs with the tables: each packet slot's waits by resource
     * (pkt_alloc x NOC_WAIT_KINDS, grown with the pool), added to its message's totals in the PE
     * engine when the packet is delivered (model/waits.c): the slots in use
     * are few and stay in cache, where the messages' totals are many. */
    uint32_t *pkt_wait;
    int n_step_rows;

    /* routers */
    const noc_router_ops_t *rops;
    void *rstate;

    /* network interfaces */
    /* per source: terminal t's (class 0's) at t; with classes > 1 class c's
     * source of terminal t at c * n_terms + t (traffic/classes.h), each its
     * own stream, generation calendar entry, source queue, packet in
     * injection and VC pointer; the PE, lanes and replies stay class 0's */
    noc_ni_t *ni;
    int classes, n_srcs;    /* cfg.classes; n_terms * classes */
    uint8_t *last_class;    /* classes > 1: per terminal, the class that sent its last flit */
    int prio;               /* enum noc_priority (model/priority.h) */
    int64_t cls_pri[NOC_PRI_CLASSES]; /* priority = class: each class's rank */
    noc_class_stats_t *cst; /* classes > 1: per class, its share of st's figures; else NULL */
    int lanes;              /* injection lanes per NI (ni_ports; 1: one-port) */
    int lane_chans;         /* channels of the extra lanes (0: none, the router takes them directly) */
    noc_ni_lane_t *xlane;   /* lanes 1 .. lanes-1 of each NI: n_nodes * (lanes - 1) */
    /* n_srcs * srcq_cap, slot-major: entry i of source n's queue at
     * noc_srcq_at(s, n, i). A queue rewinds its counters to 0 when it
     * empties (noc_srcq_pop), so a lightly loaded run uses the first slots
     * of every queue, which sit together. */
    noc_srcq_entry_t *srcq;
    uint32_t srcq_cap;      /* a power of two: NOC_SRCQ_START, doubled when a queue fills (srcq_grow) */
    uint32_t srcq_max;      /* the power of two srcq_cap stops at: >= cfg.source_queue (unbounded: 2^31) */
    uint32_t srcq_limit;    /* cfg.source_queue (0, unbounded: UINT32_MAX) */
    int16_t *ni_credits;    /* n_terms * V: credits for the local input VCs */
    int16_t ni_free_at;     /* credits an injection VC needs to take a new packet: 1, or with
                               wait_for_tail_credit the router's whole input depth (its last
                               packet's tail credit back, as BookSim2's sources' BufferState) */
    /* use_read_write (model/read_write.c): per terminal, its replies
     * waiting (NULL without); per packet kind, the VCs [rw_lo, rw_hi) it
     * may take (NOC_PKT_ANY: all) */
    noc_repq_t *repq;
    uint8_t rw_lo[NOC_PKT_TYPES], rw_hi[NOC_PKT_TYPES];
    uint64_t next_pkt_id;

    /* Packet pool, allocated by use. Slots [0, pkt_fresh) have held a
     * packet, [pkt_fresh, pkt_cap) never have: those are free, and only
     * the first pkt_alloc slots exist (pkts and, in program runs,
     * pkt_wait). The free list is the stack of pkt_cap - pkt_fresh + pkt_free_n
     * slots: at the bottom the never used ones, pkt_cap - 1 down to
     * pkt_fresh (kept as the count, not stored), on top the pkt_free_n
     * slots given back (pkt_free) -- the same stack, in the same order, as
     * a pool made whole at the start and handing out slot 0 first
     * (noc_pkt_take, noc_pkt_give). When a packet needs slot pkt_alloc the
     * pool doubles (noc_pkt_grow), up to pkt_cap: a lightly loaded run
     * allocates as many slots as it has had packets in flight at once. */
    noc_packet_t *pkts;
    uint32_t *pkt_free;     /* pkt_alloc entries; pkt_free_n <= pkt_fresh of them in use */
    uint32_t pkt_cap;       /* the most packets a run can have in flight at once (plan) */
    uint32_t pkt_alloc;     /* slots allocated: NOC_PKT_START (or more, sim.c), doubled when full */
    uint32_t pkt_fresh;     /* slots ever taken */
    uint32_t pkt_free_n;    /* slots given back, on pkt_free */

    /* activity */
    int32_t *work;
    uint8_t *listed;
    int32_t *active;        /* n_active nodes evaluated this cycle */
    int32_t *woken;         /* nodes that got work during this cycle */
    int n_active, n_woken;

    /* Calendar of packet generation, in (time, terminal) order: terminal n
     * is due in cycle ni[n].next_gen. Terminals due within NOC_WHEEL cycles
     * are bits in a timing wheel (slot t % NOC_WHEEL: a set over the
     * terminals, wheel_words words), the others wait in a binary min-heap of
     * (time, terminal) and move into the wheel as their time comes near. */
    uint64_t *wheel;
    int wheel_words;
    uint64_t *heap_t;
    int32_t *heap_n;
    int heap_size;
    int injecting;          /* 0 once injection stopped */

    /* statistics */
    noc_stats_t st;
    noc_link_stats_t *lst;  /* per channel */
    noc_node_stats_t *nst;  /* per terminal, with node_stats = 1; else NULL */
    noc_occ_t *occ;         /* per router, with node_stats = 1; else NULL (model/occupancy.h) */
    struct noc_energy_table *energy; /* noc_sim_set_energy's copy, or NULL (model/energy.h) */
    uint64_t occ_open, occ_shut; /* the window's ends for occ (occ_shut NOC_NEVER: still open) */
    int phase;              /* NOC_PHASE_* */
    int measuring;          /* phase == NOC_PHASE_SAMPLE */
    uint64_t win_start, win_end; /* packets created in [start, end) are measured */
    /* BookSim2's warm-up figures (model/sample.c, with max_samples): every
     * flit and packet delivered while warm_track is set */
    int warm_track;
    uint64_t warm_flits_out, warm_lat_n, warm_lat_sum;
    uint64_t in_network;    /* flits in channels and router buffers */
    uint64_t last_move;     /* last cycle a flit moved */
    int shuffle;            /* tests: visit nodes in a random order */
    noc_rng_t shuffle_rng;

    /* threads > 1 (model/sim_threads.c): the run's worker threads, NULL
     * with one. Each thread evaluates its part of the nodes through a view,
     * a copy of this struct sharing the channels and routers, with its own
     * work counts, listed flags and arrival masks to write (work, listed,
     * arr_flit_to, arr_credit_to), active and woken lists, packet slots,
     * statistics and, in hist_log, the latency bins of the measured
     * packets it delivered (NULL: straight into st.lat_hist), all added
     * into the run after the cycle in part order. */
    struct noc_threads *thr;
    /* mpirun -n R, R > 1 (model/sim_ranks.c): this rank's part and its
     * cut channels; NULL in a one-process run */
    struct noc_ranks *rk;
    /* sim_type = batch: the batches' state (model/batch.h); NULL otherwise */
    struct noc_batch *batch;
    uint32_t *hist_log;
    uint32_t hist_log_n;
    /* node_stats in a thread's view: the measured packets it delivered as
     * (source, latency), whose source's figures the run adds after the
     * cycle (the source may be another part's); NULL otherwise */
    struct noc_src_lat *src_log;
};

typedef struct noc_src_lat {
    uint64_t lat;
    int32_t src;
} noc_src_lat_t;

/* Source n (terminal n; with classes > 1, a class's source of a terminal,
 * noc_sim.ni) makes a packet (traffic ops' make) and queues it, created at `created`: 1, or 0 when it made none (no destination, a
 * packet to itself without self_traffic, a full source queue: lost). */
int noc_sim_offer(struct noc_sim *s, int n, uint64_t created);

/* The NI holds no packet (none in its source queue, none being injected,
 * none its PE wants to send). */
static inline int noc_ni_idle(const noc_ni_t *ni)
{
    return ni->lane0.pkt < 0 && !ni->xbusy && ni->q_head == ni->q_tail && !ni->pe_busy && !ni->rq_busy;
}

/* Entry i (a free-running counter) of source n's queue (terminal n's
 * with one class). */
static inline noc_srcq_entry_t *noc_srcq_at(const struct noc_sim *s, int n, uint32_t i)
{
    return &s->srcq[(size_t)(i & (s->srcq_cap - 1u)) * (size_t)s->n_srcs + (size_t)n];
}

/* The terminal of source n. */
static inline int noc_src_term(const struct noc_sim *s, int n)
{
    return n < s->n_terms ? n : n % s->n_terms;
}
/* Drop the head of NI ni's source queue (not empty); an emptied queue
 * starts again from slot 0. */
static inline void noc_srcq_pop(noc_ni_t *ni)
{
    if (++ni->q_head == ni->q_tail)
        ni->q_head = ni->q_tail = 0;
}

/* The pool's next packet needs slot pkt_alloc: pkts (and pkt_wait) double,
 * up to pkt_cap, the slots in use copied (model/sim.c). The only
 * allocation in the cycle loop besides the source queues' (srcq_grow):
 * amortised over the packets that filled the pool, and never in a run that
 * stays below NOC_PKT_START packets in flight. With threads, only between
 * cycles (the views get their slots in advance: model/sim_threads.c). */
void noc_pkt_grow(struct noc_sim *s);

/* Free slots: the never used ones and those given back. */
static inline uint32_t noc_pkt_free_count(const struct noc_sim *s)
{
    return s->pkt_cap - s->pkt_fresh + s->pkt_free_n;
}
/* Entry i of the free list from its bottom (i < noc_pkt_free_count): a
 * free slot. */
static inline uint32_t noc_pkt_free_at(const struct noc_sim *s, uint32_t i)
{
    uint32_t never = s->pkt_cap - s->pkt_fresh;
    return i < never ? s->pkt_cap - 1u - i : s->pkt_free[i - never];
}
/* Pop the free list's top: the slot a new packet takes. */
static inline uint32_t noc_pkt_take(struct noc_sim *s)
{
    if (s->pkt_free_n > 0)
        return s->pkt_free[--s->pkt_free_n];
    assert(s->pkt_fresh < s->pkt_cap);
    if (s->pkt_fresh == s->pkt_alloc)
        noc_pkt_grow(s);
    return s->pkt_fresh++;
}
/* Push slot (taken before) onto the free list. */
static inline void noc_pkt_give(struct noc_sim *s, uint32_t slot)
{
    assert(slot < s->pkt_fresh && s->pkt_free_n < s->pkt_fresh);
    s->pkt_free[s->pkt_free_n++] = slot;
}

/* For tests: from now on visit the active nodes in a new random order every
 * cycle. Results must not change (the two-phase contract). */
void noc_sim_debug_shuffle(struct noc_sim *s, uint64_t seed);
/* For tests: the packet pool's allocated slots set to `slots` (at least
 * the slots used so far, at most pkt_cap), between cycles; it grows from
 * there as usual. */
void noc_sim_debug_pool(struct noc_sim *s, uint32_t slots);

enum { NOC_PHASE_WARMUP, NOC_PHASE_SAMPLE, NOC_PHASE_DRAIN };

/* The longest link latency (link_latency, class_latency): a channel's delay
 * is a uint8_t, and the vc router adds its switch and crossbar stages (at
 * most 32 cycles) to it in one. */
#define NOC_MAX_LINK_LATENCY 200
#define NOC_SRCQ_START 4 /* source queue slots a terminal starts with (a power of two) */
#define NOC_PKT_START 1024 /* packet pool slots a run starts with (sim.c: more with threads) */
#define NOC_WHEEL 64 /* slots of the generation calendar's wheel (a power of two) */

/* Bit of the arrival masks that stands for the node's NI (a flit on the
 * ejection channel, a credit on the injection channel); router ports use
 * bits 0 .. 62, so a router has at most 63 ports. */
#define NOC_NI_BIT 63
#define NOC_NI_MASK (UINT64_C(1) << NOC_NI_BIT)
/* Router ports NOC_PORT_SPILL and above share that arrival bit: a router
 * that takes more ports than the bits (the ideal router) looks at each of
 * them when it is set; the others refuse such nodes. */
#define NOC_PORT_SPILL 62

/* The injection channel of lane k (0 .. lanes-1) of terminal n's NI, and
 * the first of that lane's credit counters (V of them). (Lanes k > 0 only
 * without concentration, where terminal n is node n.) */
static inline int noc_lane_chan(const struct noc_sim *s, int n, int k)
{
    return k == 0 ? s->n_ports + n : s->n_ports + s->n_terms + n * (s->lanes - 1) + k - 1;
}
/* Terminal t's router; the terminal on node n's local port i, and their
 * count. */
static inline int noc_term_node(const struct noc_sim *s, int t)
{
    return noc_graph_term_node(s->graph, t);
}
static inline int noc_node_term(const struct noc_sim *s, int n, int i)
{
    return noc_graph_term_at(s->graph, n, i);
}
static inline int noc_node_terms(const struct noc_sim *s, int n)
{
    return noc_graph_locals(s->graph, n);
}
static inline int16_t *noc_lane_credits(const struct noc_sim *s, int n, int k)
{
    int per = s->lane_chans ? s->lanes : 1;
    return &s->ni_credits[((size_t)n * (size_t)per + (size_t)(s->lane_chans ? k : 0)) * (size_t)s->V];
}

/* Programs, while the per-step tables are kept (s->step_flits): step
 * `step`'s message msg (its send op) waited n cycles for resource kind
 * (noc_wait_kind_t) at channel c (model/waits.c). */
/* The per-step table's part of a wait: 0 when the run keeps no tables. */
static inline int noc_wait_table_add(struct noc_sim *s, int kind, int step, int c, uint32_t n)
{
    assert(kind >= 0 && kind < NOC_WAIT_KINDS && c >= 0 && c < s->n_chan);
    if (!s->step_wait[kind])
        return 0;
    s->step_wait[kind][(size_t)step * (size_t)s->n_chan + (size_t)c] += n;
    return 1;
}
void noc_wait_add(struct noc_sim *s, int kind, int step, uint32_t msg, int c, uint32_t n);
/* Only message msg's own totals (the PE engine's). */
void noc_wait_add_msg(struct noc_sim *s, int kind, uint32_t msg, uint32_t n);
/* The same for the message of packet pkt. */
static inline void noc_wait_pkt(struct noc_sim *s, int kind, uint32_t pkt, int c, uint32_t n)
{
    const noc_packet_t *p = &s->pkts[pkt];
    if (!noc_wait_table_add(s, kind, p->step, c, n))
        return;
    if (s->pkt_wait)
        s->pkt_wait[(size_t)pkt * NOC_WAIT_KINDS + (size_t)kind] += n;
    else
        noc_wait_add_msg(s, kind, p->msg, n);
}
/* Packet pkt's waits onto its message's totals (at its delivery), and
 * every packet's still in flight (at the end of a run). */
void noc_wait_flush_pkt(struct noc_sim *s, uint32_t pkt);
void noc_wait_flush_all(struct noc_sim *s);

/* Flit f of packet p is being delivered during a sampled warm-up
 * (model/sample.c): count it, and the packet's latency at its tail. */
static inline void noc_warm_count(struct noc_sim *s, const noc_packet_t *p)
{
    s->warm_flits_out++;
    if (s->cst)
        s->cst[p->cls].warm_flits_out++;
    if (p->received + 1 == p->size) {
        s->warm_lat_n++;
        s->warm_lat_sum += s->now - p->created;
        if (s->cst) {
            s->cst[p->cls].warm_lat_n++;
            s->cst[p->cls].warm_lat_sum += s->now - p->created;
        }
    }
}

/* The flits the network links carried in the window (the local channels'
 * not counted): st.flit_hops, set from the per-channel counters when a run
 * ends (noc_sim_run, noc_pe_run) rather than counted flit by flit. */
static inline uint64_t noc_stats_link_flits(const struct noc_sim *s)
{
    uint64_t n = 0;
    for (int c = 0; c < s->n_ports; c++)
        n += s->chan_local[c] ? 0 : s->lst[c].flits;
    return n;
}

/* Count statistics now? (inside the measurement window) */
static inline int noc_measuring(const struct noc_sim *s)
{
    return s->measuring;
}

/* sim_check.c: the parameters' ranges (0, or -1 with err), and each link
 * class's latency and serialisation into lat and ser (n_classes entries). */
int noc_sim_check_config(const noc_config_t *c, char *err, size_t errlen);
int noc_sim_class_timing(const noc_config_t *cfg, const noc_graph_t *gr, int *lat, int *ser, char *err,
                         size_t errlen);
/* Each link class's width in bits (link_width or class_width; flit_width
 * where neither gives one) into width (n_classes entries): 0, or -1 with err. */
int noc_sim_class_widths(const noc_config_t *cfg, const noc_graph_t *gr, int *width, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
