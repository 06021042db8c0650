/* vc_adapt.c: adaptive routing in the vc router (the graph's route_set:
 * min_adapt, adaptive_xy_yx; topologies/grid_adapt.c), as BookSim2's
 * iq_router runs its adaptive routing functions.
 *
 * - Route stage: a head's route is a set of candidates (output port, range
 *   of its VCs, priority), computed at this router from the VC the head
 *   arrived on (or its injection here); a set that asks for a pick keeps
 *   the candidate whose output port has fewer flits sent downstream and not
 *   credited back (the router's own credit counters: BookSim2's
 *   GetUsedCredit), or with pick 2 the one UGAL's weighted rule names.
 *   The candidates wait in the route's registers of the input VC until its
 *   VC allocation.
 * - VC allocation: one allocator over the node's input VCs and all its
 *   output VCs (port * V + VC), every bidder asking for every free output
 *   VC of every candidate with the candidate's priority
 *   (model/alloc_list.h: separable input-first, output-first or iSLIP as
 *   vc_allocator says, round-robin arbiters whose pointer over the output
 *   VCs is the input VC's one for the whole router: va_in_pointer = router).
 *   A grant fixes the output port; switch allocation and traversal are
 *   the plain ones (vc_switch.h).
 *
 * Heads are routed here only; the instance is vc_eval_node with
 * VC_STAGE_ADAPT. */
#include "routers/vc/vc.h"
#include "routers/vc/vc_input.h"
#include "routers/vc/vc_output.h"
#include "routers/vc/vc_vcalloc.h"
#include "routers/vc/vc_switch.h"
#include "routers/vc/vc_eval.h"
#include "model/alloc_list.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vc_adapt {
    noc_alloc_kind_t kind;
    int iters;
    noc_route_cand_t *cand; /* per input VC (numbered as slot 0 of buf): NOC_ROUTE_SET_MAX candidates */
    uint8_t *n_cand;        /* per input VC: its candidates */
    uint16_t *in_ptr;       /* per input VC: its arbiter's pointer over its node's output VCs */
    uint16_t *out_ptr;      /* per output VC (numbered as the input VCs): its arbiter's pointer over
                               its node's input VCs */
    /* scratch for one node's allocation */
    size_t max_req;
    noc_alloc_req_t *req;
    uint8_t *grant;
    int16_t *scratch;
};

/* Flits output port o of node nd has sent downstream and not had credited
 * back, over all its VCs. */
static int used_credits(const vc_state_t *r, const vc_node_t *nd, int o)
{
    const int16_t *cr = &nd->credits[o * r->V];
    int used = 0;
    for (int v = 0; v < r->V; v++)
        used += r->depth - cr[v];
    return used;
}

void noc_vc_route_adapt(struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int n, vc_ivc_t *q,
                        const noc_flit_t *f, int l)
{
    const noc_graph_t *gr = s->graph;
    struct vc_adapt *a = r->adapt;
    int p = r->l_port[l], Pt = gr->port_base[n + 1] - nd->base;
    int in_vc = p < nd->locals || p >= Pt ? -1 : r->l_vc[l]; /* -1: injected here */
    const noc_packet_t *pk = &s->pkts[f->pkt];
    noc_route_set_t rs;
    gr->route_set(gr->ctx, n, pk->src, f->dst, pk->salt, f->hops, r->V, in_vc, &rs);
    assert(rs.n >= 1 && rs.n <= NOC_ROUTE_SET_MAX);
    if (rs.pick) {
        assert(rs.n == 2);
        int u0 = used_credits(r, nd, rs.c[0].port), u1 = used_credits(r, nd, rs.c[1].port);
        rs.c[0] = rs.c[noc_route_set_pick(&rs, u0, u1)];
        rs.n = 1;
    }
    size_t g = vc_global(nd->buf, r, l);
    memcpy(&a->cand[g * NOC_ROUTE_SET_MAX], rs.c, (size_t)rs.n * sizeof rs.c[0]);
    a->n_cand[g] = (uint8_t)rs.n;
    q->rport = rs.c[0].port; /* (until the VC allocation fixes it) */
    q->rclass = VC_ANY_CLASS;
}

/* Of the VCs in `of` of output port o, those whose buffer downstream is
 * empty: every credit back. */
static uint64_t empty_vcs(const vc_ctx_t *x, int o, uint64_t of)
{
    const int16_t *cr = &x->nd->credits[o * x->V];
    uint64_t e = 0;
    for (; of; of &= of - 1) {
        int v = __builtin_ctzll(of);
        if (cr[v] == x->r->depth)
            e |= UINT64_C(1) << v;
    }
    return e;
}

/* VCs [lo, hi) of a port as a mask. */
static uint64_t range_mask(int lo, int hi)
{
    uint64_t below_hi = hi >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << hi) - 1u;
    return below_hi & ~((UINT64_C(1) << lo) - 1u);
}

void noc_vc_va_adapt(struct noc_sim *s, vc_state_t *r, vc_node_t *nd, int n, int W, int plain)
{
    /* the evaluation's context, as vc_eval_node makes it (vc_grant's) */
    vc_ctx_t ctx = { .s = s, .r = r, .nd = nd, .set = nd->set, .now = s->now, .n = n, .V = r->V, .W = W,
                     .S = r->S, .ser = s->serialise, .waits = 0, .locals = plain ? 1 : nd->locals,
                     .ej = plain ? 0 : r->ej_credits, .ej_any = plain ? 1 : r->ej_class ? 0 : nd->locals,
                     .adapt = 1 };
    vc_ctx_t *x = &ctx;
    struct vc_adapt *a = r->adapt;
    const uint64_t *va = vc_va(x);
    int V = x->V, m = 0;
    int P = s->graph->port_base[n + 1] - nd->base + r->lane_ports;
    size_t base = vc_global(nd->buf, r, 0);
    for (int w = 0; w < W; w++) {
        for (uint64_t bits = va[w]; bits; bits &= bits - 1) {
            int l = 64 * w + __builtin_ctzll(bits);
            const noc_route_cand_t *c = &a->cand[(base + (size_t)l) * NOC_ROUTE_SET_MAX];
            for (int k = 0; k < a->n_cand[base + (size_t)l]; k++) {
                uint64_t want = nd->port[c[k].port].ovc_free & range_mask(c[k].lo, c[k].hi);
                if (c[k].empty)
                    want &= empty_vcs(x, c[k].port, want);
                for (; want; want &= want - 1) {
                    assert((size_t)m < a->max_req);
                    a->req[m].in = (int16_t)l;
                    a->req[m].out = (int16_t)(c[k].port * V + __builtin_ctzll(want));
                    a->req[m].pri = c[k].pri;
                    m++;
                }
            }
        }
    }
    if (m == 0)
        return;
    noc_alloc_list(a->kind, a->iters, m, a->req, a->grant, &a->in_ptr[base], P * V, &a->out_ptr[base], P * V,
                   a->scratch);
    for (int k = 0; k < m; k++) {
        if (!a->grant[k])
            continue;
        int l = a->req[k].in, o = a->req[k].out / V;
        vc_ivc_t *q = &nd->ivc[l];
        q->rport = (uint8_t)o;
        vc_grant(x, q, &nd->port[o], l, a->req[k].out % V);
    }
}

void noc_vc_eval_adapt(struct noc_sim *s, const int32_t *nodes, int count)
{
    vc_state_t *r = s->rstate;
    /* (no waits: programs are refused on adaptive routing) */
    if (r->fast && !s->serialise)
        for (int i = 0; i < count; i++)
            vc_eval_node(s, r, nodes[i], 1, 1, 0, VC_STAGE_ADAPT, 0, 1, 0, 0);
    else
        for (int i = 0; i < count; i++)
            vc_eval_node(s, r, nodes[i], r->W, r->S, s->serialise, VC_STAGE_ADAPT, 0, 0, 0, 0);
}

int noc_vc_adapt_check(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_config_t *c = &s->cfg;
    if (!s->graph->route_set)
        return 0;
    const char *rf = c->routing_function, *what = NULL;
    if (c->lookahead)
        what = "lookahead = 1 (the router before would choose from its own state, not this one's)";
    else if (c->hold_switch_for_packet)
        what = "hold_switch_for_packet = 1";
    else if (c->speculative)
        what = "speculative = 1";
    else if (c->internal_speedup != 1.0 || c->output_speedup != 1)
        what = "internal_speedup / output_speedup other than 1";
    else if (strcmp(c->arb_type, "round_robin") != 0)
        what = "arb_type other than round_robin";
    if (what) {
        snprintf(err, errlen, "routing_function = %s: the vc router's adaptive routing is not built with %s yet",
                 rf, what);
        return -1;
    }
    if (strcmp(c->va_in_pointer, "router") != 0) {
        snprintf(err, errlen, "routing_function = %s asks for output VCs of several ports at once: its VC "
                 "allocator keeps one round-robin pointer per input VC over all of the router's output VCs "
                 "(BookSim2's), so it needs va_in_pointer = router (given: %s)", rf, c->va_in_pointer);
        return -1;
    }
    return 0;
}

/* Requests of one node's allocation at most: every input VC asks for every
 * VC of every candidate. */
static size_t max_requests(const vc_state_t *r)
{
    return (size_t)r->max_ports * (size_t)r->V * NOC_ROUTE_SET_MAX * (size_t)r->V;
}

void noc_vc_adapt_init(struct noc_sim *s, vc_state_t *r)
{
    const noc_config_t *c = &s->cfg;
    struct vc_adapt *a = noc_xcalloc(1, sizeof *a, "vc router");
    a->kind = noc_alloc_kind_parse(c->vc_allocator);
    if (a->kind == NOC_ALLOC_SELECT) /* (one round of output-first that ranks priorities, alloc.h) */
        a->kind = NOC_ALLOC_OUTPUT_FIRST;
    a->iters = (int)c->alloc_iters;
    a->cand = noc_xcalloc((size_t)r->n_ivc * NOC_ROUTE_SET_MAX, sizeof *a->cand, "vc router");
    a->n_cand = noc_xcalloc(r->n_ivc, 1, "vc router");
    a->in_ptr = noc_xcalloc(r->n_ivc, sizeof *a->in_ptr, "vc router");
    a->out_ptr = noc_xcalloc(r->n_ivc, sizeof *a->out_ptr, "vc router");
    a->max_req = max_requests(r);
    a->req = noc_xcalloc(a->max_req, sizeof *a->req, "vc router");
    a->grant = noc_xcalloc(a->max_req, 1, "vc router");
    a->scratch = noc_xcalloc(4 * (size_t)r->max_ports * (size_t)r->V, sizeof *a->scratch, "vc router");
    r->adapt = a;
}

void noc_vc_adapt_free(vc_state_t *r)
{
    struct vc_adapt *a = r->adapt;
    if (!a)
        return;
    free(a->cand);
    free(a->n_cand);
    free(a->in_ptr);
    free(a->out_ptr);
    free(a->req);
    free(a->grant);
    free(a->scratch);
    free(a);
    r->adapt = NULL;
}

struct vc_adapt *noc_vc_adapt_thread_copy(const vc_state_t *r)
{
    const struct vc_adapt *a = r->adapt;
    struct vc_adapt *t = noc_xcalloc(1, sizeof *t, "vc router");
    *t = *a; /* (the candidates and pointers shared: a thread writes only its own nodes') */
    t->req = noc_xcalloc(a->max_req, sizeof *t->req, "vc router");
    t->grant = noc_xcalloc(a->max_req, 1, "vc router");
    t->scratch = noc_xcalloc(4 * (size_t)r->max_ports * (size_t)r->V, sizeof *t->scratch, "vc router");
    return t;
}

void noc_vc_adapt_thread_free(struct vc_adapt *t)
{
    if (!t)
        return;
    free(t->req);
    free(t->grant);
    free(t->scratch);
    free(t);
}

uint64_t noc_vc_adapt_bytes(const struct noc_sim *s, uint64_t n_ivc, int max_ports)
{
    if (!s->graph->route_set)
        return 0;
    uint64_t nl = (uint64_t)max_ports * (uint64_t)s->cfg.num_vcs;
    uint64_t max_req = nl * NOC_ROUTE_SET_MAX * (uint64_t)s->cfg.num_vcs;
    return sizeof(struct vc_adapt) + n_ivc * (NOC_ROUTE_SET_MAX * sizeof(noc_route_cand_t) + 1 + 2 * sizeof(uint16_t)) +
           max_req * (sizeof(noc_alloc_req_t) + 1) + 4 * nl * sizeof(int16_t);
}
