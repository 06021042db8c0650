/* vc_vcalloc.c: VC allocation of the vc router. Every output port has its own
 * allocator whose requesters are the node's input VCs (local index p*V + v)
 * and whose resources are that port's output VCs; an input VC in the VA stage
 * requests the free output VCs of its route's class. A packet leaves for the
 * ejection port on any of the local port's VCs. */
#include "routers/vc/vc.h"

void noc_vc_vc_alloc(struct noc_sim *s, vc_state_t *r, int n)
{
    const noc_topo_t *t = s->topo;
    int base = t->port_base[n], V = r->V, W = r->W;
    uint64_t now = s->now;
    uint64_t *va = r->m_va + (size_t)n * (size_t)W;
    int m = 0;

    /* the requests: one list entry per bidding input VC */
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = va[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits), i = base * V + l;
            int o = r->ivc[i].rport;
            uint64_t want = r->ovc_free[base + o] & (o ? r->class_mask[r->ivc[i].rclass] : r->all_vcs);
            if (!want)
                continue;
            r->lvc[m] = (int16_t)l;
            r->lport[m] = (uint8_t)o;
            r->mask[m] = want;
            m++;
        }
    }
    /* one allocation per output port asked for */
    for (int k = 0; k < m; k++) {
        if (r->lport[k] == 0xff)
            continue;
        int o = r->lport[k], cnt = 0;
        for (int j = k; j < m; j++) {
            if (r->lport[j] != o)
                continue;
            r->who[cnt] = r->lvc[j];
            r->mask[cnt + m] = r->mask[j]; /* second half of the scratch */
            cnt++;
            r->lport[j] = 0xff;
        }
        int og = base + o;
        noc_alloc_run_sparse(&r->va[og], cnt, r->who, r->mask + m, r->grant);
        for (int j = 0; j < cnt; j++) {
            int ov = r->grant[j];
            if (ov < 0)
                continue;
            int l = r->who[j], i = base * V + l;
            r->owner[og * V + ov] = i;
            r->ovc_free[og] &= ~(UINT64_C(1) << ov);
            r->ivc[i].out_vc = (int8_t)ov;
            r->ivc[i].ovc = og * V + ov;
            r->ivc[i].state = VC_ACTIVE;
            vc_clr(va, l);
            vc_at(r, r->m_sw, r->wake_sw, n, l, now, r->VA);
        }
    }
}
