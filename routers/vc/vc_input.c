/* vc_input.c: the input unit of the vc router: credits and flits arriving on
 * the node's channels, buffer write, and route computation. */
#include "routers/vc/vc.h"

void noc_vc_input(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], P = t->port_base[n + 1] - base, V = r->V;
    int meas = noc_measuring(s);
    for (int p = 1; p < P; p++) {
        int v = noc_chan_take_credit(s, base + p);
        if (v >= 0)
            r->credits[(base + p) * V + v]++;
    }
    for (int p = 0; p < P; p++) {
        int g = base + p;
        int c = s->in_chan[g];
        noc_flit_t f;
        if (!noc_chan_take_flit(s, c, &f))
            continue;
        int i = g * V + f.vc;
        assert((uint16_t)(r->tail[i] - r->head[i]) < r->depth);
        r->buf[(uint32_t)i * r->qcap + (r->tail[i] & r->qmask)] = f;
        r->tail[i]++;
        r->buffered[n]++;
        int occ = ++r->port_occ[g];
        if (meas && (uint32_t)occ > s->lst[c].peak_queue)
            s->lst[c].peak_queue = (uint32_t)occ;
    }
}

void noc_vc_route(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], P = t->port_base[n + 1] - base, V = r->V;
    uint64_t now = s->now;
    for (int i = base * V; i < (base + P) * V; i++) {
        if (r->head[i] == r->tail[i])
            continue;
        if (r->state[i] == VC_IDLE) {
            const noc_flit_t *f = &r->buf[(uint32_t)i * r->qcap + (r->head[i] & r->qmask)];
            assert(f->flags & NOC_FLIT_HEAD);
            if (r->lookahead) {
                r->rport[i] = f->la_port;
                r->rclass[i] = f->la_class;
                r->state[i] = VC_VA;
                r->ready[i] = now;
            } else {
                r->state[i] = VC_ROUTING;
                r->ready[i] = now + (uint64_t)r->R;
            }
        }
        if (r->state[i] == VC_ROUTING && now >= r->ready[i]) {
            const noc_flit_t *f = &r->buf[(uint32_t)i * r->qcap + (r->head[i] & r->qmask)];
            noc_route_t rt;
            t->ops->route(t, n, s->pkts[f->pkt].dst, &rt);
            r->rport[i] = rt.port;
            r->rclass[i] = rt.vclass;
            r->state[i] = VC_VA;
        }
    }
}
