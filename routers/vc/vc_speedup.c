/* vc_speedup.c: internal and output speedup in the vc router
 * (internal_speedup, output_speedup, output_buffer_size), with BookSim2's
 * meaning (iq_router.cpp, router.cpp: _InternalStep, _partial_internal_cycles,
 * _output_buffer, expanded outputs).
 *
 * Internal steps. Each cycle a router runs k internal steps, k from an
 * accumulator: every cycle adds internal_speedup, and each whole unit it
 * holds is a step (1.5: 1 step, then 2, in turn; the same double arithmetic
 * as BookSim2's, one accumulator for the fabric since every router starts at
 * cycle 0). The flits and credits that arrive in a cycle are taken before its
 * first step; then each step runs VC allocation and switch allocation, and
 * every stage of one cycle in the other instances takes one step here: the
 * route of a head that arrives in step u ends in step u + R - 1 (R <= 1), it
 * bids for a VC from u + R, granted in step c it bids for the switch from
 * c + 1, granted the switch in step s it crosses the crossbar in step s + 1
 * and its VC's next flit bids from s + 1. So up to k flits a cycle leave an
 * input port (k x input_speedup, to different outputs within a step).
 *
 * Output queues. A flit granted the switch in step s takes its credit for
 * the downstream buffer then (as in the other instances) and reaches the
 * output queue of its output port in step s + 1. Each output queue sends its
 * front flit, if it reached the queue by the cycle's last step, to the
 * channel at the end of the cycle: one flit a cycle, arriving
 * st_final_delay + link latency cycles later (with k = 1 exactly when the
 * other instances' flit arrives). With output_speedup So the switch has So
 * outputs per output port, input port p reaching port o on switch output
 * o * So + p % So, so up to So flits a step enter one queue.
 * output_buffer_size B >= 0: the switch takes no request for an output whose
 * queue holds B flits, counted as BookSim2 counts them at switch allocation
 * (the flits granted in the step before are still in the crossbar then, so
 * a queue may pass B by So). A queue holds at most V x vc_buf_size flits:
 * a network port's flits hold as many credits; an ejection port without
 * credits stops taking flits there.
 *
 * Credits. The flits that leave an input port in one step make one credit
 * message (their VCs); each input port keeps a queue of messages and sends
 * one a cycle, at the cycle's end, up its channel (BookSim2's
 * _credit_buffer), the channel's credit delay later as in the other instances.
 *
 * Work: a flit in an output queue stays the node's work until it is sent; a
 * credit message waiting is a unit of the node's work too (held_work tells
 * the invariant checker). The readers' views: a queued flit is counted with
 * the credits its output VC holds, a waiting credit with the occupancy of
 * its input VC (so that credits are conserved as model/check.c counts them).
 *
 * Modelled with routing_delay <= 1 and vc_alloc_delay = sw_alloc_delay =
 * st_final_delay = 1 (BookSim2's files that use speedups; a longer stage of
 * BookSim2 ends at a cycle's first step), without hold_switch_for_packet,
 * speculative, narrow links or programs: the rest is refused by name
 * (noc_vc_sp_check). An instance of its own (vc_router.c puts its table of
 * operations on such a run), so the others' code stays as it is. */
#include "util/xalloc.h"
#include "routers/vc/vc.h"
#include "routers/vc/vc_input.h"
#include "routers/vc/vc_output.h"
#include "routers/vc/vc_vcalloc.h"
#include "routers/vc/vc_switch.h"
#include "routers/vc/vc_eval.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vc_sp {
    double step;            /* internal_speedup */
    double partial;         /* the accumulator after cycle `at`'s steps were taken off */
    uint64_t at;            /* the cycle k and u0 are for */
    uint64_t u0;            /* internal steps before cycle `at` */
    int k;                  /* internal steps in cycle `at` */
    int So, B;              /* output_speedup; output_buffer_size (-1: none) */
    uint32_t lim;           /* flits an output queue may hold: V x vc_buf_size */
    uint32_t oq_cap, oq_mask, cq_cap, cq_mask; /* rings: output queue, credit queue (powers of 2) */
    /* per global port g (its output side): its output queue, oq_cap slots from g * oq_cap */
    noc_flit_t *oq;
    uint8_t *oq_vc;         /* the output VC of each queued flit */
    uint64_t *oq_avail;     /* the step each queued flit reaches the queue */
    uint32_t *oq_head, *oq_tail;
    /* per input port i (numbered as the FIFOs: a node's own ports, then its lane ports) */
    uint64_t *cq;           /* credit messages (masks of VCs), cq_cap slots from i * cq_cap */
    uint32_t *cq_head, *cq_tail;
    /* per node */
    uint64_t *oq_busy;      /* output ports with a queued flit */
    uint64_t *cq_busy;      /* input ports with a credit message waiting */
    int32_t *queued;        /* queued flits and credit messages */
    int32_t *msgs;          /* credit messages waiting */
} vc_sp_t;

static uint32_t pow2_above(uint32_t n)
{
    uint32_t c = 1;
    while (c <= n)
        c <<= 1;
    return c;
}

int noc_vc_sp_check(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_config_t *c = &s->cfg;
    if (c->internal_speedup == 1.0 && c->output_speedup == 1)
        return 0;
    const char *name = c->internal_speedup != 1.0 ? "internal_speedup" : "output_speedup";
    const char *what = NULL;
    if (c->routing_delay > 1 && !c->lookahead)
        what = "routing_delay above 1";
    else if (c->vc_alloc_delay != 1)
        what = "vc_alloc_delay other than 1";
    else if (c->sw_alloc_delay != 1)
        what = "sw_alloc_delay other than 1";
    else if (c->st_final_delay != 1)
        what = "st_final_delay other than 1";
    else if (c->hold_switch_for_packet)
        what = "hold_switch_for_packet = 1";
    else if (c->speculative)
        what = "speculative = 1";
    else if (s->serialise)
        what = "links narrower than a flit";
    if (what) {
        snprintf(err, errlen, "parameter '%s': the vc router models internal and output speedup with routing_delay "
                 "<= 1, vc_alloc_delay = sw_alloc_delay = st_final_delay = 1, without hold_switch_for_packet, "
                 "speculative and narrow links (BookSim2's stages of one cycle each take one internal step); "
                 "not with %s", name, what);
        return -1;
    }
    const noc_graph_t *gr = s->graph;
    int P = gr->max_degree + noc_graph_max_locals(gr);
    if ((int64_t)P * c->output_speedup > 64) {
        snprintf(err, errlen, "parameter 'output_speedup': %lld switch outputs for each of %d output ports are more "
                 "than the vc router's switch allocator takes (64)", (long long)c->output_speedup, P);
        return -1;
    }
    return 0;
}

/* The sizes of the queues (init and bytes). */
static void sp_size(const struct noc_sim *s, const vc_state_t *r, vc_sp_t *q)
{
    const noc_config_t *c = &s->cfg;
    q->step = c->internal_speedup;
    q->So = (int)c->output_speedup;
    q->B = (int)c->output_buffer_size;
    q->lim = (uint32_t)r->V * (uint32_t)r->depth;
    q->oq_cap = pow2_above(q->lim + (uint32_t)q->So);
    q->oq_mask = q->oq_cap - 1;
    q->cq_cap = pow2_above(q->lim);
    q->cq_mask = q->cq_cap - 1;
}

uint64_t noc_vc_sp_bytes(const struct noc_sim *s, const vc_state_t *r)
{
    if (s->cfg.internal_speedup == 1.0 && s->cfg.output_speedup == 1)
        return 0;
    vc_sp_t q;
    sp_size(s, r, &q);
    uint64_t ports = (uint64_t)s->graph->n_ports, ins = (uint64_t)r->n_in_ports, nodes = (uint64_t)s->graph->n_nodes;
    return sizeof q + ports * q.oq_cap * (sizeof(noc_flit_t) + 1 + 8) + ports * 8 +
           ins * q.cq_cap * 8 + ins * 8 + nodes * 24;
}

void noc_vc_sp_init(struct noc_sim *s, vc_state_t *r)
{
    vc_sp_t *q = noc_xcalloc(1, sizeof *q, "vc router");
    sp_size(s, r, q);
    size_t ports = (size_t)s->graph->n_ports, ins = (size_t)r->n_in_ports, nodes = (size_t)s->graph->n_nodes;
    q->oq = noc_xcalloc(ports * q->oq_cap, sizeof *q->oq, "vc router");
    q->oq_vc = noc_xcalloc(ports * q->oq_cap, 1, "vc router");
    q->oq_avail = noc_xcalloc(ports * q->oq_cap, sizeof *q->oq_avail, "vc router");
    q->oq_head = noc_xcalloc(ports, sizeof *q->oq_head, "vc router");
    q->oq_tail = noc_xcalloc(ports, sizeof *q->oq_tail, "vc router");
    q->cq = noc_xcalloc(ins * q->cq_cap, sizeof *q->cq, "vc router");
    q->cq_head = noc_xcalloc(ins, sizeof *q->cq_head, "vc router");
    q->cq_tail = noc_xcalloc(ins, sizeof *q->cq_tail, "vc router");
    q->oq_busy = noc_xcalloc(nodes, sizeof *q->oq_busy, "vc router");
    q->cq_busy = noc_xcalloc(nodes, sizeof *q->cq_busy, "vc router");
    q->queued = noc_xcalloc(nodes, sizeof *q->queued, "vc router");
    q->msgs = noc_xcalloc(nodes, sizeof *q->msgs, "vc router");
    /* cycle 0's steps */
    q->partial = q->step;
    for (q->k = 0; q->partial >= 1.0; q->k++)
        q->partial -= 1.0;
    r->sp = q;
}

void noc_vc_sp_free(vc_state_t *r)
{
    vc_sp_t *q = r->sp;
    if (!q)
        return;
    free(q->oq);
    free(q->oq_vc);
    free(q->oq_avail);
    free(q->oq_head);
    free(q->oq_tail);
    free(q->cq);
    free(q->cq_head);
    free(q->cq_tail);
    free(q->oq_busy);
    free(q->cq_busy);
    free(q->queued);
    free(q->msgs);
    free(q);
    r->sp = NULL;
}

/* The accumulator up to cycle now: its steps (q->k) and the steps before
 * it (q->u0). */
static void sp_advance(vc_sp_t *q, uint64_t now)
{
    while (q->at < now) {
        q->u0 += (uint64_t)q->k;
        q->at++;
        q->partial += q->step;
        for (q->k = 0; q->partial >= 1.0; q->k++)
            q->partial -= 1.0;
    }
}

/* The input port number of port p of node nd (as its FIFOs are numbered). */
static size_t sp_in(const vc_state_t *r, const vc_node_t *nd, int p)
{
    return (size_t)nd->base + (size_t)nd->n * (size_t)r->lane_ports + (size_t)p;
}

/* The output queue of global port g takes no request in step u: it holds
 * output_buffer_size flits (those granted in step u - 1 not counted: they
 * are still in the crossbar), or its ring is at the limit. */
static int sp_full(const vc_sp_t *q, int g, uint64_t u)
{
    uint32_t h = q->oq_head[g], t = q->oq_tail[g], len = t - h;
    if (len >= q->lim)
        return 1;
    if (q->B < 0)
        return 0;
    const uint64_t *avail = q->oq_avail + (size_t)g * q->oq_cap;
    while (t != h && avail[(t - 1) & q->oq_mask] >= u) {
        t--;
        len--;
    }
    return len >= (uint32_t)q->B;
}

/* The input unit: the flits that arrive this cycle (ports in fl, channel
 * ring slot `slot`), into their FIFOs; a head at the front of an idle VC is
 * routed from the cycle's first step (x->now). */
static void sp_input(vc_ctx_t *x, uint64_t fl, uint32_t slot)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    int arrived = 0;
    for (; fl; fl &= fl - 1) {
        int p = __builtin_ctzll(fl);
        vc_port_t *pt = &nd->port[p];
        const noc_flit_t *f = noc_chan_pop_flit(s, pt->up_chan, slot);
        assert(f != NULL);
        int l = p * x->V + f->vc;
        vc_ivc_t *iv = &nd->ivc[l];
        uint16_t tail = iv->tail;
        int was_empty = iv->head == tail;
        assert(noc_fifo_count(iv->head, tail) < (uint32_t)r->depth);
        *vc_slot(nd->buf, r, l, tail) = *f;
        iv->tail = (uint16_t)(tail + 1);
        if (was_empty) {
            vc_set(vc_ne(x), l, x->W);
            if (iv->state == VC_IDLE)
                vc_route(x, iv, f, l, r->R);
        }
        arrived++;
        int occ = ++pt->occ;
        if (s->measuring && occ > pt->peak) {
            pt->peak = occ;
            s->lst[pt->up_chan].peak_queue = (uint32_t)occ;
        }
    }
    r->buffered[x->n] += arrived;
}

/* The flit at the front of input VC l (VC v of input port p) crosses to
 * output port o in step x->now: it takes its credit, and reaches o's queue
 * in the next step; its credit goes into the step's message of port p
 * (*cpend). Its VC as vc_traverse leaves it. */
static void sp_cross(vc_ctx_t *x, vc_sp_t *q, int l, int p, int v, int o, uint64_t *cpend)
{
    const vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    vc_ivc_t *iv = &nd->ivc[l];
    vc_port_t *out = &nd->port[o];
    int g = nd->base + o, ov = iv->out_vc, cred = (o >= x->locals) | x->ej;
    uint16_t head = iv->head;
    assert(head != iv->tail);
    const noc_flit_t *f = vc_slot(nd->buf, r, l, head);
    uint8_t flags = f->flags;
    uint32_t k = q->oq_tail[g]++ & q->oq_mask;
    size_t at = (size_t)g * q->oq_cap + k;
    q->oq[at] = *f;
    q->oq_vc[at] = (uint8_t)ov;
    q->oq_avail[at] = x->now + 1;
    q->oq_busy[x->n] |= UINT64_C(1) << o;
    q->queued[x->n]++;
    iv->head = ++head;
    nd->port[p].occ--;
    nd->credits[o * x->V + ov] = (int16_t)(nd->credits[o * x->V + ov] - cred);
    cpend[p] |= UINT64_C(1) << v;
    if (flags & NOC_FLIT_TAIL) {
        if (r->wait_tail && cred)
            out->ovc_tail |= UINT64_C(1) << ov;
        else
            out->ovc_free |= UINT64_C(1) << ov;
        iv->state = VC_IDLE;
        vc_clr(vc_sw(x), l, x->W);
        if (head != iv->tail)
            vc_route_head(x, l, 1 + r->R);
    }
    if (head == iv->tail) {
        vc_clr(vc_ne(x), l, x->W);
        noc_fifo_rewind(&iv->head, &iv->tail);
    }
}

/* Switch allocation in step x->now: the ready VCs (an output VC, a credit,
 * room in the output queue) bid on their switch input for their switch
 * output; the allocator matches them, each matched switch input's VC
 * arbiter picks the VC. cpend: the credit messages of the step, per input
 * port. Returns how many crossed. */
static int sp_switch(vc_ctx_t *x, vc_sp_t *q, uint64_t *cpend)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    const uint64_t *sw = vc_sw(x), *ne = vc_ne(x);
    int V = x->V, So = q->So, m = 0;
    uint64_t vc_ready[64], outs[64], in_used = 0, stalled = 0;
    for (int w = 0; w < x->W; w++)
        for (uint64_t bits = sw[w] & ne[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits);
            const vc_ivc_t *iv = &nd->ivc[l];
            int o = iv->rport;
            if (nd->credits[o * V + iv->out_vc] <= 0) {
                stalled |= UINT64_C(1) << o;
                continue;
            }
            if (sp_full(q, nd->base + o, x->now))
                continue;
            int e = vc_in(x, l), eo = o * So + r->l_port[l] % So;
            uint64_t eb = UINT64_C(1) << e;
            if (!(in_used & eb)) {
                in_used |= eb;
                vc_ready[e] = 0;
                outs[e] = 0;
            }
            vc_ready[e] |= UINT64_C(1) << r->l_vc[l];
            outs[e] |= UINT64_C(1) << eo;
        }
    if (s->measuring)
        for (uint64_t b = stalled; b; b &= b - 1)
            s->lst[nd->base + __builtin_ctzll(b)].credit_stall++;
    if (!in_used)
        return 0;
    int16_t who[64], grant[64];
    uint64_t mask[64];
    for (uint64_t b = in_used; b; b &= b - 1) {
        int e = __builtin_ctzll(b);
        who[m] = (int16_t)e;
        mask[m++] = outs[e];
    }
    if (r->sa_wave)
        noc_alloc_run_sparse_general(nd->sa, m, who, mask, grant);
    else
        noc_alloc_run_sparse_separable(nd->sa, m, who, mask, grant);
    int n_cross = 0;
    for (int k = 0; k < m; k++) {
        if (grant[k] < 0)
            continue;
        int e = who[k], o = grant[k] / So, p = r->e_port[e];
        uint64_t cand = 0;
        for (uint64_t b = vc_ready[e]; b; b &= b - 1) {
            int v = __builtin_ctzll(b);
            if (nd->ivc[p * V + v].rport == o)
                cand |= UINT64_C(1) << v;
        }
        int v = r->matrix ? noc_arbiter_pick(vc_sa_vc(r, nd, e), &cand) : noc_rr_pick(cand, nd->vc_ptr[e]);
        assert(v >= 0);
        vc_arb_update(x, e, v);
        sp_cross(x, q, p * V + v, p, v, o, cpend);
        n_cross++;
    }
    return n_cross;
}

/* One internal step (x->now): the VCs whose route or VA stage ends join
 * their sets, VC allocation, switch allocation; the step's credit messages
 * join their ports' queues. */
static void sp_step(vc_ctx_t *x, vc_sp_t *q)
{
    vc_state_t *r = x->r;
    int W = x->W;
    uint64_t va, sw;
    vc_join_wakes(r, x->set, x->now, W, &va, &sw);
    if (va)
        vc_vc_alloc(x);
    if (!sw)
        return;
    uint64_t cpend[64];
    int P = x->s->graph->port_base[x->n + 1] - x->nd->base + r->lane_ports;
    memset(cpend, 0, (size_t)P * sizeof cpend[0]);
    int n_cross = sp_switch(x, q, cpend);
    if (n_cross == 0)
        return;
    r->buffered[x->n] -= n_cross;
    x->s->last_move = x->s->now;
    for (int p = 0; p < P; p++) {
        if (!cpend[p])
            continue;
        size_t i = sp_in(r, x->nd, p);
        q->cq[i * q->cq_cap + (q->cq_tail[i]++ & q->cq_mask)] = cpend[p];
        assert(q->cq_tail[i] - q->cq_head[i] <= q->cq_cap);
        q->cq_busy[x->n] |= UINT64_C(1) << p;
        q->queued[x->n]++;
        q->msgs[x->n]++;
        noc_work_add(x->s, x->n, 1);
    }
}

/* The end of the cycle: each output queue sends its front flit (if it
 * reached the queue by the cycle's last step) to its channel, each input
 * port its first credit message up its channel. */
static void sp_output(vc_ctx_t *x, vc_sp_t *q)
{
    struct noc_sim *s = x->s;
    const vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    int n = x->n;
    uint64_t t = s->now, last = q->u0 + (uint64_t)q->k - 1;
    for (uint64_t b = q->oq_busy[n]; b; b &= b - 1) {
        int o = __builtin_ctzll(b), g = nd->base + o, hop = o >= x->locals;
        size_t at = (size_t)g * q->oq_cap + (q->oq_head[g] & q->oq_mask);
        if (q->oq_avail[at] > last)
            continue;
        const noc_flit_t *f = &q->oq[at];
        vc_port_t *out = &nd->port[o];
        uint32_t fslot = noc_chan_slot(s, t + out->delay - 1u);
        noc_chan_forward_flit(s, g, fslot, out->to, out->to_bit, f, q->oq_vc[at], hop);
        if ((f->flags & NOC_FLIT_HEAD) && hop && r->lookahead) {
            const noc_graph_t *gr = s->graph;
            noc_route_t rt;
            noc_graph_route_pkt(gr, s->pkts, f->pkt, out->to, f->dst, f->hops + hop, &rt);
            noc_chan_set_lookahead(s, g, fslot, rt.port, rt.vclass);
        }
        if (s->measuring) {
            noc_link_stats_t *ls = &s->lst[g];
            ls->flits++;
            ls->heads += f->flags & NOC_FLIT_HEAD;
            ls->busy++;
        }
        if (++q->oq_head[g] == q->oq_tail[g])
            q->oq_busy[n] &= ~(UINT64_C(1) << o);
        q->queued[n]--;
        noc_work_sub(s, n, 1);
        s->last_move = t;
    }
    for (uint64_t b = q->cq_busy[n]; b; b &= b - 1) {
        int p = __builtin_ctzll(b);
        const vc_port_t *in = &nd->port[p];
        size_t i = sp_in(r, nd, p);
        uint64_t vcs = q->cq[i * q->cq_cap + (q->cq_head[i] & q->cq_mask)];
        uint32_t cd = s->chan_cdelay[in->up_chan]; /* (credit_delay, inject_credit_delay, or the link's with link_credits) */
        uint32_t slot = noc_chan_slot(s, t + cd);
        for (; vcs; vcs &= vcs - 1)
            noc_chan_send_credit_to(s, in->up_chan, __builtin_ctzll(vcs), slot, in->up_node, in->up_bit);
        if (++q->cq_head[i] == q->cq_tail[i])
            q->cq_busy[n] &= ~(UINT64_C(1) << p);
        q->queued[n]--;
        q->msgs[n]--;
        noc_work_sub(s, n, 1);
    }
}

static void sp_eval_node(struct noc_sim *s, vc_state_t *r, vc_sp_t *q, int n)
{
    uint32_t slot = noc_chan_slot(s, s->now), at = noc_chan_at(s, n, slot);
    uint64_t fl = noc_chan_flits_in(s, at), cr = noc_chan_credits_in(s, at);
    uint64_t arrivals = (fl | cr) & ~NOC_NI_MASK;
    if (!arrivals && r->buffered[n] == 0 && q->queued[n] == 0)
        return;
    vc_node_t *nd = vc_node(r, n);
    vc_ctx_t x = { .s = s, .r = r, .nd = nd, .set = nd->set, .now = s->now, .n = n, .V = r->V, .W = r->W,
                   .S = r->S, .ser = 0, .waits = 0, .locals = nd->locals, .ej = r->ej_credits,
                   .va_whole = r->va_whole };
    if (arrivals) {
        noc_chan_flits_seen(s, at, ~NOC_NI_MASK);
        noc_chan_credits_seen(s, at, ~NOC_NI_MASK);
        if (cr & ~NOC_NI_MASK)
            vc_credits_in(&x, cr & ~NOC_NI_MASK);
        x.now = q->u0; /* (heads are routed from the first step) */
        if (fl & ~NOC_NI_MASK)
            sp_input(&x, fl & ~NOC_NI_MASK, slot);
    }
    for (int j = 0; j < q->k && r->buffered[n] > 0; j++) {
        x.now = q->u0 + (uint64_t)j;
        sp_step(&x, q);
    }
    if (q->queued[n])
        sp_output(&x, q);
}

void noc_vc_eval_sp(struct noc_sim *s, const int32_t *nodes, int count)
{
    vc_state_t *r = s->rstate;
    vc_sp_t *q = r->sp;
    sp_advance(q, s->now);
    for (int i = 0; i < count; i++)
        sp_eval_node(s, r, q, nodes[i]);
}

/* Flits of output VC v queued at global port g. */
int noc_vc_sp_queued_flits(const vc_state_t *r, int g, int v)
{
    const vc_sp_t *q = r->sp;
    int c = 0;
    for (uint32_t k = q->oq_head[g]; k != q->oq_tail[g]; k++)
        c += q->oq_vc[(size_t)g * q->oq_cap + (k & q->oq_mask)] == v;
    return c;
}

/* Credits of VC v waiting at input port p of node nd. */
int noc_vc_sp_queued_credits(const vc_state_t *r, const vc_node_t *nd, int p, int v)
{
    const vc_sp_t *q = r->sp;
    size_t i = sp_in(r, nd, p);
    int c = 0;
    for (uint32_t k = q->cq_head[i]; k != q->cq_tail[i]; k++)
        c += (int)((q->cq[i * q->cq_cap + (k & q->cq_mask)] >> v) & 1);
    return c;
}

void noc_vc_sp_visit(const struct noc_sim *s, int n, noc_flit_visit_fn fn, void *ctx)
{
    const vc_state_t *r = s->rstate;
    const vc_sp_t *q = r->sp;
    const noc_graph_t *gr = s->graph;
    for (int g = gr->port_base[n]; g < gr->port_base[n + 1]; g++)
        for (uint32_t k = q->oq_head[g]; k != q->oq_tail[g]; k++) {
            size_t at = (size_t)g * q->oq_cap + (k & q->oq_mask);
            fn(ctx, &q->oq[at], g, q->oq_vc[at]);
        }
}

int noc_vc_sp_held_work(const struct noc_sim *s, int n)
{
    const vc_state_t *r = s->rstate;
    return r->sp ? r->sp->msgs[n] : 0;
}
