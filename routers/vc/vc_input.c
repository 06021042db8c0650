/* vc_input.c: the input unit of the vc router: credits and flits arriving on
 * the node's channels, buffer write, and route computation. */
#include "routers/vc/vc.h"

void noc_vc_input(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], V = r->V;
    int meas = noc_measuring(s);
    uint64_t *ne = r->m_ne + (size_t)n * (size_t)r->W, *rc = r->m_rc + (size_t)n * (size_t)r->W;
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
        assert((uint16_t)(r->ivc[i].tail - r->ivc[i].head) < r->depth);
        if (r->ivc[i].head == r->ivc[i].tail) {
            vc_set(ne, l);
            if (r->ivc[i].state == VC_IDLE)
                vc_set(rc, l);
        }
        r->buf[(uint32_t)i * r->qcap + (r->ivc[i].tail & r->qmask)] = f;
        r->ivc[i].tail++;
        r->buffered[n]++;
        int occ = ++r->port_occ[g];
        if (meas && (uint32_t)occ > s->lst[c].peak_queue)
            s->lst[c].peak_queue = (uint32_t)occ;
    }
}

void noc_vc_route(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], V = r->V, W = r->W;
    uint64_t now = s->now;
    uint64_t *rc = r->m_rc + (size_t)n * (size_t)W;
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = rc[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits), i = base * V + l;
            vc_ivc_t *q = &r->ivc[i];
            const noc_flit_t *f = &r->buf[(uint32_t)i * r->qcap + (q->head & r->qmask)];
            assert(q->head != q->tail && (f->flags & NOC_FLIT_HEAD));
            assert(q->state == VC_IDLE);
            /* The route is a pure function of where the packet is going, so
             * it is taken now and held back until the R cycles of the route
             * stage are over: the VC bids for an output VC from now + R. */
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
            vc_at(r, r->m_va, r->wake_va, n, l, now, r->R);
        }
        rc[w] = 0;
    }
}
