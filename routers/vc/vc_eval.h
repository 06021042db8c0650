/* vc_eval.h: one node's evaluation in the vc router, the stages of
 * vc_output.h (credits in), vc_input.h, vc_vcalloc.h and vc_switch.h (with
 * vc_output.h's traversal) in pipeline order, inlined into the instances
 * that vc_router.c makes of it (and vc_hold.c, with the switch hold of
 * hold_switch_for_packet = 1: a file of its own, so that the others' code
 * stays as it is). Included by those two files only, after the boxes'
 * headers. */
#ifndef NOC_VC_EVAL_H
#define NOC_VC_EVAL_H
#include "routers/vc/vc_switch.h"

/* hold_switch_for_packet = 1 (vc_hold.c): the switch stage with the hold
 * (instead of vc_switch), and nodes[0..count) evaluated with it. */
void noc_vc_switch_hold(vc_ctx_t *x);
void noc_vc_eval_hold(struct noc_sim *s, const int32_t *nodes, int count);

/* Run each stage only when it has something to do: arrivals for the input
 * unit, VCs in the sets of the other stages. W: words of a set, S:
 * input_speedup, ser: some link serialises (1, 1 and 0, constants, in the
 * common instance), hold:
 * hold_switch_for_packet (a constant in every instance), waits: count the
 * waits of a program run (r->arrive set; 0 in the synthetic instances),
 * plain: one local port a node and no ejection credits (a constant 1 in
 * the common instance, r->fast; 0: read them). */
VC_INLINE void vc_eval_node(struct noc_sim *s, vc_state_t *r, int n, int W, int S, int ser, int hold, int waits,
                            int plain)
{
    uint32_t at = noc_chan_at(s, n, noc_chan_slot(s, s->now));
    uint64_t fl = noc_chan_flits_in(s, at), cr = noc_chan_credits_in(s, at);
    uint64_t arrivals = (fl | cr) & ~NOC_NI_MASK;
    if (!arrivals && r->buffered[n] == 0)
        return;
    vc_node_t *nd = vc_node(r, n);
    vc_ctx_t x = { .s = s, .r = r, .nd = nd, .set = nd->set, .now = s->now, .n = n, .V = r->V, .W = W, .S = S,
                   .ser = ser, .waits = waits, .locals = plain ? 1 : nd->locals, .ej = plain ? 0 : r->ej_credits };
    if (arrivals) {
        /* the NI bits are the NI's, which evaluated first */
        noc_chan_flits_seen(s, at, ~NOC_NI_MASK);
        noc_chan_credits_seen(s, at, ~NOC_NI_MASK);
        if (cr & ~NOC_NI_MASK)
            vc_credits_in(&x, cr & ~NOC_NI_MASK);
        if (fl & ~NOC_NI_MASK)
            vc_input(&x, fl & ~NOC_NI_MASK);
        if (r->buffered[n] == 0)
            return;
    }
    uint64_t *set = x.set, *wake = vc_wake(r, set, x.now, W);
    uint64_t va = 0, sw = 0;
    for (int w = 0; w < W; w++) {
        /* the VCs whose route or VA stage ends this cycle join their sets */
        uint64_t a = set[W + w] | wake[w], b = set[2 * W + w] | wake[W + w];
        set[W + w] = a;
        set[2 * W + w] = b;
        wake[w] = 0;
        wake[W + w] = 0;
        va |= a;
        sw |= b & set[w];
    }
    if (va) {
        vc_vc_alloc(&x);
        /* with no VA delay, a VC granted now bids for the switch at once */
        if (r->VA == 0)
            sw = 1;
    }
    if (sw) {
        if (hold)
            noc_vc_switch_hold(&x);
        else
            vc_switch(&x);
    }
}
#endif
