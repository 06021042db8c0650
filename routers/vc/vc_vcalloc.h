/* vc_vcalloc.h: VC allocation of the vc router. Every output port has its own
 * allocator whose requesters are the node's input VCs (local index p*V + v)
 * and whose resources are that port's output VCs; an input VC in the VA stage
 * requests the free output VCs of its route's class. A packet leaves for the
 * ejection port on any of the local port's VCs (its class is VC_ANY_CLASS).
 *
 * One box of the block diagram; included by vc_router.c only, whose node
 * evaluation inlines it (see vc.h). */
#ifndef NOC_VC_VCALLOC_H
#define NOC_VC_VCALLOC_H
#include "routers/vc/vc.h"
#include "routers/vc/vc_rank.h"

/* vc_prioritize_empty (BookSim2's, with a separable input-first VC
 * allocator): of the free output VCs `want` of port o, those whose
 * downstream buffer is empty (all credits home), if any. An input VC's
 * arbiter ranks them above the others (BookSim2 adds INT_MIN to the
 * others' in_pri); in an input-first allocator that arbiter sees its own
 * requests alone, so ranking them is asking for these only. */
static inline uint64_t vc_empty_first(const vc_state_t *r, const vc_node_t *nd, int o, uint64_t want)
{
    uint64_t empty = 0;
    for (uint64_t b = want; b; b &= b - 1) {
        int ov = __builtin_ctzll(b);
        if (nd->credits[o * r->V + ov] == r->depth)
            empty |= UINT64_C(1) << ov;
    }
    return empty ? empty : want;
}

/* vc_busy_when_full (BookSim2's: iq_router.cpp's VC allocation asks for
 * no output VC that BufferState::IsFullFor, its downstream buffer full):
 * of the free output VCs `want` of port o, those with a credit. (An
 * ejection port's counters stay at the depth unless it counts credits,
 * eject_credit_delay: never full then, as BookSim2's ejection VCs whose
 * credits come back before the buffer fills.) */
static inline uint64_t vc_with_credit(const vc_state_t *r, const vc_node_t *nd, int o, uint64_t want)
{
    for (uint64_t b = want; b; b &= b - 1) {
        int ov = __builtin_ctzll(b);
        if (nd->credits[o * r->V + ov] <= 0)
            want &= ~(UINT64_C(1) << ov);
    }
    return want;
}

/* vc_shuffle_requests (BookSim2's: iq_router.cpp numbers the VC
 * allocator's requesters vc * inputs + input instead of input * vcs +
 * vc): the requester of local input VC l (port p, VC v) in the node's VC
 * allocators, v * P + p (P its input ports), and back. Their arbiters'
 * turns go VC-major; any P above the port numbers gives the same order,
 * so the node's own port count stands for BookSim2's router radix.
 * Without the key (a constant in the instances without va_whole), l. */
VC_INLINE int vc_va_id(const vc_ctx_t *x, int l)
{
    if (!(x->va_whole && x->r->va_shuf))
        return l;
    return x->r->l_vc[l] * x->nd->ports + x->r->l_port[l];
}
VC_INLINE int vc_va_l(const vc_ctx_t *x, int id)
{
    if (!(x->va_whole && x->r->va_shuf))
        return id;
    return (id % x->nd->ports) * x->V + id / x->nd->ports;
}

/* va_in_pointer = router: input VC l was granted at output port o. BookSim2
 * keeps one round-robin pointer per input VC over all the router's output
 * VCs (o*V + ov + 1 now), so at every other port its next request starts
 * from that port's VC 0: the pointers of l at the other ports go to 0 (at
 * o, the grant has moved it past ov already). Only a grant moves them, and
 * each grant sets the others to 0: they are all 0 but at the port of l's
 * last grant (va_last), the only one to clear. */
VC_INLINE void vc_va_router_ptr(vc_ctx_t *x, int l, int o)
{
    uint8_t *last = &x->nd->va_last[l];
    int prev = *last - 1;
    if (prev >= 0 && prev != o)
        vc_va_alloc(x->r, x->nd, prev)->in_ptr[vc_va_id(x, l)] = 0;
    *last = (uint8_t)(o + 1);
}

/* Input VC l (registers q) holds output VC ov of output port pt from now on,
 * and bids for the switch VA cycles from now. */
VC_INLINE void vc_grant(vc_ctx_t *x, vc_ivc_t *q, vc_port_t *pt, int l, int ov)
{
    if (x->r->va_router_ptr && !x->adapt) /* (adaptive routing keeps its own pointers, vc_adapt.c) */
        vc_va_router_ptr(x, l, q->rport);
    pt->ovc_free &= ~(UINT64_C(1) << ov);
    if (x->waits) { /* every cycle since it began to bid it found no free VC of its class */
        vc_node_t *nd = x->nd;
        uint32_t waited = (uint32_t)x->now - x->r->va_from[vc_global(nd->buf, x->r, l)];
        if (waited)
            noc_wait_pkt(x->s, NOC_WAIT_VC, vc_slot(nd->buf, x->r, l, q->head)->pkt, nd->base + q->rport, waited);
    }
    q->out_vc = (uint8_t)ov;
    q->state = VC_ACTIVE;
    vc_clr(vc_va(x), l, x->W);
    vc_at(x, 1, l, x->r->VA);
}

/* Several VCs bid for one output port: one allocation per output port asked
 * for (inlined, as vc_switch.h's vc_contended, though the rarer case: a
 * call taking the node's vc_ctx_t would keep it in memory, written at every
 * node's evaluation, 3% of a loaded mesh's instructions). A port with a
 * single bidder takes the lone-requester path; the others go through the
 * allocator's sparse entry (whose outcome does not depend on the order of
 * the list). */
VC_INLINE void vc_alloc_shared(vc_ctx_t *x)
{
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    vc_ivc_t *ivc = nd->ivc;
    vc_port_t *port = nd->port;
    const uint64_t *va = vc_va(x);
    int W = x->W, m = 0;
    uint64_t ports = 0, multi = 0;
    int16_t first[64]; /* per output port: its last list entry; r->next links the others */
    /* the requests: one list entry per bidding input VC with a free VC to bid for */
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = va[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits);
            const vc_ivc_t *q = &ivc[l];
            int o = q->rport;
            uint64_t want = port[o].ovc_free & r->class_mask[q->rclass], ob = UINT64_C(1) << o;
            if (x->va_whole && r->va_full) /* (a constant 0 in the instances without) */
                want = vc_with_credit(r, nd, o, want);
            if (!want)
                continue;
            r->lvc[m] = (int16_t)l;
            r->mask[m] = want;
            r->next[m] = (ports & ob) ? first[o] : -1;
            first[o] = (int16_t)m;
            multi |= ports & ob;
            ports |= ob;
            m++;
        }
    }
    if (__builtin_expect(x->va_whole, 0) && r->va_empty) /* (an instance of its own, with the whole kinds') */
        for (int k = 0; k < m; k++)
            r->mask[k] = vc_empty_first(r, nd, ivc[r->lvc[k]].rport, r->mask[k]);
    uint64_t *mask2 = r->mask + m; /* second half of the scratch */
    for (; ports; ports &= ports - 1) {
        int o = __builtin_ctzll(ports);
        noc_alloc_t *a = vc_va_alloc(r, nd, o);
        if (!((multi >> o) & 1)) {
            int k = first[o], l = r->lvc[k], id = vc_va_id(x, l);
            int ov = vc_alloc_pick(x, a, id, r->mask[k]);
            vc_alloc_update(x, a, id, ov);
            vc_grant(x, &ivc[l], &port[o], l, ov);
            continue;
        }
        int cnt = 0;
        for (int k = first[o]; k >= 0; k = r->next[k]) {
            r->who[cnt] = (int16_t)vc_va_id(x, r->lvc[k]);
            mask2[cnt] = r->mask[k];
            cnt++;
        }
        if (!x->lean && __builtin_expect(x->s->prio != NOC_PRI_NONE, 0))
            noc_vc_va_ranked(x->s, r, nd, a, cnt, r->who, mask2, r->grant);
        else
            noc_alloc_run_sparse_separable(a, cnt, r->who, mask2, r->grant); /* (no wavefront VA) */
        for (int j = 0; j < cnt; j++) {
            int l = vc_va_l(x, r->who[j]);
            if (r->grant[j] >= 0)
                vc_grant(x, &ivc[l], &port[o], l, r->grant[j]);
        }
    }
}

/* Input VC l bids with no other bidder for its output port: it gets its
 * own arbiter's choice among the free VCs of its class (a lone requester,
 * see alloc.h), with the same pointer moves. */
VC_INLINE void vc_va_alone(vc_ctx_t *x, int l)
{
    vc_state_t *r = x->r;
    vc_ivc_t *q = &x->nd->ivc[l];
    vc_port_t *pt = &x->nd->port[q->rport];
    uint64_t want = pt->ovc_free & r->class_mask[q->rclass];
    if (!want)
        return;
    if (x->va_whole && r->va_full) { /* (a constant 0 in the instances without) */
        want = vc_with_credit(r, x->nd, q->rport, want);
        if (!want)
            return;
    }
    if (x->va_whole && r->va_empty)
        want = vc_empty_first(r, x->nd, q->rport, want);
    noc_alloc_t *a = vc_va_alloc(r, x->nd, q->rport);
    int id = vc_va_id(x, l);
    int ov = vc_alloc_pick(x, a, id, want);
    vc_alloc_update(x, a, id, ov);
    vc_grant(x, q, pt, l, ov);
}

/* A whole kind of VC allocator (r->va_whole): BookSim2's one allocator
 * over the node's input VCs and all its output VCs (port * V + VC, at most
 * 64), run whenever a VC bids, even when none finds a free VC to ask for
 * (as BookSim2 runs it whenever a VC is in its VA stage: max_size's
 * priority requester moves on then too). */
__attribute__((noinline, cold)) static void vc_va_whole(vc_ctx_t *x)
{
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    const uint64_t *va = vc_va(x);
    int m = 0, V = x->V;
    for (int w = 0; w < x->W; w++) {
        for (uint64_t bits = va[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits);
            const vc_ivc_t *q = &nd->ivc[l];
            uint64_t want = nd->port[q->rport].ovc_free & r->class_mask[q->rclass];
            if (r->va_full)
                want = vc_with_credit(r, nd, q->rport, want);
            if (!want)
                continue;
            r->who[m] = (int16_t)vc_va_id(x, l);
            r->mask[m] = want << (q->rport * V);
            m++;
        }
    }
    if (x->s->prio != NOC_PRI_NONE)
        noc_vc_va_ranked(x->s, r, nd, &r->va_all[x->n], m, r->who, r->mask, r->grant);
    else
        noc_alloc_run_sparse_general(&r->va_all[x->n], m, r->who, r->mask, r->grant);
    for (int k = 0; k < m; k++) {
        int g = r->grant[k], l = vc_va_l(x, r->who[k]);
        if (g >= 0)
            vc_grant(x, &nd->ivc[l], &nd->port[g / V], l, g % V);
    }
}

/* The VA stage: every VC of the va set bids. */
VC_INLINE void vc_vc_alloc(vc_ctx_t *x)
{
    const vc_ivc_t *ivc = x->nd->ivc;
    const uint64_t *va = vc_va(x);
    int W = x->W;

    if (__builtin_expect(x->va_whole, 0) && x->r->va_whole == 1) { /* (2: vc_prioritize_empty, below) */
        vc_va_whole(x);
        return;
    }
    if (W == 1 && !(va[0] & (va[0] - 1))) {
        /* a lone bidder gets its own arbiter's choice (see alloc.h) */
        vc_va_alone(x, __builtin_ctzll(va[0]));
        return;
    }
    /* the output ports asked for, and those asked for by several VCs */
    uint64_t ports = 0, shared = 0;
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = va[w]; bits; bits &= bits - 1) {
            uint64_t ob = UINT64_C(1) << ivc[64 * w + __builtin_ctzll(bits)].rport;
            shared |= ports & ob;
            ports |= ob;
        }
    }
    if (!shared) {
        /* one bidder per output port: each gets its own arbiter's choice
         * among the free VCs of its class (a lone requester, see alloc.h) */
        for (int w = 0; w < W; w++) {
            for (uint64_t bits = va[w]; bits; bits &= bits - 1)
                vc_va_alone(x, 64 * w + __builtin_ctzll(bits));
        }
        return;
    }

    vc_alloc_shared(x);
}
#endif
