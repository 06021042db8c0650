/* vc.h: state of the input-queued virtual-channel wormhole routers of a
 * fabric (routers/vc), as flat arrays over input VCs, ports and nodes. Input
 * VC i = gport * V + v, output VC o = gport * V + v; within a node, the local
 * index of input VC v of port p is l = p * V + v.
 *
 * Pipeline (docs/router.md): a head flit that reaches the front of its input
 * VC in cycle a is routed in cycles a .. a+R-1 (R = routing_delay; lookahead
 * routing: R = 0), bids for an output VC from cycle a+R on; granted in cycle
 * c, it bids for the switch from cycle c+VA (VA = vc_alloc_delay); granted in
 * cycle s (with a credit for its output VC), it leaves the buffer, its credit
 * goes upstream, and it arrives at the next router in cycle
 * s + sw_alloc_delay + st_final_delay + link latency. Body flits bid for the
 * switch from the cycle they reach the front.
 *
 * The waits of R and VA cycles are kept as timed sets (wake_va, wake_sw)
 * rather than per-VC counters, so that a stage looks only at the VCs that
 * may act in this very cycle.
 *
 * Input speedup S (input_speedup): the switch has S inputs per input port,
 * switch input e = p * S + v % S taking input VC v of port p (BookSim2's
 * expanded inputs, iq_router.cpp), so up to S VCs of a port cross in one
 * cycle, to different output ports. The switch allocator matches the P * S
 * switch inputs to the P output ports, and each switch input has its own VC
 * arbiter (and, with hold_switch_for_packet, its own hold). S = 1: a switch
 * input is its port.
 *
 * Internal and output speedup (internal_speedup, output_speedup): the
 * stages run once per internal step, several a cycle, and the crossbar
 * feeds an output queue per output port (vc_speedup.c, an instance of its
 * own; the others have neither).
 *
 * Layout for speed: what one node's evaluation touches sits together, in one
 * block per node (vc_node_t): its sets, its input VCs' registers, its credits,
 * its ports (registers and the wiring of their channels) and its allocators
 * with their arbiters' round-robin pointers, a few cache lines in all. The
 * FIFO slots are apart, slot-major over the fabric. The stages, one header
 * per box, are inlined into one evaluation per node (vc_router.c). */
#ifndef NOC_VC_H
#define NOC_VC_H
#include "model/alloc.h"
#include "model/fifo.h"
#include "model/channel.h"

enum { VC_IDLE, VC_VA, VC_ACTIVE };

/* The registers of one input VC, together in 8 bytes. */
typedef struct vc_ivc {
    uint16_t head, tail;/* FIFO counters (fifo.h; rewound to 0 when it empties) */
    uint8_t state;      /* VC_* */
    uint8_t rport;      /* route: output port */
    uint8_t rclass;     /* route: VC class */
    uint8_t out_vc;     /* granted output VC (index within port rport) */
} vc_ivc_t;

/* One port of a node: its registers as an input and as an output port, and
 * the wiring of the channels at both ends, read by the stages instead of the
 * kernel's per-channel arrays. */
typedef struct vc_port {
    uint64_t ovc_free;  /* output: mask of its free output VCs */
    uint64_t ovc_tail;  /* output, wait_for_tail_credit: VCs whose tail left, free when all their credits are back */
    int32_t to;         /* output: node its channel leads to (self for ejection) */
    uint8_t delay;      /* output: cycles from crossing the switch to arrival */
    uint8_t to_bit;     /* output: arrival-mask bit at `to` (NOC_NI_BIT: the NI) */
    uint8_t up_bit;     /* input: arrival-mask bit of its credits at up_node */
    int32_t occ;        /* input: flits buffered at this input port */
    int32_t up_chan;    /* input: channel feeding it */
    int32_t up_node;    /* input: node at the other end of up_chan */
    int32_t peak;       /* input: copy of its channel's peak_queue statistic */
} vc_port_t;

/* One node's router: everything its evaluation reads and writes but the
 * FIFO slots sits in one block (a fixed number of bytes per node, on cache
 * line boundaries): this header, then its sets, its input VCs' registers,
 * its output VCs' credits, its ports, and its allocators, each allocator's
 * arbiter state right after it. The header says where each part is. */
typedef struct vc_node {
    uint64_t *set;      /* ne, va, sw (W words each), then wslots x (wake_va, wake_sw) */
    vc_ivc_t *ivc;      /* its input VCs, by local index */
    int16_t *credits;   /* its output VCs' credits, by local index */
    vc_port_t *port;    /* its ports, by local index */
    noc_alloc_t *sa;    /* switch allocator (switch inputs x ports) */
    char *va;           /* VC allocators (P*V input VCs x V), one per output
                           port, va_bytes apart (vc_va_alloc) */
    noc_flit_t *buf;    /* its FIFOs' slot 0 (see vc_slot) */
    uint8_t *vc_ptr;    /* per switch input: round-robin pointer of the switch stage's VC arbiter */
    uint8_t *va_last;   /* va_in_pointer = router: per input VC, 1 + the output port of its last VC
                           grant, 0 before its first (after vc_ptr, in its padding where it fits) */
    int32_t base;       /* global index of its port 0 */
    int32_t n;          /* the node */
    int32_t locals;     /* its local ports, 0 .. locals - 1 (its terminals; 1 without concentration) */
    int32_t ports;      /* its input ports, lane ports included (vc_shuffle_requests' P) */
    uint64_t hold_in;   /* hold_switch_for_packet: switch inputs one of whose VCs holds the
                           switch for its packet (vc_hold_vc), to that VC's output port */
} vc_node_t;

/* VC class index meaning "any VC" (a packet leaving for the ejection port). */
#define VC_ANY_CLASS NOC_GRAPH_MAX_CLASSES
/* use_read_write: a packet of kind k (enum noc_pkt_type) routed to class c
 * bids for the VCs of class_mask[k * VC_KIND_STRIDE + c]: its class's part
 * of the kind's range (model/read_write.h). */
#define VC_KIND_STRIDE (NOC_GRAPH_MAX_CLASSES + 1)

typedef struct vc_state {
    int V, depth;
    int wait_tail;      /* wait_for_tail_credit */
    int ej_credits;     /* eject_credit_delay > 0: the ejection ports count credits too */
    int va_router_ptr;  /* va_in_pointer = router: an input VC's VC-allocation pointer spans
                           the router's output VCs (BookSim2's), not one per port */
    uint32_t qcap, qmask;      /* ring per input VC */
    int R, VA, out_delay;      /* out_delay = sw_alloc_delay + st_final_delay */
    int lookahead;
    int matrix;                /* arb_type=matrix: switch-stage VC arbiters in sa_vc */
    int sa_wave;               /* sw_allocator is a whole kind (wavefront, rr_wavefront, max_size,
                                  loa: alloc.h): every switch allocation goes through the
                                  allocator (its state moves per allocation) */
    int va_whole;              /* 1: vc_allocator is a whole kind: one allocator over a node's input
                                  VCs and all its output VCs (port * V + VC), BookSim2's, in
                                  va_all (vc_vcalloc.h) instead of the per-port ones; 2:
                                  vc_prioritize_empty (va_empty), vc_busy_when_full (va_full) or
                                  vc_shuffle_requests (va_shuf), the per-port ones; either
                                  runs in an instance of its own */
    noc_alloc_t *va_all;       /* per node, with va_whole */
    int max_ports;             /* largest port count of a node, lane ports included */
    int lane_ports;            /* input-only ports for an all-port NI's extra lanes, after a node's own */
    int n_in_ports;            /* input ports of the fabric: its ports and the lane ports */
    /* VCs of each VC class (VC_ANY_CLASS: all), then those of each packet kind
     * and class (use_read_write, VC_KIND_STRIDE) */
    uint64_t class_mask[NOC_PKT_TYPES * VC_KIND_STRIDE];
    int kinds;                 /* use_read_write: a head's class is offset by its packet's kind */
    int S;                     /* input_speedup: switch inputs per input port */
    int So;                    /* output_speedup: switch outputs per output port (1 but in the
                                  speedup instance, vc_speedup.c) */
    int ej_class;              /* the graph's eject_vclass: a packet ejects on a VC of its route's class */
    int fast;                  /* W = 1, S = 1, one terminal a router, no ejection credits, no packet kinds: the
                                  nodes may take the instance of the evaluation specialised for
                                  them (vc_router.c) */
    int lean;                  /* fast, and round-robin arbiters, priority none, no lookahead, no
                                  wait_for_tail_credit, a separable switch allocator: the
                                  nodes may take the instance that has no test of them (vc_router.c) */
    uint8_t *l_port, *l_vc;    /* local input VC index -> port, VC */
    uint8_t *l_in;             /* local input VC index -> switch input (port * S + VC % S) */
    uint8_t *e_port;           /* switch input -> its port */

    /* per input VC */
    uint32_t n_ivc;            /* input VCs of the fabric */
    noc_flit_t *buf;           /* FIFO slots, slot-major: slot k of VC i at k * n_ivc + i */
    /* per global port */
    int32_t *port_node;        /* node owning the port */
    noc_arbiter_t *sa_vc;      /* arb_type=matrix only: VC arbiter of each switch input (S per
                                  input port, numbered as the input ports) */
    /* per node */
    void *nodes;               /* the node blocks, node_bytes each (64-byte aligned in nodes_block) */
    void *nodes_block;
    int32_t *buffered;         /* flits buffered in each node's router (apart
                                  from the blocks: read for every node, every cycle) */
    size_t node_bytes;
    size_t va_bytes;           /* distance between a node's VC allocators */
    int W;                     /* words of a set of a node's input VCs */
    uint32_t wslots, wmask;    /* timed sets: slot t & wmask holds the VCs joining in cycle t */
    uint32_t set_words;        /* words per node's set block */

    /* scratch for one node's evaluation (max_ports * V entries) */
    int16_t *who;
    uint64_t *mask;
    int16_t *grant;
    int16_t *lvc;              /* list entry -> local input VC */
    int16_t *next;             /* list entry -> next one for the same port, or -1 */

    /* wait attribution of program runs (model/waits.c; NULL otherwise):
     * the cycle each buffered flit arrived, slot-major as buf; per input VC
     * (numbered as slot 0 of buf) the cycle its routed head began to bid
     * for an output VC */
    uint32_t *arrive, *va_from;
    /* priority = local_age: the cycle each buffered flit reached this
     * router's buffer, slot-major as buf (NULL otherwise) */
    uint32_t *stamp;
    int donate;                /* vc_priority_donation (vc_rank.c) */
    int va_empty;              /* vc_prioritize_empty with an allocator that ranks it (vc_vcalloc.h;
                                  va_whole 2) */
    int va_full;               /* vc_busy_when_full: a free output VC without a credit is not asked
                                  for (vc_vcalloc.h; va_whole 2 unless a whole kind's 1) */
    int va_shuf;               /* vc_shuffle_requests: the VC allocators' requester of local input
                                  VC l is VC-major, vc_va_id (vc_vcalloc.h; va_whole as va_full) */

    /* hold_switch_for_packet (vc_hold.c) */
    int hold;                  /* hold_switch_for_packet */
    uint8_t *hold_vc;          /* per switch input (numbered as sa_vc), its VC holding the switch,
                                  when its node's hold_in says one does (allocated with hold) */

    /* speculative = 1 (vc_spec.c) */
    int spec_elig, spec_cred;  /* spec_check_elig, spec_check_cred */
    int spec_mask;             /* spec_mask_by_reqs */
    int spec_kind;             /* spec_sw_allocator: an allocator kind, or NOC_ALLOC_COUNT for prio */
    noc_alloc_t *sa_spec;      /* per node: the speculative switch allocator (not prio) */
    uint64_t *spec_req;        /* scratch, W words: the VCs bidding speculatively this cycle */

    /* internal_speedup or output_speedup other than 1 (vc_speedup.c) */
    struct vc_sp *sp;

    /* adaptive routing, the graph's route_set (vc_adapt.c) */
    struct vc_adapt *adapt;
} vc_state_t;

/* What the stages of one node's evaluation share. The stages are inlined
 * into the node's evaluation (vc_router.c includes the boxes' headers), and
 * W is a constant 1 in the common instance (at most 64 input VCs a node), so
 * the compiler keeps these in registers and folds the one-word sets. */
typedef struct vc_ctx {
    struct noc_sim *s;
    vc_state_t *r;
    vc_node_t *nd;
    uint64_t *set;             /* nd->set */
    uint64_t now;
    int n, V, W;
    int S;                     /* input_speedup (a constant 1 in the common instance) */
    int ser;                   /* some link serialises flits (s->serialise; a constant 0 in the
                                  common instance) */
    int waits;                 /* programs: count the waits (r->arrive set; a constant 0 in the
                                  instances synthetic runs use) */
    int locals;                /* the node's local ports (a constant 1 in the common instance) */
    int ej_any;                /* routes to ports below it eject on any VC: locals, or 0 with
                                  r->ej_class (a constant 1 in the common instance) */
    int ej;                    /* its ejection ports count credits (r->ej_credits; a constant 0
                                  in the common instance) */
    int adapt;                 /* adaptive routing: heads routed and VCs allocated by vc_adapt.c
                                  (a constant in every instance) */
    int kinds;                 /* use_read_write: r->kinds (0, a constant, in the common instance) */
    int va_whole;              /* r->va_whole != 0 (0, a constant, in the common instance) */
    int lean;                  /* r->lean (1, a constant, in the lean instance; 0 in the others, which
                                  read the fields it stands for) */
} vc_ctx_t;

/* For the stages' functions: inlined into the node evaluation. */
#define VC_INLINE static inline __attribute__((always_inline))

static inline vc_node_t *vc_node(const vc_state_t *r, int n)
{
    return (vc_node_t *)((char *)r->nodes + (size_t)n * r->node_bytes);
}

/* arb_type=matrix: the switch stage's VC arbiter of switch input e of node
 * nd (input ports numbered as the FIFOs: a node's own, then its lane ports;
 * S switch inputs each). */
static inline noc_arbiter_t *vc_sa_vc(const vc_state_t *r, const vc_node_t *nd, int e)
{
    return &r->sa_vc[(size_t)(nd->base + nd->n * r->lane_ports) * (size_t)r->S + (size_t)e];
}

/* hold_switch_for_packet: the VC of switch input e of node nd that holds
 * the switch (when bit e of nd->hold_in is set). */
static inline uint8_t *vc_hold_vc(const vc_state_t *r, const vc_node_t *nd, int e)
{
    return &r->hold_vc[(size_t)(nd->base + nd->n * r->lane_ports) * (size_t)r->S + (size_t)e];
}

/* The VC allocator of output port o of node nd. */
/* The salt of node n's allocator `which` (0 switch, 1 whole VC, 2
 * speculative switch) for its random draws (pim, noc_alloc_seed): a mix of
 * the run's seed, the node and which. */
uint64_t noc_vc_alloc_salt(const struct noc_sim *s, int n, int which);

static inline noc_alloc_t *vc_va_alloc(const vc_state_t *r, const vc_node_t *nd, int o)
{
    return (noc_alloc_t *)(nd->va + (size_t)o * r->va_bytes);
}

/* Requester i's input arbiter of allocator a: its choice among want (not
 * empty), and the move of both arbiters on a final grant of resource r
 * (alloc.h); the lean instance knows them round-robin. */
VC_INLINE int vc_alloc_pick(const vc_ctx_t *x, const noc_alloc_t *a, int i, uint64_t want)
{
    return x->lean ? noc_rr_pick(want, a->in_ptr[i]) : noc_alloc_in_pick(a, i, want);
}
VC_INLINE void vc_alloc_update(const vc_ctx_t *x, noc_alloc_t *a, int i, int r)
{
    if (x->lean) {
        a->out_ptr[r] = (uint16_t)noc_rr_next(i);
        a->in_ptr[i] = (uint8_t)noc_rr_next(r);
    } else {
        noc_alloc_grant_update(a, i, r);
    }
}

/* Bit l of a set of W words. */
static inline void vc_set(uint64_t *m, int l, int W)
{
    if (W == 1)
        m[0] |= UINT64_C(1) << l;
    else
        m[l >> 6] |= UINT64_C(1) << (l & 63);
}
static inline void vc_clr(uint64_t *m, int l, int W)
{
    if (W == 1)
        m[0] &= ~(UINT64_C(1) << l);
    else
        m[l >> 6] &= ~(UINT64_C(1) << (l & 63));
}

/* The slot of input VC l (of the node whose slots start at nbuf) that FIFO
 * counter k names. Slot-major, and FIFOs rewind when they empty: the slots a
 * lightly loaded network uses are packed together. */
static inline noc_flit_t *vc_slot(noc_flit_t *nbuf, const vc_state_t *r, int l, uint16_t k)
{
    return &nbuf[(size_t)(k & r->qmask) * r->n_ivc + (size_t)l];
}

/* The fabric-wide number of input VC l of the node whose slots start at
 * nbuf (its slot 0's index in buf). */
static inline size_t vc_global(const noc_flit_t *nbuf, const vc_state_t *r, int l)
{
    return (size_t)(nbuf - r->buf) + (size_t)l;
}

/* The node's sets: holding flits (ne), bidding for an output VC (va),
 * holding one with the VA stage over (sw). */
static inline uint64_t *vc_ne(const vc_ctx_t *x) { return x->set; }
static inline uint64_t *vc_va(const vc_ctx_t *x) { return x->set + x->W; }
static inline uint64_t *vc_sw(const vc_ctx_t *x) { return x->set + 2 * x->W; }

/* The timed sets of slot t of a node's set block: wake_va, then wake_sw. */
static inline uint64_t *vc_wake(const vc_state_t *r, uint64_t *set, uint64_t t, int W)
{
    return set + (size_t)W * (3 + 2 * (size_t)(t & r->wmask));
}

/* The VCs whose route or VA stage ends at cycle (or internal step) t join
 * the va and sw sets; *va gets the va set's bits, *sw those of the sw set
 * that hold a flit. */
static inline __attribute__((always_inline)) void vc_join_wakes(const vc_state_t *r, uint64_t *set, uint64_t t,
                                                                int W, uint64_t *va, uint64_t *sw)
{
    uint64_t *wake = vc_wake(r, set, t, W), v = 0, s = 0;
    for (int w = 0; w < W; w++) {
        uint64_t a = set[W + w] | wake[w], b = set[2 * W + w] | wake[W + w];
        set[W + w] = a;
        set[2 * W + w] = b;
        wake[w] = 0;
        wake[W + w] = 0;
        v |= a;
        s |= b & set[w];
    }
    *va = v;
    *sw = s;
}

/* VC l joins the set `which` (0: va, 1: sw) `delay` cycles from now: at once
 * for a delay of 0, else through the timed set of that cycle. */
static inline void vc_at(const vc_ctx_t *x, int which, int l, int delay)
{
    if (delay == 0)
        vc_set(x->set + (size_t)x->W * (size_t)(1 + which), l, x->W);
    else
        vc_set(vc_wake(x->r, x->set, x->now + (uint64_t)delay, x->W) + (size_t)x->W * (size_t)which, l, x->W);
}

/* The switch input of local input VC l (its port when S = 1). */
static inline int vc_in(const vc_ctx_t *x, int l)
{
    return x->S == 1 ? x->r->l_port[l] : x->r->l_in[l];
}

/* Adaptive routing (vc_adapt.c): route the head f at the front of idle VC
 * l (registers q) of node n (block nd): its candidates, kept for the VC
 * allocation. (Not given the caller's vc_ctx_t: its address would escape
 * from every instance's evaluation, which keeps it in registers.) */
void noc_vc_route_adapt(struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int n, vc_ivc_t *q,
                        const noc_flit_t *f, int l);

/* The boxes (docs/router.md), one header each, included by vc_router.c:
 *   vc_input.h   vc_input(x, fl): the flits (ports in fl) that arrive this
 *                cycle; vc_route_head(x, l, delay): route the head at the
 *                front of idle VC l and let it bid for an output VC `delay`
 *                cycles from now;
 *   vc_output.h  vc_credits_in(x, cr): the credits (ports in cr) that arrive
 *                this cycle; vc_traverse(x, l, p, v, o): a flit crosses the
 *                switch and enters its output link;
 *   vc_vcalloc.h vc_vc_alloc(x): VC allocation;
 *   vc_switch.h  vc_switch(x): switch allocation; vc_switch_hold(x): the
 *                same with hold_switch_for_packet = 1;
 *   vc_spec.c    the switch stage with speculative = 1;
 *   vc_adapt.c   route stage and VC allocation of adaptive routing. */

#endif
