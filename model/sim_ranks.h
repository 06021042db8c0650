/* sim_ranks.h: a synthetic run's fabric split over MPI ranks (mpirun -n R;
 * docs/scale.md). Every rank builds the whole run but evaluates only its
 * part, a contiguous block of node numbers, and generates only its own
 * terminals' packets. After each cycle's evaluation the ranks swap what
 * crossed the cut (model/sim_ranks.c) and sum their statistics, so every
 * rank holds the run's figures and the report is the same for any number
 * of ranks. Without MPI, or with one rank, none of this runs. */
#ifndef NOC_SIM_RANKS_H
#define NOC_SIM_RANKS_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

struct noc_sim;

/* Before the NIs are built (the calendar takes only the part's sources):
 * with more than one rank, the part of this rank, or -1 with a message
 * naming what this step does not run over ranks. 0 with one rank. */
int noc_sim_ranks_setup(struct noc_sim *s, char *err, size_t errlen);
/* Is node n evaluated by this process? (Always, with one rank.) */
int noc_sim_ranks_owns(const struct noc_sim *s, int n);
/* The nodes [*lo, *hi) this process evaluates (all, with one rank). */
void noc_sim_ranks_part(const struct noc_sim *s, int *lo, int *hi);
/* A cycle over ranks: begin before its generation; exchange after the
 * part's evaluation (what crossed the cut both ways, before the commit);
 * sync after the commit (the run's figures summed over the ranks). */
void noc_sim_ranks_begin(struct noc_sim *s);
void noc_sim_ranks_exchange(struct noc_sim *s);
void noc_sim_ranks_sync(struct noc_sim *s);
/* v summed over the ranks (v itself with one). A collective call: every
 * rank makes it at the same point. */
uint64_t noc_sim_ranks_sum(const struct noc_sim *s, uint64_t v);
/* After the last cycle: the link statistics and the latency histogram
 * summed over the ranks (every rank then holds the run's). */
void noc_sim_ranks_finish(struct noc_sim *s);
/* Was the run stopped (Ctrl-C) on some rank in the last cycle? Are nodes
 * active on some rank? (After a sync.) */
int noc_sim_ranks_stopped(const struct noc_sim *s);
int noc_sim_ranks_busy(const struct noc_sim *s);
void noc_sim_ranks_destroy(struct noc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
