/* vc_router.c: the vc router family: building its state for a fabric and the
 * per-cycle evaluation that runs the stages of vc_input.c, vc_vcalloc.c and
 * vc_switch.c in pipeline order. A router's registers are read and written
 * only by its own evaluation, and everything it sends goes into channel slots
 * of later cycles, so the commit phase has nothing to do for this family. */
#include "model/xalloc.h"
#include "routers/vc/vc.h"
#include "routers/families.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vc_create(struct noc_sim *s, char *err, size_t errlen)
{
    const noc_topo_t *t = s->topo;
    const noc_config_t *c = &s->cfg;
    noc_alloc_kind_t vak = noc_alloc_kind_parse(c->vc_allocator);
    noc_alloc_kind_t sak = noc_alloc_kind_parse(c->sw_allocator);
    noc_arb_kind_t ak = noc_arb_kind_parse(c->arb_type);
    if (vak == NOC_ALLOC_COUNT || sak == NOC_ALLOC_COUNT) {
        snprintf(err, errlen, "parameter '%s': unknown allocator '%s' (separable_input_first, separable_output_first, islip)",
                 vak == NOC_ALLOC_COUNT ? "vc_allocator" : "sw_allocator",
                 vak == NOC_ALLOC_COUNT ? c->vc_allocator : c->sw_allocator);
        return -1;
    }
    if (ak == NOC_ARB_COUNT) {
        snprintf(err, errlen, "parameter 'arb_type': unknown arbiter '%s' (round_robin, matrix)", c->arb_type);
        return -1;
    }
    if (c->num_vcs < t->n_vclasses) {
        snprintf(err, errlen, "parameter 'num_vcs': %s needs at least %d virtual channels for deadlock-free routing, %lld given",
                 t->spec, t->n_vclasses, (long long)c->num_vcs);
        return -1;
    }
    if (t->max_degree + 1 > NOC_NI_BIT) {
        snprintf(err, errlen, "%s: the vc router supports at most 62 network ports per node", t->spec);
        return -1;
    }
    vc_state_t *r = noc_xcalloc(1, sizeof *r, "vc router");
    s->rstate = r;
    r->V = (int)c->num_vcs;
    r->depth = (int)c->vc_buf_size;
    r->qcap = noc_fifo_capacity((uint32_t)r->depth);
    r->qmask = r->qcap - 1;
    r->lookahead = (int)c->lookahead;
    r->R = r->lookahead ? 0 : (int)c->routing_delay;
    r->VA = (int)c->vc_alloc_delay;
    r->out_delay = (int)(c->sw_alloc_delay + c->st_final_delay);
    r->max_ports = t->max_degree + 1;

    size_t nv = (size_t)t->n_ports * (size_t)r->V;
    r->buf = noc_xcalloc(nv * r->qcap, sizeof(noc_flit_t), "vc router");
    r->ivc = noc_xcalloc(nv, sizeof(vc_ivc_t), "vc router");
    r->credits = noc_xcalloc(nv, sizeof(int16_t), "vc router");
    r->owner = noc_xcalloc(nv, sizeof(int32_t), "vc router");
    for (size_t i = 0; i < nv; i++) {
        r->credits[i] = (int16_t)r->depth;
        r->owner[i] = -1;
    }
    r->ovc_free = noc_xcalloc((size_t)t->n_ports, sizeof(uint64_t), "vc router");
    for (int g = 0; g < t->n_ports; g++)
        r->ovc_free[g] = r->V >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << r->V) - 1u;
    r->W = (r->max_ports * r->V + 63) / 64;
    r->all_vcs = r->V >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << r->V) - 1u;
    for (int cl = 0; cl < t->n_vclasses && cl < NOC_TOPO_MAX_CLASSES; cl++) {
        int lo, hi;
        noc_vc_class_range(r->V, t->n_vclasses, cl, &lo, &hi);
        for (int v = lo; v < hi; v++)
            r->class_mask[cl] |= UINT64_C(1) << v;
    }
    r->l_port = noc_xcalloc((size_t)r->max_ports * (size_t)r->V, 1, "vc router");
    r->l_vc = noc_xcalloc((size_t)r->max_ports * (size_t)r->V, 1, "vc router");
    for (int l = 0; l < r->max_ports * r->V; l++) {
        r->l_port[l] = (uint8_t)(l / r->V);
        r->l_vc[l] = (uint8_t)(l % r->V);
    }
    size_t nw = (size_t)t->n_nodes * (size_t)r->W;
    r->m_ne = noc_xcalloc(nw, sizeof(uint64_t), "vc router");
    r->m_va = noc_xcalloc(nw, sizeof(uint64_t), "vc router");
    r->m_sw = noc_xcalloc(nw, sizeof(uint64_t), "vc router");
    int longest = r->R + 1 > r->VA ? r->R + 1 : r->VA;
    r->wslots = 1;
    while (r->wslots <= (uint32_t)longest)
        r->wslots <<= 1;
    r->wmask = r->wslots - 1;
    r->wake_va = noc_xcalloc(nw * r->wslots, sizeof(uint64_t), "vc router");
    r->wake_sw = noc_xcalloc(nw * r->wslots, sizeof(uint64_t), "vc router");
    r->port_occ = noc_xcalloc((size_t)t->n_ports, sizeof(int32_t), "vc router");
    r->va = noc_xcalloc((size_t)t->n_ports, sizeof(noc_alloc_t), "vc router");
    r->sa_vc = noc_xcalloc((size_t)t->n_ports, sizeof(noc_arbiter_t), "vc router");
    r->sa = noc_xcalloc((size_t)t->n_nodes, sizeof(noc_alloc_t), "vc router");
    r->buffered = noc_xcalloc((size_t)t->n_nodes, sizeof(int32_t), "vc router");
    /* a node's allocators sit together in one arena, node after node */
    size_t arena = 0;
    for (int n = 0; n < t->n_nodes; n++) {
        int P = t->port_base[n + 1] - t->port_base[n];
        arena += noc_alloc_block_size(P, P) + (size_t)P * noc_alloc_block_size(P * r->V, r->V);
    }
    r->arena = aligned_alloc(64, arena);
    if (!r->arena) {
        fprintf(stderr, "noctua: out of memory in the vc router\n");
        abort();
    }
    memset(r->arena, 0, arena);
    char *at = r->arena;
    for (int n = 0; n < t->n_nodes; n++) {
        int P = t->port_base[n + 1] - t->port_base[n];
        noc_alloc_init_at(&r->sa[n], sak, ak, P, P, (int)c->alloc_iters, at);
        at += noc_alloc_block_size(P, P);
        for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++) {
            noc_alloc_init_at(&r->va[g], vak, ak, P * r->V, r->V, (int)c->alloc_iters, at);
            at += noc_alloc_block_size(P * r->V, r->V);
            noc_arbiter_init(&r->sa_vc[g], ak, r->V);
        }
    }
    size_t nl = (size_t)r->max_ports * (size_t)r->V;
    r->who = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    r->mask = noc_xcalloc(2 * nl, sizeof(uint64_t), "vc router");
    r->grant = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    r->lvc = noc_xcalloc(nl, sizeof(int16_t), "vc router");
    r->lport = noc_xcalloc(nl, 1, "vc router");
    return 0;
}

static void vc_destroy(struct noc_sim *s)
{
    vc_state_t *r = s->rstate;
    if (!r)
        return;
    const noc_topo_t *t = s->topo;
    if (r->sa)
        for (int n = 0; n < t->n_nodes; n++)
            noc_alloc_free(&r->sa[n]);
    if (r->va)
        for (int g = 0; g < t->n_ports; g++) {
            noc_alloc_free(&r->va[g]);
            noc_arbiter_free(&r->sa_vc[g]);
        }
    free(r->arena);
    free(r->buf);
    free(r->ivc);
    free(r->credits);
    free(r->owner);
    free(r->port_occ);
    free(r->va);
    free(r->sa_vc);
    free(r->sa);
    free(r->buffered);
    free(r->ovc_free);
    free(r->l_port);
    free(r->l_vc);
    free(r->m_ne);
    free(r->m_va);
    free(r->m_sw);
    free(r->wake_va);
    free(r->wake_sw);
    free(r->who);
    free(r->mask);
    free(r->grant);
    free(r->lvc);
    free(r->lport);
    free(r);
    s->rstate = NULL;
}

/* Run each stage only when it has something to do: arrivals for the input
 * unit, VCs in the sets of the other stages. */
static void vc_eval(struct noc_sim *s, int n)
{
    vc_state_t *r = s->rstate;
    uint32_t at = (uint32_t)n * s->cap + (uint32_t)(s->now & s->mask);
    if ((s->arr_flit[at] | s->arr_credit[at]) & ~NOC_NI_MASK)
        noc_vc_input(s, r, n);
    if (r->buffered[n] == 0)
        return;
    size_t w0 = (size_t)n * (size_t)r->W;
    size_t k0 = ((size_t)n * r->wslots + (s->now & r->wmask)) * (size_t)r->W;
    uint64_t va = 0, sw = 0;
    for (int w = 0; w < r->W; w++) {
        /* the VCs whose route or VA stage ends this cycle join their sets */
        r->m_va[w0 + (size_t)w] |= r->wake_va[k0 + (size_t)w];
        r->m_sw[w0 + (size_t)w] |= r->wake_sw[k0 + (size_t)w];
        r->wake_va[k0 + (size_t)w] = 0;
        r->wake_sw[k0 + (size_t)w] = 0;
        va |= r->m_va[w0 + (size_t)w];
        sw |= r->m_sw[w0 + (size_t)w] & r->m_ne[w0 + (size_t)w];
    }
    if (va)
        noc_vc_vc_alloc(s, r, n);
    if (sw || va)
        noc_vc_switch(s, r, n);
}

static int vc_credits(const struct noc_sim *s, int g, int v)
{
    const vc_state_t *r = s->rstate;
    return r->credits[g * r->V + v];
}

static int vc_occupancy(const struct noc_sim *s, int g, int v)
{
    const vc_state_t *r = s->rstate;
    int i = g * r->V + v;
    return (int)noc_fifo_count(r->ivc[i].head, r->ivc[i].tail);
}

static int vc_depth(const struct noc_sim *s)
{
    const vc_state_t *r = s->rstate;
    return r->depth;
}

static void vc_visit(const struct noc_sim *s, int n, noc_flit_visit_fn fn, void *ctx)
{
    const vc_state_t *r = s->rstate;
    const noc_topo_t *t = s->topo;
    for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++)
        for (int v = 0; v < r->V; v++) {
            int i = g * r->V + v;
            for (uint16_t k = r->ivc[i].head; k != r->ivc[i].tail; k++)
                fn(ctx, noc_fifo_front(&r->buf[(uint32_t)i * r->qcap], r->qmask, k), g, v);
        }
}

const noc_router_ops_t noc_router_vc = {
    .name = "vc",
    .help = "input-queued virtual-channel wormhole router with credit flow control",
    .create = vc_create,
    .destroy = vc_destroy,
    .eval = vc_eval,
    .commit = NULL,
    .credits = vc_credits,
    .occupancy = vc_occupancy,
    .depth = vc_depth,
    .visit = vc_visit,
};
