/* loggp.h: a traffic program (GOAL schedule) timed by LogGOPSim's model
 * instead of noctua's network (`noctua run --timing loggp`): the LogGP
 * parameters L, o, g, G, O and the eager limit S, one overhead timeline per
 * CPU and one send and one receive gap timeline per NIC of each rank, the
 * posted-receive and unexpected-message queues matched in order, eager
 * messages up to S bytes and rendezvous above, all as LogGOPSim's simulator
 * (github.com/spcl/LogGOPSim, LogGOPSim.cpp, with its LogGP network)
 * reads a schedule: the same events in the same order, so the same
 * finishing times. docs/goal.md says how it was read and where its order
 * of ties could differ. The data still moves: a send's words are read when
 * it starts, written into the receive's memory when it is matched, and
 * combine ops compute, so a program's results are checked as on the
 * network. Event-driven (a heap of events), no cycle loop. */
#ifndef NOC_LOGGP_H
#define NOC_LOGGP_H
#include "model/program.h"
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The model's parameters, in its time unit (LogGOPSim's defaults are
 * nanoseconds: L 2500, o 1500, g 1000, G 6, O 0, S 65535). Sizes are
 * bytes: a GOAL size in bytes as written, a size in words times 8. */
typedef struct noc_loggp_params {
    int64_t L;       /* latency of a message's first byte */
    int64_t o;       /* CPU overhead of a send or a receive */
    int64_t g;       /* gap between two messages of a NIC */
    int64_t G;       /* gap per byte after the first */
    int64_t O;       /* CPU overhead per byte after the first */
    int64_t S;       /* the largest eager message; larger ones go by rendezvous */
    int64_t combine; /* time a combine op (add, min, max, copy) takes per word when it names no cost */
} noc_loggp_params_t;

typedef struct noc_loggp noc_loggp_t;

/* The figures of a finished run. */
typedef struct noc_loggp_stats {
    uint64_t finish;        /* the latest end of any CPU's overhead timeline (LogGOPSim's "maximum finishing time") */
    int finish_rank;        /* the lowest rank that ends then */
    uint64_t events;        /* events taken from the queue, re-insertions included */
    uint64_t ops, ops_done; /* operations in all, and completed */
    uint64_t messages;      /* messages sent */
    uint64_t eager, rendezvous;
    uint64_t bytes;         /* bytes sent */
    int ncpus, nnics;       /* timelines per rank: the highest cpu and nic field + 1 */
} noc_loggp_stats_t;

/* A run of finished program p (not copied: it must outlive the run) with
 * parameters *lp: NULL with a message for parameters out of range. */
noc_loggp_t *noc_loggp_create(const noc_program_t *p, const noc_loggp_params_t *lp, char *err, size_t errlen);
void noc_loggp_destroy(noc_loggp_t *lg);
/* Run to the end: until no event is left. *stop (may be NULL) set ends it
 * early: returns 1 then, else 0. */
int noc_loggp_run(noc_loggp_t *lg, const volatile sig_atomic_t *stop);
const noc_loggp_stats_t *noc_loggp_stats(const noc_loggp_t *lg);
/* Rank r's finishing time: the latest end of its CPUs' timelines. */
uint64_t noc_loggp_rank_finish(const noc_loggp_t *lg, int r);
/* Did everything end well: every op completed, every message received and
 * every posted receive matched? 0, or -1 with what did not (LogGOPSim
 * prints the queues that are not empty and no times). */
int noc_loggp_finished(const noc_loggp_t *lg, char *err, size_t errlen);
/* The program's expected values against the ranks' memories: 0, or -1
 * with the first wrong word. Values checked in *checked (may be NULL). */
int noc_loggp_check(const noc_loggp_t *lg, uint64_t *checked, char *err, size_t errlen);
/* Rank r's memory (p->ranks[r].mem_words words). */
const int64_t *noc_loggp_memory(const noc_loggp_t *lg, int r);

/* An op that became ready, and its LogGOPSim type (1 send, 2 receive,
 * 3 local op). noc_loggp_sort orders n of them by type as LogGOPSim's
 * std::sort does with GCC's library, ties included (model/loggp_sort.c). */
typedef struct noc_loggp_item {
    uint32_t op;
    uint8_t type;
} noc_loggp_item_t;
void noc_loggp_sort(noc_loggp_item_t *v, size_t n);

#ifdef __cplusplus
}
#endif
#endif
