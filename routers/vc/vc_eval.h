/* vc_eval.h: one node's evaluation in the vc router, the stages of
 * vc_output.h (credits in), vc_input.h, vc_vcalloc.h and vc_switch.h (with
 * vc_output.h's traversal) in pipeline order, inlined into the instances
 * that vc_router.c makes of it (and vc_hold.c, with the switch hold of
 * hold_switch_for_packet = 1, and vc_spec.c, with speculative = 1: files of
 * their own, so that the others' code stays as it is). Included by those
 * three files only, after the boxes' headers. */
#ifndef NOC_VC_EVAL_H
#define NOC_VC_EVAL_H
#include "routers/vc/vc_switch.h"

/* hold_switch_for_packet = 1 (vc_hold.c): the switch stage with the hold
 * (instead of vc_switch), and nodes[0..count) evaluated with it. */
void noc_vc_switch_hold(vc_ctx_t *x);
void noc_vc_eval_hold(struct noc_sim *s, const int32_t *nodes, int count);

/* speculative = 1 (vc_spec.c): before VC allocation, the VCs of the va set
 * that bid for the switch speculatively this cycle (into r->spec_req;
 * nonzero if any); after it, the switch stage with them (spec: the first
 * found some); nodes[0..count) evaluated so. Set-up for vc_router.c: the
 * check of the parameters (0, or -1 with a message in err), the state (its
 * allocators; freed by noc_vc_spec_free) and its bytes. */
int noc_vc_spec_requests(vc_ctx_t *x);
void noc_vc_switch_spec(vc_ctx_t *x, int spec);
void noc_vc_eval_spec(struct noc_sim *s, const int32_t *nodes, int count);
int noc_vc_spec_check(const struct noc_sim *s, char *err, size_t errlen);
void noc_vc_spec_init(struct noc_sim *s, vc_state_t *r);
void noc_vc_spec_free(struct noc_sim *s, vc_state_t *r);
uint64_t noc_vc_spec_bytes(const struct noc_sim *s, int W, int S, int lane_ports);

/* internal_speedup or output_speedup other than 1 (vc_speedup.c): the
 * check of the parameters (0, or -1 with a message), the state (freed by
 * noc_vc_sp_free), its bytes, nodes[0..count) evaluated with the steps and
 * the output queues, and the readers' views of the queues (vc_router.c's
 * credits, occupancy, visit and held_work). */
int noc_vc_sp_check(const struct noc_sim *s, char *err, size_t errlen);
void noc_vc_sp_init(struct noc_sim *s, vc_state_t *r);
void noc_vc_sp_free(vc_state_t *r);
uint64_t noc_vc_sp_bytes(const struct noc_sim *s, const vc_state_t *r);
void noc_vc_eval_sp(struct noc_sim *s, const int32_t *nodes, int count);
int noc_vc_sp_queued_flits(const vc_state_t *r, int g, int v);
int noc_vc_sp_queued_credits(const vc_state_t *r, const vc_node_t *nd, int p, int v);
void noc_vc_sp_visit(const struct noc_sim *s, int n, noc_flit_visit_fn fn, void *ctx);
int noc_vc_sp_held_work(const struct noc_sim *s, int n);

/* Adaptive routing (the graph's route_set; vc_adapt.c): the route stage of
 * a head (noc_vc_route_adapt, in vc.h), the VC allocation
 * among every bidder's candidates, nodes[0..count) evaluated with them;
 * set-up for vc_router.c: the check of the parameters (0, or -1 with a
 * message), the state (freed by noc_vc_adapt_free) and its bytes. */
void noc_vc_va_adapt(struct noc_sim *s, vc_state_t *r, vc_node_t *nd, int n, int W, int plain);
void noc_vc_eval_adapt(struct noc_sim *s, const int32_t *nodes, int count);
int noc_vc_adapt_check(const struct noc_sim *s, char *err, size_t errlen);
void noc_vc_adapt_init(struct noc_sim *s, vc_state_t *r);
void noc_vc_adapt_free(vc_state_t *r);
/* threads > 1: a thread's copy of r's adaptive state, sharing the input
 * VCs' candidates and arbiters' pointers (each node's are written by the
 * thread that evaluates it) with the allocation's scratch its own; and
 * its release. */
struct vc_adapt *noc_vc_adapt_thread_copy(const vc_state_t *r);
void noc_vc_adapt_thread_free(struct vc_adapt *t);
uint64_t noc_vc_adapt_bytes(const struct noc_sim *s, uint64_t n_ivc, int max_ports);

/* The switch stage of an instance (vc_eval_node's `stage`, a constant):
 * VC_STAGE_ADAPT is the plain one, with adaptive routing's route stage and
 * VC allocation. */
enum { VC_STAGE_PLAIN, VC_STAGE_HOLD, VC_STAGE_SPEC, VC_STAGE_ADAPT };

/* Run each stage only when it has something to do: arrivals for the input
 * unit, VCs in the sets of the other stages. W: words of a set, S:
 * input_speedup, ser: some link serialises (1, 1 and 0, constants, in the
 * common instance), stage: VC_STAGE_* (hold_switch_for_packet,
 * speculative; a constant in every instance), waits: count the
 * waits of a program run (r->arrive set; 0 in the synthetic instances),
 * plain: one local port a node and no ejection credits (a constant 1 in
 * the common instance, r->fast; 0: read them). whole: r->va_whole (a
 * constant 0 in the common instances, vc_router.c). lean: r->lean (a
 * constant: 1 in the lean instance, with plain 1, W and S 1, ser and
 * waits 0, the plain stage). */
VC_INLINE void vc_eval_node(struct noc_sim *s, vc_state_t *r, int n, int W, int S, int ser, int stage, int waits,
                            int plain, int whole, int lean)
{
    uint32_t at = noc_chan_at(s, n, noc_chan_slot(s, s->now));
    uint64_t fl = noc_chan_flits_in(s, at), cr = noc_chan_credits_in(s, at);
    uint64_t arrivals = (fl | cr) & ~NOC_NI_MASK;
    if (!arrivals && r->buffered[n] == 0)
        return;
    vc_node_t *nd = vc_node(r, n);
    vc_ctx_t x = { .s = s, .r = r, .nd = nd, .set = nd->set, .now = s->now, .n = n, .V = r->V, .W = W, .S = S,
                   .ser = ser, .waits = waits, .locals = plain ? 1 : nd->locals, .ej = plain ? 0 : r->ej_credits,
                   .ej_any = plain ? 1 : r->ej_class ? 0 : nd->locals, .adapt = stage == VC_STAGE_ADAPT,
                   .kinds = plain ? 0 : r->kinds, .va_whole = whole, .lean = lean };
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
    uint64_t va, sw;
    vc_join_wakes(r, x.set, x.now, W, &va, &sw);
    int spec = stage == VC_STAGE_SPEC && va && noc_vc_spec_requests(&x);
    if (va) {
        if (stage == VC_STAGE_ADAPT)
            noc_vc_va_adapt(s, r, nd, n, W, plain);
        else
            vc_vc_alloc(&x);
        /* with no VA delay, a VC granted now bids for the switch at once */
        if (r->VA == 0)
            sw = 1;
    }
    if (stage == VC_STAGE_SPEC) {
        if (sw | (uint64_t)spec)
            noc_vc_switch_spec(&x, spec);
    } else if (sw) {
        if (stage == VC_STAGE_HOLD)
            noc_vc_switch_hold(&x);
        else
            vc_switch(&x);
    }
}
#endif
