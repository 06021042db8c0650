/* vc_input.h: the input unit of the vc router: flits arriving on the node's
 * channels, buffer write, and route computation. The route is a
 * pure function of where the packet is going, so a head is routed as soon as
 * it is at the front of an idle VC, and held back until the R cycles of the
 * route stage are over: it bids for an output VC from then on.
 *
 * One box of the block diagram; included by vc_router.c only, whose node
 * evaluation inlines it (see vc.h). */
#ifndef NOC_VC_INPUT_H
#define NOC_VC_INPUT_H
#include "routers/vc/vc.h"

/* Route head flit f, at the front of idle VC l (registers q), and let it bid
 * for an output VC `delay` cycles from now. */
VC_INLINE void vc_route(vc_ctx_t *x, vc_ivc_t *q, const noc_flit_t *f, int l, int delay)
{
    const vc_state_t *r = x->r;
    int port, cls;
    assert((f->flags & NOC_FLIT_HEAD) && q->state == VC_IDLE);
    if (x->adapt) {
        noc_vc_route_adapt(x->s, r, x->nd, x->n, q, f, l); /* its candidates, for vc_adapt.c's VC allocation */
        goto routed;
    }
    if (!x->lean && r->lookahead) {
        port = f->la_port;
        cls = f->la_class;
    } else {
        struct noc_sim *s = x->s;
        const noc_graph_t *gr = s->graph;
        noc_route_t rt;
        noc_graph_route_pkt(gr, s->pkts, f->pkt, x->n, f->dst, f->hops, &rt);
        port = rt.port;
        cls = rt.vclass;
    }
    q->rport = (uint8_t)port;
    /* ejection: any VC, but where the routing names its class there too */
    q->rclass = (uint8_t)(port >= x->ej_any ? cls : VC_ANY_CLASS);
    if (x->kinds) /* use_read_write: within its packet kind's VCs */
        q->rclass = (uint8_t)(q->rclass + x->s->pkts[f->pkt].type * VC_KIND_STRIDE);
routed:
    q->state = VC_VA;
    vc_at(x, 0, l, delay);
    if (x->waits) /* (its VC waits: from then to its grant, vc_grant) */
        r->va_from[vc_global(x->nd->buf, r, l)] = (uint32_t)(x->now + (uint64_t)delay);
}

/* Route the head now at the front of idle VC l. */
VC_INLINE void vc_route_head(vc_ctx_t *x, int l, int delay)
{
    vc_ivc_t *q = &x->nd->ivc[l];
    assert(q->head != q->tail);
    vc_route(x, q, vc_slot(x->nd->buf, x->r, l, q->head), l, delay);
}

/* The input unit: the flits that arrive this cycle (at the ports in fl, at
 * least one). Flits go straight from the channel slot into their VC's FIFO;
 * the node's work count stays (the flit is still its work). */
VC_INLINE void vc_input(vc_ctx_t *x, uint64_t fl)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    int V = x->V, arrived = 0;
    uint32_t slot = noc_chan_slot(s, x->now);
    vc_port_t *port = nd->port;
    vc_ivc_t *ivc = nd->ivc;
    for (; fl; fl &= fl - 1) {
        int p = __builtin_ctzll(fl);
        int c = port[p].up_chan; /* (lane ports of an all-port NI too) */
        const noc_flit_t *f = noc_chan_pop_flit(s, c, slot);
        assert(f != NULL);
        int l = p * V + f->vc;
        vc_ivc_t *q = &ivc[l];
        uint16_t tail = q->tail;
        int was_empty = q->head == tail;
        assert(noc_fifo_count(q->head, tail) < (uint32_t)r->depth);
        noc_flit_t *slot_f = vc_slot(nd->buf, r, l, tail);
        *slot_f = *f;
        if (x->waits) /* (for the waits behind another packet) */
            r->arrive[slot_f - r->buf] = (uint32_t)x->now;
        if (!x->lean && __builtin_expect(r->stamp != NULL, 0)) /* priority = local_age */
            r->stamp[slot_f - r->buf] = (uint32_t)x->now;
        q->tail = (uint16_t)(tail + 1);
        if (was_empty) {
            vc_set(vc_ne(x), l, x->W);
            /* an idle VC is empty: this is a head, routed at once */
            if (q->state == VC_IDLE)
                vc_route(x, q, f, l, r->R);
        }
        arrived++;
        vc_port_t *pt = &port[p];
        int occ = ++pt->occ;
        if (s->measuring && occ > pt->peak) {
            pt->peak = occ; /* the input unit is the only writer of peak_queue */
            s->lst[c].peak_queue = (uint32_t)occ;
        }
    }
    r->buffered[x->n] += arrived;
}
#endif
