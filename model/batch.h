/* batch.h: BookSim2's batch run (sim_type = batch, its
 * BatchTrafficManager) in the kernel: every terminal sends batch_size
 * packets, at most max_outstanding_requests of them unanswered at a time,
 * and the batch ends when every packet made has arrived; batch_count
 * batches one after another. A terminal makes its next packet only when
 * its NI holds none (BookSim2 generates into an empty source queue), at
 * the cycle its offer clock says: one packet offered a cycle, the clock
 * moving a cycle for each offer, made or refused, so that a packet's
 * latency counts from the cycle it was offered (BookSim2's qtime with
 * include_queuing). model/sample.c runs the batches (noc_sim_run). */
#ifndef NOC_BATCH_H
#define NOC_BATCH_H
#include <stddef.h>
#include <stdint.h>
#include "model/sim_internal.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One run's batch state (s->batch; NULL unless sim_type = batch). */
typedef struct noc_batch {
    uint64_t *qtime;      /* per terminal: the cycle of its next offer */
    uint32_t *seq;        /* per terminal: packets (and replies) issued in this batch */
    uint32_t *out;        /* per terminal: its requests not yet answered (arrived, or their reply arrived) */
    uint8_t *reply_taken; /* per terminal: a ready reply issued, for its NI to start */
    uint32_t size;        /* batch_size */
    uint32_t max_out;     /* max_outstanding_requests (0: no limit) */
    int short_terms;      /* terminals with seq < size in this batch */
    uint64_t issued;      /* packets and replies issued in the run */
    uint64_t in_flight;   /* packets made (requests, and replies issued) and not yet arrived */
    uint64_t start;       /* the batch's first cycle */
} noc_batch_t;

/* The batch state for sim_type = batch (after the NIs are built; its
 * refusals are the threads', programs' and sweeps' own). */
void noc_batch_build(struct noc_sim *s);
void noc_batch_destroy(struct noc_sim *s);
/* A batch begins now: every terminal's count from 0. */
void noc_batch_begin(struct noc_sim *s);
/* The cycle's offers, before the nodes are evaluated. */
void noc_batch_generate(struct noc_sim *s);
/* Packet p arrived whole (its tail delivered now). */
void noc_batch_arrived(struct noc_sim *s, const noc_packet_t *p);
/* Every terminal has issued batch_size packets in this batch. */
static inline int noc_batch_issued(const struct noc_sim *s)
{
    return s->batch->short_terms == 0;
}

#ifdef __cplusplus
}
#endif
#endif
