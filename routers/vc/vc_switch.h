/* vc_switch.h: switch allocation of the vc router. A switch input (an input
 * port, or one of its S switch inputs with input_speedup S, vc.h) bids for
 * the output ports wanted by its VCs that hold an output VC, are past their
 * VA delay, have a flit at the front and a credit downstream; the switch
 * allocator matches switch inputs to output ports; each matched switch
 * input's VC arbiter picks which of its VCs crosses, and the output unit
 * (vc_output.h) moves it across. An output port whose narrow link (class_width) still
 * sends an earlier flit takes no bid until it is done. The link statistics
 * of a contest (contention, credit stalls, programs' waits by resource) are
 * counted here.
 *
 * One box of the block diagram; included by vc_router.c only, whose node
 * evaluation inlines it (see vc.h). */
#ifndef NOC_VC_SWITCH_H
#define NOC_VC_SWITCH_H
#include "routers/vc/vc_output.h"
#include "routers/vc/vc_rank.h"

/* Input VC v won the VC arbiter of its switch input e. The round-robin
 * pointer goes to the switch input's next VC, v + S (BookSim2's
 * _sw_rr_offset; a pointer of V counts as 0). */
VC_INLINE void vc_arb_update(vc_ctx_t *x, int e, int v)
{
    const vc_state_t *r = x->r;
    if (!x->lean && r->matrix) {
        noc_arbiter_update(vc_sa_vc(r, x->nd, e), v);
        return;
    }
    unsigned next = (unsigned)(v + x->S);
    x->nd->vc_ptr[e] = (uint8_t)(x->S > 1 && next > (unsigned)x->V ? next - (unsigned)x->V : next);
}

/* The general case: several ready VCs share a switch input or an output
 * port. ready[0..nr): the ready VCs. The switch allocator and the VC
 * arbiters choose; the chosen VCs go to cross[] (local input VC) and out[]
 * (output port), in the allocator's order. Returns how many. */
VC_INLINE int vc_contended(vc_ctx_t *x, const int16_t *ready, int nr, int16_t *cross, uint8_t *out)
{
    const vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    int V = x->V, n_cross = 0;
    uint64_t vc_ready[64];    /* per switch input: its VCs ready to cross */
    uint64_t ports[64];       /* per switch input: output ports they want */
    uint64_t in_ports = 0;    /* switch inputs with a ready VC */
    for (int k = 0; k < nr; k++) {
        int l = ready[k], e = vc_in(x, l);
        uint64_t pb = UINT64_C(1) << e;
        if (!(in_ports & pb)) {
            in_ports |= pb;
            vc_ready[e] = 0;
            ports[e] = 0;
        }
        vc_ready[e] |= UINT64_C(1) << r->l_vc[l];
        ports[e] |= UINT64_C(1) << nd->ivc[l].rport;
    }
    int16_t who[64], grant[64];
    uint64_t mask[64];
    int m = 0;
    who[0] = who[1] = 0; /* (m >= 1; quiets a false maybe-uninitialized warning) */
    mask[0] = mask[1] = 0;
    for (uint64_t b = in_ports; b; b &= b - 1) {
        int p = __builtin_ctzll(b);
        who[m] = (int16_t)p;
        mask[m] = ports[p];
        m++;
    }
    if (!x->lean && __builtin_expect(x->s->prio != NOC_PRI_NONE, 0))
        noc_vc_sa_ranked(x->s, r, nd, x->S, ready, nr, in_ports, m, who, mask, grant);
    else if (!x->lean && r->sa_wave)
        noc_alloc_run_sparse_general(nd->sa, m, who, mask, grant);
    else
        noc_alloc_run_sparse_separable(nd->sa, m, who, mask, grant);

    for (int k = 0; k < m; k++) {
        int o = grant[k], e = who[k], p = x->S == 1 ? e : r->e_port[e];
        if (o < 0)
            continue;
        /* which VC of this switch input crosses: those ready for output o */
        uint64_t cand = vc_ready[e];
        if (cand & (cand - 1)) {
            cand = 0;
            for (uint64_t b = vc_ready[e]; b; b &= b - 1) {
                int v = __builtin_ctzll(b);
                if (nd->ivc[p * V + v].rport == o)
                    cand |= UINT64_C(1) << v;
            }
        }
        if (!x->lean && __builtin_expect(x->s->prio != NOC_PRI_NONE, 0) && (cand & (cand - 1)))
            cand = noc_vc_top(x->s, r, nd, p, cand); /* (the one its request ranked as, or its equals) */
        int v = !x->lean && r->matrix ? noc_arbiter_pick(vc_sa_vc(r, nd, e), &cand)
                          : noc_rr_pick(cand, nd->vc_ptr[e]);
        assert(v >= 0);
        vc_arb_update(x, e, v);
        cross[n_cross] = (int16_t)(p * V + v);
        out[n_cross] = (uint8_t)o;
        n_cross++;
    }
    return n_cross;
}

/* Programs: the flit at the front of input VC l waits this cycle for
 * output o, for resource kind (noc_wait_kind_t), counted for its packet. */
static void vc_count(vc_ctx_t *x, int l, int o, int kind)
{
    vc_node_t *nd = x->nd;
    const noc_flit_t *f = vc_slot(nd->buf, x->r, l, nd->ivc[l].head);
    noc_wait_pkt(x->s, kind, f->pkt, nd->base + o, 1);
}

/* Programs: every ready VC that did not cross this cycle waits a cycle:
 * for its output link if another VC took that link, else for the switch
 * (it lost at its input port). */
static void vc_count_waits(vc_ctx_t *x, const int16_t *ready, int nr, const int16_t *cross,
                           const uint8_t *out, int n_cross)
{
    vc_node_t *nd = x->nd;
    uint64_t used = 0;
    for (int k = 0; k < n_cross; k++)
        used |= UINT64_C(1) << out[k];
    for (int i = 0; i < nr; i++) {
        int l = ready[i], o = nd->ivc[l].rport, won = 0;
        for (int k = 0; k < n_cross; k++)
            won |= cross[k] == l;
        if (!won)
            vc_count(x, l, o, ((used >> o) & 1) ? NOC_WAIT_LINK : NOC_WAIT_SWITCH);
    }
}

/* A lone VC l may bid (W = 1, no wavefront allocator): nothing contends,
 * so with a credit it crosses, and each arbiter on its way sees a single
 * request. held: output links still sending a flit. */
VC_INLINE void vc_switch_lone(vc_ctx_t *x, int l, uint64_t held)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    int o = nd->ivc[l].rport;
    if ((held >> o) & 1) {
        if (x->waits)
            vc_count(x, l, o, NOC_WAIT_LINK);
        return;
    }
    if (nd->credits[o * x->V + nd->ivc[l].out_vc] <= 0) {
        if (s->measuring)
            s->lst[nd->base + o].credit_stall++;
        if (x->waits)
            vc_count(x, l, o, NOC_WAIT_CREDIT);
        return;
    }
    int p = r->l_port[l], v = r->l_vc[l], e = vc_in(x, l);
    vc_alloc_update(x, nd->sa, e, o);
    vc_arb_update(x, e, v);
    vc_traverse(x, l, p, v, o);
    r->buffered[x->n]--;
    noc_work_sub(s, x->n, 1);
    s->last_move = x->now;
}

/* The switch stage: every ready VC of the sw set bids. */
VC_INLINE void vc_switch(vc_ctx_t *x)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    const vc_ivc_t *ivc = nd->ivc;
    const int16_t *credits = nd->credits;
    const uint64_t *sw = vc_sw(x), *ne = vc_ne(x);
    int V = x->V, W = x->W, nr = 0;
    int16_t ready_1[64], *ready = W == 1 ? ready_1 : r->lvc;
    uint64_t stalled = 0, wanted = 0, wanted2 = 0; /* output ports wanted by one, by several VCs */
    uint64_t in_ports = 0, out_ports = 0, shared = 0; /* of the ready VCs: switch inputs, output
                                                         ports; those used twice */
    uint64_t held = x->ser ? noc_chan_ser_held(s, x->n) : 0; /* output links still sending a flit */

    if (W == 1) {
        uint64_t bits = sw[0] & ne[0];
        if (!bits)
            return;
        if (!(bits & (bits - 1)) && (x->lean || !r->sa_wave)) {
            vc_switch_lone(x, __builtin_ctzll(bits), held);
            return;
        }
    }
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = sw[w] & ne[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits);
            const vc_ivc_t *q = &ivc[l];
            int o = q->rport;
            uint64_t ob = UINT64_C(1) << o, pb = UINT64_C(1) << vc_in(x, l);
            wanted2 |= wanted & ob;
            wanted |= ob;
            if (held & ob) {
                if (x->waits)
                    vc_count(x, l, o, NOC_WAIT_LINK);
                continue;
            }
            if (credits[o * V + q->out_vc] <= 0) { /* (never for the ejection port, see below) */
                stalled |= ob;
                if (x->waits)
                    vc_count(x, l, o, NOC_WAIT_CREDIT);
                continue;
            }
            shared |= (in_ports & pb) | (out_ports & ob);
            in_ports |= pb;
            out_ports |= ob;
            ready[nr++] = (int16_t)l;
        }
    }
    if (s->measuring) {
        int base = nd->base;
        for (uint64_t b = wanted2 & ~UINT64_C(1); b; b &= b - 1)
            s->lst[base + __builtin_ctzll(b)].contention++;
        for (uint64_t b = stalled; b; b &= b - 1)
            s->lst[base + __builtin_ctzll(b)].credit_stall++;
    }
    if (nr == 0)
        return;
    int n_cross;
    if (shared || (!x->lean && r->sa_wave)) {
        int16_t cross[64]; /* at most one crossing per switch input */
        uint8_t out[64];
        n_cross = vc_contended(x, ready, nr, cross, out);
        if (x->waits)
            vc_count_waits(x, ready, nr, cross, out, n_cross);
        for (int k = 0; k < n_cross; k++) {
            int l = cross[k];
            vc_traverse(x, l, r->l_port[l], r->l_vc[l], out[k]);
        }
    } else {
        /* Every ready VC has its switch input and its output port to
         * itself: each crosses, and each arbiter on its way sees a single
         * request (the allocator's conflict-free case); in input VC order
         * (with S = 1 the allocator's order of grants). */
        noc_alloc_t *sa = nd->sa;
        for (int k = 0; k < nr; k++) {
            int l = ready[k], p = r->l_port[l], v = r->l_vc[l], o = ivc[l].rport;
            int e = vc_in(x, l);
            vc_alloc_update(x, sa, e, o);
            vc_arb_update(x, e, v);
            vc_traverse(x, l, p, v, o);
        }
        n_cross = nr;
    }
    r->buffered[x->n] -= n_cross;
    noc_work_sub(s, x->n, n_cross);
    s->last_move = x->now;
}
#endif
