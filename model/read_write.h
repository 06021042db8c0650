/* read_write.h: request/reply traffic in the kernel (use_read_write,
 * BookSim2's meaning): the VCs each packet kind may take, the replies a
 * destination owes, and their place in the measurement. The traffic source
 * makes the requests (traffic/synthetic.c); the NI that receives a
 * request's tail queues its reply here, timed from that cycle, and sends
 * it before the requests waiting in its source queue, from the next cycle
 * on (BookSim2's _repliesPending, read in _Inject a cycle later). */
#ifndef NOC_READ_WRITE_H
#define NOC_READ_WRITE_H
#include <stddef.h>
#include <stdint.h>
#include "model/sim_internal.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The VC ranges of the packet kinds (s->V and the graph set): 0, or -1
 * with a message naming the parameter. Without use_read_write every kind
 * takes all VCs. */
int noc_rw_plan(struct noc_sim *s, char *err, size_t errlen);
/* The reply queues (use_read_write; after the NIs are built). */
void noc_rw_build(struct noc_sim *s);
void noc_rw_destroy(struct noc_sim *s);
/* Request p's tail arrived now: its destination's NI owes the reply. */
void noc_rw_reply(struct noc_sim *s, const noc_packet_t *p);
/* Terminal t's reply to send now (queued before this cycle), or NULL. */
static inline const noc_srcq_entry_t *noc_rw_ready(const struct noc_sim *s, int t)
{
    const noc_repq_t *q = &s->repq[t];
    if (q->head == q->tail)
        return NULL;
    const noc_srcq_entry_t *e = noc_repq_at(q, q->head);
    return e->created < s->now ? e : NULL;
}
/* Terminal t's NI takes its first reply (noc_rw_ready's). */
void noc_rw_pop(struct noc_sim *s, int t);
/* Replies waiting at terminal t. */
static inline uint32_t noc_rw_queued(const struct noc_sim *s, int t)
{
    return s->repq ? s->repq[t].tail - s->repq[t].head : 0;
}
/* Their flits, over all terminals. */
uint64_t noc_rw_queued_flits(const struct noc_sim *s);
/* The window opens with measure_queued: the replies waiting are measured. */
void noc_rw_window_open(struct noc_sim *s);
/* Injection stops: the replies waiting are dropped. */
void noc_rw_drop(struct noc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
