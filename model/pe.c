/* pe.c: the PE program engine (pe.h): dependency counting, the ready,
 * compute and send queues of every rank, message buffers and matching, and
 * the result check. Queues are flat regions sized from the program (an op
 * enters each queue at most once), so a run allocates nothing. */
#include "model/pe.h"
#include "model/sim_internal.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

enum { OP_WAIT, OP_READY, OP_STARTED, OP_DONE };

/* A FIFO over a region of a shared array: an op enters it at most once. */
typedef struct queue {
    uint32_t head, tail; /* indices into the rank's region */
} queue_t;

typedef struct rank_state {
    queue_t ready;        /* ops whose dependencies are met */
    queue_t compute;      /* calc and combine ops waiting for the processor */
    int32_t send_head, send_tail; /* send ops whose packets are not all handed to the NI, in
                                     start order (linked through send_next) */
    int32_t cpu_op;       /* op on the processor, -1 if none */
    uint64_t cpu_end;     /* cycle it completes */
    int32_t posted_head, posted_tail;   /* receives waiting for a message (by op) */
    int32_t arrived_head, arrived_tail; /* messages arrived, not yet matched (by send op) */
    uint32_t ops_left;
    int32_t last_op;      /* the op it started last (waveforms), -1 none */
    uint32_t sends_out, recvs_open;
} rank_state_t;

struct noc_pe {
    const noc_program_t *p;
    int n_ranks;
    int64_t compute_cycles;
    int packet_size;
    int64_t *mem;
    uint64_t *mem_off;     /* per rank */
    uint32_t *pending;     /* per op: dependencies not yet met */
    uint8_t *state;        /* per op: OP_* */
    uint32_t *op_rank;     /* per op: its rank */
    uint32_t *rdep_start;  /* per op + 1: its dependents in rdep[] */
    noc_dep_t *rdep;       /* (dependent op, start flag) */
    uint32_t *qslot;       /* two regions per rank (ready, compute): op ids */
    int32_t *send_next;    /* per send op: the next in its rank's send list */
    uint32_t *send_off;    /* per send op: words handed to the NI so far */
    uint8_t *send_port;    /* per send op: the first hop's output port */
    rank_state_t *rank;
    /* messages, by send op */
    uint64_t *msg_off;     /* first word in tx[] and rx[] */
    int64_t *tx, *rx;
    uint32_t *msg_sent;    /* words injected */
    uint32_t *msg_got;     /* words arrived */
    int32_t *msg_next;     /* link in the receiver's arrived list */
    int32_t *recv_next;    /* per recv op: link in the posted list */
    int32_t *recv_msg;     /* per recv op: the message it took */
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
    int32_t *park_next;    /* per op */
    noc_pe_stats_t st;
};

static uint32_t *region(const noc_pe_t *pe, int r, int which)
{
    return &pe->qslot[2 * (size_t)pe->p->ranks[r].op_start + (size_t)which * pe->p->ranks[r].n_ops];
}

static void push(noc_pe_t *pe, int r, int which, queue_t *q, uint32_t op)
{
    region(pe, r, which)[q->tail++] = op;
}

static int rank_of(const noc_pe_t *pe, uint32_t op)
{
    return (int)pe->op_rank[op];
}

static noc_pe_step_stats_t *step_of(noc_pe_t *pe, uint32_t op)
{
    int k = pe->p->ops[op].step;
    return &pe->st.steps[k < 0 ? pe->st.n_steps : k];
}

/* Keep node n on the active list while its PE has something to do. */
static void update_busy(struct noc_sim *s, int n)
{
    noc_pe_t *pe = s->pe;
    const rank_state_t *rs = &pe->rank[n];
    int busy = rs->ready.head != rs->ready.tail || rs->cpu_op >= 0 ||
               rs->compute.head != rs->compute.tail || rs->send_head >= 0;
    noc_ni_t *ni = &s->ni[n];
    if (busy && !ni->pe_busy) {
        ni->pe_busy = 1;
        noc_work_add(s, n, 1);
    } else if (!busy && ni->pe_busy) {
        ni->pe_busy = 0;
        noc_work_sub(s, n, 1);
    }
}

/* Op op has its dependencies met: into its rank's ready queue, or, under
 * sync_steps, parked until the barrier before its step opens. */
static void make_ready(struct noc_sim *s, uint32_t op)
{
    noc_pe_t *pe = s->pe;
    int k = pe->p->ops[op].step;
    pe->state[op] = OP_READY;
    if (k >= 0)
        pe->step_active[k]++;
    if (pe->sync && k > pe->cur_step) {
        pe->park_next[op] = pe->park_head[k];
        pe->park_head[k] = (int32_t)op;
        return;
    }
    int r = rank_of(pe, op);
    push(pe, r, 0, &pe->rank[r].ready, op);
    update_busy(s, r);
}

/* Op op started (start = 1) or completed (0): its dependents of that kind
 * lose a pending dependency; those with none left become ready. */
static void release(struct noc_sim *s, uint32_t op, int start)
{
    noc_pe_t *pe = s->pe;
    for (uint32_t k = pe->rdep_start[op]; k < pe->rdep_start[op + 1]; k++) {
        const noc_dep_t *d = &pe->rdep[k];
        if (d->start != start)
            continue;
        if (--pe->pending[d->op] == 0)
            make_ready(s, d->op);
    }
}

static void op_started(struct noc_sim *s, uint32_t op)
{
    noc_pe_t *pe = s->pe;
    pe->state[op] = OP_STARTED;
    pe->st.op_start[op] = s->now;
    rank_state_t *rs = &pe->rank[rank_of(pe, op)];
    rs->last_op = (int32_t)op;
    if (pe->p->ops[op].kind == NOC_OP_SEND)
        rs->sends_out++;
    else if (pe->p->ops[op].kind == NOC_OP_RECV)
        rs->recvs_open++;
    pe->last_event = s->now;
    noc_pe_step_stats_t *k = step_of(pe, op);
    if (k->first_start == NOC_NEVER)
        k->first_start = s->now;
    k->ops++;
    release(s, op, 1);
}

static void op_done(struct noc_sim *s, uint32_t op)
{
    noc_pe_t *pe = s->pe;
    pe->state[op] = OP_DONE;
    pe->st.op_end[op] = s->now;
    pe->st.ops_done++;
    pe->last_event = s->now;
    if (s->now > pe->st.cycles)
        pe->st.cycles = s->now;
    noc_pe_step_stats_t *k = step_of(pe, op);
    if (k->last_end == NOC_NEVER || s->now > k->last_end)
        k->last_end = s->now;
    rank_state_t *rs = &pe->rank[rank_of(pe, op)];
    rs->ops_left--;
    if (pe->p->ops[op].kind == NOC_OP_SEND)
        rs->sends_out--;
    else if (pe->p->ops[op].kind == NOC_OP_RECV)
        rs->recvs_open--;
    if (pe->p->ops[op].step >= 0) {
        pe->step_left[pe->p->ops[op].step]--;
        pe->step_active[pe->p->ops[op].step]--;
    }
    release(s, op, 0);
}

static int recv_matches(const noc_pe_t *pe, const noc_op_t *rv, uint32_t msg, int from)
{
    const noc_op_t *sd = &pe->p->ops[msg];
    return (rv->peer == NOC_PROG_ANY || rv->peer == from) && (rv->tag == NOC_PROG_ANY || rv->tag == sd->tag);
}

/* Receive op rv of rank r takes message msg: its words land in memory. */
static void take(struct noc_sim *s, int r, uint32_t rv, uint32_t msg)
{
    noc_pe_t *pe = s->pe;
    const noc_op_t *o = &pe->p->ops[rv], *sd = &pe->p->ops[msg];
    pe->recv_msg[rv] = (int32_t)msg;
    if (sd->words > o->words && !pe->error[0])
        snprintf(pe->error, sizeof pe->error,
                 "rank %d: a message of %u words from rank %d (tag %d) arrived for a receive of %u words",
                 r, sd->words, rank_of(pe, msg), sd->tag, o->words);
    if (o->addr != NOC_PROG_NO_ADDR) {
        uint32_t w = sd->words < o->words ? sd->words : o->words;
        memcpy(&pe->mem[pe->mem_off[r] + (uint64_t)o->addr], &pe->rx[pe->msg_off[msg]], w * sizeof(int64_t));
    }
    pe->messages_left--;
    op_done(s, rv);
}

static void post_recv(struct noc_sim *s, int r, uint32_t op)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[r];
    const noc_op_t *o = &pe->p->ops[op];
    int32_t prev = -1;
    for (int32_t m = rs->arrived_head; m >= 0; prev = m, m = pe->msg_next[m]) {
        if (!recv_matches(pe, o, (uint32_t)m, rank_of(pe, (uint32_t)m)))
            continue;
        /* unlink m */
        if (prev < 0)
            rs->arrived_head = pe->msg_next[m];
        else
            pe->msg_next[prev] = pe->msg_next[m];
        if (rs->arrived_tail == m)
            rs->arrived_tail = prev;
        take(s, r, op, (uint32_t)m);
        return;
    }
    pe->recv_next[op] = -1;
    if (rs->posted_tail >= 0)
        pe->recv_next[rs->posted_tail] = (int32_t)op;
    else
        rs->posted_head = (int32_t)op;
    rs->posted_tail = (int32_t)op;
}

/* Message msg has arrived whole at rank r. */
static void message_arrived(struct noc_sim *s, int r, uint32_t msg)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[r];
    int from = rank_of(pe, msg);
    int32_t prev = -1;
    for (int32_t v = rs->posted_head; v >= 0; prev = v, v = pe->recv_next[v]) {
        if (!recv_matches(pe, &pe->p->ops[v], msg, from))
            continue;
        if (prev < 0)
            rs->posted_head = pe->recv_next[v];
        else
            pe->recv_next[prev] = pe->recv_next[v];
        if (rs->posted_tail == v)
            rs->posted_tail = prev;
        take(s, r, (uint32_t)v, msg);
        return;
    }
    pe->msg_next[msg] = -1;
    if (rs->arrived_tail >= 0)
        pe->msg_next[rs->arrived_tail] = (int32_t)msg;
    else
        rs->arrived_head = (int32_t)msg;
    rs->arrived_tail = (int32_t)msg;
}

static void apply_combine(noc_pe_t *pe, int r, const noc_op_t *o)
{
    int64_t *m = &pe->mem[pe->mem_off[r]];
    for (uint32_t i = 0; i < o->words; i++) {
        int64_t a = m[o->addr + (int64_t)i], b = m[o->src + (int64_t)i];
        switch (o->kind) {
        case NOC_OP_ADD: /* wraps like the hardware adder (no UB) */
            m[o->addr + (int64_t)i] = (int64_t)((uint64_t)a + (uint64_t)b);
            break;
        case NOC_OP_MIN: m[o->addr + (int64_t)i] = a < b ? a : b; break;
        case NOC_OP_MAX: m[o->addr + (int64_t)i] = a > b ? a : b; break;
        default: m[o->addr + (int64_t)i] = b; break;
        }
    }
}

static uint64_t cost_of(const noc_pe_t *pe, const noc_op_t *o)
{
    if (o->kind == NOC_OP_CALC)
        return (uint64_t)o->cost;
    if (o->cost != NOC_PROG_DEFAULT_COST)
        return (uint64_t)o->cost;
    return (uint64_t)pe->compute_cycles * o->words;
}

static void start_op(struct noc_sim *s, int r, uint32_t op)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[r];
    const noc_op_t *o = &pe->p->ops[op];
    switch (o->kind) {
    case NOC_OP_SEND: {
        op_started(s, op);
        int64_t *tx = &pe->tx[pe->msg_off[op]];
        if (o->addr != NOC_PROG_NO_ADDR)
            memcpy(tx, &pe->mem[pe->mem_off[r] + (uint64_t)o->addr], o->words * sizeof(int64_t));
        noc_pe_step_stats_t *k = step_of(pe, op);
        k->messages++;
        k->words += o->words;
        noc_route_t rt;
        noc_topo_route(s->topo, r, r, o->peer, &rt);
        pe->send_port[op] = rt.port;
        pe->send_next[op] = -1;
        if (rs->send_tail >= 0)
            pe->send_next[rs->send_tail] = (int32_t)op;
        else
            rs->send_head = (int32_t)op;
        rs->send_tail = (int32_t)op;
        break;
    }
    case NOC_OP_RECV:
        op_started(s, op);
        post_recv(s, r, op);
        break;
    default:
        push(pe, r, 1, &rs->compute, op);
        break;
    }
}

/* The computation on n's processor ends now: its result lands in memory. */
static int finish_compute(struct noc_sim *s, int n)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[n];
    if (rs->cpu_op < 0 || rs->cpu_end > s->now)
        return 0;
    const noc_op_t *o = &pe->p->ops[rs->cpu_op];
    if (o->kind != NOC_OP_CALC)
        apply_combine(pe, n, o);
    uint32_t op = (uint32_t)rs->cpu_op;
    rs->cpu_op = -1;
    op_done(s, op);
    return 1;
}

void noc_pe_arrivals(struct noc_sim *s, int n)
{
    if (n < s->pe->n_ranks)
        finish_compute(s, n);
}

void noc_pe_eval(struct noc_sim *s, int n)
{
    noc_pe_t *pe = s->pe;
    if (n >= pe->n_ranks)
        return;
    rank_state_t *rs = &pe->rank[n];
    for (;;) {
        int progress = finish_compute(s, n);
        while (rs->ready.head != rs->ready.tail) {
            start_op(s, n, region(pe, n, 0)[rs->ready.head++]);
            progress = 1;
        }
        if (rs->cpu_op < 0 && rs->compute.head != rs->compute.tail) {
            uint32_t op = region(pe, n, 1)[rs->compute.head++];
            op_started(s, op);
            rs->cpu_op = (int32_t)op;
            rs->cpu_end = s->now + cost_of(pe, &pe->p->ops[op]);
            progress = 1;
        }
        if (!progress)
            break;
    }
    update_busy(s, n);
}

int64_t noc_pe_word(const noc_pe_t *pe, uint32_t msg, uint32_t index)
{
    return pe->tx[pe->msg_off[msg] + index];
}

void noc_pe_flit_arrived(noc_pe_t *pe, uint32_t msg, uint32_t index, int64_t word)
{
    pe->rx[pe->msg_off[msg] + index] = word;
}

void noc_pe_packet_arrived(struct noc_sim *s, int n, uint32_t msg, uint32_t off, uint32_t words,
                           uint32_t hops)
{
    noc_pe_t *pe = s->pe;
    (void)off;
    step_of(pe, msg)->flit_hops += (uint64_t)hops * words;
    pe->msg_got[msg] += words;
    if (pe->msg_got[msg] == pe->p->ops[msg].words)
        message_arrived(s, n, msg);
}

int noc_pe_next_packet(struct noc_sim *s, int n, int port, int32_t *dst, uint16_t *size, uint32_t *msg,
                       uint32_t *off)
{
    noc_pe_t *pe = s->pe;
    if (n >= pe->n_ranks)
        return 0;
    rank_state_t *rs = &pe->rank[n];
    /* the oldest send (for this port) with packets left */
    int32_t prev = -1, op = rs->send_head;
    while (op >= 0 && port > 0 && pe->send_port[op] != port) {
        prev = op;
        op = pe->send_next[op];
    }
    if (op < 0)
        return 0;
    const noc_op_t *o = &pe->p->ops[op];
    uint32_t left = o->words - pe->send_off[op];
    uint32_t k = left < (uint32_t)pe->packet_size ? left : (uint32_t)pe->packet_size;
    *dst = o->peer;
    *size = (uint16_t)k;
    *msg = (uint32_t)op;
    *off = pe->send_off[op];
    pe->send_off[op] += k;
    if (pe->send_off[op] == o->words) {
        /* all handed out: off the list */
        if (prev < 0)
            rs->send_head = pe->send_next[op];
        else
            pe->send_next[prev] = pe->send_next[op];
        if (rs->send_tail == op)
            rs->send_tail = prev;
        update_busy(s, n);
    }
    return 1;
}

void noc_pe_packet_sent(struct noc_sim *s, int n, uint32_t msg, uint32_t off, uint32_t words)
{
    noc_pe_t *pe = s->pe;
    (void)off;
    pe->msg_sent[msg] += words;
    if (pe->msg_sent[msg] == pe->p->ops[msg].words) {
        op_done(s, msg);
        update_busy(s, n);
    }
}

int noc_pe_msg_step(const noc_pe_t *pe, uint32_t msg)
{
    int k = pe->p->ops[msg].step;
    return k < 0 ? pe->st.n_steps : k;
}

/* ---- building ---- */

/* The bytes noc_pe_attach allocates for p on s: the ranks' memories, a
 * few words per op and dependency, the words of every message twice (sent
 * and received, for the data check), and the per-step link tables; by the
 * same counts as the allocations below. */
static uint64_t pe_bytes(const struct noc_sim *s, const noc_program_t *p)
{
    uint64_t N = p->n_ops, R = (uint64_t)p->n_ranks, K = (uint64_t)p->n_steps + 1, mem = 0, words = 0;
    for (int r = 0; r < p->n_ranks; r++)
        mem += p->ranks[r].mem_words;
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == NOC_OP_SEND)
            words += p->ops[i].words;
    uint64_t b = sizeof(noc_pe_t) + (R + 1) * 8 + (mem + 1) * sizeof(int64_t);
    b += (N + 1) * (4 + 1 + 4 + 4 + 2 * 4 + 4 + 4 + 1 + 8 + 4 + 4 + 4 + 4 + 4 + 4 + 2 * 8) + 4;
    b += ((uint64_t)p->n_deps + 1) * sizeof(noc_dep_t) + R * sizeof(rank_state_t);
    b += 2 * (words + 1) * sizeof(int64_t);
    b += K * (4 + 4 + 4 + sizeof(noc_pe_step_stats_t));
    uint64_t cells = K * (uint64_t)s->n_chan;
    if (cells <= ((uint64_t)1 << 24))
        b += 3 * cells * sizeof(uint32_t);
    return b;
}

int noc_pe_attach(struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen)
{
    if (s->traffic.ops) {
        snprintf(err, errlen, "a program needs a simulator without synthetic traffic");
        return -1;
    }
    if (p->n_ranks > s->n_nodes) {
        snprintf(err, errlen, "the program has %d ranks, but %s has only %d nodes (rank r runs on node r)",
                 p->n_ranks, s->topo->spec, s->n_nodes);
        return -1;
    }
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t i = p->ranks[r].op_start; i < p->ranks[r].op_start + p->ranks[r].n_ops; i++) {
            const noc_op_t *o = &p->ops[i];
            if (o->kind == NOC_OP_SEND && o->peer == r) {
                snprintf(err, errlen, "rank %d: a send to itself (op %u, line %u); a PE does not use "
                         "the network for that", r, i - p->ranks[r].op_start, o->line);
                return -1;
            }
        }
    if (s->cfg.memory_check) {
        char what[NOC_TOPO_SPEC_MAX + 160];
        snprintf(what, sizeof what, "the program engine for %u operations of %d ranks on %s", p->n_ops,
                 p->n_ranks, s->topo->spec);
        if (noc_mem_check(pe_bytes(s, p), what, "make the messages or the ranks' memory smaller (their words are "
                          "kept to check the result), or memory_check=0 to try anyway", err, errlen) != 0)
            return -1;
    }
    noc_pe_t *pe = noc_xcalloc(1, sizeof *pe, "PE engine");
    pe->p = p;
    pe->n_ranks = p->n_ranks;
    pe->compute_cycles = s->cfg.compute_cycles;
    pe->packet_size = (int)s->cfg.packet_size;
    uint32_t N = p->n_ops;

    pe->mem_off = noc_xcalloc((size_t)p->n_ranks + 1, sizeof(uint64_t), "PE engine");
    for (int r = 0; r < p->n_ranks; r++)
        pe->mem_off[r + 1] = pe->mem_off[r] + p->ranks[r].mem_words;
    pe->mem = noc_xcalloc((size_t)pe->mem_off[p->n_ranks] + 1, sizeof(int64_t), "PE engine");
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t k = 0; k < p->ranks[r].n_init; k++) {
            const noc_memval_t *v = &p->init[p->ranks[r].init_start + k];
            pe->mem[pe->mem_off[r] + v->addr] = v->value;
        }

    pe->pending = noc_xcalloc((size_t)N + 1, sizeof(uint32_t), "PE engine");
    pe->state = noc_xcalloc((size_t)N + 1, 1, "PE engine");
    pe->op_rank = noc_xcalloc((size_t)N + 1, sizeof(uint32_t), "PE engine");
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t i = p->ranks[r].op_start; i < p->ranks[r].op_start + p->ranks[r].n_ops; i++)
            pe->op_rank[i] = (uint32_t)r;
    pe->rdep_start = noc_xcalloc((size_t)N + 2, sizeof(uint32_t), "PE engine");
    pe->rdep = noc_xcalloc((size_t)p->n_deps + 1, sizeof(noc_dep_t), "PE engine");
    for (uint32_t i = 0; i < N; i++) {
        pe->pending[i] = p->ops[i].n_deps;
        for (uint32_t k = 0; k < p->ops[i].n_deps; k++)
            pe->rdep_start[p->deps[p->ops[i].dep_start + k].op + 1]++;
    }
    for (uint32_t i = 0; i < N; i++)
        pe->rdep_start[i + 1] += pe->rdep_start[i];
    uint32_t *fill = noc_xcalloc((size_t)N + 1, sizeof(uint32_t), "PE engine");
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t k = 0; k < p->ops[i].n_deps; k++) {
            const noc_dep_t *d = &p->deps[p->ops[i].dep_start + k];
            noc_dep_t *rd = &pe->rdep[pe->rdep_start[d->op] + fill[d->op]++];
            rd->op = i;
            rd->start = d->start;
        }
    free(fill);

    pe->qslot = noc_xcalloc(2 * (size_t)N + 1, sizeof(uint32_t), "PE engine");
    pe->send_next = noc_xcalloc((size_t)N + 1, sizeof(int32_t), "PE engine");
    pe->send_off = noc_xcalloc((size_t)N + 1, sizeof(uint32_t), "PE engine");
    pe->send_port = noc_xcalloc((size_t)N + 1, 1, "PE engine");
    pe->rank = noc_xcalloc((size_t)p->n_ranks, sizeof(rank_state_t), "PE engine");
    pe->msg_off = noc_xcalloc((size_t)N + 1, sizeof(uint64_t), "PE engine");
    uint64_t words = 0;
    for (uint32_t i = 0; i < N; i++) {
        pe->msg_off[i] = words;
        if (p->ops[i].kind == NOC_OP_SEND) {
            words += p->ops[i].words;
            pe->messages_left++;
            pe->st.messages++;
        }
    }
    pe->st.words = words;
    pe->tx = noc_xcalloc((size_t)words + 1, sizeof(int64_t), "PE engine");
    pe->rx = noc_xcalloc((size_t)words + 1, sizeof(int64_t), "PE engine");
    pe->msg_sent = noc_xcalloc((size_t)N + 1, sizeof(uint32_t), "PE engine");
    pe->msg_got = noc_xcalloc((size_t)N + 1, sizeof(uint32_t), "PE engine");
    pe->msg_next = noc_xcalloc((size_t)N + 1, sizeof(int32_t), "PE engine");
    pe->recv_next = noc_xcalloc((size_t)N + 1, sizeof(int32_t), "PE engine");
    pe->recv_msg = noc_xcalloc((size_t)N + 1, sizeof(int32_t), "PE engine");
    for (uint32_t i = 0; i < N; i++)
        pe->recv_msg[i] = -1;

    pe->sync = s->cfg.sync_steps != 0;
    pe->step_left = noc_xcalloc((size_t)p->n_steps + 1, sizeof(uint32_t), "PE engine");
    pe->step_active = noc_xcalloc((size_t)p->n_steps + 1, sizeof(uint32_t), "PE engine");
    pe->park_head = noc_xcalloc((size_t)p->n_steps + 1, sizeof(int32_t), "PE engine");
    pe->park_next = noc_xcalloc((size_t)N + 1, sizeof(int32_t), "PE engine");
    for (int k = 0; k <= p->n_steps; k++)
        pe->park_head[k] = -1;
    for (uint32_t i = 0; i < N; i++)
        if (p->ops[i].step >= 0)
            pe->step_left[p->ops[i].step]++;
    while (pe->cur_step < p->n_steps && pe->step_left[pe->cur_step] == 0)
        pe->cur_step++;
    pe->st.ops = N;
    pe->st.n_steps = p->n_steps;
    pe->st.steps = noc_xcalloc((size_t)p->n_steps + 1, sizeof(noc_pe_step_stats_t), "PE engine");
    for (int k = 0; k <= p->n_steps; k++) {
        pe->st.steps[k].name = k < p->n_steps ? p->steps[k] : "(no step)";
        pe->st.steps[k].first_start = pe->st.steps[k].last_end = NOC_NEVER;
    }
    pe->st.op_start = noc_xcalloc((size_t)N + 1, sizeof(uint64_t), "PE engine");
    pe->st.op_end = noc_xcalloc((size_t)N + 1, sizeof(uint64_t), "PE engine");
    for (uint32_t i = 0; i < N; i++)
        pe->st.op_start[i] = pe->st.op_end[i] = NOC_NEVER;

    /* per-step link tables, unless they would be large */
    size_t cells = ((size_t)p->n_steps + 1) * (size_t)s->n_chan;
    if (cells <= ((size_t)1 << 24)) {
        s->n_step_rows = p->n_steps + 1;
        s->step_flits = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
        s->step_waits = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
        s->step_stalls = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
    }
    s->pe = pe;
    for (int r = 0; r < p->n_ranks; r++) {
        rank_state_t *rs = &pe->rank[r];
        rs->cpu_op = rs->posted_head = rs->posted_tail = rs->arrived_head = rs->arrived_tail = -1;
        rs->send_head = rs->send_tail = -1;
        rs->last_op = -1;
        rs->ops_left = p->ranks[r].n_ops;
        for (uint32_t i = p->ranks[r].op_start; i < p->ranks[r].op_start + p->ranks[r].n_ops; i++)
            if (pe->pending[i] == 0)
                make_ready(s, i);
        update_busy(s, r);
    }
    return 0;
}

void noc_pe_destroy(noc_pe_t *pe)
{
    if (!pe)
        return;
    free(pe->mem);
    free(pe->mem_off);
    free(pe->pending);
    free(pe->state);
    free(pe->op_rank);
    free(pe->rdep_start);
    free(pe->rdep);
    free(pe->qslot);
    free(pe->send_next);
    free(pe->send_off);
    free(pe->send_port);
    free(pe->rank);
    free(pe->msg_off);
    free(pe->tx);
    free(pe->rx);
    free(pe->msg_sent);
    free(pe->msg_got);
    free(pe->msg_next);
    free(pe->recv_next);
    free(pe->recv_msg);
    free(pe->step_left);
    free(pe->step_active);
    free(pe->park_head);
    free(pe->park_next);
    free(pe->st.steps);
    free(pe->st.op_start);
    free(pe->st.op_end);
    free(pe);
}

/* Between the arrivals and the sends of every cycle (sim.c): if the steps
 * up to the current one are complete, open the next one: its parked ops
 * start this very cycle, on every PE alike. */
void noc_pe_barrier(struct noc_sim *s)
{
    noc_pe_t *pe = s->pe;
    if (!pe->sync)
        return;
    while (pe->cur_step < pe->p->n_steps && pe->step_left[pe->cur_step] == 0) {
        pe->cur_step++;
        if (pe->cur_step == pe->p->n_steps)
            break;
        /* in the order they were parked (the list is newest first) */
        int32_t rev = -1;
        for (int32_t op = pe->park_head[pe->cur_step]; op >= 0;) {
            int32_t next = pe->park_next[op];
            pe->park_next[op] = rev;
            rev = op;
            op = next;
        }
        pe->park_head[pe->cur_step] = -1;
        for (int32_t op = rev; op >= 0; op = pe->park_next[op])
            make_ready(s, (uint32_t)op);
    }
}

/* ---- the run ---- */

/* Some PE computes: time passes usefully even with nothing moving. */
static int computing(const noc_pe_t *pe)
{
    for (int r = 0; r < pe->n_ranks; r++)
        if (pe->rank[r].cpu_op >= 0)
            return 1;
    return 0;
}

noc_run_status_t noc_pe_run(struct noc_sim *s)
{
    noc_pe_t *pe = s->pe;
    noc_run_status_t status = NOC_RUN_OK;
    s->phase = NOC_PHASE_SAMPLE;
    s->measuring = 1;
    s->win_start = s->now;
    s->win_end = NOC_NEVER;
    uint64_t quiet_limit = (uint64_t)s->cfg.deadlock_cycles;
    while (pe->st.ops_done < pe->st.ops || s->in_network > 0) {
        if (noc_sim_step_checked(s, &status) != 0)
            break;
        uint64_t last = pe->last_event > s->last_move ? pe->last_event : s->last_move;
        if (s->now - last > quiet_limit && !computing(pe)) {
            pe->stalled = 1;
            status = NOC_RUN_DEADLOCK;
            break;
        }
    }
    if (status == NOC_RUN_INTERRUPTED)
        pe->st.cycles = s->now; /* the cycle reached, not the last op's end */
    s->st.sample = s->now - s->win_start;
    s->st.drained = s->in_network == 0;
    return status;
}

int noc_pe_stalled(const noc_pe_t *pe) { return pe->stalled; }

/* ---- after the run ---- */

int noc_pe_finished(const noc_pe_t *pe, char *err, size_t errlen)
{
    if (pe->error[0]) {
        snprintf(err, errlen, "%s", pe->error);
        return -1;
    }
    if (pe->st.ops_done < pe->st.ops) {
        snprintf(err, errlen, "%llu of %llu operations never completed",
                 (unsigned long long)(pe->st.ops - pe->st.ops_done), (unsigned long long)pe->st.ops);
        return -1;
    }
    for (int r = 0; r < pe->n_ranks; r++)
        if (pe->rank[r].arrived_head >= 0) {
            uint32_t m = (uint32_t)pe->rank[r].arrived_head;
            snprintf(err, errlen, "rank %d: a message from rank %d (tag %d, %u words) arrived that no receive took",
                     r, rank_of(pe, m), pe->p->ops[m].tag, pe->p->ops[m].words);
            return -1;
        }
    return 0;
}

int noc_pe_check(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_pe_t *pe = s->pe;
    const noc_program_t *p = pe->p;
    for (int r = 0; r < p->n_ranks; r++) {
        const noc_rank_t *rk = &p->ranks[r];
        for (uint32_t k = 0; k < rk->n_expect; k++) {
            const noc_memval_t *v = &p->expect[rk->expect_start + k];
            int64_t got = pe->mem[pe->mem_off[r] + v->addr];
            if (got != v->value) {
                char label[64];
                noc_topo_label(s->topo, r, label, sizeof label);
                snprintf(err, errlen, "wrong result at PE %s (rank %d): word %u holds %lld, expected %lld",
                         label, r, v->addr, (long long)got, (long long)v->value);
                return -1;
            }
        }
    }
    return 0;
}

void noc_pe_report_waiting(const struct noc_sim *s, FILE *f, int max_lines)
{
    const noc_pe_t *pe = s->pe;
    const noc_program_t *p = pe->p;
    int lines = 0;
    for (int r = 0; r < p->n_ranks && lines < max_lines; r++) {
        const noc_rank_t *rk = &p->ranks[r];
        char label[64];
        noc_topo_label(s->topo, r, label, sizeof label);
        for (uint32_t i = rk->op_start; i < rk->op_start + rk->n_ops && lines < max_lines; i++) {
            const noc_op_t *o = &p->ops[i];
            if (pe->state[i] == OP_DONE)
                continue;
            const char *what = pe->state[i] == OP_WAIT ? "waits for its dependencies"
                             : pe->state[i] == OP_READY ? "is ready" : "has started";
            if (o->kind == NOC_OP_RECV && pe->state[i] == OP_STARTED)
                fprintf(f, "  PE %s (rank %d): op %u (recv from %d tag %d, line %u) waits for its message\n",
                        label, r, i - rk->op_start, o->peer, o->tag, o->line);
            else
                fprintf(f, "  PE %s (rank %d): op %u (%s, line %u) %s\n", label, r, i - rk->op_start,
                        noc_op_kind_name((noc_op_kind_t)o->kind), o->line, what);
            lines++;
        }
    }
}

const noc_pe_stats_t *noc_pe_stats(const noc_pe_t *pe) { return &pe->st; }

int32_t noc_pe_recv_message(const noc_pe_t *pe, uint32_t recv_op) { return pe->recv_msg[recv_op]; }

/* What released op: the dependency whose completion (requires) or start
 * (irequires) came last, or -1 if none (or none that late). */
static int32_t released_by(const noc_pe_t *pe, uint32_t op)
{
    const noc_op_t *o = &pe->p->ops[op];
    int32_t best = -1;
    uint64_t when = 0;
    for (uint32_t k = 0; k < o->n_deps; k++) {
        const noc_dep_t *d = &pe->p->deps[o->dep_start + k];
        uint64_t t = d->start ? pe->st.op_start[d->op] : pe->st.op_end[d->op];
        if (t == NOC_NEVER)
            continue;
        if (best < 0 || t > when) {
            best = (int32_t)d->op;
            when = t;
        }
    }
    return best;
}

int noc_pe_critical_path(const noc_pe_t *pe, uint32_t *ops, int max)
{
    int64_t last = -1;
    for (uint32_t i = 0; i < pe->st.ops; i++)
        if (pe->st.op_end[i] != NOC_NEVER && (last < 0 || pe->st.op_end[i] > pe->st.op_end[last]))
            last = i;
    int n = 0;
    for (int64_t op = last; op >= 0 && n < max;) {
        ops[n++] = (uint32_t)op;
        const noc_op_t *o = &pe->p->ops[op];
        if (o->kind == NOC_OP_RECV && pe->recv_msg[op] >= 0 && pe->st.op_end[op] > pe->st.op_start[op]) {
            op = pe->recv_msg[op]; /* it waited for its message */
            continue;
        }
        int32_t r = released_by(pe, (uint32_t)op);
        if (r < 0 || pe->st.op_start[op] == 0)
            break;
        op = r;
    }
    return n;
}

const int64_t *noc_pe_memory(const noc_pe_t *pe, int r) { return &pe->mem[pe->mem_off[r]]; }

void noc_pe_rank_view(const noc_pe_t *pe, int r, noc_pe_rank_view_t *v)
{
    const rank_state_t *rs = &pe->rank[r];
    v->op = rs->cpu_op >= 0 ? rs->cpu_op : rs->last_op;
    v->step = v->op >= 0 ? pe->p->ops[v->op].step : -1;
    v->sends_out = rs->sends_out;
    v->recvs_open = rs->recvs_open;
    v->ops_left = rs->ops_left;
}

int noc_pe_current_step(const noc_pe_t *pe)
{
    if (pe->sync)
        return pe->cur_step < pe->p->n_steps ? pe->cur_step : -1;
    for (int k = 0; k < pe->p->n_steps; k++)
        if (pe->step_active[k] > 0)
            return k;
    return -1;
}

const noc_program_t *noc_pe_program(const noc_pe_t *pe) { return pe->p; }
