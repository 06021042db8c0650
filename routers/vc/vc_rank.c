/* vc_rank.c: message priorities in the vc router (priority other than
 * none, model/priority.h; BookSim2's VC::UpdatePriority and the in_pri and
 * out_pri of iq_router.cpp's allocator requests). An input VC ranks as its
 * front flit: its class's class_priority, its packet's age, the age of the
 * flit in the network or in this router, the flits the VC holds, or the
 * links the flit crossed (BookSim2's VC::UpdatePriority). With
 * vc_priority_donation it ranks as the highest-ranked flit it holds, a
 * later packet's included (the front flit takes the rank donated by one
 * behind it), but with local_age, where BookSim2 keeps the front flit's
 * (and queue_length, a VC's rank anyway). VC allocation ranks each bidding input VC's requests by its
 * rank (the output VCs' arbiters take the highest first); switch
 * allocation ranks a switch input's request for an output port by its
 * highest-ranked VC wanting that port (at both arbiters), and that VC, or
 * one of the equals in round-robin order, crosses. Cold paths, apart from
 * the stages' headers: taken only when contending requests meet under a
 * priority. */
#include "model/sim_internal.h"
#include "routers/vc/vc.h"
#include "routers/vc/vc_rank.h"

/* The rank of buffered flit f (queue_length aside: a VC's, not a
 * flit's). */
static int64_t flit_rank(const struct noc_sim *s, const vc_state_t *r, const noc_flit_t *f)
{
    switch (s->prio) {
    case NOC_PRI_CLASS:
        return s->cls_pri[s->pkts[f->pkt].cls];
    case NOC_PRI_AGE:
        return -(int64_t)s->pkts[f->pkt].created;
    case NOC_PRI_NETWORK_AGE: /* (a synthetic flit's word: the cycle its NI sent it) */
        return -f->data;
    case NOC_PRI_LOCAL_AGE: /* the cycle it reached this router */
        return -(int64_t)r->stamp[f - r->buf];
    case NOC_PRI_HOP_COUNT:
        return f->hops;
    case NOC_PRI_SEQUENCE:
        return -(int64_t)s->pkts[f->pkt].src_seq;
    default:
        return 0;
    }
}

int64_t noc_vc_rank(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int l)
{
    const vc_ivc_t *q = &nd->ivc[l];
    if (s->prio == NOC_PRI_QUEUE_LENGTH)
        return (int64_t)noc_fifo_count(q->head, q->tail);
    int64_t best = flit_rank(s, r, vc_slot(nd->buf, r, l, q->head));
    if (r->donate && s->prio != NOC_PRI_LOCAL_AGE) /* the flits behind it donate a higher rank */
        for (uint16_t k = (uint16_t)(q->head + 1); k != q->tail; k++) {
            int64_t v = flit_rank(s, r, vc_slot(nd->buf, r, l, k));
            if (v > best)
                best = v;
        }
    return best;
}

void noc_vc_va_ranked(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, noc_alloc_t *a, int n,
                      const int16_t *who, const uint64_t *mask, int16_t *grant)
{
    int64_t key[64];
    assert(n <= 64);
    for (int k = 0; k < n; k++)
        key[k] = noc_vc_rank(s, r, nd, who[k]);
    noc_alloc_run_sparse_ranked(a, n, who, mask, key, 1, 0, grant);
}

void noc_vc_sa_ranked(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int S, const int16_t *ready,
                      int nr, uint64_t in_ports, int m, const int16_t *who, const uint64_t *mask, int16_t *grant)
{
    int64_t key[64 * 64]; /* entry k's request for port o: key[k * 64 + o] (only the requests') */
    uint64_t seen[64] = { 0 };
    for (int i = 0; i < nr; i++) {
        int l = ready[i], e = S == 1 ? r->l_port[l] : r->l_in[l], o = nd->ivc[l].rport;
        int k = __builtin_popcountll(in_ports & ((UINT64_C(1) << e) - 1)); /* (who lists in_ports in order) */
        int64_t v = noc_vc_rank(s, r, nd, l);
        if (!((seen[k] >> o) & 1) || v > key[k * 64 + o])
            key[k * 64 + o] = v;
        seen[k] |= UINT64_C(1) << o;
    }
    noc_alloc_run_sparse_ranked(nd->sa, m, who, mask, key, 64, 1, grant);
}

uint64_t noc_vc_top(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int p, uint64_t cand)
{
    uint64_t top = 0;
    int64_t best = 0;
    for (; cand; cand &= cand - 1) {
        int v = __builtin_ctzll(cand);
        int64_t k = noc_vc_rank(s, r, nd, p * r->V + v);
        if (!top || k > best) {
            best = k;
            top = 0;
        }
        if (k == best)
            top |= UINT64_C(1) << v;
    }
    return top;
}
