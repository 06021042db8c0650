/* vc_input.c: the input unit of the vc router: credits and flits arriving on
 * the node's channels, buffer write, and route computation. The route is a
 * pure function of where the packet is going, so a head is routed as soon as
 * it is at the front of an idle VC, and held back until the R cycles of the
 * route stage are over: it bids for an output VC from then on. */
#include "routers/vc/vc.h"

void noc_vc_input(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], V = r->V;
    int meas = noc_measuring(s);
    uint64_t *ne = r->m_ne + (size_t)n * (size_t)r->W;
    uint32_t slot = (uint32_t)n * s->cap + (uint32_t)(s->now & s->mask);
    uint64_t cr = s->arr_credit[slot] & ~NOC_NI_MASK, fl = s->arr_flit[slot] & ~NOC_NI_MASK;
    s->arr_credit[slot] &= NOC_NI_MASK; /* the NI bit is the NI's to clear */
    s->arr_flit[slot] &= NOC_NI_MASK;
    for (; cr; cr &= cr - 1) {
        int p = __builtin_ctzll(cr);
        int got = noc_chan_take_credits(s, base + p, &r->credits[(base + p) * V]);
        assert(got > 0);
        (void)got;
    }
    for (; fl; fl &= fl - 1) {
        int p = __builtin_ctzll(fl);
        int g = base + p;
        int c = s->in_chan[g];
        noc_flit_t f;
        int got = noc_chan_take_flit(s, c, &f);
        assert(got);
        (void)got;
        int l = p * V + f.vc, i = base * V + l;
        vc_ivc_t *q = &r->ivc[i];
        assert(noc_fifo_count(q->head, q->tail) < (uint32_t)r->depth);
        int was_empty = q->head == q->tail;
        noc_fifo_push(&r->buf[(uint32_t)i * r->qcap], r->qmask, &q->tail, &f);
        if (was_empty) {
            vc_set(ne, l);
            /* an idle VC is empty: this is a head, routed at once */
            if (q->state == VC_IDLE)
                noc_vc_route_head(s, r, n, l, r->R);
        }
        r->buffered[n]++;
        int occ = ++r->port_occ[g];
        if (meas && (uint32_t)occ > s->lst[c].peak_queue)
            s->lst[c].peak_queue = (uint32_t)occ;
    }
}

void noc_vc_route_head(struct noc_sim *s, vc_state_t *r, int n, int l, int delay)
{
    const noc_topo_t *t = s->topo;
    int i = t->port_base[n] * r->V + l;
    vc_ivc_t *q = &r->ivc[i];
    const noc_flit_t *f = noc_fifo_front(&r->buf[(uint32_t)i * r->qcap], r->qmask, q->head);
    assert(q->head != q->tail && (f->flags & NOC_FLIT_HEAD) && q->state == VC_IDLE);
    if (r->lookahead) {
        q->rport = f->la_port;
        q->rclass = f->la_class;
    } else {
        noc_route_t rt;
        t->ops->route(t, n, s->pkts[f->pkt].src, f->dst, &rt);
        q->rport = rt.port;
        q->rclass = rt.vclass;
    }
    q->state = VC_VA;
    vc_at(r, r->m_va, r->wake_va, n, l, s->now, delay);
}
