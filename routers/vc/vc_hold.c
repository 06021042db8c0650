/* vc_hold.c: hold_switch_for_packet = 1 in the vc router (BookSim2's
 * switch hold, iq_router.cpp: _SWHoldEvaluate, _SWHoldUpdate). An input VC
 * that crosses the switch by allocation, with a flit of its packet behind
 * the one that crossed, holds its switch input (its input port; with
 * input_speedup S one of the port's S switch inputs, vc.h) and its output
 * port: in the cycles that follow it crosses without bidding (no arbiter
 * sees it, so no pointer moves), and no other VC of that switch input and
 * no other switch input bids for that output. The hold ends when its tail crosses or its
 * buffer is empty after a crossing, or, in a cycle it has no credit for its
 * output VC, at once: the ports stay shut to the others in that cycle, and
 * the VC bids again from the next. (While its output link serialises an
 * earlier flit, a case BookSim2 does not have, the hold just waits.)
 *
 * The switch stage with the hold, and the instance of the node evaluation
 * (vc_eval.h) that runs it: a file of their own, so that the code of the
 * instances without the hold (vc_router.c) stays as it is. */
#include "routers/vc/vc.h"
#include "routers/vc/vc_input.h"
#include "routers/vc/vc_output.h"
#include "routers/vc/vc_vcalloc.h"
#include "routers/vc/vc_switch.h"
#include "routers/vc/vc_eval.h"

/* hold_switch_for_packet: input VC l of switch input e has just crossed by
 * allocation; it holds the switch if its packet has a flit behind the one
 * that crossed (a tail frees the VC; an empty buffer ends the hold). */
static void vc_hold_begin(vc_ctx_t *x, int l, int e)
{
    const vc_ivc_t *q = &x->nd->ivc[l];
    if (q->state == VC_ACTIVE && q->head != q->tail) {
        x->nd->hold_in |= UINT64_C(1) << e;
        *vc_hold_vc(x->r, x->nd, e) = x->r->l_vc[l];
    }
}

/* hold_switch_for_packet: the held connections (switch inputs in nd->hold_in,
 * each VC's output at most one; `held`: output links still serialising a
 * flit, which keep their holders waiting). A holder with a credit crosses
 * (to cross[] and out[]; returns how many), and keeps holding if
 * vc_hold_begin says so after the crossing; one without lets go at once. */
static int vc_hold_cross(vc_ctx_t *x, uint64_t held, int16_t *cross, uint8_t *out)
{
    vc_node_t *nd = x->nd;
    int V = x->V, n = 0;
    for (uint64_t b = nd->hold_in; b; b &= b - 1) {
        int e = __builtin_ctzll(b), l = x->r->e_port[e] * V + *vc_hold_vc(x->r, nd, e);
        const vc_ivc_t *q = &nd->ivc[l];
        int o = q->rport;
        assert(q->state == VC_ACTIVE && q->head != q->tail);
        if ((held >> o) & 1)
            continue;
        nd->hold_in &= ~(UINT64_C(1) << e);
        if (nd->credits[o * V + q->out_vc] <= 0)
            continue; /* no credit: the hold ends */
        cross[n] = (int16_t)l;
        out[n] = (uint8_t)o;
        n++;
    }
    return n;
}

/* The switch stage with hold_switch_for_packet = 1: as vc_switch, but the
 * held connections cross first (vc_hold_cross), the VCs they shut out do
 * not bid, and a VC that crosses by allocation may begin a hold. */
void noc_vc_switch_hold(vc_ctx_t *x)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    const vc_ivc_t *ivc = nd->ivc;
    const uint64_t *sw = vc_sw(x), *ne = vc_ne(x);
    int V = x->V, nr = 0, nb = 0, n_cross = 0;
    int16_t *ready = r->lvc, *blocked = r->who; /* blocked: with a credit, shut out by a hold */
    uint64_t stalled = 0, wanted = 0, wanted2 = 0; /* output ports wanted by one, by several VCs */
    uint64_t in_ports = 0, out_ports = 0, shared = 0; /* of the ready VCs: switch inputs, output
                                                         ports; those used twice */
    uint64_t held = x->ser ? noc_chan_ser_held(s, x->n) : 0; /* output links still sending a flit */
    uint64_t hold_in = nd->hold_in, hold_out = 0;       /* switch inputs, output ports held */
    for (uint64_t b = hold_in; b; b &= b - 1) {
        int e = __builtin_ctzll(b);
        hold_out |= UINT64_C(1) << ivc[r->e_port[e] * V + *vc_hold_vc(r, nd, e)].rport;
    }
    for (int w = 0; w < x->W; w++) {
        for (uint64_t bits = sw[w] & ne[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits), e = r->l_in[l], o = ivc[l].rport;
            uint64_t ob = UINT64_C(1) << o, pb = UINT64_C(1) << e;
            wanted2 |= wanted & ob;
            wanted |= ob;
            if (held & ob) {
                if (x->waits)
                    vc_count(x, l, o, NOC_WAIT_LINK);
                continue;
            }
            if (nd->credits[o * V + ivc[l].out_vc] <= 0) { /* (a holder too: vc_hold_cross lets go) */
                stalled |= ob;
                if (x->waits)
                    vc_count(x, l, o, NOC_WAIT_CREDIT);
                continue;
            }
            if ((hold_in & pb) | (hold_out & ob)) { /* shut out, or the holder (vc_hold_cross moves it) */
                if (!((hold_in & pb) && r->l_vc[l] == *vc_hold_vc(r, nd, e)) && x->waits)
                    blocked[nb++] = (int16_t)l;
                continue;
            }
            shared |= (in_ports & pb) | (out_ports & ob);
            in_ports |= pb;
            out_ports |= ob;
            ready[nr++] = (int16_t)l;
        }
    }
    if (s->measuring) {
        for (uint64_t b = wanted2 & ~UINT64_C(1); b; b &= b - 1)
            s->lst[nd->base + __builtin_ctzll(b)].contention++;
        for (uint64_t b = stalled; b; b &= b - 1)
            s->lst[nd->base + __builtin_ctzll(b)].credit_stall++;
    }
    int16_t cross[64]; /* at most one crossing per switch input */
    uint8_t out[64];
    if (hold_in)
        n_cross = vc_hold_cross(x, held, cross, out);
    if (shared || r->sa_wave) {
        n_cross += vc_contended(x, ready, nr, cross + n_cross, out + n_cross);
    } else {
        /* each ready VC has its ports to itself: the allocator's conflict-free case */
        for (int k = 0; k < nr; k++) {
            int l = ready[k], e = r->l_in[l];
            noc_alloc_grant_update(nd->sa, e, ivc[l].rport);
            vc_arb_update(x, e, r->l_vc[l]);
            cross[n_cross] = (int16_t)l;
            out[n_cross++] = ivc[l].rport;
        }
    }
    for (int k = 0; k < n_cross; k++) { /* the held ones too: vc_hold_begin renews their holds */
        int l = cross[k];
        vc_traverse(x, l, r->l_port[l], r->l_vc[l], out[k]);
        vc_hold_begin(x, l, r->l_in[l]);
    }
    if (x->waits) {
        vc_count_waits(x, ready, nr, cross, out, n_cross);
        vc_count_waits(x, blocked, nb, cross, out, n_cross);
    }
    if (n_cross == 0)
        return;
    r->buffered[x->n] -= n_cross;
    noc_work_sub(s, x->n, n_cross);
    s->last_move = x->now;
}

void noc_vc_eval_hold(struct noc_sim *s, const int32_t *nodes, int count)
{
    vc_state_t *r = s->rstate;
    for (int i = 0; i < count; i++)
        vc_eval_node(s, r, nodes[i], r->W, r->S, s->serialise, VC_STAGE_HOLD, r->arrive != NULL, 0, r->va_whole, 0);
}
