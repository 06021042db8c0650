/* vc_spec.c: speculative switch allocation in the vc router (speculative = 1:
 * BookSim2's iq_router.cpp with _speculative, its _SWAllocEvaluate and the
 * discarding of speculative grants there). A head flit that bids for an
 * output VC in cycle c (vc_vcalloc.h) also bids for the switch in cycle c,
 * for its route's output port, speculatively:
 *   - it bids only if, at the start of c, a VC of its class is free at that
 *     port (spec_check_elig) and one such VC has a credit (spec_check_cred;
 *     BookSim2 looks at credits only when it looks at the VCs, so with
 *     spec_check_elig = 0 and spec_check_cred = 1 nobody bids);
 *   - spec_sw_allocator = prio: its request goes to the switch allocator
 *     below every non-speculative one (model/alloc.h,
 *     noc_alloc_run_sparse_prio), and of the VCs of one switch input that
 *     want one output a non-speculative one goes first; otherwise the
 *     speculative requests go to a second allocator of that kind, and a
 *     switch input with a non-speculative grant takes it; a speculative
 *     grant is dropped when its output has a non-speculative request
 *     (spec_mask_by_reqs = 1) or grant (0);
 *   - a speculative grant that stands moves the switch input's VC arbiter
 *     (as any grant does), and the flit crosses in c if its VC got an
 *     output VC in c's VC allocation and has a credit for it; otherwise the
 *     grant is lost (the output takes no flit from it). A head that got its
 *     VC but not the switch bids again from c + 1, as any VC holding one.
 * So with no contention a head crosses in the cycle it gets its VC, one
 * cycle (vc_alloc_delay) sooner than without speculation. Modelled with
 * vc_alloc_delay = sw_alloc_delay = 1 (BookSim2's defaults; with longer
 * stages BookSim2 checks a grant against the VC allocation of a later
 * cycle) and without hold_switch_for_packet: vc_router.c refuses the others
 * (noc_vc_spec_check).
 *
 * The instance of the node evaluation (vc_eval.h) that runs this switch
 * stage: a file of its own, so that the others' code stays as it is. */
#include "util/xalloc.h"
#include "routers/vc/vc.h"
#include "routers/vc/vc_input.h"
#include "routers/vc/vc_output.h"
#include "routers/vc/vc_vcalloc.h"
#include "routers/vc/vc_switch.h"
#include "routers/vc/vc_eval.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_prio(const char *name) { return name && strcmp(name, "prio") == 0; }

int noc_vc_spec_check(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_config_t *c = &s->cfg;
    if (!c->speculative)
        return 0;
    if (c->vc_alloc_delay != 1 || c->sw_alloc_delay != 1) {
        snprintf(err, errlen, "parameter 'speculative': speculative switch allocation is modelled with "
                 "vc_alloc_delay = 1 and sw_alloc_delay = 1 only (BookSim2's defaults; with longer stages "
                 "BookSim2 checks a speculative grant against the VC allocation of a later cycle), %lld and %lld given",
                 (long long)c->vc_alloc_delay, (long long)c->sw_alloc_delay);
        return -1;
    }
    if (c->hold_switch_for_packet) {
        snprintf(err, errlen, "parameter 'speculative': speculative switch allocation together with "
                 "hold_switch_for_packet = 1 is not modelled yet");
        return -1;
    }
    if (!is_prio(c->spec_sw_allocator) && noc_alloc_kind_parse(c->spec_sw_allocator) == NOC_ALLOC_COUNT) {
        snprintf(err, errlen, "parameter 'spec_sw_allocator': unknown allocator '%s' (prio, separable_input_first, "
                 "separable_output_first, islip, select, wavefront, rr_wavefront, max_size, loa, pim)", c->spec_sw_allocator);
        return -1;
    }
    return 0;
}

/* Ports (with the NI's lane ports) of node n. */
static int node_ports(const struct noc_sim *s, const vc_state_t *r, int n)
{
    return s->graph->port_base[n + 1] - s->graph->port_base[n] + r->lane_ports;
}

void noc_vc_spec_init(struct noc_sim *s, vc_state_t *r)
{
    const noc_config_t *c = &s->cfg;
    r->spec_elig = c->spec_check_elig != 0;
    r->spec_cred = c->spec_check_cred != 0;
    r->spec_mask = c->spec_mask_by_reqs != 0;
    r->spec_kind = (int)(is_prio(c->spec_sw_allocator) ? NOC_ALLOC_COUNT : noc_alloc_kind_parse(c->spec_sw_allocator));
    r->spec_req = noc_xcalloc((size_t)r->W, sizeof(uint64_t), "vc router");
    if (r->spec_kind == NOC_ALLOC_COUNT)
        return;
    int N = s->graph->n_nodes;
    r->sa_spec = noc_xcalloc((size_t)N, sizeof(noc_alloc_t), "vc router");
    for (int n = 0; n < N; n++) {
        int P = node_ports(s, r, n);
        noc_alloc_init(&r->sa_spec[n], (noc_alloc_kind_t)r->spec_kind, noc_arb_kind_parse(c->arb_type), P * r->S,
                       P, (int)c->alloc_iters);
        noc_alloc_seed(&r->sa_spec[n], noc_vc_alloc_salt(s, n, 2));
    }
}

void noc_vc_spec_free(struct noc_sim *s, vc_state_t *r)
{
    if (r->sa_spec)
        for (int n = 0; n < s->graph->n_nodes; n++)
            noc_alloc_free(&r->sa_spec[n]);
    free(r->sa_spec);
    free(r->spec_req);
    r->sa_spec = NULL;
    r->spec_req = NULL;
}

uint64_t noc_vc_spec_bytes(const struct noc_sim *s, int W, int S, int lane_ports)
{
    const noc_config_t *c = &s->cfg;
    if (!c->speculative)
        return 0;
    uint64_t b = (uint64_t)W * sizeof(uint64_t);
    if (is_prio(c->spec_sw_allocator))
        return b;
    /* (every node with the most ports: a shape lists no node's ports) */
    noc_arb_kind_t ak = noc_arb_kind_parse(c->arb_type);
    int P = s->graph->max_degree + 1 + lane_ports;
    if (ak == NOC_ARB_COUNT)
        return b; /* create refuses it */
    return b + (uint64_t)s->graph->n_nodes * (sizeof(noc_alloc_t) + noc_alloc_block_size(ak, P * S, P) +
                                              noc_alloc_heap_bytes(ak, P * S, P));
}

/* Does the head of input VC l (registers q, bidding for an output VC) bid
 * speculatively? Looked at before this cycle's VC allocation, as BookSim2
 * sees its output VCs' state (free, credits) then. */
static int spec_bids(const vc_ctx_t *x, const vc_ivc_t *q)
{
    const vc_state_t *r = x->r;
    if (!r->spec_elig)
        return !r->spec_cred;
    int o = q->rport;
    uint64_t avail = x->nd->port[o].ovc_free & r->class_mask[q->rclass];
    if (!avail)
        return 0;
    if (!r->spec_cred)
        return 1;
    const int16_t *cr = &x->nd->credits[o * x->V];
    for (; avail; avail &= avail - 1)
        if (cr[__builtin_ctzll(avail)] > 0)
            return 1;
    return 0;
}

int noc_vc_spec_requests(vc_ctx_t *x)
{
    const uint64_t *va = vc_va(x);
    uint64_t *sr = x->r->spec_req, any = 0;
    for (int w = 0; w < x->W; w++) {
        sr[w] = 0;
        for (uint64_t bits = va[w]; bits; bits &= bits - 1) {
            int b = __builtin_ctzll(bits);
            if (spec_bids(x, &x->nd->ivc[64 * w + b]))
                sr[w] |= UINT64_C(1) << b;
        }
        any |= sr[w];
    }
    return any != 0;
}

/* What the switch inputs of one node bid this cycle: per switch input e
 * (in `in`), its VCs bidding non-speculatively (vcs[0][e]) and
 * speculatively (vcs[1][e]), and the output ports they want (ports[..][e]). */
typedef struct bids {
    uint64_t in;
    uint64_t vcs[2][64], ports[2][64];
} bids_t;

/* The bidders: the VCs of the sw set with a flit, a free link and a credit
 * (to ready[], returns how many: their waits are counted), and the
 * speculative ones of spec_req (spec: it holds this cycle's) with a free
 * link; the link statistics of the contest as vc_switch counts them. */
static int gather(vc_ctx_t *x, int spec, bids_t *bd, int16_t *ready)
{
    struct noc_sim *s = x->s;
    const vc_state_t *r = x->r;
    const vc_node_t *nd = x->nd;
    const uint64_t *sw = vc_sw(x), *ne = vc_ne(x), *sr = r->spec_req;
    int V = x->V, nr = 0;
    uint64_t held = x->ser ? noc_chan_ser_held(s, x->n) : 0; /* output links still sending a flit */
    uint64_t stalled = 0, wanted = 0, wanted2 = 0;           /* output ports wanted by one, by several VCs */
    bd->in = 0;
    for (int w = 0; w < x->W; w++) {
        uint64_t sb = spec ? sr[w] : 0;
        for (uint64_t bits = (sw[w] & ne[w]) | sb; bits; bits &= bits - 1) {
            int b = __builtin_ctzll(bits), l = 64 * w + b, k = (int)((sb >> b) & 1);
            const vc_ivc_t *q = &nd->ivc[l];
            int o = q->rport, e = vc_in(x, l);
            uint64_t ob = UINT64_C(1) << o, eb = UINT64_C(1) << e;
            wanted2 |= wanted & ob;
            wanted |= ob;
            if (held & ob) {
                if (!k && x->waits)
                    vc_count(x, l, o, NOC_WAIT_LINK);
                continue;
            }
            if (!k && nd->credits[o * V + q->out_vc] <= 0) {
                stalled |= ob;
                if (x->waits)
                    vc_count(x, l, o, NOC_WAIT_CREDIT);
                continue;
            }
            if (!k)
                ready[nr++] = (int16_t)l;
            if (!(bd->in & eb)) {
                bd->in |= eb;
                bd->vcs[0][e] = bd->vcs[1][e] = bd->ports[0][e] = bd->ports[1][e] = 0;
            }
            bd->vcs[k][e] |= UINT64_C(1) << r->l_vc[l];
            bd->ports[k][e] |= ob;
        }
    }
    if (s->measuring) {
        for (uint64_t b = wanted2 & ~UINT64_C(1); b; b &= b - 1)
            s->lst[nd->base + __builtin_ctzll(b)].contention++;
        for (uint64_t b = stalled; b; b &= b - 1)
            s->lst[nd->base + __builtin_ctzll(b)].credit_stall++;
    }
    return nr;
}

/* spec_sw_allocator other than prio: the non-speculative requests (hi) to
 * the switch allocator, the speculative ones (lo) to the node's second
 * allocator; a switch input with a grant of the first takes it, one with a
 * speculative grant only keeps it if its output has no non-speculative
 * request (spec_mask_by_reqs = 1) or grant (0). grant[k], is_spec[k]: the
 * outcome for switch input who[k]. */
static void separate(vc_ctx_t *x, int m, const int16_t *who, const uint64_t *hi, const uint64_t *lo, int16_t *grant,
                     uint8_t *is_spec)
{
    const vc_state_t *r = x->r;
    int16_t wh[64], gh[64], wl[64], gl[64], kl[64];
    uint64_t mh[64], ml[64], asked = 0, given = 0;
    int nh = 0, nl = 0;
    for (int k = 0; k < m; k++) {
        grant[k] = -1;
        is_spec[k] = 0;
        if (hi[k]) {
            wh[nh] = who[k];
            mh[nh++] = hi[k];
            asked |= hi[k];
        }
        if (lo[k]) {
            wl[nl] = who[k];
            ml[nl] = lo[k];
            kl[nl++] = (int16_t)k;
        }
    }
    if (nh)
        noc_alloc_run_sparse(x->nd->sa, nh, wh, mh, gh);
    if (nl)
        noc_alloc_run_sparse(&r->sa_spec[x->n], nl, wl, ml, gl);
    for (int i = 0, k = 0; i < nh; i++) {
        while (who[k] != wh[i])
            k++;
        grant[k] = gh[i];
        if (gh[i] >= 0)
            given |= UINT64_C(1) << gh[i];
    }
    for (int i = 0; i < nl; i++) {
        int k = kl[i], o = gl[i];
        if (o < 0 || grant[k] >= 0 || (((r->spec_mask ? asked : given) >> o) & 1))
            continue;
        grant[k] = (int16_t)o;
        is_spec[k] = 1;
    }
}

/* The switch stage with speculative = 1 (spec: r->spec_req holds this
 * cycle's speculative bidders). */
void noc_vc_switch_spec(vc_ctx_t *x, int spec)
{
    struct noc_sim *s = x->s;
    vc_state_t *r = x->r;
    vc_node_t *nd = x->nd;
    int V = x->V, m = 0, n_cross = 0;
    int16_t *ready = r->lvc, who[64], grant[64], cross[64];
    uint64_t hi[64], lo[64], mask[64], spec_crossed = 0;
    uint8_t is_spec[64], out[64];
    bids_t bd;
    int nr = gather(x, spec, &bd, ready);
    if (!bd.in)
        return;
    for (uint64_t b = bd.in; b; b &= b - 1) {
        int e = __builtin_ctzll(b);
        who[m] = (int16_t)e;
        hi[m] = bd.ports[0][e];
        lo[m] = bd.ports[1][e];
        mask[m] = hi[m] | lo[m];
        m++;
    }
    if (r->spec_kind == NOC_ALLOC_COUNT) {
        noc_alloc_run_sparse_prio(nd->sa, m, who, mask, hi, grant);
        for (int k = 0; k < m; k++)
            is_spec[k] = grant[k] >= 0 && !((hi[k] >> grant[k]) & 1);
    } else {
        separate(x, m, who, hi, lo, grant, is_spec);
    }
    for (int k = 0; k < m; k++) {
        int o = grant[k], e = who[k], p = x->S == 1 ? e : r->e_port[e], sp = is_spec[k];
        if (o < 0)
            continue;
        /* which VC of this switch input, of the granted kind, crosses: those for output o */
        uint64_t cand = 0;
        for (uint64_t b = bd.vcs[sp][e]; b; b &= b - 1) {
            int v = __builtin_ctzll(b);
            if (nd->ivc[p * V + v].rport == o)
                cand |= UINT64_C(1) << v;
        }
        int v = r->matrix ? noc_arbiter_pick(vc_sa_vc(r, nd, e), &cand) : noc_rr_pick(cand, nd->vc_ptr[e]);
        assert(v >= 0);
        vc_arb_update(x, e, v);
        int l = p * V + v;
        const vc_ivc_t *q = &nd->ivc[l];
        /* a speculative grant is lost unless its VC got an output VC this
         * cycle (it bid from the VA state) and has a credit for it */
        if (sp && (q->state != VC_ACTIVE || nd->credits[o * V + q->out_vc] <= 0))
            continue;
        spec_crossed |= (uint64_t)sp << n_cross;
        cross[n_cross] = (int16_t)l;
        out[n_cross++] = (uint8_t)o;
    }
    if (x->waits)
        vc_count_waits(x, ready, nr, cross, out, n_cross);
    for (int k = 0; k < n_cross; k++) {
        int l = cross[k];
        vc_traverse(x, l, r->l_port[l], r->l_vc[l], out[k]);
        /* its VC allocation filed it to bid for the switch from the next
         * cycle: not if its tail has crossed */
        if (((spec_crossed >> k) & 1) && nd->ivc[l].state != VC_ACTIVE)
            vc_clr(vc_wake(r, x->set, x->now + 1, x->W) + x->W, l, x->W);
    }
    if (n_cross == 0)
        return;
    r->buffered[x->n] -= n_cross;
    noc_work_sub(s, x->n, n_cross);
    s->last_move = x->now;
}

void noc_vc_eval_spec(struct noc_sim *s, const int32_t *nodes, int count)
{
    vc_state_t *r = s->rstate;
    for (int i = 0; i < count; i++)
        vc_eval_node(s, r, nodes[i], r->W, r->S, s->serialise, VC_STAGE_SPEC, r->arrive != NULL, 0, r->va_whole, 0);
}
