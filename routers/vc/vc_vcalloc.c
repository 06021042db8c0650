/* vc_vcalloc.c: VC allocation of the vc router. Every output port has its own
 * allocator whose requesters are the node's input VCs and whose resources are
 * that port's output VCs; an input VC in the VA stage requests the free
 * output VCs of its route's class. A packet leaves for the ejection port on
 * any of the local port's VCs. */
#include "routers/vc/vc.h"

void noc_vc_vc_alloc(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], P = t->port_base[n + 1] - base, V = r->V;
    int C = t->n_vclasses;
    uint64_t now = s->now;
    uint64_t want_port = 0; /* output ports with at least one request */
    int first = base * V, last = (base + P) * V;

    for (int i = first; i < last; i++)
        if (r->state[i] == VC_VA && now >= r->ready[i] && r->head[i] != r->tail[i])
            want_port |= UINT64_C(1) << r->rport[i];
    while (want_port) {
        int o = __builtin_ctzll(want_port);
        want_port &= want_port - 1;
        int og = base + o;
        int lo = 0, hi = V;
        uint64_t any = 0;
        for (int i = first; i < last; i++) {
            uint64_t m = 0;
            if (r->state[i] == VC_VA && now >= r->ready[i] && r->head[i] != r->tail[i] &&
                r->rport[i] == o) {
                if (o != 0)
                    noc_vc_class_range(V, C, r->rclass[i], &lo, &hi);
                for (int v = lo; v < hi; v++)
                    if (r->owner[og * V + v] < 0)
                        m |= UINT64_C(1) << v;
            }
            r->req[i - first] = m;
            any |= m;
        }
        if (!any)
            continue;
        noc_alloc_run(&r->va[og], r->req, r->grant);
        for (int k = 0; k < P * V; k++) {
            if (r->grant[k] < 0)
                continue;
            int i = first + k;
            r->owner[og * V + r->grant[k]] = i;
            r->out_vc[i] = r->grant[k];
            r->state[i] = VC_ACTIVE;
            r->ready[i] = now + (uint64_t)r->VA;
        }
    }
}
