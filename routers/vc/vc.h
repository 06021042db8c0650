/* vc.h: state of the input-queued virtual-channel wormhole routers of a
 * fabric (routers/vc), as flat arrays over input VCs, output VCs, ports and
 * nodes. Input VC i = gport * V + v, output VC o = gport * V + v.
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
 * may act in this very cycle. */
#ifndef NOC_VC_H
#define NOC_VC_H
#include "model/alloc.h"
#include "model/fifo.h"
#include "model/sim_internal.h"

enum { VC_IDLE, VC_VA, VC_ACTIVE };

/* The registers of one input VC, together in 16 bytes. */
typedef struct vc_ivc {
    int32_t ovc;        /* granted output VC, global index gport * V + v */
    uint16_t head, tail;/* free-running FIFO counters */
    uint8_t state;      /* VC_* */
    uint8_t rport;      /* route: output port */
    uint8_t rclass;     /* route: VC class */
    int8_t out_vc;      /* granted output VC (index within the port) */
    uint32_t pad;
} vc_ivc_t;

typedef struct vc_state {
    int V, depth;
    uint32_t qcap, qmask;      /* ring per input VC */
    int R, VA, out_delay;      /* out_delay = sw_alloc_delay + st_final_delay */
    int lookahead;
    int max_ports;             /* largest port count of a node */
    uint64_t class_mask[NOC_TOPO_MAX_CLASSES]; /* VCs of each VC class */
    uint64_t all_vcs;          /* mask of all V VCs */
    uint8_t *l_port, *l_vc;    /* local input VC index -> port, VC */

    /* per input VC */
    noc_flit_t *buf;           /* n_ivc * qcap */
    vc_ivc_t *ivc;

    /* per output VC */
    int16_t *credits;
    int32_t *owner;            /* input VC holding it, or -1 */

    /* per global port */
    int32_t *port_occ;         /* flits buffered at this input port */
    noc_alloc_t *va;           /* VC allocator of this output port */
    noc_arbiter_t *sa_vc;      /* picks the VC of this input port that crosses */

    uint64_t *ovc_free;        /* output port: mask of its free output VCs */

    /* per node: sets of the node's input VCs (local index p * V + v), W words
     * each, so that every stage visits only the VCs it has work for */
    int W;
    uint64_t *m_ne;            /* holding flits */
    uint64_t *m_va;            /* bidding for an output VC (route stage over) */
    uint64_t *m_sw;            /* holding an output VC, VA stage over */
    /* Timed sets: a VC whose stage ends in cycle t is put into slot
     * t & wmask and joins m_va (m_sw) when the node evaluates cycle t. */
    uint32_t wslots, wmask;
    uint64_t *wake_va;         /* n_nodes * wslots * W */
    uint64_t *wake_sw;
    noc_alloc_t *sa;           /* switch allocator, ports x ports */
    void *arena;               /* storage of all allocators, node by node */
    int32_t *buffered;         /* flits buffered in the router */

    /* scratch for one node's evaluation (max_ports * V entries) */
    int16_t *who;
    uint64_t *mask;
    int16_t *grant;
    int16_t *lvc;              /* list entry -> local input VC */
    uint8_t *lport;            /* list entry -> output port */
} vc_state_t;

static inline void vc_set(uint64_t *m, int l) { m[l >> 6] |= UINT64_C(1) << (l & 63); }

/* VC l of node n joins set `now` + delay cycles from now: at once (into
 * `set`) for a delay of 0, else through the timed set `wake`. */
static inline void vc_at(const vc_state_t *r, uint64_t *set, uint64_t *wake, int n, int l,
                         uint64_t now, int delay)
{
    if (delay == 0)
        vc_set(set + (size_t)n * (size_t)r->W, l);
    else
        vc_set(wake + ((size_t)n * r->wslots + ((now + (uint64_t)delay) & r->wmask)) * (size_t)r->W, l);
}
static inline void vc_clr(uint64_t *m, int l) { m[l >> 6] &= ~(UINT64_C(1) << (l & 63)); }

/* Stages, one file each (docs/router.md): */
void noc_vc_input(struct noc_sim *s, vc_state_t *r, int n);      /* vc_input.c */
/* Route the head at the front of idle VC l of node n and let it bid for an
 * output VC `delay` cycles from now. */
void noc_vc_route_head(struct noc_sim *s, vc_state_t *r, int n, int l, int delay); /* vc_input.c */
void noc_vc_vc_alloc(struct noc_sim *s, vc_state_t *r, int n);   /* vc_vcalloc.c */
void noc_vc_switch(struct noc_sim *s, vc_state_t *r, int n);     /* vc_switch.c */

/* Class c of C classes owns VCs [c*V/C, (c+1)*V/C). */
static inline void noc_vc_class_range(int V, int C, int c, int *lo, int *hi)
{
    *lo = c * V / C;
    *hi = (c + 1) * V / C;
}
#endif
