/* ranks.h (util/): this process's place among MPI ranks. A noctua started
 * by mpirun or srun (their environment says so) initialises MPI and is one
 * of R ranks, which split a fabric between them (model/sim_ranks.c) and of
 * which rank 0 writes every output; started any other way, or built without
 * MPI, it is rank 0 of 1 and never calls MPI. */
#ifndef NOC_RANKS_H
#define NOC_RANKS_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Join the ranks when launched by an MPI launcher (Open MPI's mpirun,
 * Slurm's srun: OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK set). 0, or -1
 * when MPI could not be started (a message on stderr). */
int noc_ranks_init(int *argc, char ***argv);
/* Leave MPI (after the last collective call; nothing when not joined). */
void noc_ranks_finalize(void);
/* This process's rank (0 without MPI) and the number of ranks (1). */
int noc_ranks_rank(void);
int noc_ranks_size(void);
/* Whether this build can join ranks (MPI found when it was built). */
int noc_ranks_built(void);
/* Whether a run's fabric is split over the ranks (`noctua run`: set by the
 * CLI) or each rank runs whole fabrics of its own (a sweep's points: the
 * default). */
void noc_ranks_set_split(int on);
int noc_ranks_split(void);
/* Collective calls (every rank at the same point; with one rank they only
 * copy): flag ORed over the ranks; each rank's `bytes` bytes at mine,
 * gathered in rank order into all (size x bytes). */
int noc_ranks_any(int flag);
void noc_ranks_allgather(const void *mine, size_t bytes, void *all);

#ifdef __cplusplus
}
#endif
#endif
