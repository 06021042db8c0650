/* pe_extend.c: a running program grows (noc_pe_extend, pe.h). The engine
 * is built again for the larger program and every part of the running
 * engine's state is carried over to the ops' new numbers: memories, per-op
 * states and statistics, queues and lists, message words, steps; the
 * packets in flight are renumbered in the simulator's pool, and the
 * per-step link tables grow. The network is not touched, so the run goes
 * on from the cycle it reached instead of being simulated again from cycle
 * 0 (the SystemC wrapper's use, docs/systemc.md). Nothing here runs in the
 * cycle loop. */
#include "model/pe_internal.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* Old op i and new op j are the same op: fields, rank and dependencies. */
static int same_op(const noc_program_t *op, uint32_t i, const noc_pe_t *o, const noc_program_t *np,
                   uint32_t j, const noc_pe_t *n, const uint32_t *map, const int32_t *smap)
{
    const noc_op_t *a = &op->ops[i], *b = &np->ops[j];
    if (a->kind != b->kind || a->peer != b->peer || a->tag != b->tag || a->words != b->words ||
        a->addr != b->addr || a->src != b->src || a->cost != b->cost ||
        (a->step < 0 ? -1 : smap[a->step]) != b->step ||
        a->n_deps != b->n_deps || o->op_rank[i] != n->op_rank[j])
        return 0;
    for (uint32_t k = 0; k < a->n_deps; k++) {
        const noc_dep_t *da = &op->deps[a->dep_start + k], *db = &np->deps[b->dep_start + k];
        if (map[da->op] != db->op || da->start != db->start)
            return 0;
    }
    return 1;
}

/* Where the running program's steps are in np (found by name, in the same
 * order: new steps may come between them): smap[k] for old step k. */
static int map_steps(const noc_program_t *op, const noc_program_t *np, int32_t *smap, char *err, size_t errlen)
{
    int next = 0;
    for (int k = 0; k < op->n_steps; k++) {
        int j = next;
        while (j < np->n_steps && strcmp(np->steps[j], op->steps[k]) != 0)
            j++;
        if (j == np->n_steps) {
            snprintf(err, errlen, "step '%s' of the running program is not a step of the new one after '%s'",
                     op->steps[k], k ? op->steps[k - 1] : "the start");
            return -1;
        }
        smap[k] = j;
        next = j + 1;
    }
    return 0;
}

/* The step the run is in, in np's numbers: old steps before it have
 * passed their barrier, and so have new steps before it. */
static int mapped_cur_step(const noc_pe_t *o, const int32_t *smap)
{
    int n_old = o->p->n_steps;
    if (o->cur_step < n_old)
        return smap[o->cur_step];
    return n_old ? smap[n_old - 1] + 1 : 0;
}

/* The refusals: another shape of program, an old op missing or changed,
 * a new op in a step whose barrier has passed, less memory. inv gets the
 * old index of every new op that was in the old program (NONE else). */
static int check_extend(const noc_pe_t *o, const noc_program_t *np, const noc_pe_t *n, const uint32_t *map,
                        const int32_t *smap, uint32_t *inv, char *err, size_t errlen)
{
    const noc_program_t *op = o->p;
    if (np->n_ranks != op->n_ranks) {
        snprintf(err, errlen, "the new program has %d ranks, the running one %d", np->n_ranks, op->n_ranks);
        return -1;
    }
    for (int r = 0; r < np->n_ranks; r++)
        if (np->ranks[r].mem_words < op->ranks[r].mem_words) {
            snprintf(err, errlen, "rank %d: the new program has less memory (%u words) than the running one (%u)",
                     r, np->ranks[r].mem_words, op->ranks[r].mem_words);
            return -1;
        }
    for (uint32_t j = 0; j < np->n_ops; j++)
        inv[j] = NONE;
    for (uint32_t i = 0; i < op->n_ops; i++) {
        uint32_t j = map[i];
        if (j >= np->n_ops || inv[j] != NONE || !same_op(op, i, o, np, j, n, map, smap)) {
            snprintf(err, errlen, "op %u of the running program is not op %u of the new one", i, j);
            return -1;
        }
        inv[j] = i;
    }
    int cur = mapped_cur_step(o, smap);
    if (o->sync)
        for (uint32_t j = 0; j < np->n_ops; j++)
            if (inv[j] == NONE && np->ops[j].step >= 0 && np->ops[j].step < cur) {
                snprintf(err, errlen, "rank %u: a new op of step '%s', whose barrier the run has passed",
                         n->op_rank[j], np->steps[np->ops[j].step]);
                return -1;
            }
    return 0;
}

static int32_t tr(const uint32_t *map, int32_t i)
{
    return i < 0 ? -1 : (int32_t)map[i];
}

/* The live entries of one of rank r's queues, renumbered, at the start of
 * its region in the new engine. */
static void move_queue(const noc_pe_t *o, noc_pe_t *n, int r, int which, const uint32_t *map)
{
    const queue_t *qo = which ? &o->rank[r].compute : &o->rank[r].ready;
    queue_t *qn = which ? &n->rank[r].compute : &n->rank[r].ready;
    const uint32_t *from = &o->qslot[2 * (size_t)o->p->ranks[r].op_start + (size_t)which * o->p->ranks[r].n_ops];
    uint32_t *to = &n->qslot[2 * (size_t)n->p->ranks[r].op_start + (size_t)which * n->p->ranks[r].n_ops];
    qn->head = qn->tail = 0;
    for (uint32_t k = qo->head; k < qo->tail; k++)
        to[qn->tail++] = map[from[k]];
}

/* Memories, per-op state, messages' words. */
static void move_ops(const noc_pe_t *o, noc_pe_t *n, const uint32_t *map)
{
    const noc_program_t *op = o->p;
    for (int r = 0; r < op->n_ranks; r++)
        memcpy(&n->mem[n->mem_off[r]], &o->mem[o->mem_off[r]], op->ranks[r].mem_words * sizeof(int64_t));
    for (uint32_t i = 0; i < op->n_ops; i++) {
        uint32_t j = map[i];
        n->pending[j] = o->pending[i];
        n->state[j] = o->state[i];
        n->send_next[j] = tr(map, o->send_next[i]);
        n->send_off[j] = o->send_off[i];
        n->send_port[j] = o->send_port[i];
        n->msg_sent[j] = o->msg_sent[i];
        n->msg_got[j] = o->msg_got[i];
        n->msg_next[j] = tr(map, o->msg_next[i]);
        n->recv_next[j] = tr(map, o->recv_next[i]);
        n->recv_msg[j] = tr(map, o->recv_msg[i]);
        n->park_next[j] = tr(map, o->park_next[i]);
        n->st.op_start[j] = o->st.op_start[i];
        n->st.op_end[j] = o->st.op_end[i];
        if (op->ops[i].kind == NOC_OP_SEND) {
            memcpy(&n->tx[n->msg_off[j]], &o->tx[o->msg_off[i]], op->ops[i].words * sizeof(int64_t));
            memcpy(&n->rx[n->msg_off[j]], &o->rx[o->msg_off[i]], op->ops[i].words * sizeof(int64_t));
        }
    }
}

/* The ranks' queues and lists, the counts, the steps. */
static void move_ranks_and_steps(const noc_pe_t *o, noc_pe_t *n, const uint32_t *map, const int32_t *smap,
                                 const uint32_t *inv)
{
    const noc_program_t *op = o->p, *np = n->p;
    for (int r = 0; r < op->n_ranks; r++) {
        const rank_state_t *a = &o->rank[r];
        rank_state_t *b = &n->rank[r];
        move_queue(o, n, r, 0, map);
        move_queue(o, n, r, 1, map);
        b->send_head = tr(map, a->send_head);
        b->send_tail = tr(map, a->send_tail);
        b->cpu_op = tr(map, a->cpu_op);
        b->cpu_end = a->cpu_end;
        b->posted_head = tr(map, a->posted_head);
        b->posted_tail = tr(map, a->posted_tail);
        b->arrived_head = tr(map, a->arrived_head);
        b->arrived_tail = tr(map, a->arrived_tail);
        b->ops_left = a->ops_left + (np->ranks[r].n_ops - op->ranks[r].n_ops);
        b->last_op = tr(map, a->last_op);
        b->sends_out = a->sends_out;
        b->recvs_open = a->recvs_open;
    }
    n->messages_left = o->messages_left + (n->st.messages - o->st.messages);
    memcpy(n->error, o->error, sizeof n->error);
    n->last_event = o->last_event;
    n->stalled = o->stalled;
    n->st.ops_done = o->st.ops_done;
    n->st.cycles = o->st.cycles;
    /* steps: the old ones at their new index, "no step" stays the last */
    for (int k = 0; k <= op->n_steps; k++) {
        int kn = k < op->n_steps ? smap[k] : np->n_steps;
        const char *name = n->st.steps[kn].name;
        n->st.steps[kn] = o->st.steps[k];
        n->st.steps[kn].name = name;
    }
    for (int k = 0; k <= np->n_steps; k++)
        n->step_left[k] = 0;
    for (int k = 0; k < op->n_steps; k++) {
        n->step_active[smap[k]] = o->step_active[k];
        n->park_head[smap[k]] = tr(map, o->park_head[k]);
        n->step_left[smap[k]] = o->step_left[k];
    }
    for (uint32_t j = 0; j < np->n_ops; j++)
        if (inv[j] == NONE && np->ops[j].step >= 0)
            n->step_left[np->ops[j].step]++;
    n->cur_step = mapped_cur_step(o, smap);
}

/* A new op's dependencies on old ops that have already started or
 * completed are met. */
static void count_pending(noc_pe_t *n, const noc_pe_t *o, const uint32_t *inv)
{
    const noc_program_t *np = n->p;
    for (uint32_t j = 0; j < np->n_ops; j++) {
        if (inv[j] != NONE)
            continue;
        for (uint32_t k = 0; k < np->ops[j].n_deps; k++) {
            const noc_dep_t *d = &np->deps[np->ops[j].dep_start + k];
            uint32_t i = inv[d->op];
            if (i != NONE && (d->start ? o->state[i] >= OP_STARTED : o->state[i] == OP_DONE))
                n->pending[j]--;
        }
    }
}

/* The simulator's side: packets in flight name their message by its send
 * op and their step by its index; the per-step link tables get rows for
 * the new steps, "no step" staying the last. */
static void move_sim(struct noc_sim *s, const noc_program_t *op, const noc_program_t *np, const uint32_t *map,
                     const int32_t *smap)
{
    for (uint32_t k = 0; k < s->pkt_cap; k++) { /* free slots too: harmless */
        noc_packet_t *p = &s->pkts[k];
        if (p->msg < op->n_ops)
            p->msg = map[p->msg];
        if (p->step < (uint16_t)op->n_steps)
            p->step = (uint16_t)smap[p->step];
        else if (p->step == (uint16_t)op->n_steps)
            p->step = (uint16_t)np->n_steps;
    }
    if (np->n_steps == op->n_steps || !s->step_flits)
        return;
    size_t C = (size_t)s->n_chan, cells = ((size_t)np->n_steps + 1) * C;
    uint32_t **tab[3] = { &s->step_flits, &s->step_waits, &s->step_stalls };
    for (int t = 0; t < 3; t++) {
        uint32_t *old = *tab[t];
        uint32_t *nw = cells <= ((size_t)1 << 24) ? noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables")
                                                 : NULL;
        for (int k = 0; nw && k <= op->n_steps; k++)
            memcpy(nw + (size_t)(k < op->n_steps ? smap[k] : np->n_steps) * C, old + (size_t)k * C,
                   C * sizeof(uint32_t));
        free(old);
        *tab[t] = nw;
    }
    s->n_step_rows = s->step_flits ? np->n_steps + 1 : 0;
}

/* The calcs to start in the past: each possible, and no two on one
 * processor. */
static int check_prestarts(const noc_pe_t *n, const uint32_t *inv, const uint64_t *start_at, uint64_t now,
                           char *err, size_t errlen)
{
    const noc_program_t *np = n->p;
    int32_t *seen = noc_xcalloc((size_t)np->n_ranks, sizeof(int32_t), "PE engine");
    int rc = 0;
    for (uint32_t j = 0; rc == 0 && j < np->n_ops; j++) {
        if (start_at[j] == NOC_NEVER || inv[j] != NONE)
            continue;
        rc = noc_pe_can_prestart(n, j, start_at[j], now, err, errlen);
        if (rc == 0 && seen[n->op_rank[j]]++) {
            snprintf(err, errlen, "rank %u: two calcs started in the past on one processor", n->op_rank[j]);
            rc = -1;
        }
    }
    free(seen);
    return rc;
}

int noc_pe_extend(struct noc_sim *s, const noc_program_t *np, const uint32_t *map, const uint64_t *start_at,
                  char *err, size_t errlen)
{
    noc_pe_t *o = s->pe;
    if (!o) {
        snprintf(err, errlen, "no program runs on this simulator");
        return -1;
    }
    noc_pe_t *n = noc_pe_build(s, np, err, errlen);
    if (!n)
        return -1;
    uint32_t *inv = noc_xcalloc((size_t)np->n_ops + 1, sizeof(uint32_t), "PE engine");
    int32_t *smap = noc_xcalloc((size_t)o->p->n_steps + 1, sizeof(int32_t), "PE engine");
    if (map_steps(o->p, np, smap, err, errlen) != 0 || check_extend(o, np, n, map, smap, inv, err, errlen) != 0)
        goto refused;
    move_ops(o, n, map);
    move_ranks_and_steps(o, n, map, smap, inv);
    count_pending(n, o, inv);
    if (start_at && check_prestarts(n, inv, start_at, s->now, err, errlen) != 0)
        goto refused;
    move_sim(s, o->p, np, map, smap);
    free(smap);
    s->pe = n;
    noc_pe_destroy(o);
    /* the calcs that started in the past; the other new ops whose
     * dependencies are met join their ranks' queues */
    for (uint32_t j = 0; j < np->n_ops; j++)
        if (inv[j] == NONE && start_at && start_at[j] != NOC_NEVER)
            noc_pe_prestart(s, j, start_at[j]);
    for (uint32_t j = 0; j < np->n_ops; j++)
        if (inv[j] == NONE && n->pending[j] == 0 && n->state[j] == OP_WAIT)
            noc_pe_make_ready(s, j);
    free(inv);
    return 0;
refused:
    free(smap);
    free(inv);
    noc_pe_destroy(n);
    return -1;
}
