/* ranks.c: noc_ranks_* (ranks.h), on MPI when the build found it
 * (NOCTUA_HAVE_MPI), else the one-process answers. */
#include "util/ranks.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef NOCTUA_HAVE_MPI
#include <mpi.h>
#endif

static int joined, my_rank, n_ranks = 1, split;

/* Launched by an MPI launcher? (mpirun sets OMPI_COMM_WORLD_SIZE; srun and
 * other PMI launchers PMI_SIZE or PMIX_RANK.) */
static int launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

int noc_ranks_init(int *argc, char ***argv)
{
    if (!launched())
        return 0;
#ifdef NOCTUA_HAVE_MPI
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "noctua: MPI_Init failed\n");
        return -1;
    }
    joined = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    return 0;
#else
    (void)argc;
    (void)argv;
    if (getenv("OMPI_COMM_WORLD_SIZE") && atoi(getenv("OMPI_COMM_WORLD_SIZE")) > 1) {
        fprintf(stderr, "noctua: started by mpirun, but built without MPI (install libopenmpi-dev and "
                        "rebuild: CMake finds it; docs/scale.md)\n");
        return -1;
    }
    return 0;
#endif
}

void noc_ranks_finalize(void)
{
#ifdef NOCTUA_HAVE_MPI
    if (joined)
        MPI_Finalize();
#endif
    joined = 0;
}

int noc_ranks_rank(void) { return my_rank; }
int noc_ranks_size(void) { return n_ranks; }

int noc_ranks_built(void)
{
#ifdef NOCTUA_HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

void noc_ranks_set_split(int on) { split = on; }
int noc_ranks_split(void) { return split && n_ranks > 1; }

int noc_ranks_any(int flag)
{
#ifdef NOCTUA_HAVE_MPI
    if (joined && n_ranks > 1) {
        int g = 0;
        MPI_Allreduce(&flag, &g, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        return g != 0;
    }
#endif
    return flag != 0;
}

void noc_ranks_allgather(const void *mine, size_t bytes, void *all)
{
#ifdef NOCTUA_HAVE_MPI
    if (joined && n_ranks > 1) {
        MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
        return;
    }
#endif
    memmove(all, mine, bytes);
}
