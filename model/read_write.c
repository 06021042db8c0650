/* read_write.c: request/reply traffic in the kernel (use_read_write): the
 * VC range of each packet kind, and the reply queues of the NIs
 * (read_write.h). How it follows BookSim2: docs/traffic.md. */
#include "model/read_write.h"
#include "model/channel.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int noc_rw_plan(struct noc_sim *s, char *err, size_t errlen)
{
    const noc_config_t *c = &s->cfg;
    int V = s->V;
    for (int k = 0; k < NOC_PKT_TYPES; k++) {
        s->rw_lo[k] = 0;
        s->rw_hi[k] = (uint8_t)V;
    }
    if (!c->use_read_write)
        return 0;
    if (!s->rops->packet_kinds) {
        snprintf(err, errlen, "parameter 'use_read_write': the %s router gives every packet the same VCs: use "
                 "router=vc", s->rops->name);
        return -1;
    }
    if (s->graph->route_set || s->graph->eject_vclass) {
        snprintf(err, errlen, "parameter 'use_read_write': %s on %s: not built yet", s->graph->route_set ?
                 "adaptive routing takes VCs of its own, not a packet kind's range," : "the routing names its VCs by "
                 "phase (BookSim2's dragonfly routing ignores the kinds' ranges)", s->graph->name);
        return -1;
    }
    static const char *const name[NOC_PKT_TYPES] = { "", "read_request", "write_request", "read_reply",
                                                     "write_reply" };
    const long long begin[NOC_PKT_TYPES] = { 0, c->read_request_begin_vc, c->write_request_begin_vc,
                                             c->read_reply_begin_vc, c->write_reply_begin_vc };
    const long long end[NOC_PKT_TYPES] = { 0, c->read_request_end_vc, c->write_request_end_vc, c->read_reply_end_vc,
                                           c->write_reply_end_vc };
    int C = s->graph->n_vclasses;
    for (int k = 1; k < NOC_PKT_TYPES; k++) {
        long long b, e;
        noc_pkt_kind_vcs(k, begin[k], end[k], V, &b, &e);
        if (b > e || e >= V) {
            snprintf(err, errlen, "parameters '%s_begin_vc' and '%s_end_vc': VCs %lld to %lld %s with num_vcs = %d%s",
                     name[k], name[k], b, e, b > e ? "are no range" : "do not exist", V,
                     begin[k] < 0 || end[k] < 0 ? " (-1 stands for a half of the VCs)" : "");
            return -1;
        }
        if (e - b + 1 < C) {
            snprintf(err, errlen, "parameters '%s_begin_vc' and '%s_end_vc': %lld VC%s (%lld to %lld) for the "
                     "routing's %d VC classes on %s: each class needs a VC of every kind's range", name[k], name[k],
                     e - b + 1, e == b ? "" : "s", b, e, C, s->graph->name);
            return -1;
        }
        s->rw_lo[k] = (uint8_t)b;
        s->rw_hi[k] = (uint8_t)(e + 1);
    }
    return 0;
}

void noc_rw_build(struct noc_sim *s)
{
    if (s->cfg.use_read_write)
        s->repq = noc_xcalloc((size_t)s->n_terms, sizeof(noc_repq_t), "reply queues");
}

void noc_rw_destroy(struct noc_sim *s)
{
    for (int t = 0; s->repq && t < s->n_terms; t++)
        free(s->repq[t].e);
    free(s->repq);
    s->repq = NULL;
}

/* A full queue doubles, keeping its entries at their counters' places. */
static void grow(noc_repq_t *q)
{
    uint32_t ncap = q->cap ? 2 * q->cap : 4;
    noc_srcq_entry_t *e = noc_xcalloc(ncap, sizeof *e, "reply queues");
    for (uint32_t i = q->head; i != q->tail; i++)
        e[i & (ncap - 1)] = *noc_repq_at(q, i);
    free(q->e);
    q->e = e;
    q->cap = ncap;
}

void noc_rw_reply(struct noc_sim *s, const noc_packet_t *p)
{
    if (!s->injecting) /* the sources have stopped: nothing more is sent */
        return;
    int t = p->dst;
    noc_repq_t *q = &s->repq[t];
    if (q->tail - q->head == q->cap)
        grow(q);
    noc_srcq_entry_t *e = noc_repq_at(q, q->tail);
    q->tail++;
    int read = p->type == NOC_PKT_READ_REQ;
    e->created = s->now; /* (BookSim2: the reply's ctime is its request's arrival) */
    e->dst = p->src;
    e->type = (uint8_t)(read ? NOC_PKT_READ_REP : NOC_PKT_WRITE_REP);
    e->size = (uint16_t)(read ? s->cfg.read_reply_size : s->cfg.write_reply_size);
    int in_window = s->now >= s->win_start && s->now < s->win_end;
    /* measured: its request was, or it is made in the window (BookSim2: a
     * reply generated while running is recorded, else it takes its
     * request's record) */
    e->measured = (uint8_t)(p->measured || in_window);
    s->st.measured_outstanding += e->measured;
    s->st.packets_created++;
    if (in_window)
        s->st.window_flits_offered += e->size;
    s->ni[t].rq_busy = 1;
    noc_work_add(s, noc_term_node(s, t), 1);
}

void noc_rw_pop(struct noc_sim *s, int t)
{
    noc_repq_t *q = &s->repq[t];
    q->head++;
    s->ni[t].rq_busy = q->head != q->tail;
}

uint64_t noc_rw_queued_flits(const struct noc_sim *s)
{
    uint64_t f = 0;
    for (int t = 0; s->repq && t < s->n_terms; t++)
        for (uint32_t i = s->repq[t].head; i != s->repq[t].tail; i++)
            f += noc_repq_at(&s->repq[t], i)->size;
    return f;
}

void noc_rw_window_open(struct noc_sim *s)
{
    for (int t = 0; s->repq && t < s->n_terms; t++)
        for (uint32_t i = s->repq[t].head; i != s->repq[t].tail; i++) {
            noc_srcq_entry_t *e = noc_repq_at(&s->repq[t], i);
            if (!e->measured) {
                e->measured = 1;
                s->st.measured_outstanding++;
            }
        }
}

void noc_rw_drop(struct noc_sim *s)
{
    for (int t = 0; s->repq && t < s->n_terms; t++) {
        noc_repq_t *q = &s->repq[t];
        for (; q->head != q->tail; q->head++) {
            s->st.measured_outstanding -= noc_repq_at(q, q->head)->measured;
            noc_work_sub(s, noc_term_node(s, t), 1);
        }
        s->ni[t].rq_busy = 0;
    }
}
