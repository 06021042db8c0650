/* pe_extend.c: a running program grows (pe.h: noc_pe_append_step,
 * noc_pe_append_memory, noc_pe_append_op), the SystemC wrapper's way
 * (docs/systemc.md). Ops are appended in place and numbered after every op
 * so far, so nothing is renumbered and nothing is copied but what
 * outgrows its room: the engine's own copy of the program grows
 * (program_grow.c), the per-op tables grow by doubling (pe_build.c's
 * noc_pe_grow_ops), an op joins its dependencies' lists of dependents and
 * its rank's counts, a rank's queues and memory move to arrays of their
 * own when they outgrow theirs, and a new step gets a row in the
 * statistics and in the simulator's per-step link tables ("no step" stays
 * the last). The network is not touched: the run goes on from the cycle it
 * reached. n ops appended cost O(n) in all (append_work counts it).
 * Nothing here runs in the cycle loop. */
#include "model/pe_internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* The engine's own program, copied from the borrowed one at the first
 * append. */
static noc_program_t *own_program(noc_pe_t *pe)
{
    if (!pe->own) {
        pe->own = noc_prog_grow_copy(pe->p);
        pe->p = pe->own;
        for (int k = 0; k < pe->st.n_steps; k++)
            pe->st.steps[k].name = pe->own->steps[k];
    }
    return pe->own;
}

static noc_pe_t *engine(struct noc_sim *s, char *err, size_t errlen)
{
    if (!s->pe)
        snprintf(err, errlen, "no program runs on this simulator");
    return s->pe;
}

/* ---- steps ---- */

/* Room for k + 1 steps and "no step" in the per-step arrays. */
static void step_room(noc_pe_t *pe, int k)
{
    if (k + 1 <= pe->cap_steps)
        return;
    int cap = 2 * pe->cap_steps > k + 1 ? 2 * pe->cap_steps : k + 1;
    if (cap < 8)
        cap = 8;
    size_t n = (size_t)cap + 1;
    pe->step_left = noc_xrealloc(pe->step_left, n * sizeof *pe->step_left, "PE engine");
    pe->step_active = noc_xrealloc(pe->step_active, n * sizeof *pe->step_active, "PE engine");
    pe->park_head = noc_xrealloc(pe->park_head, n * sizeof *pe->park_head, "PE engine");
    pe->step_open = noc_xrealloc(pe->step_open, n * sizeof *pe->step_open, "PE engine");
    pe->st.steps = noc_xrealloc(pe->st.steps, n * sizeof *pe->st.steps, "PE engine");
    pe->append_work += (uint64_t)pe->cap_steps;
    pe->cap_steps = cap;
}

/* The simulator's per-step link tables get a row for new step k, which
 * was "no step"'s: that row moves down one (tables too large are
 * dropped, as noc_pe_attach does not make them). */
static void step_rows(struct noc_sim *s, noc_pe_t *pe, int k)
{
    if (!s->step_flits)
        return;
    size_t C = (size_t)s->n_chan, rows = (size_t)k + 2, limit = noc_pe_step_cells_max();
    enum { T = 1 + NOC_WAIT_KINDS };
    uint32_t **tab[T] = { &s->step_flits };
    for (int t = 1; t < T; t++)
        tab[t] = &s->step_wait[t - 1];
    if (rows * C > limit) {
        for (int t = 0; t < T; t++) {
            free(*tab[t]);
            *tab[t] = NULL;
        }
        free(pe->msg_wait);
        pe->msg_wait = NULL;
        free(s->pkt_wait);
        s->pkt_wait = NULL;
        s->n_step_rows = 0;
        return;
    }
    if (rows > (size_t)pe->cap_step_rows) {
        size_t cap = 2 * (size_t)pe->cap_step_rows > rows ? 2 * (size_t)pe->cap_step_rows : rows;
        if (cap * C > limit)
            cap = limit / C;
        for (int t = 0; t < T; t++)
            *tab[t] = noc_xrealloc(*tab[t], cap * C * sizeof(uint32_t), "per-step link tables");
        pe->append_work += (uint64_t)pe->cap_step_rows * C;
        pe->cap_step_rows = (int)cap;
    }
    for (int t = 0; t < T; t++) {
        memcpy(*tab[t] + (size_t)(k + 1) * C, *tab[t] + (size_t)k * C, C * sizeof(uint32_t));
        memset(*tab[t] + (size_t)k * C, 0, C * sizeof(uint32_t));
    }
    pe->append_work += C;
    s->n_step_rows = (int)rows;
}

int noc_pe_append_step(struct noc_sim *s, const char *name, char *err, size_t errlen)
{
    noc_pe_t *pe = engine(s, err, errlen);
    if (!pe)
        return -1;
    int k = noc_prog_grow_step(own_program(pe), name, err, errlen);
    if (k < 0)
        return -1;
    step_room(pe, k);
    pe->st.steps[k + 1] = pe->st.steps[k]; /* "no step" stays the last */
    pe->st.steps[k] = (noc_pe_step_stats_t){ .name = pe->own->steps[k], .first_start = NOC_NEVER,
                                             .last_end = NOC_NEVER };
    for (int j = k; j <= k + 1; j++) {
        pe->step_left[j] = pe->step_active[j] = 0;
        pe->park_head[j] = -1;
        pe->step_open[j] = NOC_NEVER;
    }
    pe->st.n_steps = k + 1;
    if (pe->cur_step == k) { /* every step before it has passed: so has this one, while it has no ops */
        pe->step_open[k] = s->now;
        pe->cur_step = k + 1;
    }
    /* packets in flight of no step: "no step" is row k + 1 now */
    for (uint32_t i = 0; i < s->pkt_fresh; i++) /* free slots too: harmless (a new packet sets its step) */
        if (s->pkts[i].step == (uint16_t)k)
            s->pkts[i].step = (uint16_t)(k + 1);
    pe->append_work += s->pkt_fresh;
    step_rows(s, pe, k);
    return k;
}

/* ---- memory ---- */

int noc_pe_append_memory(struct noc_sim *s, int r, uint32_t addr, const int64_t *words, uint32_t n, char *err,
                         size_t errlen)
{
    noc_pe_t *pe = engine(s, err, errlen);
    if (!pe)
        return -1;
    noc_program_t *g = own_program(pe);
    if (r < 0 || r >= pe->n_ranks) {
        snprintf(err, errlen, "rank %d out of range [0, %d)", r, pe->n_ranks);
        return -1;
    }
    uint32_t size = g->ranks[r].mem_words;
    if (addr < size) {
        snprintf(err, errlen, "rank %d: word %u is in its memory already (%u words), and the run may have "
                 "used it", r, addr, size);
        return -1;
    }
    uint64_t end = (uint64_t)addr + n;
    if (noc_prog_grow_mem(g, r, end, err, errlen) != 0)
        return -1;
    rank_state_t *rs = &pe->rank[r];
    if (end > rs->mem_cap) {
        uint64_t cap = 2 * (uint64_t)rs->mem_cap > end ? 2 * (uint64_t)rs->mem_cap : end;
        if (cap < 64)
            cap = 64;
        int64_t *m = noc_xcalloc((size_t)cap, sizeof *m, "PE engine");
        memcpy(m, rs->mem, (size_t)size * sizeof *m);
        if (rs->mem_own)
            free(rs->mem);
        rs->mem = m;
        rs->mem_cap = (uint32_t)cap;
        rs->mem_own = 1;
        pe->append_work += size;
    }
    if (words)
        memcpy(rs->mem + addr, words, (size_t)n * sizeof *words);
    else
        memset(rs->mem + addr, 0, (size_t)n * sizeof *rs->mem);
    pe->append_work += n;
    return 0;
}

/* ---- ops ---- */

/* Under sync_steps, may an op of step k join now? Yes unless a later step
 * than k has had ops (its barrier opened, which an op of k would have
 * held back): the run's current step is k or before it, or every step
 * has passed and none after k had ops. *cur: the current step then. */
static int step_may_join(const noc_pe_t *pe, int k, int *cur)
{
    *cur = pe->cur_step;
    if (k < 0 || k >= pe->cur_step)
        return 1;
    if (pe->cur_step < pe->st.n_steps)
        return 0;
    for (int j = pe->st.n_steps - 1; j > k; j--) /* only when steps end before their ops do */
        if (pe->st.steps[j].ops > 0)
            return 0;
    *cur = k;
    return 1;
}

/* Can calc *o of rank r (dependencies met) be put on the processor as if
 * started in cycle at, the processor free since, under sync_steps in a
 * step open since (cur: the current step; a run of the recorded program
 * from cycle 0 would hold it at the barrier)? 0, or -1 with a message. */
static int can_prestart(const noc_pe_t *pe, int r, const noc_op_t *o, uint32_t pending, uint64_t at, uint64_t now,
                        int cur, char *err, size_t errlen)
{
    if (o->kind != NOC_OP_CALC || pending || at > now) {
        snprintf(err, errlen, "rank %d: an op cannot have started in cycle %llu: that needs a calc whose "
                 "dependencies are met, and a cycle already reached", r, (unsigned long long)at);
        return -1;
    }
    const rank_state_t *rs = &pe->rank[r];
    /* computations on one CPU run one after the other: its last one ended at free */
    const cpu_slot_t *c = o->cpu < rs->n_cpus ? &rs->cpu[o->cpu] : NULL;
    int busy = c && (c->op >= 0 || c->queued > 0 || c->free > at);
    int early = pe->sync && o->step >= 0 && (o->step > cur || at < pe->step_open[o->step]);
    if (busy || early) {
        snprintf(err, errlen, "rank %d: a calc from cycle %llu would %s", r, (unsigned long long)at,
                 busy ? "share the processor with another computation" : "start before its step's barrier");
        return -1;
    }
    return 0;
}

/* The refusals of an op: its fields, a send to itself, a step whose
 * barrier has passed, a start in the past that cannot be. *pending: its
 * dependencies not met yet; *cur: the current step after it joins. */
static int check_op(const struct noc_sim *s, const noc_pe_t *pe, int r, const noc_op_t *op, const noc_dep_t *deps,
                    uint32_t n_deps, uint64_t start_at, uint32_t *pending, int *cur, char *err, size_t errlen)
{
    if (noc_prog_grow_check(pe->p, r, op, deps, n_deps, err, errlen) != 0)
        return -1;
    if (op->kind == NOC_OP_SEND && op->peer == r) {
        snprintf(err, errlen, "rank %d: a send to itself; a PE does not use the network for that", r);
        return -1;
    }
    if (!step_may_join(pe, op->step, cur) && pe->sync) {
        snprintf(err, errlen, "rank %d: a new op of step '%s', whose barrier the run has passed", r,
                 pe->p->steps[op->step]);
        return -1;
    }
    if (!pe->sync)
        *cur = pe->cur_step;
    *pending = 0;
    for (uint32_t k = 0; k < n_deps; k++) {
        uint8_t st = pe->state[deps[k].op];
        *pending += !(deps[k].start ? st >= OP_STARTED : st == OP_DONE);
    }
    if (start_at != NOC_NEVER)
        return can_prestart(pe, r, op, *pending, start_at, s->now, *cur, err, errlen);
    return 0;
}

/* Room for every op of rank r in its queues: arrays of its own once it
 * outgrows them (the live entries keep their places). */
static void queue_room(noc_pe_t *pe, rank_state_t *rs, uint32_t need)
{
    if (need <= rs->q_cap)
        return;
    uint64_t cap = 2 * (uint64_t)rs->q_cap > need ? 2 * (uint64_t)rs->q_cap : need;
    if (cap < 16)
        cap = 16;
    uint32_t *q = noc_xcalloc(2 * (size_t)cap, sizeof *q, "PE engine");
    memcpy(q, rs->ready.slot, rs->ready.tail * sizeof *q);
    memcpy(q + cap, rs->compute.slot, rs->compute.tail * sizeof *q);
    if (rs->q_own)
        free(rs->ready.slot);
    rs->ready.slot = q;
    rs->compute.slot = q + cap;
    rs->q_cap = (uint32_t)cap;
    rs->q_own = 1;
    pe->append_work += rs->ready.tail + rs->compute.tail;
}

/* Room for `need` words of messages in tx and rx. */
static void word_room(noc_pe_t *pe, uint64_t need)
{
    if (need <= pe->cap_words)
        return;
    uint64_t cap = 2 * pe->cap_words > need ? 2 * pe->cap_words : need;
    if (cap < 64)
        cap = 64;
    size_t was = ((size_t)pe->cap_words + 1) * sizeof(int64_t), now = ((size_t)cap + 1) * sizeof(int64_t);
    pe->tx = noc_xrealloc(pe->tx, now, "PE engine");
    pe->rx = noc_xrealloc(pe->rx, now, "PE engine");
    memset((char *)pe->tx + was, 0, now - was);
    memset((char *)pe->rx + was, 0, now - was);
    pe->append_work += pe->st.words;
    pe->cap_words = cap;
}

int64_t noc_pe_append_op(struct noc_sim *s, int r, const noc_op_t *op, const noc_dep_t *deps, uint32_t n_deps,
                         uint64_t start_at, char *err, size_t errlen)
{
    noc_pe_t *pe = engine(s, err, errlen);
    if (!pe)
        return -1;
    noc_program_t *g = own_program(pe);
    uint32_t pending;
    int cur;
    if (check_op(s, pe, r, op, deps, n_deps, start_at, &pending, &cur, err, errlen) != 0)
        return -1;
    pe->cur_step = cur;
    noc_pe_cpu_room(pe, r, op->cpu);
    uint32_t i = noc_prog_grow_op(g, r, op, deps, n_deps);
    const noc_op_t *o = &g->ops[i];
    if (i + 1 > pe->cap_ops)
        pe->append_work += pe->cap_ops;
    noc_pe_grow_ops(pe, i + 1);
    pe->pending[i] = pending;
    pe->state[i] = OP_WAIT;
    pe->op_rank[i] = (uint32_t)r;
    pe->rdep_head[i] = pe->rdep_tail[i] = NOC_PE_NONE;
    pe->recv_msg[i] = -1;
    pe->st.op_start[i] = pe->st.op_end[i] = NOC_NEVER;
    pe->msg_off[i] = pe->st.words;
    for (uint32_t k = 0; k < n_deps; k++)
        noc_pe_add_dependent(pe, deps[k].op, i, deps[k].start);
    if (o->kind == NOC_OP_SEND) {
        word_room(pe, pe->st.words + o->words);
        pe->st.words += o->words;
        pe->st.messages++;
        pe->messages_left++;
        pe->pair_of[i] = noc_pe_order_pair(pe, r, o->peer);
    } else if (o->kind == NOC_OP_RECV && o->peer != NOC_PROG_ANY) {
        pe->pair_of[i] = noc_pe_order_pair(pe, o->peer, r); /* (its list: pe_match.c) */
    }
    rank_state_t *rs = &pe->rank[r];
    queue_room(pe, rs, g->ranks[r].n_ops);
    rs->ops_left++;
    if (o->step >= 0)
        pe->step_left[o->step]++;
    pe->st.ops++;
    pe->append_work += 1 + (uint64_t)n_deps;
    if (start_at != NOC_NEVER)
        noc_pe_prestart(s, i, start_at);
    else if (pending == 0)
        noc_pe_make_ready(s, i);
    return i;
}

uint64_t noc_pe_append_work(const noc_pe_t *pe) { return pe->append_work; }
