/* pe_chain.c: the critical chain of a program run (pe.h,
 * noc_pe_critical_chain), read from what the engine recorded: every op's
 * start and end, the message each receive took and when each message
 * arrived whole, the cycle each step's barrier opened. Walked back from
 * the op that completed last, each element covers the cycles from the
 * element before it to its own end, so the chain tiles [0, cycles]. Runs
 * after the run (it allocates), never in the cycle loop. */
#include "model/pe_internal.h"
#include "util/xalloc.h"
#include <stdlib.h>

static const char *const kind_names[NOC_CHAIN_KIND_COUNT] = { "compute", "send",    "receive",
                                                              "network", "barrier", "start" };
static const char *const why_names[NOC_WHY_COUNT] = { "start",   "dependency", "dependency started", "processor",
                                                      "barrier", "injected",   "steps done",         "turn" };

const char *noc_chain_kind_name(int kind)
{
    return kind >= 0 && kind < NOC_CHAIN_KIND_COUNT ? kind_names[kind] : "?";
}

const char *noc_chain_why_name(int why)
{
    return why >= 0 && why < NOC_WHY_COUNT ? why_names[why] : "?";
}

static int is_compute(const noc_op_t *o)
{
    return o->kind != NOC_OP_SEND && o->kind != NOC_OP_RECV;
}

/* The walk's tables: per compute op the op its CPU ran before it, per step
 * the op of the steps before it that completed last. */
typedef struct walk {
    const noc_pe_t *pe;
    uint32_t *cpu_prev;   /* per op: NOC_PE_NONE, or the previous op on its CPU */
    uint32_t *before;     /* per step k: the op of steps 0 .. k-1 that completed last (NOC_PE_NONE) */
    noc_chain_elem_t *e;  /* backwards: the last element first */
    int n, cap;
} walk_t;

static const noc_pe_t *sort_pe; /* qsort has no context argument */

static int by_cpu_start(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const noc_pe_t *pe = sort_pe;
    uint64_t kx = ((uint64_t)pe->op_rank[x] << 8) | pe->p->ops[x].cpu;
    uint64_t ky = ((uint64_t)pe->op_rank[y] << 8) | pe->p->ops[y].cpu;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    if (pe->st.op_start[x] != pe->st.op_start[y])
        return pe->st.op_start[x] < pe->st.op_start[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void walk_tables(walk_t *w)
{
    const noc_pe_t *pe = w->pe;
    uint32_t N = (uint32_t)pe->st.ops, n = 0;
    w->cpu_prev = noc_xcalloc((size_t)N + 1, sizeof *w->cpu_prev, "critical chain");
    uint32_t *order = noc_xcalloc((size_t)N + 1, sizeof *order, "critical chain");
    for (uint32_t i = 0; i < N; i++) {
        w->cpu_prev[i] = NOC_PE_NONE;
        if (is_compute(&pe->p->ops[i]) && pe->st.op_start[i] != NOC_NEVER)
            order[n++] = i;
    }
    sort_pe = pe;
    qsort(order, n, sizeof *order, by_cpu_start);
    for (uint32_t k = 1; k < n; k++)
        if (pe->op_rank[order[k]] == pe->op_rank[order[k - 1]] &&
            pe->p->ops[order[k]].cpu == pe->p->ops[order[k - 1]].cpu)
            w->cpu_prev[order[k]] = order[k - 1];
    free(order);
    int S = pe->st.n_steps;
    w->before = noc_xcalloc((size_t)S + 1, sizeof *w->before, "critical chain");
    uint32_t *last = noc_xcalloc((size_t)S + 1, sizeof *last, "critical chain");
    for (int k = 0; k <= S; k++)
        last[k] = NOC_PE_NONE;
    for (uint32_t i = 0; i < N; i++) {
        int k = pe->p->ops[i].step;
        if (k < 0 || k >= S || pe->st.op_end[i] == NOC_NEVER)
            continue;
        if (last[k] == NOC_PE_NONE || pe->st.op_end[i] > pe->st.op_end[last[k]])
            last[k] = i;
    }
    uint32_t best = NOC_PE_NONE;
    for (int k = 0; k < S; k++) {
        w->before[k] = best;
        if (last[k] != NOC_PE_NONE && (best == NOC_PE_NONE || pe->st.op_end[last[k]] > pe->st.op_end[best]))
            best = last[k];
    }
    free(last);
}

static noc_chain_elem_t *push(walk_t *w, int kind, uint32_t op, uint64_t start, uint64_t end)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->e = noc_xrealloc(w->e, (size_t)w->cap * sizeof *w->e, "critical chain");
    }
    noc_chain_elem_t *e = &w->e[w->n++];
    *e = (noc_chain_elem_t){ start, end, op, -1, w->pe->p->ops[op].step, (uint8_t)kind, NOC_WHY_START, 0 };
    return e;
}

/* The message whose arrival completed receive rv (it waited for one): its
 * own, or, if that arrived earlier and was held for pair order, the
 * earlier message of the pair that arrived in the cycle rv completed. */
static uint32_t releasing_message(const noc_pe_t *pe, uint32_t rv, int *held)
{
    uint32_t m = (uint32_t)pe->recv_msg[rv];
    uint64_t t = pe->st.op_end[rv];
    *held = 0;
    if (pe->msg_arrived[m] == t)
        return m;
    uint32_t best = m;
    for (uint32_t i = 0; i < pe->st.ops; i++)
        if (pe->p->ops[i].kind == NOC_OP_SEND && pe->pair_of[i] == pe->pair_of[m] &&
            pe->msg_seq[i] < pe->msg_seq[m] && pe->msg_got[i] == pe->p->ops[i].words && pe->msg_arrived[i] == t &&
            (best == m || pe->msg_seq[i] > pe->msg_seq[best]))
            best = i;
    *held = best != m;
    return best;
}

/* What released op (started in cycle t > 0) last: its dependency, the
 * barrier of its step, or the op before it on its CPU; the cycle in *when
 * (NOC_NEVER: nothing). *kind: 0 dependency (*dep_start 1 for irequires),
 * 1 barrier, 2 processor. */
static uint32_t released_by(const walk_t *w, uint32_t op, uint64_t *when, int *kind, int *dep_start)
{
    const noc_pe_t *pe = w->pe;
    const noc_op_t *o = &pe->p->ops[op];
    uint32_t best = NOC_PE_NONE;
    *when = NOC_NEVER;
    *kind = 0;
    *dep_start = 0;
    for (uint32_t k = 0; k < o->n_deps; k++) {
        const noc_dep_t *d = &pe->p->deps[o->dep_start + k];
        uint64_t t = d->start ? pe->st.op_start[d->op] : pe->st.op_end[d->op];
        if (t != NOC_NEVER && (*when == NOC_NEVER || t > *when)) {
            best = d->op;
            *when = t;
            *dep_start = d->start;
        }
    }
    if (pe->sync && o->step > 0 && o->step < pe->st.n_steps && pe->step_open[o->step] != NOC_NEVER &&
        w->before[o->step] != NOC_PE_NONE && (*when == NOC_NEVER || pe->step_open[o->step] >= *when)) {
        /* (a tie goes to the barrier: the op could not have started before it) */
        best = w->before[o->step];
        *when = pe->step_open[o->step];
        *kind = 1;
    }
    uint32_t prev = w->cpu_prev[op];
    if (prev != NOC_PE_NONE && pe->st.op_end[prev] != NOC_NEVER &&
        (*when == NOC_NEVER || pe->st.op_end[prev] > *when)) {
        best = prev;
        *when = pe->st.op_end[prev];
        *kind = 2;
    }
    return best;
}

/* Op's end, from its own element: the op to go on with (its start: *at_start
 * = 1; a send's end for a network element: 0). */
static uint32_t explain_end(walk_t *w, uint32_t op, int *at_start)
{
    const noc_pe_t *pe = w->pe;
    const noc_op_t *o = &pe->p->ops[op];
    uint64_t s = pe->st.op_start[op], e = pe->st.op_end[op];
    *at_start = 1;
    if (o->kind == NOC_OP_SEND) {
        push(w, NOC_CHAIN_SEND, op, s, e);
    } else if (o->kind == NOC_OP_RECV && pe->recv_msg[op] >= 0 && e > s) {
        int held;
        uint32_t m = releasing_message(pe, op, &held);
        noc_chain_elem_t *x = push(w, NOC_CHAIN_NETWORK, m, pe->st.op_end[m], e);
        x->recv = (int32_t)op;
        x->held = (uint8_t)held;
        x->why = NOC_WHY_INJECTED;
        *at_start = 0;
        return m;
    } else {
        push(w, o->kind == NOC_OP_RECV ? NOC_CHAIN_RECV : NOC_CHAIN_COMPUTE, op, s, e);
    }
    return op;
}

/* Op's start (its element is the last pushed): the op to go on with, and
 * whether at its start (*at_start); NOC_PE_NONE when the chain is done. */
static uint32_t explain_start(walk_t *w, uint32_t op, int *at_start)
{
    const noc_pe_t *pe = w->pe;
    uint64_t t = pe->st.op_start[op], when;
    noc_chain_elem_t *mine = &w->e[w->n - 1];
    *at_start = 0;
    if (t == 0)
        return NOC_PE_NONE; /* (its why: start) */
    int kind, dep_start;
    uint32_t by = released_by(w, op, &when, &kind, &dep_start);
    if (by == NOC_PE_NONE || when > t) { /* nothing recorded released it: it waited from cycle 0 */
        mine->why = NOC_WHY_TURN;
        push(w, NOC_CHAIN_START, op, 0, t);
        return NOC_PE_NONE;
    }
    static const uint8_t why[3] = { NOC_WHY_DEPENDENCY, NOC_WHY_BARRIER, NOC_WHY_PROCESSOR };
    uint8_t reason = kind == 0 && dep_start ? NOC_WHY_DEP_START : why[kind];
    if (when < t) { /* released earlier: it started at its PE's next turn */
        mine->why = NOC_WHY_TURN;
        mine = push(w, NOC_CHAIN_START, op, when, t);
    }
    mine->why = reason;
    if (kind == 1) { /* the barrier, from the end of the op that completed the steps before */
        noc_chain_elem_t *b = push(w, NOC_CHAIN_BARRIER, by, pe->st.op_end[by], when);
        b->step = pe->p->ops[op].step;
        b->why = NOC_WHY_STEP_DONE;
        return by;
    }
    *at_start = kind == 0 && dep_start;
    return by;
}

noc_chain_elem_t *noc_pe_critical_chain(const noc_pe_t *pe, int *n)
{
    *n = 0;
    int64_t last = -1;
    for (uint32_t i = 0; i < pe->st.ops; i++)
        if (pe->st.op_end[i] != NOC_NEVER && (last < 0 || pe->st.op_end[i] > pe->st.op_end[last]))
            last = i;
    if (last < 0)
        return NULL;
    walk_t w = { pe, NULL, NULL, NULL, 0, 0 };
    walk_tables(&w);
    /* every move goes back in time or to an earlier op of the same cycle:
     * the bound only stops a walk that would loop on an engine bug */
    uint64_t guard = 4 * pe->st.ops + (uint64_t)pe->st.n_steps + 16;
    uint32_t op = (uint32_t)last;
    int at_start = 0;
    while (op != NOC_PE_NONE && guard-- > 0) {
        if (!at_start) {
            op = explain_end(&w, op, &at_start);
            if (!at_start)
                continue; /* a network element: on with its send's end */
        } else { /* reached at its start (an irequires): its start, no time */
            push(&w, NOC_CHAIN_START, op, pe->st.op_start[op], pe->st.op_start[op]);
        }
        op = explain_start(&w, op, &at_start);
    }
    free(w.cpu_prev);
    free(w.before);
    for (int i = 0, j = w.n - 1; i < j; i++, j--) { /* first element first */
        noc_chain_elem_t x = w.e[i];
        w.e[i] = w.e[j];
        w.e[j] = x;
    }
    *n = w.n;
    return w.e;
}
