/* pe.c: the PE program engine (pe.h) while it runs: dependency counting,
 * the ready, compute and send queues of every rank, message buffers and
 * matching, the step barrier, and the run loop. Queues are flat arrays
 * with room for every op of their rank (an op enters each queue at most
 * once), sized by pe_build.c and grown only when ops are appended
 * (pe_extend.c, between cycles), so a run allocates nothing; what is read
 * after the run is pe_report.c. */
#include "model/pe_internal.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void push(queue_t *q, uint32_t op)
{
    q->slot[q->tail++] = op;
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
    int busy = rs->ready.head != rs->ready.tail || rs->cpus_busy > 0 ||
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
    push(&pe->rank[r].ready, op);
    update_busy(s, r);
}

/* Op op started (start = 1) or completed (0): its dependents of that kind
 * lose a pending dependency; those with none left become ready. */
static void release(struct noc_sim *s, uint32_t op, int start)
{
    noc_pe_t *pe = s->pe;
    for (uint32_t k = pe->rdep_head[op]; k != NOC_PE_NONE; k = pe->rdep[k].next) {
        const rdep_t *d = &pe->rdep[k];
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
        memcpy(&pe->rank[r].mem[o->addr], &pe->rx[pe->msg_off[msg]], w * sizeof(int64_t));
    }
    pe->messages_left--;
    op_done(s, rv);
}

static void post_recv(struct noc_sim *s, int r, uint32_t op)
{
    int32_t m = noc_pe_match_receive(s->pe, &s->pe->rank[r], op);
    if (m >= 0)
        take(s, r, op, (uint32_t)m);
}

/* Message msg, arrived whole at rank r, may be matched: by the oldest
 * posted receive it matches, or it waits for one (pe_match.c). */
static void deliver(struct noc_sim *s, int r, uint32_t msg)
{
    int32_t v = noc_pe_match_message(s->pe, &s->pe->rank[r], msg);
    if (v >= 0)
        take(s, r, (uint32_t)v, msg);
}

/* Message msg has arrived whole at rank r: matched now if every earlier
 * message of its (source, destination) pair has been, else held until they
 * have (pe_order.c); each one matched may free the next of its pair. */
static void message_arrived(struct noc_sim *s, int r, uint32_t msg)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[r];
    if (noc_pe_order_hold(pe, rs, msg))
        return;
    for (int32_t m = (int32_t)msg; m >= 0; m = noc_pe_order_release(pe, rs, (uint32_t)m))
        deliver(s, r, (uint32_t)m);
}

static void apply_combine(noc_pe_t *pe, int r, const noc_op_t *o)
{
    int64_t *m = pe->rank[r].mem;
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
        noc_pe_order_sent(pe, op);
        int64_t *tx = &pe->tx[pe->msg_off[op]];
        if (o->addr != NOC_PROG_NO_ADDR)
            memcpy(tx, &rs->mem[o->addr], o->words * sizeof(int64_t));
        noc_pe_step_stats_t *k = step_of(pe, op);
        k->messages++;
        k->words += o->words;
        noc_route_t rt;
        noc_graph_route(s->graph, r, r, o->peer, 0, 0, &rt); /* no draws: check_attach */
        pe->send_port[op] = rt.port;
        /* last on its rank's list and on its first port's */
        pe->send_next[op] = pe->send_pnext[op] = -1;
        pe->send_prev[op] = rs->send_tail;
        if (rs->send_tail >= 0)
            pe->send_next[rs->send_tail] = (int32_t)op;
        else
            rs->send_head = (int32_t)op;
        rs->send_tail = (int32_t)op;
        size_t g = (size_t)pe->port_base[r] + rt.port;
        if (pe->port_send_tail[g] >= 0)
            pe->send_pnext[pe->port_send_tail[g]] = (int32_t)op;
        else
            pe->port_send_head[g] = (int32_t)op;
        pe->port_send_tail[g] = (int32_t)op;
        break;
    }
    case NOC_OP_RECV:
        op_started(s, op);
        post_recv(s, r, op);
        break;
    default:
        push(&rs->compute, op);
        rs->cpu[o->cpu].queued++;
        break;
    }
}

/* The computations on n's CPUs that end now: their results land in
 * memory, CPU by CPU. */
static int finish_compute(struct noc_sim *s, int n)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[n];
    int done = 0;
    for (uint16_t k = 0; k < rs->n_cpus && rs->cpus_busy; k++) {
        cpu_slot_t *c = &rs->cpu[k];
        if (c->op < 0 || c->end > s->now)
            continue;
        const noc_op_t *o = &pe->p->ops[c->op];
        if (o->kind != NOC_OP_CALC)
            apply_combine(pe, n, o);
        uint32_t op = (uint32_t)c->op;
        c->op = -1;
        c->free = s->now;
        rs->cpus_busy--;
        op_done(s, op);
        done = 1;
    }
    return done;
}

/* Each idle CPU of rank n takes the oldest op waiting for it (taken
 * slots of the compute queue are marked NOC_PE_NONE). */
static int start_compute(struct noc_sim *s, int n)
{
    noc_pe_t *pe = s->pe;
    rank_state_t *rs = &pe->rank[n];
    if (!noc_pe_cpu_wanted(rs))
        return 0;
    for (uint32_t i = rs->compute.head; i < rs->compute.tail; i++) {
        uint32_t op = rs->compute.slot[i];
        if (op == NOC_PE_NONE)
            continue;
        cpu_slot_t *c = &rs->cpu[pe->p->ops[op].cpu];
        if (c->op >= 0)
            continue;
        rs->compute.slot[i] = NOC_PE_NONE;
        c->queued--;
        op_started(s, op);
        c->op = (int32_t)op;
        c->end = s->now + cost_of(pe, &pe->p->ops[op]);
        rs->cpus_busy++;
    }
    while (rs->compute.head != rs->compute.tail && rs->compute.slot[rs->compute.head] == NOC_PE_NONE)
        rs->compute.head++;
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
            start_op(s, n, rs->ready.slot[rs->ready.head++]);
            progress = 1;
        }
        if (start_compute(s, n))
            progress = 1;
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
    noc_pe_step_stats_t *st = step_of(pe, msg);
    st->flit_hops += (uint64_t)hops * words;
    st->routes += (uint64_t)hops + 1;
    pe->msg_got[msg] += words;
    if (pe->msg_got[msg] == pe->p->ops[msg].words) {
        pe->msg_arrived[msg] = s->now;
        message_arrived(s, n, msg);
    }
}

/* Rank n's oldest send (for this port; 0: any) with packets left, or -1:
 * the head of the rank's list of sends, or of the port's. */
static int32_t oldest_send(const noc_pe_t *pe, int n, int port)
{
    if (n >= pe->n_ranks)
        return -1;
    return port > 0 ? pe->port_send_head[pe->port_base[n] + port] : pe->rank[n].send_head;
}

int noc_pe_peek_send(const struct noc_sim *s, int n, int port, uint32_t *msg, uint32_t *off)
{
    int32_t op = oldest_send(s->pe, n, port);
    if (op < 0)
        return 0;
    *msg = (uint32_t)op;
    *off = s->pe->send_off[op];
    return 1;
}

/* Send op of rank n has handed out its last packet: off its rank's list
 * and its port's. It heads the port's list: it is the oldest send of its
 * port whether it was taken for the port or as the rank's oldest. */
static void send_unlink(noc_pe_t *pe, int n, int32_t op)
{
    rank_state_t *rs = &pe->rank[n];
    noc_pe_list_unlink(pe->send_next, pe->send_prev, &rs->send_head, &rs->send_tail, op);
    size_t g = (size_t)pe->port_base[n] + pe->send_port[op];
    assert(pe->port_send_head[g] == op);
    pe->port_send_head[g] = pe->send_pnext[op];
    if (pe->port_send_tail[g] == op)
        pe->port_send_tail[g] = -1;
}

int noc_pe_next_packet(struct noc_sim *s, int n, int port, int32_t *dst, uint16_t *size, uint32_t *msg,
                       uint32_t *off)
{
    noc_pe_t *pe = s->pe;
    int32_t op = oldest_send(pe, n, port);
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
    if (pe->send_off[op] == o->words) { /* all handed out */
        send_unlink(pe, n, op);
        update_busy(s, n);
    }
    return 1;
}

void noc_pe_packet_sent(struct noc_sim *s, int n, uint32_t msg, uint32_t off, uint32_t words)
{
    noc_pe_t *pe = s->pe;
    (void)off;
    step_of(pe, msg)->injected += words;
    pe->msg_sent[msg] += words;
    if (pe->msg_sent[msg] == pe->p->ops[msg].words) {
        op_done(s, msg);
        update_busy(s, n);
    }
}

void noc_pe_msg_wait_add(noc_pe_t *pe, uint32_t msg, int kind, uint32_t n)
{
    if (pe->msg_wait)
        pe->msg_wait[(size_t)msg * NOC_WAIT_KINDS + (size_t)kind] += n;
}

uint64_t noc_pe_msg_arrived(const noc_pe_t *pe, uint32_t msg)
{
    return msg < pe->st.ops && pe->msg_got[msg] == pe->p->ops[msg].words ? pe->msg_arrived[msg] : NOC_NEVER;
}

const uint32_t *noc_pe_msg_waits(const noc_pe_t *pe, uint32_t msg)
{
    return pe->msg_wait && msg < pe->st.ops ? &pe->msg_wait[(size_t)msg * NOC_WAIT_KINDS] : NULL;
}

int noc_pe_msg_step(const noc_pe_t *pe, uint32_t msg)
{
    int k = pe->p->ops[msg].step;
    return k < 0 ? pe->st.n_steps : k;
}

/* ---- the start ---- */

void noc_pe_start(struct noc_sim *s)
{
    noc_pe_t *pe = s->pe;
    const noc_program_t *p = pe->p;
    for (int r = 0; r < p->n_ranks; r++) {
        rank_state_t *rs = &pe->rank[r];
        rs->send_head = rs->send_tail = rs->held_head = -1;
        for (int g = pe->port_base[r]; g < pe->port_base[r + 1]; g++)
            pe->port_send_head[g] = pe->port_send_tail[g] = -1;
        rs->last_op = -1;
        rs->ops_left = p->ranks[r].n_ops;
    }
    noc_pe_match_start(pe);
    /* in op order (rank by rank, unless the program grew in place): each
     * rank's ready queue in the order of its ops */
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (pe->pending[i] == 0)
            make_ready(s, i);
    for (int r = 0; r < p->n_ranks; r++)
        update_busy(s, r);
}

/* Between the arrivals and the sends of every cycle (sim.c): if the steps
 * up to the current one are complete, open the next one: its parked ops
 * start this very cycle, on every PE alike. */
void noc_pe_barrier(struct noc_sim *s)
{
    noc_pe_t *pe = s->pe;
    if (!pe->sync)
        return;
    while (pe->cur_step < pe->st.n_steps && pe->step_left[pe->cur_step] == 0) {
        pe->cur_step++;
        if (pe->cur_step == pe->st.n_steps)
            break;
        pe->step_open[pe->cur_step] = s->now;
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

/* ---- a program that grows while it runs (pe_extend.c) ---- */

void noc_pe_make_ready(struct noc_sim *s, uint32_t op)
{
    make_ready(s, op);
}

void noc_pe_prestart(struct noc_sim *s, uint32_t op, uint64_t at)
{
    noc_pe_t *pe = s->pe;
    const noc_program_t *p = pe->p;
    int r = rank_of(pe, op), k = p->ops[op].step;
    rank_state_t *rs = &pe->rank[r];
    pe->state[op] = OP_STARTED;
    pe->st.op_start[op] = at;
    rs->last_op = (int32_t)op;
    if (k >= 0)
        pe->step_active[k]++;
    noc_pe_step_stats_t *ks = step_of(pe, op);
    if (ks->first_start == NOC_NEVER || ks->first_start > at)
        ks->first_start = at;
    ks->ops++;
    cpu_slot_t *c = &rs->cpu[p->ops[op].cpu];
    c->op = (int32_t)op;
    c->end = at + (uint64_t)p->ops[op].cost;
    rs->cpus_busy++;
    pe->last_event = s->now;
    release(s, op, 1);
    update_busy(s, r);
}

/* ---- the run ---- */

/* Some PE computes: time passes usefully even with nothing moving. */
static int computing(const noc_pe_t *pe)
{
    for (int r = 0; r < pe->n_ranks; r++)
        if (pe->rank[r].cpus_busy)
            return 1;
    return 0;
}

noc_run_status_t noc_pe_run(struct noc_sim *s)
{
    noc_pe_t *pe = s->pe;
    noc_run_status_t status = NOC_RUN_OK;
    noc_sim_measure_all(s);
    uint64_t quiet_limit = (uint64_t)s->cfg.deadlock_cycles;
    while (pe->st.ops_done < pe->st.ops || s->in_network > 0) {
        noc_pe_skip_idle(s);
        if (noc_sim_step_checked(s, &status) != 0)
            break;
        uint64_t last = pe->last_event > s->last_move ? pe->last_event : s->last_move;
        if (s->now - last > quiet_limit && !computing(pe)) {
            pe->stalled = 1;
            status = NOC_RUN_DEADLOCK;
            break;
        }
    }
    noc_wait_flush_all(s); /* (packets still in flight: a run cut short) */
    if (status == NOC_RUN_INTERRUPTED)
        pe->st.cycles = s->now; /* the cycle reached, not the last op's end */
    /* the window every rate and utilisation of the report divides by: the
     * run's cycles (0 .. cycles, the last op's end), the steps' tables
     * dividing by the steps' cycles alike; a run that stopped otherwise
     * (deadlock, stall, flits still moving after the last op) the cycles
     * it simulated */
    if (status == NOC_RUN_OK && pe->st.ops_done == pe->st.ops && s->now == pe->st.cycles + 1 &&
        pe->st.cycles >= s->win_start)
        s->st.sample = pe->st.cycles - s->win_start;
    else
        s->st.sample = s->now - s->win_start;
    s->st.drained = s->in_network == 0;
    s->st.flit_hops = noc_stats_link_flits(s);
    return status;
}

int noc_pe_stalled(const noc_pe_t *pe) { return pe->stalled; }
