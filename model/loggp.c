/* loggp.c: a program timed by LogGOPSim's model (loggp.h). The state is
 * LogGOPSim's: a queue of events ordered by (time, insertion number), per
 * rank one overhead timeline per CPU (nexto) and a send and a receive gap
 * timeline per NIC (nextgs, nextgr), a posted-receive queue and an
 * unexpected-message queue matched first to last, and per op a count of
 * the dependencies still open. After each event the ops it made ready are
 * queued rank by rank in ascending rank order, sends before receives
 * before local ops, each group in the order its ops became ready. Times are
 * unsigned 64-bit as LogGOPSim's (so a 0-byte message's "size - 1" wraps
 * as it does there). */
#include "model/loggp.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EV_SEND = 1, EV_RECV = 2, EV_LOCOP = 3, EV_MSG = 4 }; /* LogGOPSim's order of types */

typedef struct ev {
    uint64_t time, ts, start;  /* start: a message's send time */
    uint64_t size;             /* bytes, or a local op's duration */
    uint32_t op;               /* the op; a message: its send */
    int32_t host, peer, tag;   /* a message: host = receiver, peer = sender */
    uint8_t type, proc, nic;
} ev_t;

typedef struct qel {           /* an entry of a posted or unexpected queue */
    uint64_t size;
    int32_t src, tag;
    uint32_t op;               /* posted: the receive; unexpected: the send */
} qel_t;

typedef struct queue {
    qel_t *v;
    uint32_t n, cap;
} queue_t;

typedef struct ready {
    int32_t host;
    uint32_t op;
} ready_t;

struct noc_loggp {
    const noc_program_t *p;
    noc_loggp_params_t lp;
    noc_loggp_stats_t st;
    uint32_t *op_rank;         /* per op */
    uint32_t *open;            /* per op: dependencies not yet met */
    uint32_t *dep_at, *dep_of; /* per op: the ops that wait for it, CSR */
    uint8_t *dep_start;        /* per entry of dep_of: it waits for the start (irequires) */
    uint8_t *done;             /* per op: completed */
    uint64_t *nexto, *nextgs, *nextgr; /* [rank * ncpus + cpu], [rank * nnics + nic] */
    queue_t *rq, *uq;          /* per rank */
    ev_t *heap;
    size_t n_heap, cap_heap;
    uint64_t aqtime;           /* insertion numbers given */
    ready_t *ready;            /* ops made ready by the current event */
    size_t n_ready, cap_ready;
    noc_loggp_item_t *items;   /* one rank's of them, to sort */
    size_t cap_items;
    int32_t touched[4];        /* ranks the current event marked ops of */
    int n_touched;
    int64_t *mem;              /* the ranks' memories, one block */
    uint64_t *mem_at;          /* per rank: its first word in mem */
    int64_t *msgdata;          /* the words of sends with data, read when they start */
    uint64_t *msg_at;          /* per op: its words in msgdata (sends with data) */
};

/* ---- the event queue: a binary heap, least (time, ts) on top ---- */
static int before(const ev_t *a, const ev_t *b)
{
    return a->time < b->time || (a->time == b->time && a->ts < b->ts);
}

static void push(noc_loggp_t *lg, const ev_t *e)
{
    if (lg->n_heap == lg->cap_heap) {
        lg->cap_heap = lg->cap_heap ? 2 * lg->cap_heap : 256;
        lg->heap = noc_xrealloc(lg->heap, lg->cap_heap * sizeof *lg->heap, "LogGP events");
    }
    size_t i = lg->n_heap++;
    while (i > 0 && before(e, &lg->heap[(i - 1) / 2])) {
        lg->heap[i] = lg->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    lg->heap[i] = *e;
}

static ev_t pop(noc_loggp_t *lg)
{
    ev_t top = lg->heap[0], last = lg->heap[--lg->n_heap];
    size_t i = 0, n = lg->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&lg->heap[c + 1], &lg->heap[c]))
            c++;
        if (!before(&lg->heap[c], &last))
            break;
        lg->heap[i] = lg->heap[c];
        i = c;
    }
    if (n)
        lg->heap[i] = last;
    return top;
}

/* ---- dependencies ---- */
static void touch(noc_loggp_t *lg, int32_t host)
{
    for (int i = 0; i < lg->n_touched; i++)
        if (lg->touched[i] == host)
            return;
    lg->touched[lg->n_touched++] = host;
}

static void add_ready(noc_loggp_t *lg, int32_t host, uint32_t op)
{
    if (lg->n_ready == lg->cap_ready) {
        lg->cap_ready = lg->cap_ready ? 2 * lg->cap_ready : 64;
        lg->ready = noc_xrealloc(lg->ready, lg->cap_ready * sizeof *lg->ready, "LogGP ready ops");
    }
    lg->ready[lg->n_ready++] = (ready_t){ host, op };
}

/* Op `op` started (start = 1) or completed (0): the ops waiting for that
 * lose a dependency, and those left with none are ready. */
static void mark(noc_loggp_t *lg, uint32_t op, int start)
{
    if (!start) {
        if (lg->done[op])
            return;
        lg->done[op] = 1;
        lg->st.ops_done++;
    }
    touch(lg, (int32_t)lg->op_rank[op]);
    for (uint32_t k = lg->dep_at[op]; k < lg->dep_at[op + 1]; k++) {
        if (lg->dep_start[k] != start)
            continue;
        uint32_t d = lg->dep_of[k];
        if (--lg->open[d] > 0)
            continue;
        add_ready(lg, (int32_t)lg->op_rank[d], d);
    }
}

static uint64_t op_bytes(const noc_op_t *o)
{
    return o->in_bytes ? o->bytes : (uint64_t)o->words * NOC_PROG_WORD_BYTES;
}

static int op_type(const noc_op_t *o)
{
    return o->kind == NOC_OP_SEND ? EV_SEND : o->kind == NOC_OP_RECV ? EV_RECV : EV_LOCOP;
}

static uint64_t *cpu(noc_loggp_t *lg, uint64_t *tl, int32_t host, int k)
{
    return &tl[(size_t)host * (size_t)(tl == lg->nexto ? lg->st.ncpus : lg->st.nnics) + (size_t)k];
}

static uint64_t max2(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* An op made ready, as an event: its time is when its timelines are free. */
static void queue_op(noc_loggp_t *lg, int32_t host, uint32_t op)
{
    const noc_op_t *o = &lg->p->ops[op];
    ev_t e = { 0 };
    e.type = (uint8_t)op_type(o);
    e.op = op;
    e.host = host;
    e.peer = o->peer;
    e.tag = o->tag;
    e.proc = o->cpu;
    e.nic = o->nic;
    e.ts = lg->aqtime++;
    if (e.type == EV_LOCOP)
        e.size = o->kind == NOC_OP_CALC || o->cost >= 0 ? (uint64_t)o->cost
                                                        : (uint64_t)lg->lp.combine * o->words;
    else
        e.size = op_bytes(o);
    e.time = *cpu(lg, lg->nexto, host, e.proc);
    if (e.type == EV_SEND)
        e.time = max2(e.time, *cpu(lg, lg->nextgs, host, e.nic));
    push(lg, &e);
}

/* The ops the last event made ready, rank by rank in ascending order; a
 * rank's sorted by type as LogGOPSim's std::sort leaves them
 * (noc_loggp_sort: sends, then receives, then local ops, ties not kept in
 * the order they became ready once more than 16 are ready at once). */
static void queue_ready(noc_loggp_t *lg)
{
    int32_t *h = lg->touched;
    for (int i = 1; i < lg->n_touched; i++) /* at most 3: insertion sort */
        for (int j = i; j > 0 && h[j] < h[j - 1]; j--) {
            int32_t x = h[j];
            h[j] = h[j - 1];
            h[j - 1] = x;
        }
    if (lg->cap_items < lg->n_ready) {
        lg->cap_items = lg->cap_ready;
        lg->items = noc_xrealloc(lg->items, lg->cap_items * sizeof *lg->items, "LogGP ready ops");
    }
    for (int i = 0; i < lg->n_touched; i++) {
        size_t n = 0;
        for (size_t k = 0; k < lg->n_ready; k++)
            if (lg->ready[k].host == h[i])
                lg->items[n++] = (noc_loggp_item_t){ lg->ready[k].op,
                                                     (uint8_t)op_type(&lg->p->ops[lg->ready[k].op]) };
        noc_loggp_sort(lg->items, n);
        for (size_t k = 0; k < n; k++)
            queue_op(lg, h[i], lg->items[k].op);
    }
    lg->n_ready = 0;
    lg->n_touched = 0;
}

/* ---- the queues of a rank ---- */
static void q_append(queue_t *q, const qel_t *e)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 8;
        q->v = noc_xrealloc(q->v, q->cap * sizeof *q->v, "LogGP match queues");
    }
    q->v[q->n++] = *e;
}

/* The first entry that matches source src and tag (either side may be
 * NOC_PROG_ANY), taken out of q into *out: 1, or 0 if none. */
static int q_match(queue_t *q, int32_t src, int32_t tag, qel_t *out)
{
    for (uint32_t i = 0; i < q->n; i++) {
        const qel_t *e = &q->v[i];
        if ((src == NOC_PROG_ANY || e->src == NOC_PROG_ANY || e->src == src) &&
            (tag == NOC_PROG_ANY || e->tag == NOC_PROG_ANY || e->tag == tag)) {
            *out = *e;
            memmove(&q->v[i], &q->v[i + 1], (q->n - i - 1) * sizeof *q->v);
            q->n--;
            return 1;
        }
    }
    return 0;
}

/* ---- data ---- */
static int64_t *rank_mem(const noc_loggp_t *lg, uint32_t r)
{
    return lg->mem + lg->mem_at[r];
}

static void apply_local(noc_loggp_t *lg, uint32_t op)
{
    const noc_op_t *o = &lg->p->ops[op];
    if (o->kind == NOC_OP_CALC)
        return;
    int64_t *m = rank_mem(lg, lg->op_rank[op]);
    for (uint32_t i = 0; i < o->words; i++) {
        int64_t a = m[o->addr + (int64_t)i], b = m[o->src + (int64_t)i];
        if (o->kind == NOC_OP_ADD)
            m[o->addr + (int64_t)i] = (int64_t)((uint64_t)a + (uint64_t)b); /* wraps as the PEs' adder */
        else if (o->kind == NOC_OP_MIN)
            m[o->addr + (int64_t)i] = a < b ? a : b;
        else if (o->kind == NOC_OP_MAX)
            m[o->addr + (int64_t)i] = a > b ? a : b;
        else
            m[o->addr + (int64_t)i] = b;
    }
}

static void send_data(noc_loggp_t *lg, uint32_t op)
{
    const noc_op_t *o = &lg->p->ops[op];
    if (o->addr != NOC_PROG_NO_ADDR)
        memcpy(lg->msgdata + lg->msg_at[op], rank_mem(lg, lg->op_rank[op]) + o->addr, o->words * sizeof(int64_t));
}

/* Receive `recv` takes the message of send `send`: the words both have. */
static void recv_data(noc_loggp_t *lg, uint32_t send, uint32_t recv)
{
    const noc_op_t *s = &lg->p->ops[send], *r = &lg->p->ops[recv];
    if (s->addr == NOC_PROG_NO_ADDR || r->addr == NOC_PROG_NO_ADDR)
        return;
    uint32_t n = s->words < r->words ? s->words : r->words;
    memcpy(rank_mem(lg, lg->op_rank[recv]) + r->addr, lg->msgdata + lg->msg_at[send], n * sizeof(int64_t));
}

/* ---- the events, as LogGOPSim's main loop takes them ---- */
static void do_locop(noc_loggp_t *lg, ev_t *e)
{
    uint64_t *o = cpu(lg, lg->nexto, e->host, e->proc);
    if (*o > e->time) { /* its CPU is busy: again when it is free */
        e->time = *o;
        push(lg, e);
        return;
    }
    *o = e->time + e->size;
    apply_local(lg, e->op);
    mark(lg, e->op, 1);
    mark(lg, e->op, 0); /* LogGOPSim completes it when it starts */
}

static void do_send(noc_loggp_t *lg, ev_t *e)
{
    const noc_loggp_params_t *lp = &lg->lp;
    uint64_t *o = cpu(lg, lg->nexto, e->host, e->proc), *gs = cpu(lg, lg->nextgs, e->host, e->nic);
    if (max2(*o, *gs) > e->time) {
        e->time = max2(*o, *gs);
        push(lg, e);
        return;
    }
    mark(lg, e->op, 1);
    *o = e->time + (uint64_t)lp->o + (e->size - 1) * (uint64_t)lp->O;
    *gs = e->time + (uint64_t)lp->g + (e->size - 1) * (uint64_t)lp->G;
    send_data(lg, e->op);
    lg->st.messages++;
    lg->st.bytes += e->size;
    ev_t m = *e;
    m.type = EV_MSG;
    m.host = e->peer;
    m.peer = e->host;
    m.start = e->time;
    m.time = e->time + (uint64_t)lp->o + (uint64_t)lp->L; /* the first byte's arrival */
    m.ts = lg->aqtime++;
    push(lg, &m);
    if (e->size <= (uint64_t)lp->S) {
        lg->st.eager++;
        mark(lg, e->op, 0);
    } else
        lg->st.rendezvous++;
}

/* A rendezvous send completes when its receive is matched, at `now`; the
 * sender's timelines (of CPU proc and NIC nic) are held until then. */
static void rendezvous_done(noc_loggp_t *lg, uint32_t send, int32_t sender, int proc, int nic, uint64_t now)
{
    mark(lg, send, 0);
    uint64_t *o = cpu(lg, lg->nexto, sender, proc), *gs = cpu(lg, lg->nextgs, sender, nic);
    *o = max2(*o, now);
    *gs = max2(*gs, now);
}

static void do_recv(noc_loggp_t *lg, ev_t *e)
{
    mark(lg, e->op, 1);
    qel_t m;
    if (q_match(&lg->uq[e->host], e->peer, e->tag, &m)) {
        if (e->size > (uint64_t)lg->lp.S) /* (LogGOPSim charges the receive's cpu and nic numbers) */
            rendezvous_done(lg, m.op, m.src, e->proc, e->nic, e->time);
        recv_data(lg, m.op, e->op);
        mark(lg, e->op, 0);
    } else {
        qel_t q = { e->size, e->peer, e->tag, e->op };
        q_append(&lg->rq[e->host], &q);
    }
}

static void do_msg(noc_loggp_t *lg, ev_t *e)
{
    const noc_loggp_params_t *lp = &lg->lp;
    uint64_t *o = cpu(lg, lg->nexto, e->host, e->proc), *gr = cpu(lg, lg->nextgr, e->host, e->nic);
    if (max2(*o, *gr) > e->time) { /* the LogGP network never delays it: only the receiver's o and g */
        e->time = max2(*o, *gr);
        push(lg, e);
        return;
    }
    uint64_t tail_o = (e->size - 1) * (uint64_t)lp->O, tail_g = (e->size - 1) * (uint64_t)lp->G;
    *o = e->time + (uint64_t)lp->o + max2(tail_o, tail_g);
    *gr = e->time + (uint64_t)lp->g + tail_g;
    qel_t m;
    if (q_match(&lg->rq[e->host], e->peer, e->tag, &m)) {
        if (e->size > (uint64_t)lp->S)
            rendezvous_done(lg, e->op, e->peer, e->proc, e->nic, e->time);
        recv_data(lg, e->op, m.op);
        mark(lg, m.op, 0);
    } else {
        qel_t q = { e->size, e->peer, e->tag, e->op };
        q_append(&lg->uq[e->host], &q);
    }
}

int noc_loggp_run(noc_loggp_t *lg, const volatile sig_atomic_t *stop)
{
    while (lg->n_heap > 0) {
        if (stop && (lg->st.events & 4095) == 0 && *stop)
            return 1;
        ev_t e = pop(lg);
        lg->st.events++;
        switch (e.type) {
            case EV_LOCOP: do_locop(lg, &e); break;
            case EV_SEND: do_send(lg, &e); break;
            case EV_RECV: do_recv(lg, &e); break;
            default: do_msg(lg, &e); break;
        }
        queue_ready(lg);
    }
    uint64_t best = 0;
    for (int r = 0; r < lg->p->n_ranks; r++)
        if (noc_loggp_rank_finish(lg, r) > best || r == 0) {
            best = noc_loggp_rank_finish(lg, r);
            lg->st.finish_rank = r;
        }
    lg->st.finish = best;
    return 0;
}

/* ---- building, and reading the end ---- */
static int check_params(const noc_loggp_params_t *lp, char *err, size_t errlen)
{
    const struct { const char *name; int64_t v; } ps[] = {
        { "loggp_L", lp->L }, { "loggp_o", lp->o }, { "loggp_g", lp->g }, { "loggp_G", lp->G },
        { "loggp_O", lp->O }, { "loggp_S", lp->S }, { "compute_cycles", lp->combine },
    };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        if (ps[i].v < 0 || ps[i].v > ((int64_t)1 << 40)) {
            snprintf(err, errlen, "%s = %lld: from 0 to 2^40 time units", ps[i].name, (long long)ps[i].v);
            return -1;
        }
    return 0;
}

/* Every op's rank, and the ops waiting for each op (CSR, in op order). */
static void build_deps(noc_loggp_t *lg)
{
    const noc_program_t *p = lg->p;
    uint32_t N = p->n_ops;
    const uint32_t *grown = noc_prog_op_ranks(p);
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t i = 0; !grown && i < p->ranks[r].n_ops; i++)
            lg->op_rank[p->ranks[r].op_start + i] = (uint32_t)r;
    for (uint32_t i = 0; grown && i < N; i++)
        lg->op_rank[i] = grown[i];
    for (uint32_t i = 0; i < N; i++) {
        lg->open[i] = p->ops[i].n_deps;
        for (uint32_t k = 0; k < p->ops[i].n_deps; k++)
            lg->dep_at[p->deps[p->ops[i].dep_start + k].op + 1]++;
    }
    for (uint32_t i = 0; i < N; i++)
        lg->dep_at[i + 1] += lg->dep_at[i];
    uint32_t *fill = noc_xcalloc((size_t)N + 1, sizeof *fill, "LogGP dependencies");
    memcpy(fill, lg->dep_at, ((size_t)N + 1) * sizeof *fill);
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t k = 0; k < p->ops[i].n_deps; k++) {
            const noc_dep_t *d = &p->deps[p->ops[i].dep_start + k];
            lg->dep_start[fill[d->op]] = d->start;
            lg->dep_of[fill[d->op]++] = i;
        }
    free(fill);
}

/* The ranks' memories with their initial values, and room for the words of
 * every send that carries data. */
static void build_memory(noc_loggp_t *lg)
{
    const noc_program_t *p = lg->p;
    uint64_t words = 0, msg_words = 0;
    for (int r = 0; r < p->n_ranks; r++) {
        lg->mem_at[r] = words;
        words += p->ranks[r].mem_words;
    }
    lg->mem = noc_xcalloc(words + 1, sizeof *lg->mem, "LogGP memories");
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t k = 0; k < p->ranks[r].n_init; k++) {
            const noc_memval_t *v = &p->init[p->ranks[r].init_start + k];
            lg->mem[lg->mem_at[r] + v->addr] = v->value;
        }
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == NOC_OP_SEND && p->ops[i].addr != NOC_PROG_NO_ADDR) {
            lg->msg_at[i] = msg_words;
            msg_words += p->ops[i].words;
        }
    lg->msgdata = noc_xcalloc(msg_words + 1, sizeof *lg->msgdata, "LogGP message words");
}

/* The ops without dependencies, at time 0, rank by rank (each rank's in
 * op order, sends first), as LogGOPSim queues its schedules' roots. */
static void queue_roots(noc_loggp_t *lg)
{
    const noc_program_t *p = lg->p;
    uint32_t N = p->n_ops, *at = noc_xcalloc((size_t)p->n_ranks + 2, sizeof *at, "LogGP ops");
    uint32_t *order = noc_xcalloc((size_t)N + 1, sizeof *order, "LogGP ops");
    for (uint32_t i = 0; i < N; i++)
        at[lg->op_rank[i] + 2]++;
    for (int r = 0; r < p->n_ranks; r++)
        at[r + 2] += at[r + 1];
    for (uint32_t i = 0; i < N; i++)
        order[at[lg->op_rank[i] + 1]++] = i;
    for (int r = 0; r < p->n_ranks; r++) {
        for (uint32_t k = at[r]; k < at[r + 1]; k++) {
            uint32_t i = order[k];
            if (p->ops[i].n_deps > 0)
                continue;
            add_ready(lg, r, i);
        }
        touch(lg, r);
        queue_ready(lg);
    }
    free(order);
    free(at);
}

noc_loggp_t *noc_loggp_create(const noc_program_t *p, const noc_loggp_params_t *lp, char *err, size_t errlen)
{
    if (check_params(lp, err, errlen))
        return NULL;
    noc_loggp_t *lg = noc_xcalloc(1, sizeof *lg, "LogGP run");
    lg->p = p;
    lg->lp = *lp;
    uint32_t N = p->n_ops;
    int ncpus = 1, nnics = 1;
    for (uint32_t i = 0; i < N; i++) {
        ncpus = p->ops[i].cpu + 1 > ncpus ? p->ops[i].cpu + 1 : ncpus;
        nnics = p->ops[i].nic + 1 > nnics ? p->ops[i].nic + 1 : nnics;
    }
    lg->st.ncpus = ncpus;
    lg->st.nnics = nnics;
    lg->st.ops = N;
    size_t R = (size_t)p->n_ranks;
    lg->op_rank = noc_xcalloc((size_t)N + 1, sizeof *lg->op_rank, "LogGP ops");
    lg->open = noc_xcalloc((size_t)N + 1, sizeof *lg->open, "LogGP ops");
    lg->done = noc_xcalloc((size_t)N + 1, 1, "LogGP ops");
    lg->dep_at = noc_xcalloc((size_t)N + 2, sizeof *lg->dep_at, "LogGP dependencies");
    lg->dep_of = noc_xcalloc((size_t)p->n_deps + 1, sizeof *lg->dep_of, "LogGP dependencies");
    lg->dep_start = noc_xcalloc((size_t)p->n_deps + 1, 1, "LogGP dependencies");
    lg->msg_at = noc_xcalloc((size_t)N + 1, sizeof *lg->msg_at, "LogGP ops");
    lg->nexto = noc_xcalloc(R * (size_t)ncpus, sizeof *lg->nexto, "LogGP timelines");
    lg->nextgs = noc_xcalloc(R * (size_t)nnics, sizeof *lg->nextgs, "LogGP timelines");
    lg->nextgr = noc_xcalloc(R * (size_t)nnics, sizeof *lg->nextgr, "LogGP timelines");
    lg->rq = noc_xcalloc(R, sizeof *lg->rq, "LogGP match queues");
    lg->uq = noc_xcalloc(R, sizeof *lg->uq, "LogGP match queues");
    lg->mem_at = noc_xcalloc(R + 1, sizeof *lg->mem_at, "LogGP memories");
    build_deps(lg);
    build_memory(lg);
    queue_roots(lg);
    return lg;
}

void noc_loggp_destroy(noc_loggp_t *lg)
{
    if (!lg)
        return;
    for (int r = 0; r < lg->p->n_ranks; r++) {
        free(lg->rq[r].v);
        free(lg->uq[r].v);
    }
    free(lg->rq);
    free(lg->uq);
    free(lg->op_rank);
    free(lg->open);
    free(lg->done);
    free(lg->dep_at);
    free(lg->dep_of);
    free(lg->dep_start);
    free(lg->msg_at);
    free(lg->nexto);
    free(lg->nextgs);
    free(lg->nextgr);
    free(lg->heap);
    free(lg->ready);
    free(lg->items);
    free(lg->mem);
    free(lg->mem_at);
    free(lg->msgdata);
    free(lg);
}

const noc_loggp_stats_t *noc_loggp_stats(const noc_loggp_t *lg)
{
    return &lg->st;
}

uint64_t noc_loggp_rank_finish(const noc_loggp_t *lg, int r)
{
    uint64_t t = 0;
    for (int c = 0; c < lg->st.ncpus; c++)
        t = max2(t, lg->nexto[(size_t)r * (size_t)lg->st.ncpus + (size_t)c]);
    return t;
}

int noc_loggp_finished(const noc_loggp_t *lg, char *err, size_t errlen)
{
    const noc_program_t *p = lg->p;
    for (int r = 0; r < p->n_ranks; r++) {
        if (lg->uq[r].n) {
            const qel_t *e = &lg->uq[r].v[0];
            snprintf(err, errlen, "rank %d: %u message(s) arrived that no receive took (the first from rank %d, tag %d)",
                     r, lg->uq[r].n, e->src, e->tag);
            return -1;
        }
        if (lg->rq[r].n) {
            const qel_t *e = &lg->rq[r].v[0];
            snprintf(err, errlen, "rank %d: %u receive(s) never matched (the first from rank %d, tag %d)", r,
                     lg->rq[r].n, e->src, e->tag);
            return -1;
        }
    }
    if (lg->st.ops_done < lg->st.ops) {
        snprintf(err, errlen, "%llu of %llu operations never completed (their dependencies never were met)",
                 (unsigned long long)(lg->st.ops - lg->st.ops_done), (unsigned long long)lg->st.ops);
        return -1;
    }
    return 0;
}

int noc_loggp_check(const noc_loggp_t *lg, uint64_t *checked, char *err, size_t errlen)
{
    const noc_program_t *p = lg->p;
    uint64_t n = 0;
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t k = 0; k < p->ranks[r].n_expect; k++) {
            const noc_memval_t *v = &p->expect[p->ranks[r].expect_start + k];
            int64_t got = rank_mem(lg, (uint32_t)r)[v->addr];
            n++;
            if (got != v->value) {
                snprintf(err, errlen, "wrong result at rank %d: word %u holds %lld, expected %lld", r, v->addr,
                         (long long)got, (long long)v->value);
                if (checked)
                    *checked = n;
                return -1;
            }
        }
    if (checked)
        *checked = n;
    return 0;
}

const int64_t *noc_loggp_memory(const noc_loggp_t *lg, int r)
{
    return rank_mem(lg, (uint32_t)r);
}
