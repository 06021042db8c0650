/* pe_build.c: building the PE program engine (pe.h) for a program on a
 * simulator: the refusals (synthetic traffic, too many ranks, a send to
 * itself, a program the memory cannot hold, estimated by pe_bytes), then
 * every table the run uses, sized from the program up front so that the
 * run allocates nothing (memories, dependents, queues, messages, steps,
 * per-step link tables), and taking it down again. The run itself is
 * pe.c; what is read after it, pe_report.c. */
#include "model/pe_internal.h"
#include "util/meminfo.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

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

/* The refusals before anything is built: synthetic traffic on s, more
 * ranks than nodes, a send to itself, a program larger than the memory. */
static int check_attach(const struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen)
{
    if (s->traffic.ops) {
        snprintf(err, errlen, "a program needs a simulator without synthetic traffic");
        return -1;
    }
    if (p->n_ranks > s->n_nodes) {
        snprintf(err, errlen, "the program has %d ranks, but %s has only %d nodes (rank r runs on node r)",
                 p->n_ranks, s->graph->name, s->n_nodes);
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
        char what[NOC_GRAPH_NAME_MAX + 160];
        snprintf(what, sizeof what, "the program engine for %u operations of %d ranks on %s", p->n_ops,
                 p->n_ranks, s->graph->name);
        if (noc_mem_check(pe_bytes(s, p), what, "make the messages or the ranks' memory smaller (their words are "
                          "kept to check the result), or memory_check=0 to try anyway", err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* The ranks' memories, one array, with their init values. */
static void build_memories(noc_pe_t *pe, const noc_program_t *p)
{
    pe->mem_off = noc_xcalloc((size_t)p->n_ranks + 1, sizeof(uint64_t), "PE engine");
    for (int r = 0; r < p->n_ranks; r++)
        pe->mem_off[r + 1] = pe->mem_off[r] + p->ranks[r].mem_words;
    pe->mem = noc_xcalloc((size_t)pe->mem_off[p->n_ranks] + 1, sizeof(int64_t), "PE engine");
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t k = 0; k < p->ranks[r].n_init; k++) {
            const noc_memval_t *v = &p->init[p->ranks[r].init_start + k];
            pe->mem[pe->mem_off[r] + v->addr] = v->value;
        }
}

/* Per op: its pending dependencies, state and rank; and the reverse of
 * the dependency lists (every op's dependents, in rdep[] from
 * rdep_start[op]), in the order of the dependent ops. */
static void build_dependents(noc_pe_t *pe, const noc_program_t *p)
{
    uint32_t N = p->n_ops;
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
}

/* The queues and send lists of every rank, and the messages: each send
 * op's words (sent and received, for the data check) and the links of the
 * arrived and posted lists. */
static void build_queues_and_messages(noc_pe_t *pe, const noc_program_t *p)
{
    uint32_t N = p->n_ops;
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
}

/* The steps: ops left per step, the barrier's parking lists (sync_steps),
 * the first step with ops, and the statistics per step and per op. */
static void build_steps(noc_pe_t *pe, const noc_program_t *p, int sync)
{
    uint32_t N = p->n_ops;
    pe->sync = sync;
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
}

/* The simulator's per-step link tables, unless they would be large. */
static void build_step_links(struct noc_sim *s, const noc_program_t *p)
{
    size_t cells = ((size_t)p->n_steps + 1) * (size_t)s->n_chan;
    if (cells <= ((size_t)1 << 24)) {
        s->n_step_rows = p->n_steps + 1;
        s->step_flits = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
        s->step_waits = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
        s->step_stalls = noc_xcalloc(cells, sizeof(uint32_t), "per-step link tables");
    }
}

noc_pe_t *noc_pe_build(const struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen)
{
    if (check_attach(s, p, err, errlen) != 0)
        return NULL;
    noc_pe_t *pe = noc_xcalloc(1, sizeof *pe, "PE engine");
    pe->p = p;
    pe->n_ranks = p->n_ranks;
    pe->compute_cycles = s->cfg.compute_cycles;
    pe->packet_size = (int)s->cfg.packet_size;
    build_memories(pe, p);
    build_dependents(pe, p);
    build_queues_and_messages(pe, p);
    build_steps(pe, p, s->cfg.sync_steps != 0);
    return pe;
}

int noc_pe_attach(struct noc_sim *s, const noc_program_t *p, char *err, size_t errlen)
{
    noc_pe_t *pe = noc_pe_build(s, p, err, errlen);
    if (!pe)
        return -1;
    build_step_links(s, p);
    s->pe = pe;
    noc_pe_start(s);
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
