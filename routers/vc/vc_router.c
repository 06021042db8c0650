/* vc_router.c: the vc router family: building its state for a fabric and the
 * per-cycle evaluation (vc_eval.h: the stages of vc_output.h, vc_input.h,
 * vc_vcalloc.h and vc_switch.h in pipeline order), inlined into one function
 * per node (and a second instance specialised for nodes with at most 64
 * input VCs and wide links). With hold_switch_for_packet = 1 vc_create puts
 * the family's second table of operations on the run, whose evaluation is
 * vc_hold.c's. A router's registers are read and written only by its own
 * evaluation, and everything it sends goes into channel slots of later
 * cycles (model/channel.h), so the commit phase has nothing to do for this
 * family. */
#include "util/xalloc.h"
#include "model/rng.h"
#include "routers/vc/vc.h"
#include "routers/vc/vc_input.h"
#include "routers/vc/vc_output.h"
#include "routers/vc/vc_vcalloc.h"
#include "routers/vc/vc_switch.h"
#include "routers/vc/vc_eval.h"
#include "routers/families.h"
#include "model/sim_ranks.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t round16(size_t b) { return (b + 15) & ~(size_t)15; }

uint64_t noc_vc_alloc_salt(const struct noc_sim *s, int n, int which)
{
    uint64_t x = (uint64_t)s->cfg.seed * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)n;
    return noc_rng_mix(noc_rng_mix(x) + (uint64_t)which);
}

/* Offsets within a node block, the same for every node (sized for the
 * largest port count): header, sets, input VCs, credits, ports, the switch
 * inputs' VC arbiter pointers, switch allocator, VC allocators. */
typedef struct layout {
    size_t set, ivc, credits, port, vc_ptr, sa, va, va_bytes, bytes;
} layout_t;

static layout_t node_layout(const vc_state_t *r, noc_arb_kind_t ak, int P)
{
    layout_t L;
    size_t nl = (size_t)P * (size_t)r->V;
    L.set = round16(sizeof(vc_node_t));
    L.ivc = L.set + round16(r->set_words * sizeof(uint64_t));
    L.credits = L.ivc + round16(nl * sizeof(vc_ivc_t));
    L.port = L.credits + round16(nl * sizeof(int16_t));
    L.vc_ptr = L.port + round16((size_t)P * sizeof(vc_port_t));
    /* (va_in_pointer = router: va_last after them) */
    L.sa = L.vc_ptr + round16((size_t)P * (size_t)r->S + (r->va_router_ptr ? (size_t)P * (size_t)r->V : 0));
    L.va = L.sa + round16(sizeof(noc_alloc_t)) + noc_alloc_block_size(ak, P * r->S, P * r->So);
    L.va_bytes = round16(sizeof(noc_alloc_t)) + noc_alloc_block_size(ak, P * r->V, r->V);
    L.bytes = (L.va + (size_t)P * L.va_bytes + 63) & ~(size_t)63;
    return L;
}

/* The sizes of the state for the kernel's plan on s (create and bytes). */
static void size_state(const struct noc_sim *s, vc_state_t *r, noc_arb_kind_t ak)
{
    const noc_graph_t *gr = s->graph;
    const noc_config_t *c = &s->cfg;
    r->V = (int)c->num_vcs;
    r->depth = (int)c->vc_buf_size;
    r->wait_tail = c->wait_for_tail_credit != 0;
    r->va_router_ptr = strcmp(c->va_in_pointer, "router") == 0;
    r->ej_credits = c->eject_credit_delay != 0;
    r->hold = c->hold_switch_for_packet != 0;
    r->donate = c->vc_priority_donation != 0;
    r->S = (int)c->input_speedup;
    r->So = (int)c->output_speedup;
    r->qcap = noc_fifo_capacity((uint32_t)r->depth);
    r->qmask = r->qcap - 1;
    r->lookahead = (int)c->lookahead;
    r->R = r->lookahead ? 0 : (int)c->routing_delay;
    r->VA = (int)c->vc_alloc_delay;
    r->out_delay = (int)(c->sw_alloc_delay + c->st_final_delay);
    /* an all-port NI's extra lanes: input-only ports after a node's own */
    r->lane_ports = s->lane_chans ? s->lanes - 1 : 0;
    r->max_ports = gr->max_degree + noc_graph_max_locals(gr) + r->lane_ports;
    r->matrix = ak == NOC_ARB_MATRIX;
    noc_alloc_kind_t sak = noc_alloc_kind_parse(c->sw_allocator);
    r->sa_wave = noc_alloc_kind_is_whole(sak);
    /* 1: a whole VC allocator; 2: vc_prioritize_empty with a separable
     * input-first one, vc_busy_when_full or vc_shuffle_requests with the
     * per-port ones (vc_vcalloc.h); either an instance of its own */
    noc_alloc_kind_t vak = noc_alloc_kind_parse(c->vc_allocator);
    r->va_empty = c->vc_prioritize_empty && vak == NOC_ALLOC_INPUT_FIRST;
    r->va_full = c->vc_busy_when_full != 0;
    r->va_shuf = c->vc_shuffle_requests != 0;
    r->va_whole = noc_alloc_kind_is_whole(vak) ? 1 : r->va_empty || r->va_full || r->va_shuf ? 2 : 0;
    r->W = (r->max_ports * r->V + 63) / 64;
    r->ej_class = gr->eject_vclass;
    r->fast = r->W == 1 && r->S == 1 && !gr->term_base && !r->ej_credits && !r->ej_class && !s->cfg.use_read_write &&
              !r->va_whole; /* (the fast instance's VA takes no test for va_whole) */
    r->lean = r->fast && !r->matrix && s->prio == NOC_PRI_NONE && !r->lookahead && !r->wait_tail && !r->sa_wave &&
              !c->hold_switch_for_packet && !c->speculative; /* (those two: families of their own anyway) */
    int longest = r->R + 1 > r->VA ? r->R + 1 : r->VA;
    r->wslots = 1;
    while (r->wslots <= (uint32_t)longest)
        r->wslots <<= 1;
    r->wmask = r->wslots - 1;
    r->set_words = (uint32_t)r->W * (3 + 2 * r->wslots);
    r->n_in_ports = gr->n_ports + gr->n_nodes * r->lane_ports;
}

static uint64_t vc_bytes(const struct noc_sim *s)
{
    const noc_graph_t *gr = s->graph;
    noc_arb_kind_t ak = noc_arb_kind_parse(s->cfg.arb_type);
    if (ak == NOC_ARB_COUNT)
        return 0; /* create refuses it */
    vc_state_t r;
    memset(&r, 0, sizeof r);
    size_state(s, &r, ak);
    uint64_t nv = ((uint64_t)gr->n_ports + (uint64_t)gr->n_nodes * (uint64_t)r.lane_ports) * (uint64_t)r.V;
    uint64_t nl = (uint64_t)r.max_ports * (uint64_t)r.V;
    uint64_t b = sizeof r + nv * r.qcap * sizeof(noc_flit_t) + 2 * nl;
    uint64_t n_sw_in = (uint64_t)r.n_in_ports * (uint64_t)r.S; /* switch inputs */
    if (s->cfg.hold_switch_for_packet)
        b += n_sw_in; /* hold_vc */
    if (strcmp(s->cfg.priority, "local_age") == 0)
        b += nv * r.qcap * sizeof(uint32_t); /* stamp */
    if (r.matrix) /* the switch stage's VC arbiters, and the allocators' arbiters on the heap */
        b += n_sw_in * (sizeof(noc_arbiter_t) + (((uint64_t)r.V * (uint64_t)NOC_ARB_WORDS(r.V) * 8 + 31) & ~(uint64_t)15));
    for (int n = 0; r.matrix && n < gr->n_nodes; n++) {
        int P = gr->port_base[n + 1] - gr->port_base[n] + r.lane_ports;
        b += noc_alloc_heap_bytes(ak, P * r.S, P * r.So) + (uint64_t)P * noc_alloc_heap_bytes(ak, P * r.V, r.V);
    }
    b += (uint64_t)gr->n_ports * sizeof(int32_t) + (uint64_t)gr->n_nodes * sizeof(int32_t);
    b += (uint64_t)gr->n_nodes * node_layout(&r, ak, r.max_ports).bytes;
    b += nl * (4 * sizeof(int16_t) + 2 * sizeof(uint64_t)) + nl + (uint64_t)r.max_ports * (uint64_t)r.S; /* l_in, e_port */
    if (r.va_whole == 1) { /* the whole VC allocators (loa's in the round-robin layout, alloc.c) */
        noc_alloc_kind_t vak = noc_alloc_kind_parse(s->cfg.vc_allocator);
        noc_arb_kind_t vk = vak == NOC_ALLOC_LOA ? NOC_ARB_ROUND_ROBIN : ak;
        int PV = (int)nl; /* (every node with the most ports: a shape lists no node's ports) */
        b += (uint64_t)gr->n_nodes *
             (sizeof(noc_alloc_t) + noc_alloc_block_size(vk, PV, PV) + noc_alloc_heap_bytes(vk, PV, PV));
    }
    return b + noc_vc_spec_bytes(s, r.W, r.S, r.lane_ports) + noc_vc_sp_bytes(s, &r) +
           noc_vc_adapt_bytes(s, nv, r.max_ports);
}

/* The parameters this family takes, checked before anything is
 * allocated: 0, or -1 with a message in err. */
static int check_params(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_graph_t *gr = s->graph;
    const noc_config_t *c = &s->cfg;
    noc_alloc_kind_t vak = noc_alloc_kind_parse(c->vc_allocator);
    noc_alloc_kind_t sak = noc_alloc_kind_parse(c->sw_allocator);
    noc_arb_kind_t ak = noc_arb_kind_parse(c->arb_type);
    if (vak == NOC_ALLOC_COUNT || sak == NOC_ALLOC_COUNT) {
        snprintf(err, errlen, "parameter '%s': unknown allocator '%s' (separable_input_first, separable_output_first, "
                 "islip, select, wavefront, rr_wavefront, max_size, loa, pim)",
                 vak == NOC_ALLOC_COUNT ? "vc_allocator" : "sw_allocator",
                 vak == NOC_ALLOC_COUNT ? c->vc_allocator : c->sw_allocator);
        return -1;
    }
    if (ak == NOC_ARB_COUNT) {
        snprintf(err, errlen, "parameter 'arb_type': unknown arbiter '%s' (round_robin, matrix)", c->arb_type);
        return -1;
    }
    if (strcmp(c->va_in_pointer, "port") != 0 && strcmp(c->va_in_pointer, "router") != 0) {
        snprintf(err, errlen, "parameter 'va_in_pointer': '%s' is neither port nor router", c->va_in_pointer);
        return -1;
    }
    if (strcmp(c->va_in_pointer, "router") == 0 && ak != NOC_ARB_ROUND_ROBIN) {
        snprintf(err, errlen, "parameter 'va_in_pointer': router is for round-robin arbiters (BookSim2's); "
                 "with arb_type = %s the VC allocator's arbiters are per output port", c->arb_type);
        return -1;
    }
    int lanes = s->lane_chans ? s->lanes - 1 : 0, P = gr->max_degree + noc_graph_max_locals(gr) + lanes;
    if (noc_alloc_kind_is_whole(vak) && (int64_t)P * c->num_vcs > 64) {
        snprintf(err, errlen, "parameter 'vc_allocator': %s is one allocator over a router's %lld output VCs "
                 "(%d ports x num_vcs = %lld), more than the 64 the vc router takes", c->vc_allocator,
                 (long long)(P * c->num_vcs), P, (long long)c->num_vcs);
        return -1;
    }
    noc_alloc_kind_t spk = noc_alloc_kind_parse(c->spec_sw_allocator);
    if ((vak == NOC_ALLOC_SELECT || sak == NOC_ALLOC_SELECT || (c->speculative && spk == NOC_ALLOC_SELECT)) &&
        c->alloc_iters != 1) {
        snprintf(err, errlen, "parameter 'alloc_iters': select with %lld rounds is not modelled (BookSim2 builds "
                 "it with one; with more, its grants of a round outlive the round)", (long long)c->alloc_iters);
        return -1;
    }
    if (noc_alloc_kind_is_whole(vak) && gr->route_set) {
        snprintf(err, errlen, "parameter 'vc_allocator': %s with adaptive routing is not modelled (its VC "
                 "allocation takes separable_input_first, separable_output_first or islip)", c->vc_allocator);
        return -1;
    }
    if (c->num_vcs < gr->n_vclasses) {
        snprintf(err, errlen, "parameter 'num_vcs': %s needs at least %d virtual channels for deadlock-free routing, %lld given",
                 gr->name, gr->n_vclasses, (long long)c->num_vcs);
        return -1;
    }
    if (gr->max_degree + noc_graph_max_locals(gr) > NOC_NI_BIT) {
        snprintf(err, errlen, "%s: the vc router supports at most %d network ports per node", gr->name,
                 NOC_NI_BIT - noc_graph_max_locals(gr));
        return -1;
    }
    if ((int64_t)P * c->input_speedup > 64) {
        snprintf(err, errlen, "parameter 'input_speedup': %lld switch inputs for each of %d input ports%s are more "
                 "than the vc router's switch allocator takes (64)", (long long)c->input_speedup, P,
                 lanes ? " (with the NI's lane ports)" : "");
        return -1;
    }
    if (strcmp(c->priority, "none") != 0) {
        const char *with = c->speculative ? "speculative = 1"
                           : c->internal_speedup != 1.0 || c->output_speedup != 1 ? "internal or output speedup"
                           : gr->route_set ? "adaptive routing"
                           : (int64_t)P * c->num_vcs > 64 ? "more than 64 input VCs a router"
                                                            : NULL;
        if (with) {
            snprintf(err, errlen, "parameter 'priority': %s with %s is not modelled yet (its allocations rank "
                     "no priorities; leave priority out)", c->priority, with);
            return -1;
        }
    }
    /* the modes none of the VC allocation keys is modelled with */
    const char *va_with = c->speculative ? "speculative = 1"
                          : c->internal_speedup != 1.0 || c->output_speedup != 1 ? "internal or output speedup"
                          : gr->route_set ? "adaptive routing"
                                          : NULL;
    if (c->vc_prioritize_empty) {
        /* (islip, max_size, loa and pim rank nothing: BookSim2's ignore it) */
        int ranks = vak == NOC_ALLOC_OUTPUT_FIRST || vak == NOC_ALLOC_SELECT || vak == NOC_ALLOC_WAVEFRONT ||
                    vak == NOC_ALLOC_RR_WAVEFRONT;
        const char *with = va_with ? va_with : ranks ? "vc_allocator = " : NULL;
        if (with) {
            snprintf(err, errlen, "parameter 'vc_prioritize_empty': 1 with %s%s is not modelled yet (vc_allocator "
                     "separable_input_first ranks empty output VCs first; islip, max_size, loa and pim rank nothing)",
                     with, !va_with && ranks ? c->vc_allocator : "");
            return -1;
        }
    }
    const char *with = NULL, *key = NULL;
    if (c->vc_busy_when_full && (va_with || c->vc_alloc_delay > 1)) {
        key = "vc_busy_when_full";
        with = va_with ? va_with : "vc_alloc_delay > 1 (BookSim2 then also drops a grant whose output VC has filled "
                                   "during the stage)";
    } else if (c->vc_shuffle_requests && (va_with || strcmp(c->priority, "none") != 0)) {
        key = "vc_shuffle_requests";
        with = va_with ? va_with : "a priority other than none";
    }
    if (key) {
        snprintf(err, errlen, "parameter '%s': 1 with %s is not modelled yet (leave it 0)", key, with);
        return -1;
    }
    if (noc_vc_sp_check(s, err, errlen) != 0 || noc_vc_adapt_check(s, err, errlen) != 0)
        return -1;
    return noc_vc_spec_check(s, err, errlen);
}

/* Node n's block: its ports (network ones with their channels, then the
 * NI's lanes), credits, and allocators. */
static void init_node(struct noc_sim *s, vc_state_t *r, const layout_t *lp, int n, uint64_t all_vcs,
                      noc_alloc_kind_t vak, noc_alloc_kind_t sak, noc_arb_kind_t ak)
{
    const noc_graph_t *gr = s->graph;
    const noc_config_t *c = &s->cfg;
    const layout_t L = *lp;
    int Pt = gr->port_base[n + 1] - gr->port_base[n], P = Pt + r->lane_ports;
    vc_node_t *nd = vc_node(r, n);
    char *at = (char *)nd;
    nd->base = gr->port_base[n];
    nd->n = n;
    nd->locals = noc_graph_locals(gr, n);
    nd->ports = P;
    nd->set = (uint64_t *)(at + L.set);
    nd->ivc = (vc_ivc_t *)(at + L.ivc);
    nd->credits = (int16_t *)(at + L.credits);
    nd->port = (vc_port_t *)(at + L.port);
    nd->sa = (noc_alloc_t *)(at + L.sa);
    nd->va = at + L.va;
    nd->vc_ptr = (uint8_t *)(at + L.vc_ptr);
    nd->va_last = r->va_router_ptr ? nd->vc_ptr + (size_t)r->max_ports * (size_t)r->S : NULL;
    nd->buf = r->buf + ((size_t)nd->base + (size_t)n * (size_t)r->lane_ports) * (size_t)r->V;
    for (int l = 0; l < P * r->V; l++)
        nd->credits[l] = (int16_t)r->depth;
    for (int p = Pt; p < P; p++) { /* lane ports: in from the NI, no output */
        vc_port_t *pt = &nd->port[p];
        pt->to = n;
        pt->delay = 1;
        pt->up_chan = noc_lane_chan(s, n, p - Pt + 1);
        pt->up_node = n;
        pt->up_bit = NOC_NI_BIT;
    }
    for (int p = 0; p < Pt; p++) {
        int g = nd->base + p, up = s->in_chan[g];
        vc_port_t *pt = &nd->port[p];
        r->port_node[g] = n;
        pt->ovc_free = all_vcs;
        pt->to = s->chan_to[g];
        pt->delay = (uint8_t)(r->out_delay + s->chan_delay[g]);
        pt->to_bit = (uint8_t)s->chan_in_port[g];
        pt->up_chan = up;
        pt->up_node = s->chan_from[up];
        pt->up_bit = (uint8_t)s->chan_out_port[up];
        assert(pt->delay >= 1 && pt->delay < s->cap);
    }
    noc_alloc_init_at(nd->sa, sak, ak, P * r->S, P * r->So, (int)c->alloc_iters,
                      (char *)nd->sa + round16(sizeof(noc_alloc_t)));
    noc_alloc_seed(nd->sa, noc_vc_alloc_salt(s, n, 0));
    for (int o = 0; o < P; o++) {
        noc_alloc_t *a = vc_va_alloc(r, nd, o);
        noc_alloc_init_at(a, vak, ak, P * r->V, r->V, (int)c->alloc_iters,
                          (char *)a + round16(sizeof(noc_alloc_t)));
    }
}

static const noc_router_ops_t vc_hold_ops; /* (at the end: the family with hold_switch_for_packet = 1) */
static const noc_router_ops_t vc_spec_ops; /* (and with speculative = 1) */
static const noc_router_ops_t vc_sp_ops;   /* (and with internal or output speedup) */
static const noc_router_ops_t vc_adapt_ops; /* (and with adaptive routing) */

static int vc_create(struct noc_sim *s, char *err, size_t errlen)
{
    const noc_graph_t *gr = s->graph;
    const noc_config_t *c = &s->cfg;
    if (check_params(s, err, errlen) != 0)
        return -1;
    noc_alloc_kind_t vak = noc_alloc_kind_parse(c->vc_allocator);
    noc_alloc_kind_t sak = noc_alloc_kind_parse(c->sw_allocator);
    noc_arb_kind_t ak = noc_arb_kind_parse(c->arb_type);
    vc_state_t *r = noc_xcalloc(1, sizeof *r, "vc router");
    s->rstate = r;
    size_state(s, r, ak);

    size_t nv = ((size_t)gr->n_ports + (size_t)gr->n_nodes * (size_t)r->lane_ports) * (size_t)r->V;
    r->n_ivc = (uint32_t)nv;
    r->buf = noc_xcalloc(nv * r->qcap, sizeof(noc_flit_t), "vc router");
    uint64_t all_vcs = r->V >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << r->V) - 1u;
    /* each kind's range split into the routing's classes as all the VCs are
     * without kinds (kind NOC_PKT_ANY: all the VCs) */
    r->kinds = c->use_read_write != 0;
    for (int k = 0; k < NOC_PKT_TYPES; k++) {
        int klo = s->rw_lo[k], kw = s->rw_hi[k] - klo;
        uint64_t *m = &r->class_mask[k * VC_KIND_STRIDE];
        m[VC_ANY_CLASS] = (kw >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << kw) - 1u) << klo;
        for (int cl = 0; cl < gr->n_vclasses && cl < NOC_GRAPH_MAX_CLASSES; cl++) {
            int lo, hi;
            noc_vc_class_range(kw, gr->n_vclasses, cl, &lo, &hi);
            for (int v = klo + lo; v < klo + hi; v++)
                m[cl] |= UINT64_C(1) << v;
        }
    }
    r->l_port = noc_xcalloc((size_t)r->max_ports * (size_t)r->V, 1, "vc router");
    r->l_vc = noc_xcalloc((size_t)r->max_ports * (size_t)r->V, 1, "vc router");
    r->l_in = noc_xcalloc((size_t)r->max_ports * (size_t)r->V, 1, "vc router");
    r->e_port = noc_xcalloc((size_t)r->max_ports * (size_t)r->S, 1, "vc router");
    for (int l = 0; l < r->max_ports * r->V; l++) {
        r->l_port[l] = (uint8_t)(l / r->V);
        r->l_vc[l] = (uint8_t)(l % r->V);
        r->l_in[l] = (uint8_t)(r->l_port[l] * r->S + r->l_vc[l] % r->S);
    }
    for (int e = 0; e < r->max_ports * r->S; e++)
        r->e_port[e] = (uint8_t)(e / r->S);
    size_t n_sw_in = (size_t)r->n_in_ports * (size_t)r->S; /* switch inputs */
    if (r->matrix) {
        r->sa_vc = noc_xcalloc(n_sw_in, sizeof(noc_arbiter_t), "vc router");
        for (size_t g = 0; g < n_sw_in; g++)
            noc_arbiter_init(&r->sa_vc[g], ak, r->V);
    }
    if (r->hold) {
        r->hold_vc = noc_xcalloc(n_sw_in, 1, "vc router");
        s->rops = &vc_hold_ops;
    }
    if (c->speculative) {
        noc_vc_spec_init(s, r);
        s->rops = &vc_spec_ops;
    }
    if (c->internal_speedup != 1.0 || c->output_speedup != 1) {
        noc_vc_sp_init(s, r);
        s->rops = &vc_sp_ops;
    }
    if (gr->route_set) { /* (check_params refused it with the three above) */
        noc_vc_adapt_init(s, r);
        s->rops = &vc_adapt_ops;
    }
    r->port_node = noc_xcalloc((size_t)gr->n_ports, sizeof(int32_t), "vc router");
    r->buffered = noc_xcalloc((size_t)gr->n_nodes, sizeof(int32_t), "vc router");

    layout_t L = node_layout(r, ak, r->max_ports);
    r->node_bytes = L.bytes;
    r->va_bytes = L.va_bytes;
    /* zeroed by calloc, which leaves a large block's fresh pages untouched:
     * over MPI ranks only the part's nodes are set up (and resident), the
     * others' are never read (model/sim_ranks.c) */
    r->nodes_block = noc_xcalloc((size_t)gr->n_nodes * L.bytes + 64, 1, "vc router");
    r->nodes = (void *)(((uintptr_t)r->nodes_block + 63) & ~(uintptr_t)63);
    for (int n = 0; n < gr->n_nodes; n++)
        if (noc_sim_ranks_owns(s, n))
            init_node(s, r, &L, n, all_vcs, vak, sak, ak);
    if (r->va_whole == 1) {
        r->va_all = noc_xcalloc((size_t)gr->n_nodes, sizeof(noc_alloc_t), "vc router");
        for (int n = 0; n < gr->n_nodes; n++) {
            if (!noc_sim_ranks_owns(s, n))
                continue;
            int P = gr->port_base[n + 1] - gr->port_base[n] + r->lane_ports;
            noc_alloc_init(&r->va_all[n], vak, ak, P * r->V, P * r->V, (int)c->alloc_iters);
            noc_alloc_seed(&r->va_all[n], noc_vc_alloc_salt(s, n, 1));
        }
    }
    size_t nl = (size_t)r->max_ports * (size_t)r->V;
    r->who = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    r->mask = noc_xcalloc(2 * nl, sizeof(uint64_t), "vc router");
    r->grant = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    r->lvc = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    r->next = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    if (s->prio == NOC_PRI_LOCAL_AGE)
        r->stamp = noc_xcalloc((size_t)r->qcap * (size_t)r->n_ivc, sizeof *r->stamp, "vc router");
    return 0;
}

/* Programs keep their waits (model/waits.c): the arrival cycle of each
 * buffered flit, for the cycles a head waits behind another packet. */
static void vc_waits_on(struct noc_sim *s)
{
    vc_state_t *r = s->rstate;
    if (!r->arrive) {
        r->arrive = noc_xcalloc((size_t)r->qcap * (size_t)r->n_ivc, sizeof *r->arrive, "vc router");
        r->va_from = noc_xcalloc(r->n_ivc, sizeof *r->va_from, "vc router");
    }
}

static void vc_destroy(struct noc_sim *s)
{
    vc_state_t *r = s->rstate;
    if (!r)
        return;
    const noc_graph_t *gr = s->graph;
    if (r->nodes)
        for (int n = 0; n < gr->n_nodes; n++) {
            if (!noc_sim_ranks_owns(s, n)) /* (never set up: model/sim_ranks.c) */
                continue;
            vc_node_t *nd = vc_node(r, n);
            int P = gr->port_base[n + 1] - gr->port_base[n] + r->lane_ports;
            noc_alloc_free(nd->sa);
            for (int o = 0; o < P; o++)
                noc_alloc_free(vc_va_alloc(r, nd, o));
        }
    if (r->va_all)
        for (int n = 0; n < gr->n_nodes; n++)
            if (noc_sim_ranks_owns(s, n))
                noc_alloc_free(&r->va_all[n]);
    free(r->va_all);
    if (r->sa_vc)
        for (size_t g = 0; g < (size_t)r->n_in_ports * (size_t)r->S; g++)
            noc_arbiter_free(&r->sa_vc[g]);
    free(r->nodes_block);
    free(r->buf);
    free(r->arrive);
    free(r->stamp);
    free(r->va_from);
    free(r->port_node);
    free(r->buffered);
    free(r->sa_vc);
    free(r->hold_vc);
    free(r->l_port);
    free(r->l_vc);
    free(r->l_in);
    free(r->e_port);
    free(r->who);
    free(r->mask);
    free(r->grant);
    free(r->lvc);
    free(r->next);
    noc_vc_spec_free(s, r);
    noc_vc_sp_free(r);
    noc_vc_adapt_free(r);
    free(r);
    s->rstate = NULL;
}

/* node_stats = 1: node n's occupancy after its evaluation (model/occupancy.h):
 * its buffered flits, and its input VCs holding flits (the ne set). */
static void count_occupancy(struct noc_sim *s, const vc_state_t *r, int n)
{
    const uint64_t *ne = vc_node(r, n)->set;
    int vcs = 0;
    for (int w = 0; w < r->W; w++)
        vcs += __builtin_popcountll(ne[w]);
    noc_occ_set(s->occ, n, s->now, r->buffered[n], vcs);
}

static void vc_eval(struct noc_sim *s, int n)
{
    vc_state_t *r = s->rstate;
    if (r->fast && !s->serialise)
        vc_eval_node(s, r, n, 1, 1, 0, 0, r->arrive != NULL, 1, 0, 0);
    else
        vc_eval_node(s, r, n, r->W, r->S, s->serialise, 0, r->arrive != NULL, 0, r->va_whole, 0);
    if (s->occ)
        count_occupancy(s, r, n);
}

/* (Synthetic runs only: a program run evaluates node by node, vc_eval,
 * so the waits of these instances are a constant 0.) */
static void vc_eval_all(struct noc_sim *s, const int32_t *nodes, int count)
{
    vc_state_t *r = s->rstate;
    if (s->occ)
        for (int i = 0; i < count; i++)
            vc_eval(s, nodes[i]);
    else if (r->lean && !s->serialise) /* (the fast instance without the tests r->lean stands for) */
        for (int i = 0; i < count; i++)
            vc_eval_node(s, r, nodes[i], 1, 1, 0, 0, 0, 1, 0, 1);
    else if (r->fast && !s->serialise)
        for (int i = 0; i < count; i++)
            vc_eval_node(s, r, nodes[i], 1, 1, 0, 0, 0, 1, 0, 0);
    else if (r->va_whole) /* (an instance of its own: the others' VA takes no test for it) */
        for (int i = 0; i < count; i++)
            vc_eval_node(s, r, nodes[i], r->W, r->S, s->serialise, 0, 0, 0, 1, 0);
    else
        for (int i = 0; i < count; i++)
            vc_eval_node(s, r, nodes[i], r->W, r->S, s->serialise, 0, 0, 0, 0, 0);
}

/* Node and local index of VC v of global port g. */
static const vc_node_t *port_vc(const vc_state_t *r, int g, int v, int *l)
{
    const vc_node_t *nd = vc_node(r, r->port_node[g]);
    *l = (g - nd->base) * r->V + v;
    return nd;
}

static int vc_credits(const struct noc_sim *s, int g, int v)
{
    const vc_state_t *r = s->rstate;
    int l;
    const vc_node_t *nd = port_vc(r, g, v, &l);
    /* (with output queues, a queued flit's credit is counted as held: it
     * is on neither the channel nor the buffer downstream) */
    return nd->credits[l] + (r->sp ? noc_vc_sp_queued_flits(r, g, v) : 0);
}

static int vc_occupancy(const struct noc_sim *s, int g, int v)
{
    const vc_state_t *r = s->rstate;
    int l;
    const vc_node_t *nd = port_vc(r, g, v, &l);
    /* (with output queues, a flit whose credit waits to be sent is counted
     * as still buffered) */
    return (int)noc_fifo_count(nd->ivc[l].head, nd->ivc[l].tail) +
           (r->sp ? noc_vc_sp_queued_credits(r, nd, g - nd->base, v) : 0);
}

static int vc_depth(const struct noc_sim *s)
{
    const vc_state_t *r = s->rstate;
    return r->depth;
}

static void vc_visit(const struct noc_sim *s, int n, noc_flit_visit_fn fn, void *ctx)
{
    const vc_state_t *r = s->rstate;
    const noc_graph_t *gr = s->graph;
    const vc_node_t *nd = vc_node(r, n);
    int P = gr->port_base[n + 1] - gr->port_base[n] + r->lane_ports;
    for (int p = 0; p < P; p++)
        for (int v = 0; v < r->V; v++) {
            int l = p * r->V + v;
            /* (a lane port's flits are named by the node's local port) */
            int g = nd->base + (p < P - r->lane_ports ? p : 0);
            for (uint16_t k = nd->ivc[l].head; k != nd->ivc[l].tail; k++)
                fn(ctx, vc_slot(nd->buf, r, l, k), g, v);
        }
    if (r->sp)
        noc_vc_sp_visit(s, n, fn, ctx);
}

static int vc_lane_occupancy(const struct noc_sim *s, int n, int lane, int v)
{
    const vc_state_t *r = s->rstate;
    const vc_node_t *nd = vc_node(r, n);
    int l = (s->graph->port_base[n + 1] - s->graph->port_base[n] + lane - 1) * r->V + v;
    return (int)noc_fifo_count(nd->ivc[l].head, nd->ivc[l].tail);
}

/* hold_switch_for_packet = 1: the nodes' evaluation with the switch hold
 * (vc_hold.c), the node_stats occupancy after it as vc_eval counts it. */
static void vc_eval_hold(struct noc_sim *s, int n)
{
    noc_vc_eval_hold(s, &n, 1);
    if (s->occ)
        count_occupancy(s, s->rstate, n);
}

static void vc_eval_all_hold(struct noc_sim *s, const int32_t *nodes, int count)
{
    if (s->occ)
        for (int i = 0; i < count; i++)
            vc_eval_hold(s, nodes[i]);
    else
        noc_vc_eval_hold(s, nodes, count);
}

/* speculative = 1: the same with vc_spec.c's evaluation. */
static void vc_eval_spec(struct noc_sim *s, int n)
{
    noc_vc_eval_spec(s, &n, 1);
    if (s->occ)
        count_occupancy(s, s->rstate, n);
}

static void vc_eval_all_spec(struct noc_sim *s, const int32_t *nodes, int count)
{
    if (s->occ)
        for (int i = 0; i < count; i++)
            vc_eval_spec(s, nodes[i]);
    else
        noc_vc_eval_spec(s, nodes, count);
}

/* internal or output speedup: vc_speedup.c's evaluation. */
static void vc_eval_sp(struct noc_sim *s, int n)
{
    noc_vc_eval_sp(s, &n, 1);
    if (s->occ)
        count_occupancy(s, s->rstate, n);
}

static void vc_eval_all_sp(struct noc_sim *s, const int32_t *nodes, int count)
{
    if (s->occ)
        for (int i = 0; i < count; i++)
            vc_eval_sp(s, nodes[i]);
    else
        noc_vc_eval_sp(s, nodes, count);
}

/* adaptive routing: vc_adapt.c's evaluation. */
static void vc_eval_adapt(struct noc_sim *s, int n)
{
    noc_vc_eval_adapt(s, &n, 1);
    if (s->occ)
        count_occupancy(s, s->rstate, n);
}

static void vc_eval_all_adapt(struct noc_sim *s, const int32_t *nodes, int count)
{
    if (s->occ)
        for (int i = 0; i < count; i++)
            vc_eval_adapt(s, nodes[i]);
    else
        noc_vc_eval_adapt(s, nodes, count);
}

static const char *vc_adapt_programs(const struct noc_sim *s)
{
    (void)s;
    return "adaptive routing: the vc router runs it for synthetic traffic only (a program's waits and its "
           "NI's first hops are not modelled with routes chosen by load yet)";
}

static const char *vc_sp_programs(const struct noc_sim *s)
{
    (void)s;
    return "parameter 'internal_speedup' / 'output_speedup': the vc router models them for synthetic traffic only "
           "(a program's waits are not attributed through the output queues yet)";
}

/* threads > 1: a copy of the state for one more thread, sharing every
 * router's registers (a thread evaluates only its own nodes) but with the
 * scratch of a node's evaluation (who, mask, grant, lvc, next, spec_req,
 * adaptive routing's allocation) its own. (Programs and output queues are refused with threads, so
 * arrive, va_from and sp need no copy.) */
static void *vc_thread_state(const struct noc_sim *s)
{
    const vc_state_t *r = s->rstate;
    vc_state_t *t = noc_xcalloc(1, sizeof *t, "vc router");
    *t = *r;
    size_t nl = (size_t)r->max_ports * (size_t)r->V;
    t->who = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    t->mask = noc_xcalloc(2 * nl, sizeof(uint64_t), "vc router");
    t->grant = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    t->lvc = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    t->next = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    t->spec_req = r->spec_req ? noc_xcalloc((size_t)r->W, sizeof(uint64_t), "vc router") : NULL;
    t->adapt = r->adapt ? noc_vc_adapt_thread_copy(r) : NULL;
    return t;
}

static void vc_thread_state_free(void *state)
{
    vc_state_t *t = state;
    if (!t)
        return;
    free(t->who);
    free(t->mask);
    free(t->grant);
    free(t->lvc);
    free(t->next);
    free(t->spec_req);
    noc_vc_adapt_thread_free(t->adapt);
    free(t);
}

/* The family's operations, with the evaluation functions given. */
#define VC_OPS(EVAL, EVAL_ALL, PROG, TS)                                                 \
    {                                                                                    \
        .name = "vc",                                                                    \
        .help = "input-queued virtual-channel wormhole router with credit flow control", \
        .create = vc_create,                                                             \
        .bytes = vc_bytes,                                                               \
        .destroy = vc_destroy,                                                           \
        .eval = EVAL,                                                                    \
        .eval_all = EVAL_ALL,                                                            \
        .commit = NULL,                                                                  \
        .credits = vc_credits,                                                           \
        .occupancy = vc_occupancy,                                                       \
        .depth = vc_depth,                                                               \
        .visit = vc_visit,                                                               \
        .lane_ports = 1,                                                                 \
        .terminals = 1,                                                                  \
        .eject_credits = 1,                                                              \
        .packet_kinds = 1,                                                               \
        .lane_occupancy = vc_lane_occupancy,                                             \
        .waits_on = vc_waits_on,                                                         \
        .held_work = noc_vc_sp_held_work,                                                \
        .programs_refused = PROG,                                                        \
        .thread_state = TS,                                                              \
        .thread_state_free = vc_thread_state_free,                                       \
    }

const noc_router_ops_t noc_router_vc = VC_OPS(vc_eval, vc_eval_all, NULL, vc_thread_state);

/* The vc family with hold_switch_for_packet = 1: vc_create puts this table
 * on the run, so that the evaluation of the others has no test of it (the
 * same family: its name, state and everything but eval and eval_all). */
static const noc_router_ops_t vc_hold_ops = VC_OPS(vc_eval_hold, vc_eval_all_hold, NULL, vc_thread_state);

/* ... and with speculative = 1 (vc_spec.c). */
static const noc_router_ops_t vc_spec_ops = VC_OPS(vc_eval_spec, vc_eval_all_spec, NULL, vc_thread_state);

/* ... and with internal or output speedup (vc_speedup.c), which runs no
 * programs. */
static const noc_router_ops_t vc_sp_ops = VC_OPS(vc_eval_sp, vc_eval_all_sp, vc_sp_programs, NULL);

/* ... and with adaptive routing (vc_adapt.c), synthetic traffic only. */
static const noc_router_ops_t vc_adapt_ops = VC_OPS(vc_eval_adapt, vc_eval_all_adapt, vc_adapt_programs, vc_thread_state);
