/* vc_switch.c: switch allocation, crossbar and output of the vc router. An
 * input port bids for the output ports wanted by its VCs that hold an output
 * VC, are past their VA delay, have a flit at the front and a credit
 * downstream; the switch allocator matches input to output ports; each
 * matched input port's VC arbiter picks which of its VCs crosses. The
 * crossing flit leaves the buffer now, returns a credit upstream, and enters
 * the output channel to arrive sw_alloc_delay + st_final_delay + link latency
 * cycles later. */
#include "routers/vc/vc.h"

/* Move the flit at the front of input VC l of node n through output port o:
 * straight from the buffer slot into the output channel's slot. */
static void traverse(struct noc_sim *s, vc_state_t *r, int n, int base, int l, int o)
{
    int V = r->V, p = r->l_port[l], i = base * V + l, og = base + o;
    vc_ivc_t *q = &r->ivc[i];
    int ov = q->out_vc;
    int ovg = q->ovc;
    uint32_t c = (uint32_t)og;
    uint32_t delay = (uint32_t)r->out_delay + s->chan_delay[og];
    uint32_t slot = c * s->cap + (uint32_t)((s->now + delay) & s->mask);
    assert(delay >= 1 && delay < s->cap && !s->ring_valid[slot]);
    noc_flit_t *f = &s->ring_flit[slot];
    *f = *noc_fifo_front(&r->buf[(uint32_t)i * r->qcap], r->qmask, q->head);
    noc_fifo_pop(&q->head, q->tail);
    r->buffered[n]--;
    r->port_occ[base + p]--;
    uint8_t flags = f->flags;
    if (flags & NOC_FLIT_TAIL) {
        r->owner[ovg] = -1;
        r->ovc_free[og] |= UINT64_C(1) << ov;
        q->state = VC_IDLE;
        vc_clr(r->m_sw + (size_t)n * (size_t)r->W, l);
        if (q->head != q->tail) /* the next head is at the front from the next cycle */
            noc_vc_route_head(s, r, n, l, 1 + r->R);
    }
    if (q->head == q->tail)
        vc_clr(r->m_ne + (size_t)n * (size_t)r->W, l);
    if (o != 0) {
        r->credits[ovg]--;
        f->hops++;
        if ((flags & NOC_FLIT_HEAD) && r->lookahead) {
            const noc_topo_t *t = s->topo;
            noc_route_t rt;
            t->ops->route(t, s->chan_to[og], s->pkts[f->pkt].src, f->dst, &rt);
            f->la_port = rt.port;
            f->la_class = rt.vclass;
        }
    }
    f->vc = (uint8_t)ov;
    s->ring_valid[slot] = 1;
    int to = s->chan_to[c];
    s->arr_flit[(uint32_t)to * s->cap + (uint32_t)((s->now + delay) & s->mask)] |=
        UINT64_C(1) << s->chan_in_port[c];
    noc_work_add(s, to, 1);
    noc_work_sub(s, n, 1);
    noc_chan_put_credit(s, s->in_chan[base + p], r->l_vc[l]);
    if (s->measuring) {
        s->lst[og].flits++;
        s->lst[og].busy++;
        s->st.flit_hops += o != 0;
    }
    s->last_move = s->now;
}

void noc_vc_switch(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], V = r->V, W = r->W;
    uint64_t now = s->now;
    int meas = s->measuring;
    const uint64_t *sw = r->m_sw + (size_t)n * (size_t)W, *ne = r->m_ne + (size_t)n * (size_t)W;
    uint64_t vc_ready[64];    /* per input port: its VCs ready to cross */
    uint64_t ports[64];       /* per input port: output ports they want */
    uint64_t in_ports = 0, stalled = 0;
    uint64_t wanted = 0, wanted2 = 0; /* output ports wanted by one, by several VCs */
    (void)now;

    for (int w = 0; w < W; w++) {
        for (uint64_t bits = sw[w] & ne[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits);
            const vc_ivc_t *q = &r->ivc[base * V + l];
            int p = r->l_port[l];
            uint64_t ob = UINT64_C(1) << q->rport, pb = UINT64_C(1) << p;
            if (!(in_ports & pb)) {
                in_ports |= pb;
                vc_ready[p] = 0;
                ports[p] = 0;
            }
            wanted2 |= wanted & ob;
            wanted |= ob;
            if (q->rport != 0 && r->credits[q->ovc] <= 0) {
                stalled |= ob;
                continue;
            }
            vc_ready[p] |= UINT64_C(1) << r->l_vc[l];
            ports[p] |= ob;
        }
    }
    if (meas) {
        for (uint64_t b = wanted2 & ~UINT64_C(1); b; b &= b - 1)
            s->lst[base + __builtin_ctzll(b)].contention++;
        for (uint64_t b = stalled; b; b &= b - 1)
            s->lst[base + __builtin_ctzll(b)].credit_stall++;
    }
    int m = 0;
    for (uint64_t b = in_ports; b; b &= b - 1) {
        int p = __builtin_ctzll(b);
        if (!ports[p])
            continue;
        r->who[m] = (int16_t)p;
        r->mask[m] = ports[p];
        m++;
    }
    if (m == 0)
        return;
    noc_alloc_run_sparse(&r->sa[n], m, r->who, r->mask, r->grant);

    for (int k = 0; k < m; k++) {
        int o = r->grant[k], p = r->who[k];
        if (o < 0)
            continue;
        /* which VC of this input port crosses: those ready for output o */
        uint64_t cand = 0;
        for (uint64_t b = vc_ready[p]; b; b &= b - 1) {
            int v = __builtin_ctzll(b);
            if (r->ivc[(base + p) * V + v].rport == o)
                cand |= UINT64_C(1) << v;
        }
        noc_arbiter_t *arb = &r->sa_vc[base + p];
        int v = noc_arbiter_pick(arb, &cand);
        assert(v >= 0);
        noc_arbiter_update(arb, v);
        traverse(s, r, n, base, p * V + v, o);
    }
}
