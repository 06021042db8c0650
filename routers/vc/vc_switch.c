/* vc_switch.c: switch allocation, crossbar and output of the vc router. An
 * input port bids for the output ports wanted by its VCs that are active,
 * past their VA delay, have a flit at the front and a credit downstream; the
 * switch allocator matches input to output ports; each matched input port's
 * VC arbiter picks which of its VCs crosses. The crossing flit leaves the
 * buffer now, returns a credit upstream, and enters the output channel to
 * arrive sw_alloc_delay + st_final_delay + link latency cycles later. */
#include "routers/vc/vc.h"

void noc_vc_switch(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], P = t->port_base[n + 1] - base, V = r->V;
    uint64_t now = s->now;
    int meas = noc_measuring(s);
    uint64_t vc_ready[64];    /* per input port: VCs ready to cross, as a mask */
    uint8_t wanting[64] = {0};/* per output port: VCs that want it this cycle */
    uint64_t stalled = 0;     /* output ports some flit waits on for credit */
    int any = 0;

    for (int p = 0; p < P; p++) {
        uint64_t m = 0, ports = 0;
        for (int v = 0; v < V; v++) {
            int i = (base + p) * V + v;
            if (r->state[i] != VC_ACTIVE || now < r->ready[i] || r->head[i] == r->tail[i])
                continue;
            int o = r->rport[i];
            if (wanting[o] < 255)
                wanting[o]++;
            if (o != 0 && r->credits[(base + o) * V + r->out_vc[i]] <= 0) {
                stalled |= UINT64_C(1) << o;
                continue;
            }
            m |= UINT64_C(1) << v;
            ports |= UINT64_C(1) << o;
        }
        vc_ready[p] = m;
        r->req[p] = ports;
        any |= ports != 0;
    }
    if (meas) {
        for (int o = 1; o < P; o++) {
            if (wanting[o] > 1)
                s->lst[base + o].contention++;
            if (stalled & (UINT64_C(1) << o))
                s->lst[base + o].credit_stall++;
        }
    }
    if (!any)
        return;
    noc_alloc_run(&r->sa[n], r->req, r->grant);

    for (int p = 0; p < P; p++) {
        int o = r->grant[p];
        if (o < 0)
            continue;
        /* which VC of this input port crosses: those ready for output o */
        uint64_t cand[1] = { 0 };
        for (int v = 0; v < V; v++)
            if (vc_ready[p] & (UINT64_C(1) << v) && r->rport[(base + p) * V + v] == o)
                cand[0] |= UINT64_C(1) << v;
        noc_arbiter_t *arb = &r->sa_vc[base + p];
        int v = noc_arbiter_pick(arb, cand);
        assert(v >= 0);
        noc_arbiter_update(arb, v);

        int i = (base + p) * V + v;
        noc_flit_t f = r->buf[(uint32_t)i * r->qcap + (r->head[i] & r->qmask)];
        r->head[i]++;
        r->buffered[n]--;
        r->port_occ[base + p]--;
        int ov = r->out_vc[i];
        int og = base + o;
        if (f.flags & NOC_FLIT_TAIL) {
            r->owner[og * V + ov] = -1;
            r->state[i] = VC_IDLE;
        }
        if (o != 0) {
            r->credits[og * V + ov]--;
            if (f.flags & NOC_FLIT_HEAD) {
                s->pkts[f.pkt].hops++;
                if (r->lookahead) {
                    noc_route_t rt;
                    t->ops->route(t, s->chan_to[og], s->pkts[f.pkt].dst, &rt);
                    f.la_port = rt.port;
                    f.la_class = rt.vclass;
                }
            }
            if (meas)
                s->st.flit_hops++;
        }
        f.vc = (uint8_t)ov;
        noc_chan_put_flit(s, og, (uint32_t)r->out_delay + s->chan_delay[og], &f);
        noc_work_sub(s, n, 1);
        noc_chan_put_credit(s, s->in_chan[base + p], v);
        if (meas) {
            s->lst[og].flits++;
            s->lst[og].busy++;
        }
        s->last_move = now;
    }
}
