/* sim_threads.h: a synthetic run's evaluation on several threads
 * (threads > 1): the nodes cut into contiguous blocks, one a thread, each
 * evaluated through the thread's view of the run, with a barrier between
 * the evaluation and the commit of every cycle. The report is the same
 * for any number of threads. */
#ifndef NOC_SIM_THREADS_H
#define NOC_SIM_THREADS_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

struct noc_sim;

/* After noc_sim_create_family has built s: with cfg.threads other than 1
 * (0: one per core), the parts and their views for the resolved count, or
 * nothing when it is 1. 0, or -1 with a message naming parameter 'threads'
 * and what this step does not run on several threads. */
int noc_sim_threads_setup(struct noc_sim *s, char *err, size_t errlen);
/* One cycle's evaluation, commit and end (after its packets are
 * generated); the worker threads start on the first. */
void noc_sim_threads_cycle(struct noc_sim *s);
/* Stop and join the workers, free the parts (nothing without threads). */
void noc_sim_threads_destroy(struct noc_sim *s);
/* Why this run cannot be evaluated in parts (threads, or
 * MPI ranks: model/sim_ranks.c) in this step, or NULL when it can. */
const char *noc_sim_parts_refused(const struct noc_sim *s, char *why, size_t len);
/* The thread count cfg_threads resolves to for a fabric of n_nodes. */
int noc_sim_threads_count(long long cfg_threads, int n_nodes);

#ifdef __cplusplus
}
#endif
#endif
