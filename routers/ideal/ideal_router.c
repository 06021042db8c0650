/* ideal_router.c: the unit-time router of the reference papers.
 *
 * Every directed link carries one word (flit) per cycle; a router adds no
 * delay, so a flit that arrives in cycle t leaves in cycle t and a k-hop
 * message takes k link latencies. The PE is wired straight to its router:
 * what it sends in cycle t leaves on a link in cycle t, and a flit that
 * reaches its destination is handed to the PE in the cycle it arrives
 * (before the PE's own evaluation, so the PE can act on it at once). Flits
 * wait only when another flit wants the same output link in the same cycle;
 * then the one farther from its destination goes first (ties: the older
 * packet, then the earlier flit), so longer messages pipeline one flit per
 * link per cycle. A link narrower than a flit (class_width) carries one
 * flit every ceil(flit_width / width) cycles.
 *
 * The papers' buffers are unbounded; here every input port holds
 * num_vcs * vc_buf_size flits with credit flow control. A flit moves on to
 * a VC of the class the fabric's routing gives its next link (datelines,
 * group phases: the classes the vc router uses), so the same argument makes
 * it deadlock-free: buffers of one class depend only on buffers of the same
 * or a later class, without a cycle. A flit whose class has no free VC
 * downstream does not hold up the others (docs/router.md).
 *
 * Ports: up to 254 network ports a node. The arrival masks have a bit per
 * port up to NOC_PORT_SPILL; the ports from there on share that bit, and
 * when it is set each of them is looked at. */
#include "util/xalloc.h"
#include "model/ni.h"
#include "model/channel.h"
#include "routers/families.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ideal_slot {
    noc_flit_t f;
    uint64_t pkt_id;   /* priority tie-break: older packet first */
    uint16_t dist;     /* hops left to the destination */
    uint8_t port;      /* output port it waits for */
    uint8_t vc;        /* input VC it occupies (for the credit) */
    uint8_t vclass;    /* VC class of its next link (the routing's) */
    uint8_t used;
} ideal_slot_t;

typedef struct ideal_state {
    int V, depth, per_port;    /* per_port = V * depth slots */
    uint8_t cls_lo[NOC_GRAPH_MAX_CLASSES], cls_hi[NOC_GRAPH_MAX_CLASSES]; /* VCs of each VC class */
    ideal_slot_t *slot;        /* n_ports * per_port */
    uint64_t *used;            /* per port: per_words words, bit k set when slot k holds a flit */
    int per_words;
    int16_t *occ;              /* per input VC (gport * V + v) */
    int16_t *credits;          /* per output VC */
    int32_t *buffered;         /* per node */
} ideal_state_t;

static int ideal_create(struct noc_sim *s, char *err, size_t errlen)
{
    const noc_graph_t *gr = s->graph;
    if (gr->max_degree + 1 > UINT8_MAX) {
        snprintf(err, errlen, "%s: the ideal router supports at most 254 network ports per node", gr->name);
        return -1;
    }
    if (gr->route_set) {
        snprintf(err, errlen, "parameter 'routing_function': %s is adaptive, chosen by a router's VC allocation "
                 "and credits, which the ideal router has none of; only the vc router runs it",
                 s->cfg.routing_function);
        return -1;
    }
    if (s->cfg.wait_for_tail_credit) {
        snprintf(err, errlen, "parameter 'wait_for_tail_credit': the ideal router has no credits; only the vc router "
                 "honours 1");
        return -1;
    }
    if (strcmp(s->cfg.priority, "none") != 0) {
        snprintf(err, errlen, "parameter 'priority': the ideal router has no allocators to rank requests in; only "
                 "the vc router honours %s", s->cfg.priority);
        return -1;
    }
    if (s->cfg.vc_prioritize_empty) {
        snprintf(err, errlen, "parameter 'vc_prioritize_empty': the ideal router has no VC allocation; only the vc "
                 "router honours 1");
        return -1;
    }
    if (s->cfg.vc_busy_when_full || s->cfg.vc_shuffle_requests) {
        snprintf(err, errlen, "parameter '%s': the ideal router has no VC allocation; only the vc router honours 1",
                 s->cfg.vc_busy_when_full ? "vc_busy_when_full" : "vc_shuffle_requests");
        return -1;
    }
    if (s->cfg.hold_switch_for_packet) {
        snprintf(err, errlen, "parameter 'hold_switch_for_packet': the ideal router has no switch allocation; "
                 "only the vc router honours 1");
        return -1;
    }
    if (s->cfg.input_speedup != 1) {
        snprintf(err, errlen, "parameter 'input_speedup': the ideal router has no switch allocation; only the vc "
                 "router honours %lld", (long long)s->cfg.input_speedup);
        return -1;
    }
    if (s->cfg.internal_speedup != 1.0 || s->cfg.output_speedup != 1 || s->cfg.output_buffer_size != -1) {
        snprintf(err, errlen, "parameter '%s': the ideal router has no crossbar or output queues; only the vc "
                 "router honours it", s->cfg.internal_speedup != 1.0 ? "internal_speedup"
                 : s->cfg.output_speedup != 1 ? "output_speedup" : "output_buffer_size");
        return -1;
    }
    if (s->cfg.speculative) {
        snprintf(err, errlen, "parameter 'speculative': the ideal router has no VC or switch allocation to "
                 "speculate on; only the vc router honours 1");
        return -1;
    }
    if (s->cfg.num_vcs < gr->n_vclasses) {
        snprintf(err, errlen, "parameter 'num_vcs': %s needs at least %d virtual channels for deadlock-free "
                 "routing, %lld given", gr->name, gr->n_vclasses, (long long)s->cfg.num_vcs);
        return -1;
    }
    ideal_state_t *r = noc_xcalloc(1, sizeof *r, "ideal router");
    s->rstate = r;
    r->V = (int)s->cfg.num_vcs;
    for (int c = 0; c < gr->n_vclasses && c < NOC_GRAPH_MAX_CLASSES; c++) {
        int lo, hi;
        noc_vc_class_range(r->V, gr->n_vclasses, c, &lo, &hi);
        r->cls_lo[c] = (uint8_t)lo;
        r->cls_hi[c] = (uint8_t)hi;
    }
    r->depth = (int)s->cfg.vc_buf_size;
    r->per_port = r->V * r->depth;
    r->slot = noc_xcalloc((size_t)gr->n_ports * (size_t)r->per_port, sizeof(ideal_slot_t), "ideal router");
    r->per_words = (r->per_port + 63) / 64;
    r->used = noc_xcalloc((size_t)gr->n_ports * (size_t)r->per_words, sizeof(uint64_t), "ideal router");
    r->occ = noc_xcalloc((size_t)gr->n_ports * (size_t)r->V, sizeof(int16_t), "ideal router");
    r->credits = noc_xcalloc((size_t)gr->n_ports * (size_t)r->V, sizeof(int16_t), "ideal router");
    for (int i = 0; i < gr->n_ports * r->V; i++)
        r->credits[i] = (int16_t)r->depth;
    r->buffered = noc_xcalloc((size_t)gr->n_nodes, sizeof(int32_t), "ideal router");
    return 0;
}

static uint64_t ideal_bytes(const struct noc_sim *s)
{
    const noc_graph_t *gr = s->graph;
    uint64_t V = (uint64_t)s->cfg.num_vcs, per_port = V * (uint64_t)s->cfg.vc_buf_size;
    uint64_t np = (uint64_t)gr->n_ports;
    return sizeof(ideal_state_t) + np * per_port * sizeof(ideal_slot_t) + np * ((per_port + 63) / 64) * 8 +
           2 * np * V * sizeof(int16_t) + (uint64_t)gr->n_nodes * sizeof(int32_t);
}

static void ideal_destroy(struct noc_sim *s)
{
    ideal_state_t *r = s->rstate;
    if (!r)
        return;
    free(r->slot);
    free(r->used);
    free(r->occ);
    free(r->credits);
    free(r->buffered);
    free(r);
    s->rstate = NULL;
}

/* Put flit f, arrived at input port gport of node n, into a free slot. */
static void store(struct noc_sim *s, ideal_state_t *r, int n, int gport, const noc_flit_t *f)
{
    const noc_graph_t *gr = s->graph;
    ideal_slot_t *sl = &r->slot[(size_t)gport * (size_t)r->per_port];
    uint64_t *used = &r->used[(size_t)gport * (size_t)r->per_words];
    int w = 0;
    while (w < r->per_words && used[w] == ~UINT64_C(0))
        w++;
    int k = 64 * w + (w < r->per_words ? __builtin_ctzll(~used[w]) : 0); /* the lowest free slot */
    assert(k < r->per_port && !sl[k].used);
    used[w] |= UINT64_C(1) << (k & 63);
    noc_route_t rt;
    noc_graph_route_pkt(gr, s->pkts, f->pkt, n, f->dst, f->hops, &rt);
    sl[k].f = *f;
    sl[k].pkt_id = s->pkts[f->pkt].id;
    sl[k].dist = (uint16_t)noc_graph_route_hops(gr, n, f->dst);
    sl[k].port = rt.port;
    sl[k].vclass = rt.vclass;
    sl[k].vc = f->vc;
    sl[k].used = 1;
    if (s->occ)
        noc_occ_add(s->occ, n, s->now, 1, r->occ[gport * r->V + f->vc] == 0);
    r->occ[gport * r->V + f->vc]++;
    r->buffered[n]++;
}

/* The flit arriving on input port g of node n this cycle, if any (there
 * must be one if `must`): to the PE if it is home, else into a slot. */
static void take(struct noc_sim *s, ideal_state_t *r, int n, int g, int must)
{
    noc_flit_t f;
    int got = noc_chan_recv_flit(s, s->in_chan[g], &f);
    assert(got || !must);
    (void)must;
    if (!got)
        return;
    if (s->lst && noc_measuring(s)) {
        int occ = 0;
        for (int v = 0; v < r->V; v++)
            occ += r->occ[g * r->V + v];
        if ((uint32_t)occ + 1 > s->lst[s->in_chan[g]].peak_queue)
            s->lst[s->in_chan[g]].peak_queue = (uint32_t)occ + 1;
    }
    if (f.dst == n) {
        noc_chan_send_credit(s, s->in_chan[g], f.vc);
        noc_ni_deliver(s, n, &f);
    } else {
        store(s, r, n, g, &f);
    }
}

/* Before the PE: flits arriving for this node go straight to it. */
static void ideal_pre_eval(struct noc_sim *s, int n)
{
    ideal_state_t *r = s->rstate;
    const noc_graph_t *gr = s->graph;
    int base = gr->port_base[n];
    uint32_t at = noc_chan_at(s, n, noc_chan_slot(s, s->now));
    uint64_t fl = noc_chan_flits_in(s, at) & ~(UINT64_C(1) | NOC_NI_MASK);
    /* port 0 is read in eval, after the NI; the NI bit is the NI's */
    noc_chan_flits_seen(s, at, ~(UINT64_C(1) | NOC_NI_MASK));
    int P = gr->port_base[n + 1] - base;
    for (; fl; fl &= fl - 1) {
        int p = __builtin_ctzll(fl);
        if (p == NOC_PORT_SPILL)
            for (int q = p; q < P; q++)
                take(s, r, n, base + q, 0);
        else
            take(s, r, n, base + p, 1);
    }
}

/* An all-port NI hands its flits over directly, several in a cycle. */
static void ideal_inject(struct noc_sim *s, int n, const noc_flit_t *f)
{
    store(s, s->rstate, n, s->graph->port_base[n], f);
    noc_work_add(s, n, 1);
}

static int better(const ideal_slot_t *a, const ideal_slot_t *b)
{
    if (a->dist != b->dist)
        return a->dist > b->dist;
    if (a->pkt_id != b->pkt_id)
        return a->pkt_id < b->pkt_id;
    return a->f.seq < b->f.seq;
}

/* The first VC of class cls on output og with a credit, or -1. */
static int free_vc(const ideal_state_t *r, int og, int cls)
{
    for (int v = r->cls_lo[cls]; v < r->cls_hi[cls]; v++)
        if (r->credits[og * r->V + v] > 0)
            return v;
    return -1;
}

/* The slots of port g that hold a flit, in slot order: for each, k is its
 * index (a loop over the set bits of the port's used words). */
#define FOR_USED(r, g, k)                                                                        \
    for (int w_ = 0; w_ < (r)->per_words; w_++)                                                  \
        for (uint64_t b_ = (r)->used[(size_t)(g) * (size_t)(r)->per_words + (size_t)w_]; b_;      \
             b_ &= b_ - 1)                                                                       \
            for (int k = 64 * w_ + __builtin_ctzll(b_), once_ = 1; once_; once_ = 0)

/* Output o of the node at base still sends an earlier flit (class_width):
 * its bit in held (noc_chan_ser_held) below 64, the channel's own state
 * above. */
static inline int link_held(const struct noc_sim *s, uint64_t held, int base, int o)
{
    return o < 64 ? ((held >> o) & 1) != 0 : noc_chan_ser_busy(s, base + o);
}

/* Programs: every flit that waits this cycle, a cycle's wait each at the
 * link it wants: behind a link still sending (held), behind another flit
 * (link), or for a free VC of its class downstream (credit). best[o]: the
 * flit that goes on output o (NULL: none). Credits are this cycle's,
 * before any flit goes. */
static void count_waits(struct noc_sim *s, const ideal_state_t *r, int base, int P, uint64_t held,
                        ideal_slot_t *const *best)
{
    for (int p = 0; p < P; p++) {
        const ideal_slot_t *sl = &r->slot[(size_t)(base + p) * (size_t)r->per_port];
        FOR_USED(r, base + p, k) {
            int o = sl[k].port;
            if (o < 1 || o >= P || &sl[k] == best[o])
                continue;
            int kind;
            if (link_held(s, held, base, o))
                kind = NOC_WAIT_LINK; /* the link still sends an earlier flit */
            else if (!best[o] || free_vc(r, base + o, sl[k].vclass) < 0)
                kind = NOC_WAIT_CREDIT; /* its class has no free VC downstream */
            else
                kind = NOC_WAIT_LINK; /* another flit won the link */
            noc_wait_pkt(s, kind, sl[k].f.pkt, base + o, 1);
        }
    }
}

/* Flit best goes on output o of node n (global port og) in VC ov. */
static void send_best(struct noc_sim *s, ideal_state_t *r, int n, int og, ideal_slot_t *best, int ov, int meas)
{
    int V = r->V;
    int ig = (int)((best - r->slot) / r->per_port); /* its input port */
    int bk = (int)((best - r->slot) % r->per_port);
    noc_flit_t f = best->f;
    best->used = 0;
    r->used[(size_t)ig * (size_t)r->per_words + (size_t)(bk >> 6)] &= ~(UINT64_C(1) << (bk & 63));
    r->occ[ig * V + best->vc]--;
    r->buffered[n]--;
    if (s->occ)
        noc_occ_add(s->occ, n, s->now, -1, -(r->occ[ig * V + best->vc] == 0));
    noc_chan_send_credit(s, s->in_chan[ig], best->vc);
    f.hops++; /* (every flit: a route that draws reads it) */
    f.vc = (uint8_t)ov;
    r->credits[og * V + ov]--;
    uint32_t ser = s->serialise ? noc_chan_ser_start(s, og) : 0;
    noc_chan_send_flit(s, og, s->chan_delay[og] + ser, &f);
    noc_work_sub(s, n, 1);
    if (s->step_flits)
        s->step_flits[(size_t)s->pkts[f.pkt].step * (size_t)s->n_chan + (size_t)og]++;
    if (meas) { /* (st.flit_hops is summed from these when the run ends) */
        s->lst[og].flits++;
        s->lst[og].busy += 1 + ser;
    }
    s->last_move = s->now;
}

/* The node's input: credits coming back, and the flit its PE injected
 * through the local channel (flits for it arrived before, ideal_pre_eval). */
static void ideal_receive(struct noc_sim *s, ideal_state_t *r, int n, int base, int P)
{
    int V = r->V;
    uint32_t at = noc_chan_at(s, n, noc_chan_slot(s, s->now));
    for (uint64_t cr = noc_chan_credits_in(s, at) & ~NOC_NI_MASK; cr; cr &= cr - 1) {
        int p = __builtin_ctzll(cr);
        if (p == NOC_PORT_SPILL) { /* the ports from the spill bit on: any of them */
            for (int q = p; q < P; q++)
                noc_chan_recv_credits(s, base + q, &r->credits[(base + q) * V]);
            continue;
        }
        int got = noc_chan_recv_credits(s, base + p, &r->credits[(base + p) * V]);
        assert(got > 0);
        (void)got;
    }
    noc_chan_credits_seen(s, at, ~UINT64_C(0)); /* (the NI has taken its bit) */
    if (noc_chan_flits_in(s, at) & 1u) {
        noc_flit_t f;
        int got = noc_chan_recv_flit(s, s->in_chan[base], &f);
        assert(got);
        (void)got;
        store(s, r, n, base, &f);
    }
    noc_chan_flits_seen(s, at, ~UINT64_C(0));
}

/* Every output link sends the waiting flit farthest from home. One pass
 * over the buffered flits finds, for every output, the flits that want it
 * and, among those whose VC class has a free VC downstream, the one to go
 * (the same one a pass per output would find: the passes see the same
 * flits in the same order, and a flit that goes frees nothing another
 * output's choice reads); so the cost follows the flits buffered, not
 * flits times ports. */
static void ideal_eval(struct noc_sim *s, int n)
{
    ideal_state_t *r = s->rstate;
    const noc_graph_t *gr = s->graph;
    int base = gr->port_base[n], P = gr->port_base[n + 1] - base;
    ideal_receive(s, r, n, base, P);
    if (r->buffered[n] == 0)
        return;

    uint64_t held = noc_chan_ser_held(s, n); /* links still sending a flit (class_width) */
    ideal_slot_t *best[256];
    uint32_t wanting[256];
    uint8_t ov[256];
    for (int o = 0; o < P; o++) {
        best[o] = NULL;
        wanting[o] = 0;
    }
    for (int p = 0; p < P; p++) {
        ideal_slot_t *sl = &r->slot[(size_t)(base + p) * (size_t)r->per_port];
        FOR_USED(r, base + p, k) {
            int o = sl[k].port;
            if (o < 1 || o >= P)
                continue;
            wanting[o]++;
            if ((best[o] && !better(&sl[k], best[o])) || link_held(s, held, base, o))
                continue;
            int v = free_vc(r, base + o, sl[k].vclass);
            if (v >= 0) {
                best[o] = &sl[k];
                ov[o] = (uint8_t)v;
            }
        }
    }
    if (s->step_flits)
        count_waits(s, r, base, P, held, best);
    int meas = noc_measuring(s);
    for (int o = 1; o < P; o++) {
        if (!wanting[o] || link_held(s, held, base, o))
            continue;
        int og = base + o;
        if (meas && wanting[o] > 1)
            s->lst[og].contention++;
        if (!best[o]) {
            if (meas)
                s->lst[og].credit_stall++;
            continue;
        }
        send_best(s, r, n, og, best[o], ov[o], meas);
    }
}

static int ideal_credits(const struct noc_sim *s, int g, int v)
{
    const ideal_state_t *r = s->rstate;
    return r->credits[g * r->V + v];
}

static int ideal_occupancy(const struct noc_sim *s, int g, int v)
{
    const ideal_state_t *r = s->rstate;
    return r->occ[g * r->V + v];
}

static int ideal_depth(const struct noc_sim *s)
{
    const ideal_state_t *r = s->rstate;
    return r->depth;
}

static void ideal_visit(const struct noc_sim *s, int n, noc_flit_visit_fn fn, void *ctx)
{
    const ideal_state_t *r = s->rstate;
    const noc_graph_t *gr = s->graph;
    for (int g = gr->port_base[n]; g < gr->port_base[n + 1]; g++) {
        const ideal_slot_t *sl = &r->slot[(size_t)g * (size_t)r->per_port];
        FOR_USED(r, g, k)
            fn(ctx, &sl[k].f, g, sl[k].vc);
    }
}

const noc_router_ops_t noc_router_ideal = {
    .name = "ideal",
    .help = "the papers' unit-time model: no router delay, one flit per link per cycle, all-port",
    .create = ideal_create,
    .bytes = ideal_bytes,
    .destroy = ideal_destroy,
    .eval = ideal_eval,
    .pre_eval = ideal_pre_eval,
    .direct_ni = 1,
    .commit = NULL,
    .inject = ideal_inject,
    .credits = ideal_credits,
    .occupancy = ideal_occupancy,
    .depth = ideal_depth,
    .visit = ideal_visit,
};
