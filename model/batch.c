/* batch.c: BookSim2's batch run in the kernel (sim_type = batch; batch.h):
 * the offers of every terminal, cycle by cycle, the count of what each has
 * issued and of its requests still unanswered, and the packets of the
 * batch still on their way. How it follows BookSim2's
 * batchtrafficmanager.cpp: docs/booksim.md, Batch runs. */
#include "model/batch.h"
#include "model/read_write.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

void noc_batch_build(struct noc_sim *s)
{
    const noc_config_t *c = &s->cfg;
    if (strcmp(c->sim_type, "batch") != 0)
        return;
    noc_batch_t *b = noc_xcalloc(1, sizeof *b, "batches");
    size_t T = (size_t)s->n_terms;
    b->qtime = noc_xcalloc(T, sizeof *b->qtime, "batches");
    b->seq = noc_xcalloc(T, sizeof *b->seq, "batches");
    b->out = noc_xcalloc(T, sizeof *b->out, "batches");
    b->reply_taken = noc_xcalloc(T, 1, "batches");
    b->size = (uint32_t)c->batch_size;
    b->max_out = (uint32_t)c->max_outstanding_requests;
    for (size_t t = 0; t < T; t++)
        b->qtime[t] = s->now;
    s->batch = b;
}

void noc_batch_destroy(struct noc_sim *s)
{
    noc_batch_t *b = s->batch;
    if (!b)
        return;
    free(b->qtime);
    free(b->seq);
    free(b->out);
    free(b->reply_taken);
    free(b);
    s->batch = NULL;
}

void noc_batch_begin(struct noc_sim *s)
{
    noc_batch_t *b = s->batch;
    memset(b->seq, 0, (size_t)s->n_terms * sizeof *b->seq);
    b->short_terms = b->size > 0 ? s->n_terms : 0;
    b->start = s->now;
}

/* Terminal t issued a packet (or a reply) of the batch. */
static void issued(noc_batch_t *b, int t)
{
    b->issued++;
    if (++b->seq[t] == b->size)
        b->short_terms--;
}

/* Terminal t's offers up to this cycle, its NI holding no packet
 * (BookSim2's _Inject and BatchTrafficManager::_IssuePacket): a reply
 * ready to go is issued first and stops the offers without moving the
 * clock; a reply not yet ready refuses them all; else each offer makes a
 * packet while the batch and the limit allow, created at the offer's
 * cycle, and the clock moves on a cycle per offer. One packet at most. */
static void offer(struct noc_sim *s, noc_batch_t *b, int t)
{
    if (b->qtime[t] > s->now)
        return;
    if (s->repq && s->repq[t].head != s->repq[t].tail) {
        if (noc_rw_ready(s, t)) {
            b->reply_taken[t] = 1;
            b->in_flight++; /* (the reply, on its way from now) */
            issued(b, t);
        } else {
            b->qtime[t] = s->now + 1; /* (every offer up to now is refused) */
        }
        return;
    }
    if (b->seq[t] >= b->size || (b->max_out > 0 && b->out[t] >= b->max_out)) {
        b->qtime[t] = s->now + 1; /* (refused up to now) */
        return;
    }
    uint64_t q = b->qtime[t]++;
    issued(b, t);
    /* (a packet to itself without self_traffic counts in the batch but is
     * not sent, so that a pattern's fixed points finish their batches) */
    if (noc_sim_offer(s, t, q)) {
        b->out[t]++;
        b->in_flight++;
    }
}

void noc_batch_generate(struct noc_sim *s)
{
    noc_batch_t *b = s->batch;
    for (int t = 0; t < s->n_terms; t++) {
        const noc_ni_t *ni = &s->ni[t];
        if (ni->lane0.pkt >= 0 || ni->xbusy || ni->q_head != ni->q_tail || b->reply_taken[t])
            continue; /* its NI holds a packet */
        offer(s, b, t);
    }
}

void noc_batch_arrived(struct noc_sim *s, const noc_packet_t *p)
{
    noc_batch_t *b = s->batch;
    b->in_flight--;
    if (p->type == NOC_PKT_ANY)
        b->out[p->src]--;
    else if (p->type == NOC_PKT_READ_REP || p->type == NOC_PKT_WRITE_REP)
        b->out[p->dst]--; /* (the reply's destination made the request) */
}
