/* pe_internal.h: the state of the PE program engine (pe.h), shared by the
 * files that make it up: pe_build.c builds it for a program, pe.c runs it
 * cycle by cycle, pe_extend.c appends ops to it while it runs, pe_report.c
 * reads it after the run. Every table an op or a rank has can grow in
 * place (per-op arrays by capacity, each rank's queues and memory on their
 * own once they outgrow the shared block they start in), so appending n
 * ops costs O(n). Private to model/pe*.c. */
#ifndef NOC_PE_INTERNAL_H
#define NOC_PE_INTERNAL_H
#include "model/pe.h"
#include "model/channel.h"
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

enum { OP_WAIT, OP_READY, OP_STARTED, OP_DONE };

#define NOC_PE_NONE UINT32_MAX

/* A FIFO in an array with room for every op of its rank: an op enters it
 * at most once, so it never wraps. */
typedef struct queue {
    uint32_t *slot;
    uint32_t head, tail; /* indices into slot */
} queue_t;

/* One CPU of a rank (GOAL's `cpu C`): its own timeline, as LogGOPSim's
 * nexto[host][cpu]; calc and combine ops run one at a time on each. */
typedef struct cpu_slot {
    int32_t op;           /* op on it, -1 if none */
    uint32_t queued;      /* ops waiting for it in the rank's compute queue */
    uint64_t end;         /* cycle its op completes */
    uint64_t free;        /* the cycle its last computation ended (0: none yet) */
} cpu_slot_t;

typedef struct rank_state {
    queue_t ready;        /* ops whose dependencies are met */
    queue_t compute;      /* calc and combine ops waiting for the processor */
    int32_t send_head, send_tail; /* send ops whose packets are not all handed to the NI, in
                                     start order (linked through send_next) */
    cpu_slot_t *cpu;      /* its CPUs 0 .. n_cpus - 1 (the highest its ops name, plus one) */
    uint16_t n_cpus, cpus_busy; /* CPUs it has; CPUs computing */
    uint8_t cpu_own;      /* 1: cpu[] of its own (grown), not in the engine's shared block */
    int32_t any_head, any_tail;         /* receives from any source waiting for a message (by op,
                                           linked by recv_next; pe_match.c) */
    int32_t arrived_head, arrived_tail; /* messages arrived, not yet matched (by send op, linked by
                                           msg_next and msg_prev) */
    uint32_t post_seq;    /* receives it has posted (each gets its number: recv_seq) */
    int32_t held_head;    /* messages arrived before an earlier one of their pair (pe_order.c) */
    uint32_t ops_left;
    int32_t last_op;      /* the op it started last (waveforms), -1 none */
    uint32_t sends_out, recvs_open;
    int64_t *mem;         /* its memory */
    uint32_t q_cap;       /* ops each of its queues has room for */
    uint32_t mem_cap;     /* words mem has room for */
    uint8_t q_own, mem_own; /* 1: queues / memory of its own (grown), not in the engine's shared block */
} rank_state_t;

/* A dependent of an op: op `op` waits for it to complete (start = 0) or to
 * start (1); next: the op's next dependent in rdep[], NOC_PE_NONE after
 * the last. */
typedef struct rdep {
    uint32_t op, next;
    uint8_t start;
} rdep_t;

struct noc_pe {
    const noc_program_t *p; /* the program: borrowed, or own */
    noc_program_t *own;    /* after the first append: the engine's copy, which grows (p == own) */
    int n_ranks;
    int64_t compute_cycles;
    int packet_size;
    int64_t *mem;          /* the ranks' memories as attached, one block (rank[].mem point into it) */
    uint32_t *qslot;       /* the ranks' queues as attached, one block: two regions a rank */
    uint32_t cap_ops;      /* ops the per-op arrays below have room for (st.ops are in use) */
    uint32_t *pending;     /* per op: dependencies not yet met */
    uint8_t *state;        /* per op: OP_* */
    uint32_t *op_rank;     /* per op: its rank */
    uint32_t *rdep_head, *rdep_tail; /* per op: its first and last dependent in rdep[]
                                        (NOC_PE_NONE: none), in the order of the dependent ops */
    rdep_t *rdep;
    uint32_t n_rdep, cap_rdep;
    int32_t *send_next, *send_prev; /* per send op: the next and the one before in its rank's send list */
    int32_t *send_pnext;   /* per send op: the next in its first port's send list */
    uint32_t *send_off;    /* per send op: words handed to the NI so far */
    uint8_t *send_port;    /* per send op: the first hop's output port */
    rank_state_t *rank;
    const int *port_base;  /* the fabric's (borrowed): rank r's ports are port_base[r] .. port_base[r+1] */
    int32_t *port_send_head, *port_send_tail; /* per global port: its rank's sends whose first hop
                                                 leaves there, in start order (send_pnext) */
    /* messages, by send op */
    uint64_t *msg_off;     /* first word in tx[] and rx[] */
    int64_t *tx, *rx;      /* st.words words in use */
    uint64_t cap_words;    /* words tx and rx have room for */
    uint32_t *msg_sent;    /* words injected */
    uint32_t *msg_got;     /* words arrived */
    int32_t *msg_next;     /* link in the receiver's arrived list */
    int32_t *msg_prev;     /* the link back in the receiver's arrived list */
    int32_t *msg_pnext;    /* link in its pair's list of unmatched messages */
    int32_t *recv_next;    /* per recv op: link in its pair's or its rank's list of posted receives */
    uint32_t *recv_seq;    /* per recv op: its number among its rank's posted receives */
    int32_t *recv_msg;     /* per recv op: the message it took */
    uint64_t *msg_arrived; /* per send op: the cycle its message arrived whole (the critical chain) */
    uint32_t *msg_wait;    /* per send op, NOC_WAIT_KINDS each: the cycles it waited, by resource
                              (model/waits.c); NULL when the run keeps no per-step tables */
    /* send order per (source, destination) pair (pe_order.c) */
    cpu_slot_t *cpus;      /* the ranks' CPUs as attached, one block (rank[].cpu point into it) */
    uint32_t *pair_of;     /* per send op, and per receive from a named source: its pair */
    uint32_t *msg_seq;     /* per send op: its number among its pair's sends, in start order */
    uint64_t *pair_key;    /* per pair: source << 32 | destination */
    uint32_t *pair_sent;   /* per pair: sends started */
    uint32_t *pair_next;   /* per pair: the number of the next message its receiver may match */
    int32_t *pair_post_head, *pair_post_tail; /* per pair: receives posted for it (pe_match.c) */
    int32_t *pair_arr_head, *pair_arr_tail;   /* per pair: its messages arrived, not yet matched */
    uint32_t *pair_slot;   /* hash slots: pair + 1, 0 empty */
    uint32_t n_pairs, cap_pairs, pair_mask;
    uint64_t messages_left;
    char error[256];       /* first program error (truncation ...) */
    uint64_t last_event;   /* last cycle an op started or ended */
    int stalled;           /* the run stopped: nothing moved or progressed */
    /* sync_steps: a zero-cost barrier at every step: ops of step k start
     * only when every op of the steps before k has completed */
    int sync;
    int cur_step;          /* lowest step with ops left */
    uint32_t *step_left;   /* per step: ops not completed */
    uint32_t *step_active; /* per step: ops ready or running (waveforms' current step) */
    int32_t *park_head;    /* per step: ready ops waiting for the barrier */
    uint64_t *step_open;   /* per step: the cycle the run reached it (its barrier opened, or it
                              was passed empty), NOC_NEVER not yet */
    int32_t *park_next;    /* per op */
    int cap_steps;         /* steps the per-step arrays have room for, besides "no step" */
    int cap_step_rows;     /* rows the simulator's per-step link tables have room for */
    uint64_t skipped;      /* cycles noc_pe_run jumped over (pe_skip.c) */
    uint64_t append_work;  /* entries the appends wrote or moved (noc_pe_append_work) */
    noc_pe_stats_t st;
};

/* Op x off a doubly linked list of ops (links next[] and prev[], -1 at
 * the ends; *head and *tail its first and last). */
static inline void noc_pe_list_unlink(int32_t *next, int32_t *prev, int32_t *head, int32_t *tail, int32_t x)
{
    int32_t before = prev[x], after = next[x];
    if (before < 0)
        *head = after;
    else
        next[before] = after;
    if (after < 0)
        *tail = before;
    else
        prev[after] = before;
}

/* The engine's tables for program p on s, every op waiting (pe_build.c:
 * what noc_pe_attach builds before it starts the run); NULL with a message
 * when s cannot run p (the refusals of noc_pe_attach). */
noc_pe_t *noc_pe_build(const struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen);

/* Cells (steps x channels) the per-step tables may have: each of their
 * 1 + NOC_WAIT_KINDS tables holds a 32-bit counter a cell, 200 MB at most
 * in all. Past it a run keeps none. */
static inline size_t noc_pe_step_cells_max(void) { return ((size_t)50 << 20) / (1 + NOC_WAIT_KINDS); }

/* The per-op arrays get room for `need` ops (doubling; pe_build.c, for
 * noc_pe_build and pe_extend.c): what is in use is kept. */
void noc_pe_grow_ops(noc_pe_t *pe, uint32_t need);
/* Op op joins the dependents of op on (its dependency): last in on's list
 * (pe_build.c). */
void noc_pe_add_dependent(noc_pe_t *pe, uint32_t on, uint32_t op, int start);

/* Op op's dependencies are met: into its rank's ready queue (pe.c's
 * make_ready, for pe_extend.c). */
void noc_pe_make_ready(struct noc_sim *s, uint32_t op);

/* Calc op op (its dependencies met) is put on its PE's processor as if
 * started in cycle at (pe.c, for pe_extend.c, which checks it can be). */
void noc_pe_prestart(struct noc_sim *s, uint32_t op, uint64_t at);

/* The ranks' CPUs (pe_cpu.c): every rank gets as many as its ops name;
 * room makes rank r's CPU cpu exist (allocates: between cycles only). */
void noc_pe_cpu_build(noc_pe_t *pe, const noc_program_t *p);
void noc_pe_cpu_room(noc_pe_t *pe, int r, int cpu);
void noc_pe_cpu_free(noc_pe_t *pe);
/* The op computing on one of rank r's CPUs (the lowest busy CPU), or -1. */
int32_t noc_pe_cpu_op(const rank_state_t *rs);

/* Some CPU of rs is idle while ops in its compute queue wait for it. */
int noc_pe_cpu_wanted(const rank_state_t *rs);

/* Before a cycle of noc_pe_run (pe_skip.c): if nothing can happen until
 * some CPU's computation ends, the clock jumps to that cycle. */
void noc_pe_skip_idle(struct noc_sim *s);

/* Send order per pair (pe_order.c). The pair of (src, dst), numbered
 * on first sight (allocates: outside the cycle loop only). */
uint32_t noc_pe_order_pair(noc_pe_t *pe, int src, int dst);
/* Every send op of p, and every receive from a named source, gets its
 * pair (after the per-op arrays are built). */
void noc_pe_order_build(noc_pe_t *pe, const noc_program_t *p);
void noc_pe_order_free(noc_pe_t *pe);
/* Send msg starts: it takes its pair's next sequence number. */
void noc_pe_order_sent(noc_pe_t *pe, uint32_t msg);
/* Message msg arrived whole at rank rs: 1 if it must wait for an earlier
 * one of its pair (it is held), 0 if it may be matched now. */
int noc_pe_order_hold(noc_pe_t *pe, rank_state_t *rs, uint32_t msg);
/* Message msg of rs was matchable: its pair expects the next one; returns
 * that one if it is held (unlinked), else -1. */
int32_t noc_pe_order_release(noc_pe_t *pe, rank_state_t *rs, uint32_t msg);

/* Matching (pe_match.c). Message msg, matchable at rank rs: the posted
 * receive that takes it (unlinked), or -1 when none matches (msg then waits
 * on its pair's and its rank's lists). */
int32_t noc_pe_match_message(noc_pe_t *pe, rank_state_t *rs, uint32_t msg);
/* Receive op is posted at rank rs: the arrived message it takes
 * (unlinked), or -1 when none matches (op then waits). */
int32_t noc_pe_match_receive(noc_pe_t *pe, rank_state_t *rs, uint32_t op);
/* Every list of pe_match.c empty (the run's start). */
void noc_pe_match_start(noc_pe_t *pe);

/* Every rank's state at cycle 0, its ops without dependencies ready, once
 * s->pe is built (pe.c: the queues are the run's). */
void noc_pe_start(struct noc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
