/* pe.h: the PE program engine. Each rank of a traffic program (program.h)
 * runs on the PE of the node with the same number: it starts every
 * operation whose dependencies are met, sends without blocking (the NI
 * splits a message into packets of packet_size flits, one data word a flit),
 * matches arriving messages to posted receives on source and tag (or any),
 * computes for the cycles an operation costs, and keeps the start and end
 * cycle of every operation. Nothing is allocated while it runs: message
 * buffers, queues and per-op records are sized from the program up front.
 *
 * Semantics (docs/programs.md): an op may start in the cycle its last
 * dependency completed (requires) or started (irequires). A send completes
 * when its last flit has entered the network; a receive when its message
 * has arrived whole; calc and combine ops occupy the PE's one processor for
 * their cost (combine: compute_cycles per word unless the op says), and
 * take effect on memory when they end. Messages match posted receives in
 * the order they complete arriving. */
#ifndef NOC_PE_H
#define NOC_PE_H
#include <stdint.h>
#include <stdio.h>
#include "model/program.h"
#include "model/sim.h"
#ifdef __cplusplus
extern "C" {
#endif

struct noc_sim;
typedef struct noc_pe noc_pe_t;

/* Per step of the program: when it ran and what it moved. */
typedef struct noc_pe_step_stats {
    const char *name;
    uint64_t first_start;   /* first cycle an op of the step started */
    uint64_t last_end;      /* last cycle an op of the step completed */
    uint64_t ops, messages, words;
    uint64_t flit_hops;     /* link traversals of its messages' flits */
    uint64_t routes;        /* routers its messages' packets passed (hops + 1 each): the route
                               computations and VC allocations of the step (model/energy.h) */
    uint64_t injected;      /* flits of its packets the NIs injected (model/energy.h: the per-step
                               tables count no injection channel) */
} noc_pe_step_stats_t;

/* What a program run reports. */
typedef struct noc_pe_stats {
    uint64_t cycles;        /* cycle the last op completed (the first ops start in cycle 0:
                               a one-word message to a neighbour takes 1) */
    uint64_t ops, ops_done;
    uint64_t messages, words;
    int n_steps;            /* steps[n_steps] is "no step" (ops outside any) */
    noc_pe_step_stats_t *steps;
    uint64_t *op_start, *op_end; /* per op; NOC_NEVER if it never started / ended */
} noc_pe_stats_t;

/* The engine for program p (borrowed: it must outlive the simulator) on
 * simulator s, which must have been created without synthetic traffic.
 * Returns 0, or -1 with a message in err. */
int noc_pe_attach(struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen);
void noc_pe_destroy(noc_pe_t *pe);

/* ---- a program that grows while it runs (model/pe_extend.c) ----
 * A platform that issues its operations as it goes (the SystemC wrapper,
 * docs/systemc.md) appends them to the running program. An op appended
 * is numbered after every op so far, whatever its rank, so nothing is
 * renumbered and the tables grow in place: n ops appended cost O(n) in
 * all. It joins the run at the cycle reached: a dependency on an op that
 * has started (irequires) or completed (requires) is met, and the network
 * is not simulated again. Called between cycles, or within one between
 * the arrivals and the PEs' turn (noc_sim_cycle_*), where an op appended
 * that is ready starts in that same cycle. From the first append the
 * engine runs its own copy of the program, which grows
 * (noc_pe_program: ops in the order appended, noc_prog_grow_copy). The
 * past must not change: a call is refused (-1 with a message, nothing
 * changed) when it would alter what earlier cycles did. */
/* Step `name` follows the program's steps; its index, or -1 (a bad name,
 * a step already, too many steps). Under sync_steps its barrier opens when
 * every step before it has completed. */
int noc_pe_append_step(struct noc_sim *s, const char *name, char *err, size_t errlen);
/* Rank r's memory grows to hold words [addr, addr + n), which take the
 * values words[0 .. n) (NULL: 0). Refused when addr lies inside the memory
 * as it is (words the run may have used) or past NOC_PROG_MAX_MEM. */
int noc_pe_append_memory(struct noc_sim *s, int r, uint32_t addr, const int64_t *words, uint32_t n, char *err,
                         size_t errlen);
/* Append op *op to rank r (its step field: an index into the program's
 * steps, or -1; dep_start and n_deps are ignored), after the ops deps[0 ..
 * n_deps) of rank r. start_at: NOC_NEVER, or for a calc whose
 * dependencies are met a cycle <= now in which it is to have started, so
 * that it ends at that cycle plus its cost: for a SystemC thread busy
 * elsewhere since its last op, the recorded program holds a calc of the
 * gap, which a run from cycle 0 starts then. Returns the op's index (the
 * number of ops before it), or -1: a field noc_prog_grow_check refuses, a
 * send to its own rank, under sync_steps an op of a step whose barrier has
 * passed (a later step has had ops), or a start_at that cannot be (not a
 * calc, dependencies not met, a cycle not reached, the processor busy
 * since, or under sync_steps before its step's barrier). */
int64_t noc_pe_append_op(struct noc_sim *s, int r, const noc_op_t *op, const noc_dep_t *deps, uint32_t n_deps,
                         uint64_t start_at, char *err, size_t errlen);
/* The table entries (ops, dependents, queue slots, message and memory
 * words, step rows) the appends have written or moved so far: O(what was
 * appended) while the tables grow in place (model.pe_extend checks it). */
uint64_t noc_pe_append_work(const noc_pe_t *pe);

/* The kernel's calls (model/ni.c, model/sim.c). */
void noc_pe_arrivals(struct noc_sim *s, int n);      /* computations that end now (before any PE starts ops) */
void noc_pe_eval(struct noc_sim *s, int n);          /* start ready ops, finish computations */
int64_t noc_pe_word(const noc_pe_t *pe, uint32_t msg, uint32_t index); /* word `index` of message msg */
/* A packet of message msg reached its destination; flit words in data[]. */
void noc_pe_packet_arrived(struct noc_sim *s, int n, uint32_t msg, uint32_t off, uint32_t words,
                           uint32_t hops);
void noc_pe_flit_arrived(noc_pe_t *pe, uint32_t msg, uint32_t index, int64_t word);
/* The NI has room for a packet at node n: fill in the next one to send, or
 * return 0. port > 0: an all-port NI's lane for that output port asks, and
 * gets the oldest message whose first hop leaves through it; 0: any. */
int noc_pe_next_packet(struct noc_sim *s, int n, int port, int32_t *dst, uint16_t *size, uint32_t *msg,
                       uint32_t *off);
/* The NI injected the last flit of a packet of message msg. */
/* The message noc_pe_next_packet would take from now (its send op, and
 * the words of it already handed out), without taking it: 0 if none. */
int noc_pe_peek_send(const struct noc_sim *s, int n, int port, uint32_t *msg, uint32_t *off);
void noc_pe_packet_sent(struct noc_sim *s, int n, uint32_t msg, uint32_t off, uint32_t words);
/* The step a message's flits count toward (index into stats.steps). */
int noc_pe_msg_step(const noc_pe_t *pe, uint32_t msg);

/* Wait attribution (model/waits.c): message msg (its send op) waited n
 * more cycles for resource kind (noc_wait_kind_t). */
void noc_pe_msg_wait_add(noc_pe_t *pe, uint32_t msg, int kind, uint32_t n);
/* The cycle message msg (its send op) arrived whole, NOC_NEVER if not. */
uint64_t noc_pe_msg_arrived(const noc_pe_t *pe, uint32_t msg);
/* The cycles message msg waited, by resource (NOC_WAIT_KINDS entries), or
 * NULL when the run keeps no per-step tables. */
const uint32_t *noc_pe_msg_waits(const noc_pe_t *pe, uint32_t msg);

/* sync_steps: open the next step if the ones before it are complete (the
 * kernel calls it between every cycle's arrivals and sends). */
void noc_pe_barrier(struct noc_sim *s);
/* Run the program to its end: every op done and the network empty. Returns
 * NOC_RUN_DEADLOCK when the network deadlocks or the program stalls (no op
 * progresses, no flit moves, no PE computes for deadlock_cycles). */
noc_run_status_t noc_pe_run(struct noc_sim *s);
/* The run stopped because the program (not the network) stalled. */
int noc_pe_stalled(const noc_pe_t *pe);
/* Cycles noc_pe_run did not tick because nothing could happen in them (no
 * flit or credit in flight, every op waiting for a computation to end): it
 * jumped the clock to the next end instead (docs/programs.md). */
uint64_t noc_pe_skipped_cycles(const noc_pe_t *pe);

/* After the run: every op done? Messages left unreceived? Returns 0 when
 * the program finished cleanly, else -1 with the reason in err. */
int noc_pe_finished(const noc_pe_t *pe, char *err, size_t errlen);
/* Compare every rank's memory with the program's expected values; -1 with
 * the first wrong PE (lowest rank, lowest address) in err. Labels come from
 * the topology. */
int noc_pe_check(const struct noc_sim *s, char *err, size_t errlen);
/* Which ops wait, and on what (for a stuck program), one line each. */
void noc_pe_report_waiting(const struct noc_sim *s, FILE *f, int max_lines);
const noc_pe_stats_t *noc_pe_stats(const noc_pe_t *pe);
/* The critical path: from the op that completed last, back through what
 * held each op up (a receive: its message's send; any other op: the
 * dependency that released it last; a computation waiting for the
 * processor: the op before it there), to an op that started in cycle 0 or
 * at a step barrier. Writes at most max op indices, last op first; returns
 * how many. */
int noc_pe_critical_path(const noc_pe_t *pe, uint32_t *ops, int max);
/* The critical chain (model/pe_chain.c): what decided the finishing
 * cycle, as elements that tile [0, stats.cycles] without a gap, first
 * first: element i starts in the cycle element i - 1 ends (the first in
 * cycle 0, the last ends in stats.cycles), so their lengths add up to the
 * finishing cycle. Walked back from the op that completed last: an op's
 * end is explained by its own element (computing, injecting its message,
 * its message in the network), its start by what released it last (a
 * dependency, the step barrier, the CPU it waited for). */
typedef enum noc_chain_kind {
    NOC_CHAIN_COMPUTE,  /* op (calc or combine) on its CPU: its start to its end */
    NOC_CHAIN_SEND,     /* op, a send: its start to its last flit entering the network */
    NOC_CHAIN_RECV,     /* op, a receive whose message had arrived: its start (= its end) */
    NOC_CHAIN_NETWORK,  /* op's message (op: the send) from its last flit entering the network to
                           the receive `recv` completing (arrived whole, or released by pair order) */
    NOC_CHAIN_BARRIER,  /* the step barrier before step `step`: from the end of op (the op of the
                           steps before that completed last) to the cycle the barrier opened */
    NOC_CHAIN_START,    /* op waiting to start: from what released it to its start (1 cycle when
                           released after its PE's turn in that cycle; 0 where the chain reaches
                           an op's start through an irequires dependency) */
    NOC_CHAIN_KIND_COUNT
} noc_chain_kind_t;

/* Why an element started in the cycle it did: what it waited for. */
typedef enum noc_chain_why {
    NOC_WHY_START,      /* cycle 0: it waited for nothing */
    NOC_WHY_DEPENDENCY, /* a `requires` dependency: the element before (its op) completed */
    NOC_WHY_DEP_START,  /* an `irequires` dependency: the element before's op started */
    NOC_WHY_PROCESSOR,  /* its CPU: the element before (the op on that CPU) ended */
    NOC_WHY_BARRIER,    /* the step barrier (the element before) opened */
    NOC_WHY_INJECTED,   /* network: its send (the element before) injected the last flit */
    NOC_WHY_STEP_DONE,  /* barrier: the op of the element before completed the steps before */
    NOC_WHY_TURN,       /* its PE's turn: released in the cycle before, after the PE's turn */
    NOC_WHY_COUNT
} noc_chain_why_t;

typedef struct noc_chain_elem {
    uint64_t start, end;
    uint32_t op;        /* see the kinds; for NETWORK the send */
    int32_t recv;       /* NETWORK: the receive that completed (-1: none) */
    int32_t step;       /* BARRIER: the step it opened; else op's step (-1: none) */
    uint8_t kind, why;  /* noc_chain_kind_t, noc_chain_why_t */
    uint8_t held;       /* NETWORK: the receive's own message had arrived, held until this earlier
                           one of its (source, destination) pair arrived */
} noc_chain_elem_t;

/* The chain of a run that ended (every op done or not: it starts from the
 * op that completed last). Returns a new array (caller frees; NULL if no op
 * completed) and its length in *n. */
noc_chain_elem_t *noc_pe_critical_chain(const noc_pe_t *pe, int *n);
const char *noc_chain_kind_name(int kind);
const char *noc_chain_why_name(int why);

/* The message (send op) a receive op took, or -1. */
int32_t noc_pe_recv_message(const noc_pe_t *pe, uint32_t recv_op);
/* What rank r's PE is doing now, for waveforms: the op on its processor (a
 * computation) or else the op it started last (-1: none yet), the step of
 * that op (-1: none), and its sends not yet all injected and receives
 * posted but not yet matched. */
typedef struct noc_pe_rank_view {
    int32_t op;           /* global op index, or -1 */
    int32_t step;         /* index into the program's steps, or -1 */
    uint32_t sends_out;   /* sends started, not completed */
    uint32_t recvs_open;  /* receives posted, not completed */
    uint32_t ops_left;    /* ops not completed */
} noc_pe_rank_view_t;
void noc_pe_rank_view(const noc_pe_t *pe, int r, noc_pe_rank_view_t *v);
/* The step the whole program is in under sync_steps (the lowest step with
 * ops left), or without it the lowest step with an op running or ready;
 * -1 before the first and after the last. */
int noc_pe_current_step(const noc_pe_t *pe);
const noc_program_t *noc_pe_program(const noc_pe_t *pe);

/* Rank r's memory (mem_words words; valid until the next append). */
const int64_t *noc_pe_memory(const noc_pe_t *pe, int r);

#ifdef __cplusplus
}
#endif
#endif
