/* vc_output.h: the output unit of the vc router: the credits of the node's
 * output VCs (one counter per output VC, for the free slots of the input VC
 * downstream; credits come back on the channel that leaves the port), the
 * output VCs' state (free, or held by one input VC from VC allocation,
 * vc_vcalloc.h, until its tail leaves), and switch and link traversal: a
 * flit granted the switch (vc_switch.h) leaves its buffer, returns a credit
 * upstream, and enters the output channel to arrive sw_alloc_delay +
 * st_final_delay + link latency cycles later (more on a narrow link, which
 * takes it over several cycles).
 *
 * One box of the block diagram; included by vc_router.c only, whose node
 * evaluation inlines it (see vc.h). */
#ifndef NOC_VC_OUTPUT_H
#define NOC_VC_OUTPUT_H
#include "routers/vc/vc_input.h"

/* The credits that arrive this cycle (at the ports in cr, at least one):
 * those for the output VCs of port p come back on the channel that leaves p
 * (global port base + p); each one stood for a unit of this node's work. */
VC_INLINE void vc_credits_in(vc_ctx_t *x, uint64_t cr)
{
    struct noc_sim *s = x->s;
    uint32_t slot = noc_chan_slot(s, x->now);
    vc_node_t *nd = x->nd;
    int total = noc_chan_pop_port_credits(s, nd->base, cr, slot, nd->credits);
    assert(total > 0);
    noc_work_sub(s, x->n, total);
    if (!x->lean && x->r->wait_tail) /* a VC whose tail has left is free once its credits are all back */
        for (uint64_t m = cr; m; m &= m - 1) {
            vc_port_t *pt = &nd->port[__builtin_ctzll(m)];
            const int16_t *c = &nd->credits[__builtin_ctzll(m) * x->V];
            for (uint64_t t = pt->ovc_tail; t; t &= t - 1) {
                int ov = __builtin_ctzll(t);
                if (c[ov] == x->r->depth) {
                    pt->ovc_tail &= ~(UINT64_C(1) << ov);
                    pt->ovc_free |= UINT64_C(1) << ov;
                }
            }
        }
}

/* Move the flit at the front of input VC l (VC v of input port p) through
 * output port o into the output channel; its credit goes back up the
 * channel that feeds p. The node's `buffered` and work count are the
 * caller's to lower. */
VC_INLINE void vc_traverse(vc_ctx_t *x, int l, int p, int v, int o)
{
    struct noc_sim *s = x->s;
    const vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    vc_ivc_t *q = &nd->ivc[l];
    vc_port_t *out = &nd->port[o], *in = &nd->port[p];
    int og = nd->base + o, ov = q->out_vc, hop = o >= x->locals; /* (ejection is no hop) */
    uint32_t ser = x->ser && hop ? noc_chan_ser_start(s, og) : 0; /* extra cycles of a narrow link */
    uint16_t head = q->head;
    assert(head != q->tail);
    const noc_flit_t *f = vc_slot(nd->buf, r, l, head);
    q->head = ++head;
    in->occ--;
    /* An ejection port's sink always accepts and returns no credits (its
     * counters stay at the buffer depth) but with eject_credit_delay, and
     * its link is no hop. */
    int cred = hop | x->ej;
    nd->credits[o * x->V + ov] = (int16_t)(nd->credits[o * x->V + ov] - cred);
    int to = out->to;
    uint8_t flags = f->flags;
    uint32_t pkt = f->pkt;
    /* the flit becomes work of `to` (the caller takes it off this node),
     * then its credit work of the upstream node */
    uint32_t fslot = noc_chan_slot(s, x->now + out->delay + ser);
    noc_chan_forward_flit(s, og, fslot, to, out->to_bit, f, ov, hop);
    if (!x->lean && (flags & NOC_FLIT_HEAD) && hop && r->lookahead) {
        const noc_graph_t *gr = s->graph;
        noc_route_t rt;
        noc_graph_route_pkt(gr, s->pkts, pkt, to, f->dst, f->hops + hop, &rt);
        noc_chan_set_lookahead(s, og, fslot, rt.port, rt.vclass);
    }
    noc_chan_send_credit_to(s, in->up_chan, v, noc_chan_slot(s, x->now + s->chan_cdelay[in->up_chan]), in->up_node,
                            in->up_bit);
    if (s->measuring) {
        noc_link_stats_t *ls = &s->lst[og];
        ls->flits++;
        ls->heads += flags & NOC_FLIT_HEAD;
        ls->busy += 1 + ser;
        if (s->step_flits)
            s->step_flits[(size_t)s->pkts[pkt].step * (size_t)s->n_chan + (size_t)og]++;
    }
    if (flags & NOC_FLIT_TAIL) {
        if (!x->lean && r->wait_tail && cred) /* (an ejection port without credits: nothing to wait for) */
            out->ovc_tail |= UINT64_C(1) << ov; /* free when its credit is back (vc_credits_in) */
        else
            out->ovc_free |= UINT64_C(1) << ov;
        q->state = VC_IDLE;
        vc_clr(vc_sw(x), l, x->W);
        if (head != q->tail) { /* the next head is at the front from the next cycle */
            vc_route_head(x, l, 1 + r->R);
            if (x->waits) { /* it waited behind this packet since it arrived */
                const noc_flit_t *nf = vc_slot(nd->buf, r, l, head);
                noc_wait_pkt(s, NOC_WAIT_BUFFER, nf->pkt, in->up_chan,
                             (uint32_t)x->now + 1 - r->arrive[nf - r->buf]);
            }
        }
    }
    if (head == q->tail) {
        vc_clr(vc_ne(x), l, x->W);
        noc_fifo_rewind(&q->head, &q->tail);
    }
}
#endif
