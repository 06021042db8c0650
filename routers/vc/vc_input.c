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
    uint64_t cr = s->arr_credit[slot], fl = s->arr_flit[slot];
    s->arr_credit[slot] = 0;
    s->arr_flit[slot] = 0;
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
        assert((uint16_t)(r->tail[i] - r->head[i]) < r->depth);
        if (r->head[i] == r->tail[i]) {
            vc_set(ne, l);
            if (r->state[i] == VC_IDLE)
                vc_set(rc, l);
        }
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
    int base = t->port_base[n], V = r->V, W = r->W;
    uint64_t now = s->now;
    uint64_t *rc = r->m_rc + (size_t)n * (size_t)W, *va = r->m_va + (size_t)n * (size_t)W;
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = rc[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits), i = base * V + l;
            const noc_flit_t *f = &r->buf[(uint32_t)i * r->qcap + (r->head[i] & r->qmask)];
            if (r->state[i] == VC_IDLE) {
                assert(r->head[i] != r->tail[i] && (f->flags & NOC_FLIT_HEAD));
                if (r->lookahead) {
                    r->rport[i] = f->la_port;
                    r->rclass[i] = f->la_class;
                    r->state[i] = VC_VA;
                    r->ready[i] = now;
                    vc_clr(rc, l);
                    vc_set(va, l);
                    continue;
                }
                r->state[i] = VC_ROUTING;
                r->ready[i] = now + (uint64_t)r->R;
            }
            if (now >= r->ready[i]) {
                noc_route_t rt;
                t->ops->route(t, n, f->dst, &rt);
                r->rport[i] = rt.port;
                r->rclass[i] = rt.vclass;
                r->state[i] = VC_VA;
                vc_clr(rc, l);
                vc_set(va, l);
            }
        }
    }
}
